import { UserX } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { useAuth } from '../../../lib/auth';
import { useDeleteAccount } from '../api/delete-account';

/** The texts of "Delete my account". */
export const DELETE_ACCOUNT_TEXT = {
  heading: 'Delete my account',
  intro: 'Close your Headshot Studio account for good, with everything in it.',
  button: 'Delete my account',
  confirmTitle: 'Delete your account?',
  confirm: 'Delete my account',
  deleted: 'Your account has been deleted. Thank you for using Headshot Studio.',
  failed: "We couldn't delete your account. Nothing was removed; please try again.",
} as const;

/**
 * "Delete my account" at the foot of the dashboard (`DELETE /api/me`): a confirmation that says plainly what goes
 * (photos, headshots, the sign-in) and what stays (purchase records, for accounting). Once the account is gone the
 * person leaves for the landing page, is signed out there, and sees a toast.
 */
export function DeleteAccount() {
  const [confirming, setConfirming] = useState(false);
  const deleteAccount = useDeleteAccount();
  const { signOut } = useAuth();
  const navigate = useNavigate();

  const confirm = () =>
    deleteAccount.mutate(undefined, {
      onSuccess: async () => {
        // Leave first: the dashboard would otherwise start sign-in the moment the session ends.
        await navigate(paths.home.href, { flushSync: true });
        await signOut();
        toast.success(DELETE_ACCOUNT_TEXT.deleted);
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(error.status === 409 ? error.message : DELETE_ACCOUNT_TEXT.failed);
      },
    });

  return (
    <div className="mt-6 flex flex-col gap-4 border-t border-red-200 pt-6 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-3">
        <UserX aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-red-700" />
        <div>
          <h3 className="text-base font-semibold text-slate-900">{DELETE_ACCOUNT_TEXT.heading}</h3>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{DELETE_ACCOUNT_TEXT.intro}</p>
        </div>
      </div>
      <Button
        variant="secondary"
        className="shrink-0 text-red-700 ring-red-300 hover:bg-red-50 hover:ring-red-400"
        onClick={() => setConfirming(true)}
      >
        <UserX aria-hidden="true" className="size-4" />
        {DELETE_ACCOUNT_TEXT.button}
      </Button>

      {confirming && (
        <ConfirmDialog
          title={DELETE_ACCOUNT_TEXT.confirmTitle}
          confirmLabel={DELETE_ACCOUNT_TEXT.confirm}
          busy={deleteAccount.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>This closes your account for good. It cannot be undone.</p>
          <p className="mt-4 font-medium text-slate-900">This permanently deletes:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>every photo you uploaded</li>
            <li>all your headshots and generations</li>
            <li>your sign-in: you will no longer be able to sign in with this e-mail address and password</li>
          </ul>
          <p className="mt-4 font-medium text-slate-900">What we keep:</p>
          <p className="mt-2">
            Records of your purchases, without your e-mail address, because we are required to keep them for
            accounting.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
