import {
  beginAccountDeletion,
  cancelAccountDeletion,
  finishAccountDeletion,
  moveAccountingToPseudonym,
  recentCheckoutSessionIds,
} from '../adapters/account-deletion';
import { expireCheckoutSession } from '../adapters/stripe/checkout-sessions';
import { describeStripeError, StripeNotConfiguredError } from '../adapters/stripe/client';
import { deleteUserPoolUser } from '../adapters/user-pool';
import { callerHash } from '../common/caller-hash';
import { logger } from '../common/logger';
import { GenerationInProgressError } from '../domain/errors';
import {
  accountTeamsAdapters,
  assertAccountMayLeaveTeams,
  leaveAllTeams,
  type AccountTeamsPorts,
} from './account-teams';
import {
  deleteUserData,
  deleteUserDataAdapters,
  type DeletedUserData,
  type DeleteUserDataPorts,
} from './delete-my-data';

/**
 * What deleting an account needs from the outside world: the deletion's table side, Stripe (open sessions), the
 * user pool, the person's teams, and everything removing the user's data needs.
 */
export interface DeleteAccountPorts extends DeleteUserDataPorts, AccountTeamsPorts {
  beginAccountDeletion: typeof beginAccountDeletion;
  cancelAccountDeletion: typeof cancelAccountDeletion;
  recentCheckoutSessionIds: typeof recentCheckoutSessionIds;
  expireCheckoutSession: typeof expireCheckoutSession;
  moveAccountingToPseudonym: typeof moveAccountingToPseudonym;
  deleteUserPoolUser: typeof deleteUserPoolUser;
  finishAccountDeletion: typeof finishAccountDeletion;
}

const adapters: DeleteAccountPorts = {
  ...deleteUserDataAdapters,
  ...accountTeamsAdapters,
  beginAccountDeletion,
  cancelAccountDeletion,
  recentCheckoutSessionIds,
  expireCheckoutSession,
  moveAccountingToPseudonym,
  deleteUserPoolUser,
  finishAccountDeletion,
};

/** Who is deleted: the Cognito `sub` (the table's user id) and the user pool's username for AdminDeleteUser. */
export interface AccountToDelete {
  sub: string;
  /** The ID token's `cognito:username` (in the cloud a UUID equal to the sub; an e-mail alias also works). */
  username: string;
}

/** What {@link deleteAccount} did. */
export interface DeletedAccount {
  /** Photos, headshots and generations removed (items and S3 objects), as `DELETE /api/me/data` counts them. */
  deleted: DeletedUserData;
  /** Credits moved with the ledger to the pseudonymous partition (0 on a repeated call: nothing left to do). */
  creditsKept: number;
}

/**
 * "Delete my account" (docs/architecture.md §8 "Privacy"; docs/product-spec.md §6, privacy), in an order that a
 * retry can resume from any point:
 *
 * 0. refused while they own a team that others are in (docs/teams.md "Privacy and retention": they hand it over
 *    first); nothing is deleted then;
 * 1. `deletingAt` on the user item: from now on the spend transaction of any new generation fails, so nothing can
 *    race the deletion (adapters/generation-guard.ts);
 * 2. every photo, headshot (with its shares with teams), generation and photo check — items and S3 objects — as
 *    "Delete my data" removes them; refused while a generation may still run (then `deletingAt` is removed again and
 *    nothing was deleted);
 * 2b. they leave every team (a team they own alone is closed: use-cases/account-teams.ts);
 * 3. every Checkout Session of the last 24 h that is still open is expired, so nobody pays for credits of an
 *    account that no longer exists;
 * 4. the ledger, its markers, the purchases and pending purchases move to a pseudonymous id with the balance
 *    (credits = Σ ledger holds there; refunds and disputes of old payments still find them); the user item becomes a
 *    tombstone without e-mail or name, so a still-valid token cannot recreate the account;
 * 5. the Cognito user is deleted (AdminDeleteUser);
 * 6. quota counters go and the link to the pseudonym is forgotten.
 *
 * The once-per-person sign-up bonus marker stays, so signing up again with the same e-mail gives 0 free credits.
 *
 * @param now the deletion time (tests)
 * @throws {GenerationInProgressError} (about the account) while a generation of the user may still be running:
 *   nothing was deleted
 * @throws {TeamOwnerCannotDeleteAccountError} while they own a team others are in: nothing was deleted
 */
export async function deleteAccount(
  account: AccountToDelete,
  now = new Date(),
  ports: DeleteAccountPorts = adapters,
): Promise<DeletedAccount> {
  const { sub } = account;
  await assertAccountMayLeaveTeams(sub, ports);
  const state = await ports.beginAccountDeletion(sub, now);
  if (!state) return { deleted: { headshots: 0, generations: 0, objects: 0 }, creditsKept: 0 };
  let deleted: DeletedUserData;
  try {
    deleted = await deleteUserData(sub, now.getTime(), ports);
  } catch (error) {
    if (!(error instanceof GenerationInProgressError)) throw error;
    if (!state.deletedAt) await ports.cancelAccountDeletion(sub, state.pseudonymId);
    throw new GenerationInProgressError(error.generationId, 'account');
  }
  await leaveAllTeams(sub, now.toISOString(), ports);
  await expireOpenCheckoutSessions(sub, now, ports);
  const creditsKept = await ports.moveAccountingToPseudonym(sub, state.pseudonymId, now);
  await ports.deleteUserPoolUser(account.username);
  await ports.finishAccountDeletion(sub);
  // The pseudonym is never logged next to the sub: that would link them again.
  logger.info('Account deleted', { caller: callerHash(sub), ...deleted, creditsKept });
  return { deleted, creditsKept };
}

/**
 * Expires the caller's Checkout Sessions that may still be paid. Stripe refuses to expire one that is complete or
 * already expired: that answer, like a Stripe outage, only logs (a session paid after the deletion is still
 * credited and recorded, on the tombstone, and can be refunded).
 */
async function expireOpenCheckoutSessions(
  sub: string,
  now: Date,
  ports: Pick<DeleteAccountPorts, 'recentCheckoutSessionIds' | 'expireCheckoutSession'>,
): Promise<void> {
  for (const sessionId of await ports.recentCheckoutSessionIds(sub, now.getTime())) {
    try {
      await ports.expireCheckoutSession(sessionId);
    } catch (error) {
      if (error instanceof StripeNotConfiguredError) return;
      logger.info('Checkout Session not expired', {
        checkoutSessionId: sessionId,
        ...describeStripeError(error),
      });
    }
  }
}
