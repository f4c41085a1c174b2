import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../../common/logger';
import { etaSeconds } from '../../domain/provider-queue';
import {
  counterKeys,
  counterRanges,
  oldestLiveKey,
  placeSk,
  queuePosition,
  slotsAhead,
} from '../../domain/provider-queue-positions';
import { FREE_LANE_OFFSET_MS, keyTime } from '../../domain/provider-queue-order';
import { documentClient } from '../support/aws';
import { generationSk, userPk } from '../support/keys';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../support/transactions';
import { counterPk, deadlineMs, expiresAt, headStartMs, queueLimits, queuePk, table } from './settings';
import { readState } from './state';
import { countCapacity } from './usage';

/**
 * The position of waiting generations in the provider queue (docs/architecture.md §4): one place entry per waiting
 * generation in `<base>#PLACE` and counters of waiting generations per level in `<base>#PLACE#<level ms>`
 * (domain/provider-queue-positions.ts), which make the wizard's position exact at a fixed cost.
 */

/** A generation's registration in the position count, as the use case computed it. */
export interface PositionRegistration {
  userId: string;
  generationId: string;
  /** Its order key, epoch ms. */
  orderKey: number;
  /** Its position when it joins (1 = next up) and the estimated wait in seconds: the generation item's `queue`. */
  position: number;
  etaSeconds: number;
  /** Epoch ms. */
  now: number;
}

/**
 * Registers a generation's position: its place entry `P#<key>#<id>` and +1 on its counter at every level, with the
 * generation item's `queue` — in one transaction, only while none of its slots has been admitted (`admittedAt`), so a
 * generation is counted once and never after it started.
 *
 * @returns `false` when it was registered by an earlier try, or already runs (nothing written)
 */
export async function registerPosition(registration: PositionRegistration): Promise<boolean> {
  const { orderKey: key, generationId, userId, position, now } = registration;
  const expires = expiresAt(keyTime(key) + deadlineMs() + headStartMs(), 0);
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: {
                PK: queuePk('PLACE'),
                SK: placeSk({ orderKey: key, generationId }),
                expiresAt: expires,
              },
              ConditionExpression: 'attribute_not_exists(SK)',
            },
          },
          ...counterKeys(key).map(({ levelMs, sk }) => ({
            Update: {
              TableName: table(),
              Key: { PK: counterPk(levelMs), SK: sk },
              UpdateExpression: 'ADD waiting :one SET expiresAt = :expires',
              ExpressionAttributeValues: { ':one': 1, ':expires': expires },
            },
          })),
          {
            Update: {
              TableName: table(),
              Key: { PK: userPk(userId), SK: generationSk(generationId) },
              UpdateExpression: 'SET #queue = :queue',
              ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(admittedAt)',
              ExpressionAttributeNames: { '#queue': 'queue' },
              ExpressionAttributeValues: {
                ':queue': {
                  position,
                  etaSeconds: registration.etaSeconds,
                  at: new Date(now).toISOString(),
                  orderKey: key,
                },
              },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('place', 'write', result.ConsumedCapacity);
    return true;
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
    return false;
  }
}

/**
 * Takes a generation out of the position count once it runs or leaves: deletes its entry and, only if it was there,
 * −1 on its counter at every level (one transaction), so the count stays exact whoever calls it and however often.
 */
export async function leavePosition(key: number, generationId: string): Promise<void> {
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table(),
              Key: { PK: queuePk('PLACE'), SK: placeSk({ orderKey: key, generationId }) },
              ConditionExpression: 'attribute_exists(SK)',
            },
          },
          ...counterKeys(key).map(({ levelMs, sk }) => ({
            Update: {
              TableName: table(),
              Key: { PK: counterPk(levelMs), SK: sk },
              UpdateExpression: 'ADD waiting :minus',
              ExpressionAttributeValues: { ':minus': -1 },
            },
          })),
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('place', 'write', result.ConsumedCapacity);
  } catch (error) {
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
  }
}

/**
 * The generation's exact position in the queue (1 = next up): the waiting generations counted before its own bucket at each
 * level of counters (domain/provider-queue-positions.ts `counterRanges`: at most (deadline + head start) / 10 s counters at the
 * top, 10 or 100 below) plus those with the very same order key ahead of it — a few small eventually consistent
 * Queries, in parallel, whatever the length of the queue.
 */
export async function positionOf(key: number, generationId: string): Promise<number> {
  const oldest = oldestLiveKey(Date.now(), deadlineMs(), headStartMs());
  const sums = counterRanges(key, oldest).map(async ({ levelMs, from, to }) => {
    let sum = 0;
    for await (const page of queryPages({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': counterPk(levelMs), ':from': from, ':to': to },
      ProjectionExpression: 'waiting',
      ReturnConsumedCapacity: 'TOTAL',
    })) {
      countCapacity('place', 'read', page.ConsumedCapacity);
      sum += (page.Items ?? []).reduce((n, item) => n + Math.max(0, Number(item.waiting ?? 0)), 0);
    }
    return sum;
  });
  const mine = placeSk({ orderKey: key, generationId });
  const same = documentClient()
    .send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': queuePk('PLACE'),
          ':from': placeSk({ orderKey: key, generationId: '' }),
          ':to': mine,
        },
        ProjectionExpression: 'SK',
        ReturnConsumedCapacity: 'TOTAL',
      }),
    )
    .then((result) => {
      countCapacity('place', 'read', result.ConsumedCapacity);
      return (result.Items ?? []).filter((item) => item.SK !== mine).length;
    });
  const [before, ahead] = await Promise.all([Promise.all(sums), same]);
  return queuePosition(
    before.reduce((a, b) => a + b, 0),
    ahead,
  );
}

/**
 * The position a waiting generation shows (`GET /api/generations/{id}`): computed now from the counters, with the
 * estimated wait. `undefined` when it cannot be computed (then the last recorded position is shown).
 */
export async function livePlace(
  key: number,
  generationId: string,
): Promise<{ position: number; etaSeconds: number } | undefined> {
  try {
    const [position, state] = await Promise.all([positionOf(key, generationId), readState()]);
    const eta = etaSeconds(state, queueLimits(), slotsAhead(position), Date.now());
    return { position, etaSeconds: eta };
  } catch (error) {
    logger.warn('Could not compute the position in the queue', { generationId, error: error as Error });
    return undefined;
  }
}

/**
 * Marks the generation running (`admittedAt`, `queue` position 0) the first time one of its slots is admitted, and
 * takes it out of the position count. Conditional, so later slots cost one failed condition check and nothing else.
 */
export async function markAdmitted(ticket: {
  userId: string;
  generationId: string;
  orderKey: number;
  now: number;
}): Promise<void> {
  const at = new Date(ticket.now).toISOString();
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: userPk(ticket.userId), SK: generationSk(ticket.generationId) },
        UpdateExpression: 'SET admittedAt = :at, #queue = :queue',
        ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(admittedAt)',
        ExpressionAttributeNames: { '#queue': 'queue' },
        ExpressionAttributeValues: { ':at': at, ':queue': { position: 0, etaSeconds: 0, at } },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('admitted', 'write', result.ConsumedCapacity);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    return;
  }
  await leavePosition(ticket.orderKey, ticket.generationId);
}

/**
 * Drops the place entries of generations older than any still in the queue (`oldest`, epoch ms: domain
 * `oldestLiveKey`) — in the paid lane, and in the free lane at the same start (domain `FREE_LANE_OFFSET_MS`) — each
 * with −1 on its counters: a generation whose slots all left without being admitted (refused, expired) would
 * otherwise count forever.
 *
 * @returns how many entries were dropped
 */
export async function dropStalePositions(oldest: number): Promise<number> {
  let dropped = 0;
  const lanes = [
    { from: 'P#', to: placeSk({ orderKey: oldest, generationId: '' }) },
    {
      from: placeSk({ orderKey: FREE_LANE_OFFSET_MS, generationId: '' }),
      to: placeSk({ orderKey: FREE_LANE_OFFSET_MS + oldest, generationId: '' }),
    },
  ];
  for (const { from, to } of lanes) {
    for await (const page of queryPages({
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': queuePk('PLACE'), ':from': from, ':to': to },
      ProjectionExpression: 'SK',
      ReturnConsumedCapacity: 'TOTAL',
    })) {
      countCapacity('reap', 'read', page.ConsumedCapacity);
      for (const entry of page.Items ?? []) {
        const [, key, generationId] = String(entry.SK).split('#');
        await leavePosition(Number(key), generationId!);
        dropped++;
      }
    }
  }
  return dropped;
}
