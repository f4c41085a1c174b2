import { ConfirmDialog } from '../../../components/ConfirmDialog';
import type { Headshot } from '../../../lib/api/contracts';
import { captionOf, describeHeadshot, formatCreatedAt } from '../../../lib/headshot-caption';

/** The dialog's texts, docs/product-spec.md §2 "Dashboard" verbatim. */
export const DELETE_HEADSHOT_TEXT = {
  title: 'Delete this headshot?',
  body: 'The image is deleted for good, in full size and as a thumbnail. This cannot be undone.',
  confirm: 'Delete headshot',
} as const;

/** Props of {@link DeleteHeadshotDialog}. */
export interface DeleteHeadshotDialogProps {
  headshot: Headshot;
  /** The deletion runs: the confirm button spins and nothing can be clicked twice. */
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * 'Delete this headshot?' with the headshot itself (issue 35 item 6: the customer sees which image goes): its
 * thumbnail, style, background and date beside what deleting means.
 */
export function DeleteHeadshotDialog({ headshot, busy, onConfirm, onCancel }: DeleteHeadshotDialogProps) {
  const date = formatCreatedAt(headshot.createdAt);
  return (
    <ConfirmDialog
      title={DELETE_HEADSHOT_TEXT.title}
      confirmLabel={DELETE_HEADSHOT_TEXT.confirm}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="flex items-start gap-4" data-testid="delete-headshot-preview">
        <img
          src={headshot.thumbnailUrl}
          alt={describeHeadshot(headshot)}
          className="size-24 shrink-0 rounded-2xl bg-slate-100 object-cover ring-1 ring-slate-200"
        />
        <div className="min-w-0">
          <p className="font-medium text-slate-900 capitalize">
            {captionOf(headshot.style)}, {captionOf(headshot.background)}
          </p>
          {date && <p className="text-slate-500">{date}</p>}
          <p className="mt-2">{DELETE_HEADSHOT_TEXT.body}</p>
        </div>
      </div>
    </ConfirmDialog>
  );
}
