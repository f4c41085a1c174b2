import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { generationSettings } from '../config/generation';
import { storageSettings } from '../config/storage';
import { SWEEP_PK, sweepSk } from './support/keys';
import { deleteMarkerItem, dueMarkerItems } from './support/due-markers';

/**
 * Nothing stranded (docs/architecture.md §8 "Money"): every generation gets a sweep marker in its creation
 * transaction — `SWEEP#generations` / `<deadline ISO>#<sub>#<id>` — and a scheduled sweeper (EventBridge Scheduler,
 * every 5 minutes: functions/use-cases/sweep-generations.ts) reads the markers whose deadline is before its cutoff
 * (domain/generation-deadline.ts `sweepCutoff`), in deadline order with one Query (no Scan). This module holds the
 * markers.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const table = () => storageSettings().TABLE_NAME;
/**
 * The admission deadline of a generation created at `createdAt` (ISO 8601): `GENERATION_DEADLINE_MINUTES` later. The
 * marker is keyed by it; the sweeper acts only the budget's `sweepGraceMs` after it (domain/generation-deadline.ts).
 */
export function generationDeadline(
  createdAt: string,
  deadlineMinutes = generationSettings().GENERATION_DEADLINE_MINUTES,
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

/** A sweep marker whose deadline has passed: which generation of which user, and its key. */
export interface DueMarker {
  PK: string;
  SK: string;
  userId: string;
  generationId: string;
  deadline: string;
}

/**
 * The sweep markers whose deadline is before `cutoff` (ISO 8601), in deadline order with one Query per page (no
 * Scan); stop iterating to read no more.
 */
export async function* dueMarkers(cutoff: string): AsyncGenerator<DueMarker> {
  for await (const { due, ...marker } of dueMarkerItems(SWEEP_PK, cutoff, 'deadline'))
    yield { ...marker, deadline: due };
}

/** Removes a marker once its generation is terminal (or was just compensated). */
export async function deleteMarker(marker: Pick<DueMarker, 'PK' | 'SK'>): Promise<void> {
  await deleteMarkerItem(marker);
}
