import { getGeneration } from '../adapters/generations';
import { deleteMarker, dueMarkers, SWEEP_GRACE_MS } from '../adapters/sweeper';
import { logger } from '../common/logger';
import { GENERATION_ERROR_MESSAGES, isTerminal } from '../domain/generation';
import { compensateGeneration } from './compensate-generation';

/** What one sweep did. */
export interface SweepResult {
  /** Markers past their deadline that were read. */
  examined: number;
  /** Generations that were still open and got compensated (their ids). */
  compensated: string[];
}

/**
 * Nothing stranded (docs/architecture.md §8 "Money"): reconciles every generation whose deadline (plus
 * {@link SWEEP_GRACE_MS}) has passed by `nowMs`. A generation still not terminal gets the same idempotent
 * compensation as a failed execution (close it, refund every undelivered slot, mark it failed), whatever stranded
 * it: a function that died between spending and StartExecution, a compensator that failed twice, an execution that
 * never ended. Markers are removed as they are read. Idempotent; safe to run concurrently with itself.
 *
 * @param options.limit at most this many markers per run (the next run continues), default 500
 */
export async function sweepStrandedGenerations(
  nowMs = Date.now(),
  options: { limit?: number } = {},
): Promise<SweepResult> {
  const limit = options.limit ?? 500;
  const cutoff = new Date(nowMs - SWEEP_GRACE_MS).toISOString();
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
    await deleteMarker(marker);
  }
  return result;
}
