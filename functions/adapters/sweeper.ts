import { DeleteCommand, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { logger } from '../common/logger';
import { loadConfig } from '../config';
import { GENERATION_ERROR_MESSAGES, isTerminal } from '../domain/generation';
import { documentClient } from './aws';
import { compensateGeneration, getGeneration } from './generations';
import { SWEEP_PK, sweepSk } from './keys';

/**
 * Nothing stranded (docs/architecture.md §8 "Money"): every generation gets a sweep marker in its creation
 * transaction — `SWEEP#generations` / `<deadline ISO>#<sub>#<id>` — and a scheduled sweeper (EventBridge Scheduler,
 * every 5 minutes) reads the markers whose deadline has passed, in deadline order with one Query (no Scan).
 * A generation still not terminal then gets the same idempotent compensation as a failed execution (close it,
 * refund every undelivered slot, mark it failed), whatever stranded it: a function that died between spending and
 * StartExecution, a compensator that failed twice, an execution that never ended. Markers of finished generations
 * are removed as they are read.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => loadConfig().TABLE_NAME;
/** Past the deadline a generation gets this long to end on its own before the sweeper steps in. */
export const SWEEP_GRACE_MS = 60_000;

/** The deadline of a generation created at `createdAt` (ISO 8601): `GENERATION_DEADLINE_MINUTES` later. */
export function generationDeadline(
  createdAt: string,
  deadlineMinutes = loadConfig().GENERATION_DEADLINE_MINUTES,
): string {
  return new Date(Date.parse(createdAt) + deadlineMinutes * 60_000).toISOString();
}

/** The sweep marker of a new generation, for its creation transaction. */
export function sweepMarkerPut(sub: string, generationId: string, createdAt: string): TransactItem {
  const deadline = generationDeadline(createdAt);
  return {
    Put: {
      TableName: table(),
      Item: {
        PK: SWEEP_PK,
        SK: sweepSk(deadline, sub, generationId),
        type: 'sweepMarker',
        userId: sub,
        generationId,
        deadline,
        // A week after the deadline DynamoDB drops a marker the sweeper somehow never reached.
        expiresAt: Math.floor(Date.parse(deadline) / 1000) + 7 * 86_400,
      },
      ConditionExpression: 'attribute_not_exists(SK)',
    },
  };
}

/** What one sweep did. */
export interface SweepResult {
  /** Markers past their deadline that were read. */
  examined: number;
  /** Generations that were still open and got compensated (their ids). */
  compensated: string[];
}

/**
 * Reconciles every generation whose deadline (plus {@link SWEEP_GRACE_MS}) has passed by `nowMs`: compensates the
 * ones still not terminal and removes their markers. Idempotent; safe to run concurrently with itself.
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
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND SK < :cutoff',
        ExpressionAttributeValues: { ':pk': SWEEP_PK, ':cutoff': cutoff },
        ConsistentRead: true,
        Limit: Math.min(100, limit - result.examined),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const marker of page.Items ?? []) {
      result.examined++;
      const sub = String(marker.userId);
      const id = String(marker.generationId);
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
      await documentClient().send(
        new DeleteCommand({ TableName: table(), Key: { PK: marker.PK, SK: marker.SK } }),
      );
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor && result.examined < limit);
  return result;
}
