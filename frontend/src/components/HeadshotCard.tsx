import { Download, Heart, RefreshCw, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Headshot } from '../lib/api/contracts';
import { REGENERATE_LABEL } from '../lib/api/regenerate-headshot';
import { cx } from '../lib/cx';
import { captionOf, describeHeadshot, formatCreatedAt } from '../lib/headshot-caption';
import { LikenessBadge } from './ui/LikenessBadge';
import { PreviewBadge } from './ui/PreviewBadge';
import { Spinner } from './ui/Spinner';

/**
 * Where a card is shown: `results`, the generator's grid (step 4: numbered, with "Regenerate (1 credit)"), or
 * `gallery`, the dashboard's grid (opens the full-size viewer, shows the date, can be deleted).
 */
export type HeadshotPlacement = 'results' | 'gallery';

/** Props of {@link HeadshotCard}. */
export interface HeadshotCardProps {
  headshot: Headshot;
  placement: HeadshotPlacement;
  /** 1-based place in a results grid, for the buttons' names ('Download headshot 3'). */
  position?: number;
  onToggleFavorite: (headshot: Headshot) => void;
  /** Saves the full-size JPEG; the card shows a spinner on its button until it resolves. */
  onDownload: (headshot: Headshot) => Promise<void>;
  /** Gallery: a click on the image opens the full-size view. */
  onOpen?: (headshot: Headshot) => void;
  /** Gallery: asks to delete it. */
  onDelete?: (headshot: Headshot) => void;
  /** Results: "Regenerate (1 credit)"; absent, no button. */
  onRegenerate?: (headshot: Headshot) => void;
  /** A regeneration of this headshot is starting. */
  regenerating?: boolean;
  /**
   * The id of the note saying why Regenerate is unavailable (under 1 credit): the button shows, disabled, and names
   * that note as its description.
   */
  regenerateUnavailableId?: string;
}

/** The accessible names of a card's buttons: numbered in the results grid, plain in the gallery. */
function actionNames(placement: HeadshotPlacement, position: number, isFavorite: boolean) {
  const favoriteTitle = isFavorite ? 'Remove from favorites' : 'Add to favorites';
  return placement === 'results'
    ? {
        favorite: `Favorite headshot ${position}`,
        favoriteTitle,
        download: `Download headshot ${position}`,
        regenerate: `${REGENERATE_LABEL}: headshot ${position}`,
      }
    : { favorite: favoriteTitle, favoriteTitle, download: 'Download', regenerate: REGENERATE_LABEL };
}

/**
 * One headshot, wherever it is shown (docs/product-spec.md §2: the generator's results and the dashboard's
 * gallery): the square image (lazy, so nothing moves as images arrive), a heart on favorites, the style and
 * background badges (hyphens as spaces) and the likeness. Favorite, download (and, in the gallery, delete) appear
 * on hover and on keyboard focus, and always on touch screens, which cannot hover.
 */
export function HeadshotCard({
  headshot,
  placement,
  position = 0,
  onToggleFavorite,
  onDownload,
  onOpen,
  onDelete,
  onRegenerate,
  regenerating = false,
  regenerateUnavailableId,
}: HeadshotCardProps) {
  const [downloading, setDownloading] = useState(false);
  const names = actionNames(placement, position, headshot.isFavorite);
  const description = describeHeadshot(headshot);

  const download = async () => {
    setDownloading(true);
    try {
      await onDownload(headshot);
    } finally {
      setDownloading(false);
    }
  };

  const image = (
    <img
      src={headshot.thumbnailUrl}
      srcSet={
        placement === 'results' ? `${headshot.thumbnailUrl} 384w, ${headshot.imageUrl} 1024w` : undefined
      }
      sizes={placement === 'results' ? '(min-width: 1024px) 20rem, (min-width: 640px) 45vw, 50vw' : undefined}
      alt={onOpen ? '' : placement === 'results' ? `Headshot ${position}: ${description}` : description}
      width={placement === 'results' ? 1024 : 384}
      height={placement === 'results' ? 1024 : 384}
      loading={placement === 'gallery' ? 'lazy' : undefined}
      decoding="async"
      className="size-full object-cover transition duration-500 group-hover:scale-[1.02] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
    />
  );

  return (
    <li
      className="list-none"
      data-testid={placement === 'results' ? 'headshot' : 'headshot-card'}
      data-headshot-id={headshot.id}
    >
      <article className="group overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200 transition focus-within:shadow-lg hover:shadow-lg">
        <figure>
          <div className="relative aspect-square overflow-hidden bg-slate-100">
            {onOpen ? (
              <button
                type="button"
                onClick={() => onOpen(headshot)}
                className="absolute inset-0 cursor-zoom-in focus-visible:outline-offset-[-4px]"
              >
                {image}
                <span className="sr-only">View full size: {description}</span>
              </button>
            ) : (
              image
            )}
            {headshot.isFavorite && (
              <span
                data-testid="favorite-mark"
                className="pointer-events-none absolute top-2 left-2 inline-flex size-8 items-center justify-center rounded-full bg-white/90 text-rose-500 shadow-sm"
              >
                <Heart aria-hidden="true" className="size-4 fill-current" />
                <span className="sr-only">Favorite</span>
              </span>
            )}
            <div className="absolute inset-x-0 bottom-0 flex items-center justify-end gap-2 p-3">
              <CardAction
                label={names.favorite}
                title={names.favoriteTitle}
                pressed={headshot.isFavorite}
                onClick={() => onToggleFavorite(headshot)}
                tone={headshot.isFavorite ? 'favorite' : 'default'}
                // A favorite keeps its filled heart in sight.
                revealed={headshot.isFavorite}
              >
                <Heart aria-hidden="true" className={cx('size-5', headshot.isFavorite && 'fill-current')} />
              </CardAction>
              <CardAction
                label={names.download}
                title="Download"
                busy={downloading}
                onClick={() => void download()}
              >
                {downloading ? (
                  <Spinner size="sm" label={null} />
                ) : (
                  <Download aria-hidden="true" className="size-5" />
                )}
              </CardAction>
              {onDelete && (
                <CardAction label="Delete" title="Delete" onClick={() => onDelete(headshot)} tone="danger">
                  <Trash2 aria-hidden="true" className="size-5" />
                </CardAction>
              )}
            </div>
          </div>

          <figcaption className="flex flex-wrap items-center gap-1.5 px-3 py-3">
            <HeadshotMeta headshot={headshot} showDate={placement === 'gallery'} />
            {onRegenerate && (
              <button
                type="button"
                onClick={() => onRegenerate(headshot)}
                disabled={regenerating || regenerateUnavailableId !== undefined}
                aria-label={names.regenerate}
                aria-describedby={regenerateUnavailableId}
                className={cx(
                  'ml-auto inline-flex items-center gap-1 rounded-full px-2 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 disabled:opacity-60',
                  regenerating ? 'disabled:cursor-wait' : 'disabled:cursor-not-allowed',
                )}
              >
                <RefreshCw aria-hidden="true" className={cx('size-3.5', regenerating && 'animate-spin')} />
                {REGENERATE_LABEL}
              </button>
            )}
          </figcaption>
        </figure>
      </article>
    </li>
  );
}

/** A headshot that is not saved yet: a shimmering tile in the results grid. */
export function PendingHeadshot({ position }: { position: number }) {
  return (
    <li aria-hidden="true" data-testid="headshot-pending">
      <div className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="relative flex aspect-square items-center justify-center overflow-hidden bg-gradient-to-br from-slate-100 to-slate-200">
          <div className="absolute inset-0 animate-pulse bg-white/30 motion-reduce:animate-none" />
          <span className="relative text-sm font-medium text-slate-400">#{position}</span>
        </div>
        <div className="flex gap-1.5 px-3 py-3">
          <span className="h-6 w-20 rounded-full bg-slate-100" />
          <span className="h-6 w-14 rounded-full bg-slate-100" />
        </div>
      </div>
    </li>
  );
}

/** Hidden until the card is hovered or holds keyboard focus; always shown on screens that cannot hover. */
const HIDDEN_UNTIL_HOVER =
  'opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100 ' +
  '[@media(hover:none)]:opacity-100';

/** A round button over the image. */
function CardAction({
  label,
  title,
  pressed,
  busy = false,
  onClick,
  tone = 'default',
  revealed = false,
  children,
}: {
  label: string;
  title: string;
  pressed?: boolean;
  busy?: boolean;
  onClick: () => void;
  /** `favorite`: rose heart; `danger`: red on hover. */
  tone?: 'default' | 'favorite' | 'danger';
  /** Always visible; otherwise only on hover, keyboard focus and touch screens. */
  revealed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={title}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={onClick}
      className={cx(
        'inline-flex size-10 items-center justify-center rounded-full bg-white/95 shadow-md ring-1 ring-slate-900/5 transition',
        'hover:bg-white disabled:cursor-wait',
        revealed ? 'opacity-100' : HIDDEN_UNTIL_HOVER,
        tone === 'favorite' && 'text-rose-500 hover:text-rose-600',
        tone === 'danger' && 'text-slate-700 hover:text-red-600',
        tone === 'default' && 'text-slate-700 hover:text-slate-950',
      )}
    >
      {children}
    </button>
  );
}

/**
 * What a headshot is, as badges: its style and background (hyphens as spaces), "Preview" for an offline composite,
 * its likeness and, with `showDate`,
 * its creation date. Under a card and in the full-size viewer.
 */
export function HeadshotMeta({ headshot, showDate = false }: { headshot: Headshot; showDate?: boolean }) {
  return (
    <>
      <Badge tone="brand">{captionOf(headshot.style)}</Badge>
      <Badge tone="slate">{captionOf(headshot.background)}</Badge>
      <PreviewBadge preview={headshot.preview} />
      <LikenessBadge likeness={headshot.likeness} className="text-xs font-medium" />
      {showDate && (
        <time dateTime={headshot.createdAt} className="ml-auto text-xs whitespace-nowrap text-slate-500">
          {formatCreatedAt(headshot.createdAt)}
        </time>
      )}
    </>
  );
}

/** A small rounded label under a headshot. */
function Badge({ tone, children }: { tone: 'brand' | 'slate'; children: ReactNode }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        tone === 'brand'
          ? 'bg-brand-50 text-brand-700 ring-brand-200'
          : 'bg-slate-50 text-slate-700 ring-slate-200',
      )}
    >
      {children}
    </span>
  );
}
