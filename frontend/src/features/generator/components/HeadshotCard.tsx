import { Download, Heart, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/Spinner';
import { cx } from '../../../lib/cx';
import type { Headshot } from '../../../lib/api/get-generation';
import { captionOf } from '../utils/content';
import { LikenessBadge } from '../../../components/ui/LikenessBadge';
import { REGENERATE_LABEL } from '../../../lib/api/regenerate-headshot';

/** Props of {@link HeadshotCard}. */
export interface HeadshotCardProps {
  headshot: Headshot;
  /** 1-based position, for accessible names ('Download headshot 3'). */
  position: number;
  isFavorite: boolean;
  onToggleFavorite: () => void;
  /** Saves the full-size JPEG as `headshot-{id}.jpg`; resolves when the download has started. */
  onDownload: () => Promise<void>;
  /** "Regenerate (1 credit)": one more headshot like this one. Absent: no button. */
  onRegenerate?: () => void;
  /** A regeneration of this headshot is starting. */
  regenerating?: boolean;
}

/** The round buttons over the image. Colours and visibility are added per button, so no two classes compete. */
const overlayButton =
  'flex size-10 items-center justify-center rounded-full bg-white/95 shadow-md ring-1 ring-slate-900/5 ' +
  'backdrop-blur transition hover:bg-white focus-visible:outline-2 focus-visible:outline-offset-2 ' +
  'focus-visible:outline-brand-500 focus-visible:ring-2 focus-visible:ring-white disabled:cursor-wait';
/** Hidden until the card is hovered or holds keyboard focus; always shown on screens that cannot hover. */
const revealed =
  'opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100 ' +
  '[@media(hover:none)]:opacity-100';
const neutral = 'text-slate-700 hover:text-slate-900';

/**
 * One generated headshot (docs/product-spec.md §2 step 4): the image, a caption with its style and background (hyphens as spaces),
 * and a favorite toggle and a download button that appear on hover AND on keyboard focus (and stay visible on
 * touch screens, which cannot hover). A favorite keeps its filled heart visible.
 */
export function HeadshotCard({
  headshot,
  position,
  isFavorite,
  onToggleFavorite,
  onDownload,
  onRegenerate,
  regenerating = false,
}: HeadshotCardProps) {
  const [downloading, setDownloading] = useState(false);
  const style = captionOf(headshot.style);
  const background = captionOf(headshot.background);

  const download = async () => {
    setDownloading(true);
    try {
      await onDownload();
    } finally {
      setDownloading(false);
    }
  };

  return (
    <li data-testid="headshot" data-headshot-id={headshot.id}>
      <figure className="group overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200 transition hover:shadow-lg focus-within:shadow-lg">
        <div className="relative aspect-square overflow-hidden bg-slate-100">
          <img
            src={headshot.thumbnailUrl}
            srcSet={`${headshot.thumbnailUrl} 384w, ${headshot.imageUrl} 1024w`}
            sizes="(min-width: 1024px) 20rem, (min-width: 640px) 45vw, 50vw"
            alt={`Headshot ${position}: ${style} style, ${background} background`}
            width={1024}
            height={1024}
            className="size-full object-cover transition duration-500 group-hover:scale-[1.02] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
          />
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-0 bg-gradient-to-t from-slate-900/40 via-transparent to-transparent opacity-0 transition group-focus-within:opacity-100 group-hover:opacity-100 [@media(hover:none)]:opacity-100"
          />
          <div className="absolute inset-x-0 bottom-0 flex items-center justify-end gap-2 p-3">
            <button
              type="button"
              aria-pressed={isFavorite}
              aria-label={`Favorite headshot ${position}`}
              title={isFavorite ? 'Remove from favorites' : 'Add to favorites'}
              onClick={onToggleFavorite}
              className={cx(
                overlayButton,
                // A favorite keeps its filled heart visible.
                isFavorite ? 'text-rose-600 opacity-100 hover:text-rose-700' : cx(neutral, revealed),
              )}
            >
              <Heart aria-hidden="true" className={cx('size-5', isFavorite && 'fill-current')} />
            </button>
            <button
              type="button"
              aria-label={`Download headshot ${position}`}
              title="Download"
              onClick={() => void download()}
              disabled={downloading}
              aria-busy={downloading || undefined}
              className={cx(overlayButton, neutral, revealed)}
            >
              {downloading ? (
                <Spinner size="sm" label={null} />
              ) : (
                <Download aria-hidden="true" className="size-5" />
              )}
            </button>
          </div>
        </div>
        <figcaption className="flex flex-wrap items-center gap-1 px-2.5 py-3 text-xs font-medium sm:gap-1.5 sm:px-3.5">
          <span className="rounded-full bg-brand-50 px-2 py-1 sm:px-2.5 text-brand-700 ring-1 ring-brand-100">
            {style}
          </span>
          <span className="rounded-full bg-slate-100 px-2 py-1 sm:px-2.5 text-slate-700">{background}</span>
          <LikenessBadge likeness={headshot.likeness} />
          {onRegenerate && (
            <button
              type="button"
              onClick={onRegenerate}
              disabled={regenerating}
              aria-label={`${REGENERATE_LABEL}: headshot ${position}`}
              className="ml-auto inline-flex items-center gap-1 rounded-full px-2 py-1 font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 disabled:cursor-wait disabled:opacity-60"
            >
              <RefreshCw aria-hidden="true" className={cx('size-3.5', regenerating && 'animate-spin')} />
              {REGENERATE_LABEL}
            </button>
          )}
        </figcaption>
      </figure>
    </li>
  );
}

/** A headshot that is not saved yet: a shimmering tile in the grid. */
export function PendingHeadshot({ position }: { position: number }) {
  return (
    <li aria-hidden="true" data-testid="headshot-pending">
      <div className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="relative flex aspect-square items-center justify-center overflow-hidden bg-gradient-to-br from-slate-100 to-slate-200">
          <div className="absolute inset-0 animate-pulse bg-white/30 motion-reduce:animate-none" />
          <span className="relative text-sm font-medium text-slate-400">#{position}</span>
        </div>
        <div className="flex gap-1.5 px-3.5 py-3">
          <span className="h-6 w-20 rounded-full bg-slate-100" />
          <span className="h-6 w-14 rounded-full bg-slate-100" />
        </div>
      </div>
    </li>
  );
}
