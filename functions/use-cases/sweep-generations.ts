import { getGeneration } from '../adapters/generations';
import { deleteMarker, dueMarkers } from '../adapters/sweeper';
import { generationTimeBudgetSettings } from '../config/generation-time-budget';
import { logger } from '../common/logger';
import { GENERATION_ERROR_MESSAGES, type GenerationError } from '../domain/generation-errors';
import { isTerminal } from '../domain/generation-status';
import { sweepCutoff, type GenerationTimeBudget } from '../domain/generation-deadline';
import { compensateGeneration } from './compensate-generation';
import { expireHeadshots, retireGeneration, type ExpiryResult } from './expire-headshots';

/** What the sweep needs from the outside world (and the use cases it runs). */
export interface SweepGenerationsPorts {
  dueMarkers: typeof dueMarkers;
  deleteMarker: typeof deleteMarker;
  getGeneration: typeof getGeneration;
  compensateGeneration: (sub: string, id: string, error: GenerationError) => Promise<void>;
  retireGeneration: (sub: string, generationId: string, createdAt: string) => Promise<void>;
  /** The retention pass that follows the sweep (use-cases/expire-headshots.ts). */
  expireHeadshots: (nowMs: number) => Promise<ExpiryResult>;
}

const adapters: SweepGenerationsPorts = {
  dueMarkers,
  deleteMarker,
  getGeneration,
  compensateGeneration: (sub, id, error) => compensateGeneration(sub, id, error),
  retireGeneration: (sub, id, createdAt) => retireGeneration(sub, id, createdAt),
  expireHeadshots: (nowMs) => expireHeadshots(nowMs),
};

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
  ports: SweepGenerationsPorts = adapters,
): Promise<SweepResult> {
  const limit = options.limit ?? 500;
  const cutoff = sweepCutoff(nowMs, options.budget ?? generationTimeBudgetSettings());
  const result: SweepResult = { examined: 0, compensated: [] };
  for await (const marker of ports.dueMarkers(cutoff)) {
    if (result.examined >= limit) break;
    result.examined++;
    const { userId: sub, generationId: id } = marker;
    const generation = await ports.getGeneration(sub, id);
    if (generation && !isTerminal(generation.status)) {
      logger.warn('Sweeper: generation past its deadline and not terminal; compensating', {
        generationId: id,
        status: generation.status,
        deadline: marker.deadline,
      });
      await ports.compensateGeneration(sub, id, {
        code: 'TIMED_OUT',
        message: GENERATION_ERROR_MESSAGES.TIMED_OUT,
      });
      result.compensated.push(id);
    }
    if (generation) await ports.retireGeneration(sub, id, generation.createdAt);
    await ports.deleteMarker(marker);
  }
  return result;
}

/**
 * The scheduled sweep (function `generation-sweeper`, every 5 minutes): {@link sweepStrandedGenerations}, then the
 * retention pass (use-cases/expire-headshots.ts `expireHeadshots`), each logged.
 *
 * @returns what both did: the ids of the generations refunded, and what retention deleted
 */
export async function sweepGenerations(
  nowMs = Date.now(),
  ports: SweepGenerationsPorts = adapters,
): Promise<SweepResult & { expired: ExpiryResult }> {
  const result = await sweepStrandedGenerations(nowMs, {}, ports);
  if (result.compensated.length > 0) logger.warn('Sweeper compensated stranded generations', { ...result });
  else logger.info('Sweep done', { examined: result.examined });
  const expired = await ports.expireHeadshots(nowMs);
  if (expired.generations > 0) logger.info('Headshots past their retention deleted', { ...expired });
  return { ...result, expired };
}
