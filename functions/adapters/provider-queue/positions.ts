import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { logger } from '../../common/logger';
import { countMetric } from '../../common/metrics';
import { namedError } from '../../domain/named-error';
import {
  counterKeys,
  counterRanges,
  oldestLiveKey,
  orderKey,
  placeInLine,
  placeSk,
  priorityStanding,
  ticketSk,
  type LinePriority,
  type PurchaseStanding,
} from '../../domain/provider-queue-order';
import { etaSeconds, initialQueueState, type QueueState } from '../../domain/provider-queue';
import { HEADSHOTS_PER_GENERATION } from '../../domain/slots';
import { documentClient } from '../support/aws';
import { generationSk, userPk } from '../support/keys';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../support/transactions';
import {
  counterPk,
  deadlineMs,
  expiresAt,
  headStartMs,
  queueLimits,
  queuePk,
  STATE_SK,
  table,
} from './settings';
import { countCapacity } from './usage';

/**
 * The line of the provider queue (docs/architecture.md §4): one ticket per waiting slot in `<base>#LINE`, sorted by
 * order key (domain/provider-line.ts), carrying the waiting Task's token; and the place-in-line entries (`<base>#PLACE`)
 * and counters (`<base>#PLACE#<level ms>`) that make the wizard's place exact at a fixed cost.
 */

/** No call of the generation may start any more: its deadline passed. The slot is refunded. */
export class AdmissionDeadlineError extends namedError('AdmissionDeadline') {}

/** One slot entering the line (EnterLine's input, with its Task token). */
export interface LineEntry {
  /** The waiting Task's token (`$$.Task.Token`): the dispatcher resumes the Task with it. */
  taskToken: string;
  generationId: string;
  userId: string;
  slot: number;
  /** The slot's index in its generation's Map: index 0 registers the generation's place in line. */
  round: number;
  /** The slot's provider calls so far (0 for its first): one lease per call. */
  call: number;
  /** When the generation's execution started (ISO 8601): its order key and deadline count from here. */
  startedAt: string;
}

/**
 * The customer's class at this moment, from their purchase items (domain/provider-line.ts `priorityStanding`): a
 * refund, a dispute or a 100 %-off purchase takes effect at the next slot that enters the line.
 */
export async function currentPriority(sub: string): Promise<LinePriority> {
  const purchases: PurchaseStanding[] = [];
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :purchase)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':purchase': 'PURCHASE#' },
    ProjectionExpression: 'packId, credits, amountTotal, creditsReversed, #status',
    ExpressionAttributeNames: { '#status': 'status' },
  })) {
    purchases.push(...((page.Items ?? []) as PurchaseStanding[]));
  }
  return priorityStanding(purchases);
}

/**
 * Puts the slot's ticket (ONE item; a retried EnterLine of the same call overwrites it with its new token, so the
 * slot never waits twice) and, for the generation's first slot, registers its place in line.
 *
 * @param now epoch ms (tests)
 * @returns the ticket's order key
 * @throws {AdmissionDeadlineError} the generation's deadline has passed: no ticket is put
 */
export async function enterLine(entry: LineEntry, priority: LinePriority, now = Date.now()): Promise<number> {
  const started = Date.parse(entry.startedAt);
  const deadline = started + deadlineMs();
  if (now >= deadline) {
    throw new AdmissionDeadlineError(
      `Generation ${entry.generationId} passed its deadline before slot ${entry.slot} could be generated`,
    );
  }
  const key = orderKey(started, priority, headStartMs());
  if (entry.round === 0 && entry.call === 0) await registerPlace(entry, key, now);
  const put = await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        PK: queuePk('LINE'),
        SK: ticketSk({ orderKey: key, generationId: entry.generationId, slot: entry.slot }),
        taskToken: entry.taskToken,
        generationId: entry.generationId,
        userId: entry.userId,
        slot: entry.slot,
        call: entry.call,
        deadline,
        enqueuedAt: now,
        expiresAt: expiresAt(deadline, 0),
      },
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity('enter', 'write', put.ConsumedCapacity);
  return key;
}

/**
 * Registers a generation's place: its entry `P#<key>#<id>` and +1 on its counter at every level, with the generation item's
 * `queue` — in one transaction, only while none of its slots has been admitted (`admittedAt`), so a generation is
 * counted once and never after it started.
 */
async function registerPlace(entry: LineEntry, key: number, now: number): Promise<void> {
  const expires = expiresAt(key + deadlineMs() + headStartMs(), 0);
  const position = await placeOf(key, entry.generationId);
  const eta = etaSeconds(await readState(), queueLimits(), (position - 1) * HEADSHOTS_PER_GENERATION, now);
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table(),
              Item: {
                PK: queuePk('PLACE'),
                SK: placeSk({ orderKey: key, generationId: entry.generationId }),
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
              Key: { PK: userPk(entry.userId), SK: generationSk(entry.generationId) },
              UpdateExpression: 'SET #queue = :queue',
              ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(admittedAt)',
              ExpressionAttributeNames: { '#queue': 'queue' },
              ExpressionAttributeValues: {
                ':queue': { position, etaSeconds: eta, at: new Date(now).toISOString(), orderKey: key },
              },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('place', 'write', result.ConsumedCapacity);
    // The dashboard's queue: how long the line is when a generation joins it.
    countMetric('QueuePosition', position);
  } catch (error) {
    // Registered by an earlier try, or already running: nothing to count.
    if (!cancellationCodes(error)?.includes('ConditionalCheckFailed')) throw error;
  }
}

/**
 * Takes a generation out of the place count once it runs or leaves: deletes its entry and, only if it was there,
 * −1 on its counter at every level (one transaction), so the count stays exact whoever calls it and however often.
 */
export async function leavePlace(key: number, generationId: string): Promise<void> {
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
 * The generation's exact place in line (1 = next up): the waiting generations counted before its own bucket at each
 * level of counters (domain/provider-line.ts `counterRanges`: at most (deadline + head start) / 10 s counters at the
 * top, 10 or 100 below) plus those with the very same order key ahead of it — a few small eventually consistent
 * Queries, in parallel, whatever the length of the line.
 */
export async function placeOf(key: number, generationId: string): Promise<number> {
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
  return placeInLine(
    before.reduce((a, b) => a + b, 0),
    ahead,
  );
}

/** The gate's state item (eventually consistent: estimates only); a fresh one when it does not exist yet. */
export async function readState(consistent = false): Promise<QueueState> {
  const { Item, ConsumedCapacity } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: queuePk('STATE'), SK: STATE_SK },
      ConsistentRead: consistent,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity('state', 'read', ConsumedCapacity);
  if (!Item) return initialQueueState(queueLimits(), Date.now());
  const { PK: _pk, SK: _sk, ...state } = Item;
  return { ...initialQueueState(queueLimits(), Date.now()), ...(state as Partial<QueueState>) };
}

/**
 * The place a waiting generation shows (`GET /api/generations/{id}`): computed now from the counters, with the
 * estimated wait. `undefined` when it cannot be computed (then the last recorded place is shown).
 */
export async function livePlace(
  key: number,
  generationId: string,
): Promise<{ position: number; etaSeconds: number } | undefined> {
  try {
    const [position, state] = await Promise.all([placeOf(key, generationId), readState()]);
    const eta = etaSeconds(state, queueLimits(), (position - 1) * HEADSHOTS_PER_GENERATION, Date.now());
    return { position, etaSeconds: eta };
  } catch (error) {
    logger.warn('Could not compute the place in line', { generationId, error: error as Error });
    return undefined;
  }
}

/**
 * Marks the generation running (`admittedAt`, `queue` position 0) the first time one of its slots is admitted, and
 * takes it out of the place count. Conditional, so later slots cost one failed condition check and nothing else.
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
  await leavePlace(ticket.orderKey, ticket.generationId);
}
