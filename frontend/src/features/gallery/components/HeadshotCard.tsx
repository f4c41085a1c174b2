import { Download, Heart, Trash2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from '../../../lib/cx';
import type { Headshot } from '../api/headshots';
import { formatCreatedAt, styleLabel } from '../utils/filters';
import { LikenessBadge } from '../../../components/ui/LikenessBadge';

/** Props of {@link HeadshotCard}. */
export interface HeadshotCardProps {
  headshot: Headshot;
  onOpen: (headshot: Headshot) => void;
  onToggleFavorite: (headshot: Headshot) => void;
  onDownload: (headshot: Headshot) => void;
  onDelete: (headshot: Headshot) => void;
  /** True while this headshot's download link is being fetched. */
  downloading?: boolean;
}

/** 'Professional headshot, office background, Nov 22, 2026': what the image is, for screen readers. */
export function describeHeadshot(headshot: Headshot): string {
  const date = formatCreatedAt(headshot.createdAt);
  return `${styleLabel(headshot.style)} headshot, ${headshot.background} background${date ? `, ${date}` : ''}`;
}

/**
 * One headshot of the dashboard grid (docs/product-spec.md §2): the thumbnail (lazy, square, so nothing moves as images arrive), a
 * heart on favorites, the style badge (hyphen → space), the background badge and the creation date. The favorite
 * toggle, download and delete appear on hover and on keyboard focus (always on touch screens); a click on the image
 * opens the full-size view.
 */
export function HeadshotCard({
  headshot,
  onOpen,
  onToggleFavorite,
  onDownload,
  onDelete,
  downloading = false,
}: HeadshotCardProps) {
  const description = describeHeadshot(headshot);
  return (
    <li className="list-none">
      <article
        data-testid="headshot-card"
        data-headshot-id={headshot.id}
        className="group overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 transition hover:shadow-md focus-within:shadow-md"
      >
        <div className="relative aspect-square bg-slate-100">
          <button
            type="button"
            onClick={() => onOpen(headshot)}
            className="absolute inset-0 cursor-zoom-in focus-visible:outline-offset-[-4px]"
          >
            <img
              src={headshot.thumbnailUrl}
              alt=""
              width={384}
              height={384}
              loading="lazy"
              decoding="async"
              className="size-full object-cover"
            />
            <span className="sr-only">View full size: {description}</span>
          </button>

          {headshot.isFavorite && (
            <span
              data-testid="favorite-mark"
              className="pointer-events-none absolute top-2 left-2 inline-flex size-8 items-center justify-center rounded-full bg-white/90 text-rose-500 shadow-sm"
            >
              <Heart aria-hidden="true" className="size-4 fill-current" />
              <span className="sr-only">Favorite</span>
            </span>
          )}

          <div
            className={cx(
              'absolute top-2 right-2 flex flex-col gap-2 opacity-0 transition-opacity duration-150',
              'group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100',
            )}
          >
            <CardAction
              label={headshot.isFavorite ? 'Remove from favorites' : 'Add to favorites'}
              pressed={headshot.isFavorite}
              onClick={() => onToggleFavorite(headshot)}
              tone={headshot.isFavorite ? 'favorite' : 'default'}
            >
              <Heart aria-hidden="true" className={cx('size-4', headshot.isFavorite && 'fill-current')} />
            </CardAction>
            <CardAction label="Download" busy={downloading} onClick={() => onDownload(headshot)}>
              <Download aria-hidden="true" className="size-4" />
            </CardAction>
            <CardAction label="Delete" onClick={() => onDelete(headshot)} tone="danger">
              <Trash2 aria-hidden="true" className="size-4" />
            </CardAction>
          </div>
        </div>

        <div className="flex flex-wrap items-center gap-1.5 px-3 py-3">
          <Badge tone="brand">{styleLabel(headshot.style)}</Badge>
          <Badge tone="slate">{headshot.background}</Badge>
          <LikenessBadge likeness={headshot.likeness} className="text-xs font-medium" />
          <time dateTime={headshot.createdAt} className="ml-auto text-xs whitespace-nowrap text-slate-500">
            {formatCreatedAt(headshot.createdAt)}
          </time>
        </div>
      </article>
    </li>
  );
}

function CardAction({
  label,
  pressed,
  busy = false,
  onClick,
  tone = 'default',
  children,
}: {
  label: string;
  pressed?: boolean;
  busy?: boolean;
  onClick: () => void;
  /** `favorite`: rose heart; `danger`: red on hover. */
  tone?: 'default' | 'favorite' | 'danger';
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={busy}
      onClick={onClick}
      className={cx(
        'inline-flex size-9 items-center justify-center rounded-full bg-white/95 shadow-md ring-1 ring-slate-900/5 transition',
        'hover:bg-white disabled:opacity-60',
        tone === 'favorite' && 'text-rose-500 hover:text-rose-600',
        tone === 'danger' && 'text-slate-700 hover:text-red-600',
        tone === 'default' && 'text-slate-700 hover:text-slate-950',
      )}
    >
      {children}
    </button>
  );
}

/** A small rounded label under a card's image. */
export function Badge({ tone, children }: { tone: 'brand' | 'slate'; children: ReactNode }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium capitalize ring-1 ring-inset',
        tone === 'brand'
          ? 'bg-brand-50 text-brand-700 ring-brand-200'
          : 'bg-slate-50 text-slate-700 ring-slate-200',
      )}
    >
      {children}
    </span>
  );
}
