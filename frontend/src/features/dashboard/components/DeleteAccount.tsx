import { UserX } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { paths } from '../../../config/paths';
import { useAuth } from '../../../lib/auth';
import { useMe } from '../../../lib/api/get-me';
import { creditCount, REFUND_POLICY } from '../../../lib/refund-policy';
import { useRuntimeConfig } from '../../../lib/runtime-config-context';
import { useDeleteAccount } from '../api/delete-account';
import { DangerAction } from './DangerAction';

/** The texts of "Delete my account". */
export const DELETE_ACCOUNT_TEXT = {
  heading: 'Delete my account',
  intro: 'Close your Headshot Studio account for good, with everything in it.',
  button: 'Delete my account',
  confirmTitle: 'Delete your account?',
  deleted: 'Your account has been deleted. Thank you for using Headshot Studio.',
  failed: "We couldn't delete your account. Nothing was removed; please try again.",
  /** The balance the account still holds, lost with it (issue 27: said before the customer confirms). */
  creditsLost: (credits: number) =>
    `Your ${creditCount(credits)} ${credits === 1 ? 'is' : 'are'} deleted with your account.`,
} as const;

/**
 * "Delete my account" at the foot of the dashboard (`DELETE /api/me`): a confirmation that says plainly what goes
 * (photos, headshots, the sign-in, and the credits still on the balance, with the refund policy) and what stays
 * (purchase records, for accounting). Once the account is gone the person leaves for the landing page, is signed out
 * there, and sees a toast.
 */
export function DeleteAccount() {
  const deleteAccount = useDeleteAccount();
  const credits = useMe().data?.credits ?? 0;
  const { supportEmail } = useRuntimeConfig();
  const { signOut } = useAuth();
  const navigate = useNavigate();

  const confirm = (close: () => void) =>
    deleteAccount.mutate(undefined, {
      onSuccess: async () => {
        // Leave first: the dashboard would otherwise start sign-in the moment the session ends.
        await navigate(paths.home.href, { flushSync: true });
        await signOut();
        toast.success(DELETE_ACCOUNT_TEXT.deleted);
      },
      onError: (error) => {
        close();
        toast.error(error.status === 409 ? error.message : DELETE_ACCOUNT_TEXT.failed);
      },
    });

  return (
    <DangerAction
      icon={UserX}
      heading={DELETE_ACCOUNT_TEXT.heading}
      intro={DELETE_ACCOUNT_TEXT.intro}
      button={DELETE_ACCOUNT_TEXT.button}
      confirmTitle={DELETE_ACCOUNT_TEXT.confirmTitle}
      busy={deleteAccount.isPending}
      onConfirm={confirm}
      className="mt-6 border-t border-red-200 pt-6"
    >
      <p>This closes your account for good. It cannot be undone.</p>
      <p className="mt-4 font-medium text-slate-900">This permanently deletes:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>every photo you uploaded</li>
        <li>all your headshots and generations</li>
        <li>your sign-in: you will no longer be able to sign in with this e-mail address and password</li>
        {credits > 0 && <li>your remaining credits</li>}
      </ul>
      {credits > 0 && (
        <div
          className="mt-4 rounded-xl bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200"
          data-testid="credits-lost"
        >
          <p className="font-semibold">{DELETE_ACCOUNT_TEXT.creditsLost(credits)}</p>
          <p className="mt-1">{REFUND_POLICY.summary(supportEmail)}</p>
        </div>
      )}
      <p className="mt-4 font-medium text-slate-900">What we keep:</p>
      <p className="mt-2">
        Records of your purchases, without your e-mail address, because we are required to keep them for
        accounting.
      </p>
    </DangerAction>
  );
}
