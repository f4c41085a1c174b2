import { ShieldCheck, Trash2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { HEADSHOT_RETENTION_DAYS, UPLOAD_RETENTION_DAYS } from '../../../../../functions/domain/retention';
import { paths } from '../../../config/paths';
import { formatDays } from '../../../lib/format-period';
import { useDeleteAllData } from '../api/delete-my-data';
import { DangerAction } from './DangerAction';
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
  /** How long things are kept (functions/domain/retention.ts, the periods the stack enforces). */
  retention: `Uploaded photos are deleted after ${formatDays(UPLOAD_RETENTION_DAYS)} and headshots ${formatDays(HEADSHOT_RETENTION_DAYS)} after they are made: download the ones you want to keep.`,
} as const;

/**
 * The privacy section at the foot of the dashboard: 'Delete all my photos' (docs/product-spec.md §6,
 * docs/architecture.md §3 `DELETE /me/data`), whose confirmation lists what goes (uploaded photos, headshots,
 * generations) and what stays (credits, purchase history), and "Delete my account".
 */
export function PrivacySection({ headshotCount }: { headshotCount: number | undefined }) {
  const deleteAll = useDeleteAllData();

  const confirm = (close: () => void) =>
    deleteAll.mutate(undefined, {
      onSuccess: () => {
        close();
        toast.success(PRIVACY_TEXT.deleted);
      },
      onError: (error) => {
        close();
        toast.error(error.status === 409 ? error.message : PRIVACY_TEXT.failed);
      },
    });

  return (
    <section
      aria-labelledby="privacy-heading"
      className="mt-16 rounded-3xl border border-red-200 bg-red-50/40 p-5 sm:p-6"
    >
      <DangerAction
        icon={ShieldCheck}
        buttonIcon={Trash2}
        heading={PRIVACY_TEXT.heading}
        headingLevel="h2"
        headingId="privacy-heading"
        intro={PRIVACY_TEXT.intro}
        button={PRIVACY_TEXT.button}
        confirmTitle={PRIVACY_TEXT.confirmTitle}
        busy={deleteAll.isPending}
        onConfirm={confirm}
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
      </DangerAction>
      <p className="mt-4 text-sm text-pretty text-slate-700">
        {PRIVACY_TEXT.retention}{' '}
        <Link
          to={paths.privacy.href}
          className="rounded font-medium text-brand-700 underline hover:text-brand-800"
        >
          Privacy Policy
        </Link>
      </p>
      <DeleteAccount />
    </section>
  );
}
