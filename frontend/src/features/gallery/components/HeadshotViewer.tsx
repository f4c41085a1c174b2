import { Download, Heart } from 'lucide-react';
import { ViewerRegenerate } from './ViewerRegenerate';
import { useId } from 'react';
import { Button } from '../../../components/ui/Button';
import { HeadshotMeta } from '../../../components/HeadshotCard';
import type { Headshot } from '../../../lib/api/contracts';
import { captionOf, describeHeadshot } from '../../../lib/headshot-caption';
import { CloseButton, Modal } from '../../../components/Modal';

/** Props of {@link HeadshotViewer}. */
export interface HeadshotViewerProps {
  headshot: Headshot;
  onClose: () => void;
  onToggleFavorite: (headshot: Headshot) => void;
  onDownload: (headshot: Headshot) => void;
  downloading?: boolean;
}

/**
 * The full-size view of one headshot: a modal dialog with the 1024×1024 image (the thumbnail shows, already
 * cached, until the large one has loaded), its style, background and date, and the favorite and download actions.
 */
export function HeadshotViewer({
  headshot,
  onClose,
  onToggleFavorite,
  onDownload,
  downloading = false,
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
          <Button size="sm" loading={downloading} onClick={() => onDownload(headshot)}>
            {!downloading && <Download aria-hidden="true" className="size-4" />}
            Download
          </Button>
        </div>
        <ViewerRegenerate key={headshot.id} headshotId={headshot.id} originalUrl={headshot.thumbnailUrl} />
      </div>
    </Modal>
  );
}
