import { Heart, Pencil } from 'lucide-react';
import { ViewerRegenerate } from './ViewerRegenerate';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { HeadshotMeta } from '../../../components/HeadshotCard';
import type { Headshot, HeadshotVariant } from '../../../lib/api/contracts';
import { captionOf, describeHeadshot } from '../../../lib/headshot-caption';
import { CloseButton, Modal } from '../../../components/Modal';
import type { EditOutcome } from '../hooks/use-edit-progress';
import { useViewerVersions } from '../hooks/use-viewer-versions';
import { EDIT_TEXT, describeEdit } from '../utils/edit-options';
import { EditSheet } from './EditSheet';
import { VersionDownloads, ViewerDownloads } from './ViewerDownloads';
import { ViewerImage } from './ViewerImage';
import { DeleteButton, ViewerVersions } from './ViewerVersions';

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
 * 'Original (PNG, as generated)', each with its pixels. 'Edit' opens the Edit sheet; an edit's progress and its
 * partial images show on the image, and its result joins 'Versions', where the selected version is the one shown,
 * downloaded and edited next (§2 "Edit a headshot").
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
  const [sheetOpen, setSheetOpen] = useState(false);
  const state = useViewerVersions(headshot.id);
  const { selected, selectedName: name, outcome, follow } = state;
  const running = outcome?.state === 'running' ? outcome : null;

  return (
    <Modal labelledBy={titleId} onClose={onClose} className="max-w-3xl">
      <div className="flex items-center justify-between gap-3 border-b border-slate-100 px-4 py-3 sm:px-6">
        <h2 id={titleId} className="text-base font-semibold capitalize">
          {captionOf(headshot.style)} headshot
          {name && <span className="normal-case">, {name}</span>}
        </h2>
        <CloseButton onClick={onClose} />
      </div>
      <ViewerImage
        imageUrl={selected?.imageUrl ?? headshot.imageUrl}
        thumbnailUrl={selected?.thumbnailUrl ?? headshot.thumbnailUrl}
        alt={
          selected
            ? `${describeHeadshot(headshot)}, ${name}: ${describeEdit(selected.edit)}`
            : describeHeadshot(headshot)
        }
        transparent={selected?.transparent ?? false}
        running={running}
      />
      <div className="flex flex-wrap items-center gap-2 px-4 py-4 sm:px-6">
        <HeadshotMeta
          // A version's own likeness and preview mark (its date is the headshot's: the strip dates nothing).
          headshot={
            selected ? { ...headshot, likeness: selected.likeness, preview: selected.preview } : headshot
          }
          showDate
        />
        <div className="ml-auto flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={running !== null}
            onClick={() => setSheetOpen(true)}
          >
            <Pencil aria-hidden="true" className="size-4" />
            {EDIT_TEXT.open}
          </Button>
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
        <EditStatus outcome={outcome} />
        <ViewerVersions originalThumbnailUrl={headshot.thumbnailUrl} {...state} />
        {selected ? (
          <VersionDownloads key={selected.id} headingId={`${titleId}-downloads`} version={selected} />
        ) : (
          <ViewerDownloads
            headingId={`${titleId}-downloads`}
            variants={headshot.variants}
            downloading={downloading}
            onDownload={(variant) => onDownload(headshot, variant)}
          />
        )}
        <ViewerRegenerate
          key={headshot.id}
          headshotId={headshot.id}
          originalUrl={headshot.thumbnailUrl}
          teamId={headshot.teamId}
        />
        {onDelete && (
          // Last and apart from the downloads, so a tap meant for a download never lands on it (issue 35 item 6).
          <div className="mt-2 w-full border-t border-slate-100 pt-3">
            <DeleteButton onClick={() => onDelete(headshot)}>Delete</DeleteButton>
          </div>
        )}
      </div>
      {sheetOpen && (
        <EditSheet
          headshotId={headshot.id}
          teamId={headshot.teamId}
          versionId={selected?.id ?? null}
          versionName={name}
          onClose={() => setSheetOpen(false)}
          onStarted={(generationId) => {
            setSheetOpen(false);
            follow(generationId);
          }}
        />
      )}
    </Modal>
  );
}

/** What became of the last edit, said once it is decided (docs/product-spec.md §2 "Edit a headshot"). */
function EditStatus({ outcome }: { outcome: EditOutcome | null }) {
  if (!outcome || outcome.state === 'running') return null;
  if (outcome.state === 'delivered') {
    return (
      <p role="status" className="w-full text-sm font-medium text-emerald-800">
        {EDIT_TEXT.delivered}
      </p>
    );
  }
  return (
    <p role="alert" className="w-full rounded-2xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
      {outcome.likeness ? EDIT_TEXT.refusedLikeness : EDIT_TEXT.refused}
    </p>
  );
}
