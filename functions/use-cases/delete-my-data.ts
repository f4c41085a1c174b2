import { deleteGenerationItems, listGenerationSummaries } from '../adapters/generations';
import { deleteAllHeadshotItems } from '../adapters/headshots/changes';
import { deletePhotoChecks } from '../adapters/photo-checks';
import { deleteUserObjects } from '../adapters/user-objects';
import { logger } from '../common/logger';
import type { DeletedData } from '../contracts';
import { GenerationInProgressError } from '../domain/errors';
import { GENERATION_ERROR_MESSAGES } from '../domain/generation-errors';
import { isTerminal } from '../domain/generation-status';
import { mayStillRun } from '../domain/generation-deadline';
import { generationTimeBudgetSettings } from '../config/generation-time-budget';
import { compensateGeneration } from './compensate-generation';

/**
 * "Delete my data" (docs/architecture.md §3 `DELETE /me/data`, docs/product-spec.md §6 privacy): every photo of
 * `sub` and everything made from them — headshot and generation items, cached photo checks, every object under
 * `uploads/<sub>/` and `results/<sub>/`. The user item, the ledger, its idempotency markers and the purchases stay:
 * they are the accounting of credits bought and spent.
 *
 * Refused while a generation may still be running, since its execution would go on writing images and refunds
 * for items that are gone. "May still be running" follows the one time budget (domain/generation-deadline.ts): the
 * deadline, a call admitted just before it running its worst case, and the finishing steps — about 40 minutes with
 * the defaults. A generation that never reached a final status and is older than any execution can run
 * ({@link mayStillRun}) is compensated first — its undelivered slots refunded — so no credit owed is lost with it.
 *
 * Items go first, then objects: if a step fails, calling again finishes the job (every step is idempotent).
 *
 * @param now epoch ms (tests)
 * @returns counts of headshot items, generation items and S3 objects deleted
 * @throws {GenerationInProgressError} while a generation may still be running (nothing deleted)
 */
export async function deleteMyData(sub: string, now = Date.now()): Promise<DeletedData['deleted']> {
  if (!/^[A-Za-z0-9-]+$/.test(sub)) throw new Error('Refusing to delete data of an unexpected user id');
  const generations = await listGenerationSummaries(sub);
  const budget = generationTimeBudgetSettings();
  for (const generation of generations) {
    if (isTerminal(generation.status)) continue;
    if (mayStillRun(generation.createdAt, now, budget)) throw new GenerationInProgressError(generation.id);
    logger.warn('Compensating an unfinished generation before deleting the user data', {
      generationId: generation.id,
    });
    await compensateGeneration(sub, generation.id, {
      code: 'TIMED_OUT',
      message: GENERATION_ERROR_MESSAGES.TIMED_OUT,
    });
  }
  const headshots = await deleteAllHeadshotItems(sub);
  await deleteGenerationItems(generations.map(({ PK, SK }) => ({ PK, SK })));
  await deletePhotoChecks(sub);
  const objects = await deleteUserObjects(sub);
  return { headshots, generations: generations.length, objects };
}
