import { ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/Button';
import { useDeleteAllData } from '../api/delete-my-data';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DeleteAccount } from './DeleteAccount';

/** The privacy section's texts. */
export const PRIVACY_TEXT = {
  heading: 'Privacy',
  intro:
    'You can delete every photo you uploaded and every headshot made from them at any time. This cannot be undone.',
  button: 'Delete all my photos',
  confirmTitle: 'Delete all your photos?',
  deleted: 'All your photos and headshots have been deleted.',
  failed: "We couldn't delete your photos. Please try again.",
} as const;

/**
 * 'Delete all my photos' (docs/product-spec.md §6, docs/architecture.md §3 `DELETE /me/data`), set apart at the foot of the dashboard: a
 * confirmation that lists what goes (uploaded photos, headshots, generations) and what stays (credits, purchase
 * history) before anything is deleted.
 */
export function PrivacySection({ headshotCount }: { headshotCount: number | undefined }) {
  const [confirming, setConfirming] = useState(false);
  const deleteAll = useDeleteAllData();

  const confirm = () =>
    deleteAll.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(PRIVACY_TEXT.deleted);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(error.status === 409 ? error.message : PRIVACY_TEXT.failed);
      },
    });

  return (
    <section
      aria-labelledby="privacy-heading"
      className="mt-16 rounded-3xl border border-red-200 bg-red-50/40 p-5 sm:p-6"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
          <div>
            <h2 id="privacy-heading" className="text-base font-semibold text-slate-900">
              {PRIVACY_TEXT.heading}
            </h2>
            <p className="mt-1 max-w-2xl text-sm text-slate-600">{PRIVACY_TEXT.intro}</p>
          </div>
        </div>
        <Button
          variant="secondary"
          className="shrink-0 text-red-700 ring-red-300 hover:bg-red-50 hover:ring-red-400"
          onClick={() => setConfirming(true)}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          {PRIVACY_TEXT.button}
        </Button>
      </div>

      <DeleteAccount />

      {confirming && (
        <ConfirmDialog
          title={PRIVACY_TEXT.confirmTitle}
          confirmLabel={PRIVACY_TEXT.button}
          busy={deleteAll.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p className="font-medium text-slate-900">This permanently deletes:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>every photo you uploaded</li>
            <li>
              all your headshots
              {headshotCount !== undefined && ` (${headshotCount})`}
            </li>
            <li>your generations</li>
          </ul>
          <p className="mt-4 font-medium text-slate-900">These stay:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>your credits</li>
            <li>your purchase history</li>
          </ul>
        </ConfirmDialog>
      )}
    </section>
  );
}
