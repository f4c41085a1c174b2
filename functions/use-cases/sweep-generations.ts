import { getGeneration } from '../adapters/generations';
import { deleteMarker, dueMarkers } from '../adapters/sweeper';
import { generationTimeBudgetSettings } from '../config/generation-time-budget';
import { logger } from '../common/logger';
import { GENERATION_ERROR_MESSAGES } from '../domain/generation-errors';
import { isTerminal } from '../domain/generation-status';
import { sweepCutoff, type GenerationTimeBudget } from '../domain/generation-deadline';
import { compensateGeneration } from './compensate-generation';
import { retireGeneration } from './expire-headshots';

/** What one sweep did. */
export interface SweepResult {
  /** Markers past their deadline that were read. */
  examined: number;
  /** Generations that were still open and got compensated (their ids). */
  compensated: string[];
}

/**
 * Nothing stranded (docs/architecture.md §8 "Money"): reconciles every generation that no execution can still be
 * working on by `nowMs` — its deadline, plus the slot's worst case for a call admitted just before it, the finishing
 * steps and a margin (domain/generation-deadline.ts `sweepCutoff`); sooner would refund and delete headshots that
 * are still being delivered. A generation still not terminal gets the same idempotent
 * compensation as a failed execution (close it, refund every undelivered slot, mark it failed), whatever stranded
 * it: a function that died between spending and StartExecution, a compensator that failed twice, an execution that
 * never ended. Every generation swept is retired (use-cases/expire-headshots.ts `retireGeneration`: its reference
 * descriptor deleted, its headshots' retention marker written). Markers are removed as they are read. Idempotent;
 * safe to run concurrently with itself.
 *
 * @param options.limit at most this many markers per run (the next run continues), default 500
 * @param options.budget the time budget; default this environment's (config/generation-time-budget.ts)
 */
export async function sweepStrandedGenerations(
  nowMs = Date.now(),
  options: { limit?: number; budget?: GenerationTimeBudget } = {},
): Promise<SweepResult> {
  const limit = options.limit ?? 500;
  const cutoff = sweepCutoff(nowMs, options.budget ?? generationTimeBudgetSettings());
  const result: SweepResult = { examined: 0, compensated: [] };
  for await (const marker of dueMarkers(cutoff)) {
    if (result.examined >= limit) break;
    result.examined++;
    const { userId: sub, generationId: id } = marker;
    const generation = await getGeneration(sub, id);
    if (generation && !isTerminal(generation.status)) {
      logger.warn('Sweeper: generation past its deadline and not terminal; compensating', {
        generationId: id,
        status: generation.status,
        deadline: marker.deadline,
      });
      await compensateGeneration(sub, id, {
        code: 'TIMED_OUT',
        message: GENERATION_ERROR_MESSAGES.TIMED_OUT,
      });
      result.compensated.push(id);
    }
    if (generation) await retireGeneration(sub, id, generation.createdAt);
    await deleteMarker(marker);
  }
  return result;
}
