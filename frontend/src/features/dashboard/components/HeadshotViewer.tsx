import { Download, Heart, Trash2 } from 'lucide-react';
import { ViewerRegenerate } from './ViewerRegenerate';
import { useId } from 'react';
import { Button } from '../../../components/ui/Button';
import { HeadshotMeta } from '../../../components/HeadshotCard';
import type { Headshot, HeadshotVariant } from '../../../lib/api/contracts';
import { VARIANT_LABELS } from '../../../lib/download-headshot';
import { captionOf, describeHeadshot } from '../../../lib/headshot-caption';
import { CloseButton, Modal } from '../../../components/Modal';

/** Props of {@link HeadshotViewer}. */
export interface HeadshotViewerProps {
  headshot: Headshot;
  onClose: () => void;
  onToggleFavorite: (headshot: Headshot) => void;
  /** Saves one file of the headshot: the square, the 4:5 portrait or the original PNG. */
  onDownload: (headshot: Headshot, variant: HeadshotVariant) => void;
  /** The file being saved, if any (its button spins). */
  downloading?: HeadshotVariant | null;
  /** Asks to delete it (the dashboard confirms first); absent, no Delete button. */
  onDelete?: (headshot: Headshot) => void;
}

/**
 * The full-size view of one headshot: a modal dialog with the 1024×1024 image (the thumbnail shows, already
 * cached, until the large one has loaded), its style, background and date, the favorite action and one download
 * per file it has, by use (docs/product-spec.md §2 "Downloads"): 'LinkedIn (square)', 'Résumé (portrait 4:5)',
 * 'Original (PNG, as generated)', each with its pixels.
 */
export function HeadshotViewer({
  headshot,
  onClose,
  onToggleFavorite,
  onDownload,
  downloading = null,
  onDelete,
}: HeadshotViewerProps) {
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="max-w-3xl">
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 sm:px-6">
        <h2 id={titleId} className="text-base font-semibold capitalize">
          {captionOf(headshot.style)} headshot
        </h2>
        <CloseButton onClick={onClose} />
      </div>
      <div className="bg-slate-100">
        <div
          className="mx-auto aspect-square w-full max-w-[min(100%,calc(100dvh-12rem))] bg-cover bg-center"
          style={{ backgroundImage: `url("${headshot.thumbnailUrl}")` }}
        >
          <img
            src={headshot.imageUrl}
            alt={describeHeadshot(headshot)}
            width={1024}
            height={1024}
            decoding="async"
            className="size-full object-cover"
          />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2 px-4 py-4 sm:px-6">
        <HeadshotMeta headshot={headshot} showDate />
        <div className="ml-auto flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            aria-pressed={headshot.isFavorite}
            onClick={() => onToggleFavorite(headshot)}
          >
            <Heart
              aria-hidden="true"
              className={headshot.isFavorite ? 'size-4 fill-rose-500 text-rose-500' : 'size-4'}
            />
            {headshot.isFavorite ? 'Favorited' : 'Favorite'}
          </Button>
        </div>
        <section aria-labelledby={`${titleId}-downloads`} className="w-full">
          <h3 id={`${titleId}-downloads`} className="text-sm font-medium text-slate-700">
            Download for
          </h3>
          <ul className="mt-2 grid gap-2 sm:grid-cols-3">
            {headshot.variants.map((file) => (
              <li key={file.variant}>
                <Button
                  variant={file.variant === 'square' ? 'primary' : 'secondary'}
                  size="sm"
                  className="h-auto w-full flex-col items-start gap-0 py-2 text-left"
                  loading={downloading === file.variant}
                  disabled={downloading !== null && downloading !== file.variant}
                  aria-label={`Download ${VARIANT_LABELS[file.variant]}, ${file.width} × ${file.height} pixels`}
                  onClick={() => onDownload(headshot, file.variant)}
                >
                  <span className="flex items-center gap-1.5">
                    {downloading !== file.variant && <Download aria-hidden="true" className="size-4" />}
                    {VARIANT_LABELS[file.variant]}
                  </span>
                  <span className="text-xs font-normal opacity-80">
                    {file.width} × {file.height} px, {file.variant === 'original' ? 'PNG' : 'JPEG'}
                  </span>
                </Button>
              </li>
            ))}
          </ul>
        </section>
        <ViewerRegenerate key={headshot.id} headshotId={headshot.id} originalUrl={headshot.thumbnailUrl} />
        {onDelete && (
          // Last and apart from the downloads, so a tap meant for a download never lands on it (issue 35 item 6).
          <div className="mt-2 w-full border-t border-slate-100 pt-3">
            <Button
              variant="ghost"
              size="sm"
              className="-ml-3 text-red-700 hover:bg-red-50 hover:text-red-800"
              onClick={() => onDelete(headshot)}
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </Button>
          </div>
        )}
      </div>
    </Modal>
  );
}
