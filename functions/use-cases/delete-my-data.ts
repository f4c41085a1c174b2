import { deleteGenerationItems, listGenerationSummaries } from '../adapters/generations';
import { deleteAllHeadshotItems } from '../adapters/headshots/changes';
import { deletePhotoChecks } from '../adapters/photo-checks';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { deleteUserObjects } from '../adapters/user-objects';
import { deleteWizardDraft } from '../adapters/wizard-drafts';
import { logger } from '../common/logger';
import type { DeletedData } from '../contracts';
import { GenerationInProgressError } from '../domain/errors';
import { GENERATION_ERROR_MESSAGES } from '../domain/generation-errors';
import { isTerminal } from '../domain/generation-status';
import { mayStillRun } from '../domain/generation-deadline';
import { generationTimeBudgetSettings } from '../config/generation-time-budget';
import { compensateGeneration } from './compensate-generation';
import { withdrawShares } from './withdraw-shares';

/**
 * What removing a user's data needs from the outside world: their generations, headshots and their shares with
 * teams, photo checks, wizard draft (it names their uploads and holds small previews of them), objects.
 */
export interface DeleteUserDataPorts {
  listGenerationSummaries: typeof listGenerationSummaries;
  /** Takes every headshot of theirs out of the teams it is shared with (use-cases/withdraw-shares.ts). */
  withdrawShares: typeof withdrawShares;
  /** Refunds the undelivered slots of a generation no execution can still finish, and closes it. */
  compensateGeneration: typeof compensateGeneration;
  deleteAllHeadshotItems: typeof deleteAllHeadshotItems;
  deleteGenerationItems: typeof deleteGenerationItems;
  deletePhotoChecks: typeof deletePhotoChecks;
  deleteWizardDraft: typeof deleteWizardDraft;
  deleteUserObjects: typeof deleteUserObjects;
}

/** What `DELETE /api/me/data` needs besides: the caller's hourly quota. */
export interface DeleteMyDataPorts extends DeleteUserDataPorts {
  consumeQuota: typeof consumeQuota;
}

/** The real adapters of {@link DeleteUserDataPorts} (account deletion's ports extend them). */
export const deleteUserDataAdapters: DeleteUserDataPorts = {
  listGenerationSummaries,
  withdrawShares,
  compensateGeneration,
  deleteAllHeadshotItems,
  deleteGenerationItems,
  deletePhotoChecks,
  deleteWizardDraft,
  deleteUserObjects,
};

const adapters: DeleteMyDataPorts = { ...deleteUserDataAdapters, consumeQuota };

/** What was deleted: headshot items, generation items and S3 objects. */
export type DeletedUserData = DeletedData['deleted'];

/**
 * "Delete my data", `DELETE /api/me/data` (docs/architecture.md §3, docs/product-spec.md §6 privacy): counts the
 * request against the caller's hourly quota (each run lists every object of the caller), then removes every photo
 * and everything made from them ({@link deleteUserData}). The account, its balance, purchases and ledger stay.
 *
 * @param now epoch ms (tests)
 * @returns counts of headshot items, generation items and S3 objects deleted (all 0 on a repeated call)
 * @throws {QuotaExceededError} past `QUOTA_DATA_DELETIONS_PER_HOUR` (nothing deleted); {AccountDeletingError} /
 *   {AccountDeletedError} for an account being or already deleted; {GenerationInProgressError} while a generation
 *   may still be running (nothing deleted)
 */
export async function deleteMyData(
  sub: string,
  now = Date.now(),
  ports: DeleteMyDataPorts = adapters,
): Promise<DeletedUserData> {
  await ports.consumeQuota({ sub }, quotaRules().dataDeletions);
  return deleteUserData(sub, now, ports);
}

/**
 * Removes every photo of `sub` and everything made from them — their shares with teams (issue 37: a team never links
 * to a deleted file; taken out before the headshots and again after, since a share needs its headshot item),
 * headshot and generation items, cached photo checks
 * (they hold face descriptors), the wizard's draft (it holds small previews of the photos), every object under `uploads/<sub>/` and `results/<sub>/` — for "delete my data" and
 * "delete my account" alike. The user item, the ledger, its idempotency markers and the purchases stay: they are the
 * accounting of credits bought and spent.
 *
 * Refused while a generation may still be running, since its execution would go on writing images and refunds
 * for items that are gone. "May still be running" follows the one time budget (domain/generation-deadline.ts): the
 * deadline, a call admitted just before it running its worst case, and the finishing steps — about 40 minutes with
 * the defaults. A generation that never reached a final status and is older than any execution can run
 * ({@link mayStillRun}) is compensated first — its undelivered slots refunded — so no credit owed is lost with it.
 *
 * Items go first, then objects: if a step fails, calling again finishes the job (every step is idempotent).
 *
 * @param now epoch ms
 * @returns counts of headshot items, generation items and S3 objects deleted
 * @throws {GenerationInProgressError} while a generation may still be running (nothing deleted); {Error} for a
 *   user id that could not be a Cognito `sub` (nothing deleted: it would name other prefixes)
 */
export async function deleteUserData(
  sub: string,
  now: number,
  ports: DeleteUserDataPorts = deleteUserDataAdapters,
): Promise<DeletedUserData> {
  if (!/^[A-Za-z0-9-]+$/.test(sub)) throw new Error('Refusing to delete data of an unexpected user id');
  const generations = await ports.listGenerationSummaries(sub);
  const budget = generationTimeBudgetSettings();
  for (const generation of generations) {
    if (isTerminal(generation.status)) continue;
    if (mayStillRun(generation.createdAt, now, budget)) throw new GenerationInProgressError(generation.id);
    logger.warn('Compensating an unfinished generation before deleting the user data', {
      generationId: generation.id,
    });
    await ports.compensateGeneration(sub, generation.id, {
      code: 'TIMED_OUT',
      message: GENERATION_ERROR_MESSAGES.TIMED_OUT,
    });
  }
  await ports.withdrawShares(sub);
  const headshots = await ports.deleteAllHeadshotItems(sub);
  await ports.withdrawShares(sub);
  await ports.deleteGenerationItems(generations.map(({ PK, SK }) => ({ PK, SK })));
  await ports.deletePhotoChecks(sub);
  await ports.deleteWizardDraft(sub);
  const objects = await ports.deleteUserObjects(sub);
  return { headshots, generations: generations.length, objects };
}
