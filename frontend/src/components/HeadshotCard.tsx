import { Heart, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import type { Headshot } from '../lib/api/contracts';
import { REGENERATE_LABEL } from '../lib/api/regenerate-headshot';
import { cx } from '../lib/cx';
import { captionOf, describeHeadshot, formatCreatedAt } from '../lib/headshot-caption';
import { LikenessBadge } from './ui/LikenessBadge';
import { PreviewBadge } from './ui/PreviewBadge';

/**
 * Where a card is shown: `results`, the generator's grid (step 4: numbered, with "Regenerate (1 credit)"), or
 * `gallery`, the dashboard's grid (opens the full-size viewer, shows the date). Both put their actions in a menu
 * under the image.
 */
export type HeadshotPlacement = 'results' | 'gallery';

/**
 * Props of {@link HeadshotCard} in the generator's results grid: as in the gallery, the actions given (the
 * generator's menu) sit beside the caption, under the image, so nothing covers the face (issue 35 item 6).
 */
export interface ResultsCardProps {
  headshot: Headshot;
  placement: 'results';
  /** 1-based place in a results grid, for the image's text and Regenerate's name ('Headshot 3: …'). */
  position?: number;
  actions: ReactNode;
  /** "Regenerate (1 credit)"; absent, no button. */
  onRegenerate?: (headshot: Headshot) => void;
  /** A regeneration of this headshot is starting. */
  regenerating?: boolean;
  /**
   * The id of the note saying why Regenerate is unavailable (under 1 credit): the button shows, disabled, and names
   * that note as its description.
   */
  regenerateUnavailableId?: string;
  /** The button's words: 'Regenerate (1 credit)' unless a team pays ('Regenerate (1 team edit)', issue 37). */
  regenerateLabel?: string;
}

/**
 * Props of {@link HeadshotCard} in the dashboard's gallery: a tap on the image opens the full-size view, and the
 * card's actions (the dashboard's menu) sit beside the caption, under the image, so nothing covers the face
 * (issue 35 item 6).
 */
export interface GalleryCardProps {
  headshot: Headshot;
  placement: 'gallery';
  onOpen: (headshot: Headshot) => void;
  actions: ReactNode;
}

/** Props of {@link HeadshotCard}: by {@link HeadshotPlacement}. */
export type HeadshotCardProps = ResultsCardProps | GalleryCardProps;

/**
 * One headshot, wherever it is shown (docs/product-spec.md §2: the generator's results and the dashboard's
 * gallery): the square image (lazy in the gallery, so nothing moves as images arrive), a heart on favorites, the
 * style and background badges (hyphens as spaces) and the likeness, and the actions given beside them, under the
 * image (issue 35 item 6: nothing covers the face). In the results grid the caption also offers Regenerate; in the
 * gallery the image opens the full-size view and the caption shows the date.
 */
export function HeadshotCard(props: HeadshotCardProps) {
  const { headshot, placement } = props;
  const description = describeHeadshot(headshot);
  const results = placement === 'results';
  const position = results ? (props.position ?? 0) : 0;

  const image = (
    <img
      src={headshot.thumbnailUrl}
      srcSet={results ? `${headshot.thumbnailUrl} 384w, ${headshot.imageUrl} 1024w` : undefined}
      sizes={results ? '(min-width: 1024px) 20rem, (min-width: 640px) 45vw, 50vw' : undefined}
      alt={results ? `Headshot ${position}: ${description}` : ''}
      width={results ? 1024 : 384}
      height={results ? 1024 : 384}
      loading={results ? undefined : 'lazy'}
      decoding="async"
      className="size-full object-cover transition duration-500 group-hover:scale-[1.02] motion-reduce:transition-none motion-reduce:group-hover:scale-100"
    />
  );

  return (
    <li
      className="list-none"
      data-testid={results ? 'headshot' : 'headshot-card'}
      data-headshot-id={headshot.id}
    >
      <article className="group overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200 transition focus-within:shadow-lg hover:shadow-lg">
        <figure>
          <div className="relative aspect-square overflow-hidden bg-slate-100">
            {results ? (
              image
            ) : (
              <button
                type="button"
                onClick={() => props.onOpen(headshot)}
                className="absolute inset-0 cursor-zoom-in focus-visible:outline-offset-[-4px]"
              >
                {image}
                <span className="sr-only">View full size: {description}</span>
              </button>
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
          </div>

          <figcaption className="flex items-start gap-2 px-3 py-3">
            <div className="flex min-w-0 flex-1 flex-wrap items-center gap-1.5">
              <HeadshotMeta headshot={headshot} showDate={!results} />
              {!results && <VersionCount count={headshot.versionCount ?? 0} />}
              {results && <RegenerateButton {...props} position={position} />}
            </div>
            {props.actions}
          </figcaption>
        </figure>
      </article>
    </li>
  );
}

/**
 * '1 version' / 'N versions' under a gallery card whose headshot has edits' results (docs/product-spec.md §2 "Edit a
 * headshot": the gallery counts headshots, not versions); nothing without any.
 */
function VersionCount({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span data-testid="version-count" className="w-full text-xs text-slate-600">
      {count === 1 ? '1 version' : `${count} versions`}
    </span>
  );
}

/** "Regenerate (1 credit)" under a results card, when offered. */
function RegenerateButton({
  headshot,
  position,
  onRegenerate,
  regenerating = false,
  regenerateUnavailableId,
  regenerateLabel = REGENERATE_LABEL,
}: ResultsCardProps) {
  if (!onRegenerate) return null;
  return (
    <button
      type="button"
      onClick={() => onRegenerate(headshot)}
      disabled={regenerating || regenerateUnavailableId !== undefined}
      aria-label={`${regenerateLabel}: headshot ${position ?? 0}`}
      aria-describedby={regenerateUnavailableId}
      className={cx(
        'ml-auto inline-flex items-center gap-1 rounded-full px-2 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset hover:bg-brand-50 disabled:opacity-60',
        regenerating ? 'disabled:cursor-wait' : 'disabled:cursor-not-allowed',
      )}
    >
      <RefreshCw aria-hidden="true" className={cx('size-3.5', regenerating && 'animate-spin')} />
      {regenerateLabel}
    </button>
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
