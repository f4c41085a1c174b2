import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { pausedUntilAfter429, tokensAfterPause } from '../../domain/provider-queue';
import { oldestLiveKey, placeSk } from '../../domain/provider-line';
import { documentClient } from '../aws';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../transactions';
import { leavePlace } from './line';
import { deadlineMs, headStartMs, queueLimits, queuePk, STATE_SK, table } from './settings';
import { countCapacity } from './usage';

/**
 * The leases of the provider queue (docs/architecture.md §4): one item per admitted call in `<base>#LEASE`
 * (`L#<generationId>#<slot>#<call>`, with the Task token it was granted to and `leaseUntil`), counted in the gate's
 * `inFlight`. Every removal deletes the item and decrements the counter in ONE transaction, conditional on the item,
 * so a lease is never given back twice.
 */

/** The transaction items that give a lease back: its delete (under `condition`) and −1 in flight (+ its duration). */
function giveBack(
  leaseId: string,
  condition: { expression: string; values: Record<string, unknown> },
  tookMs?: number,
) {
  return [
    {
      Delete: {
        TableName: table(),
        Key: { PK: queuePk('LEASE'), SK: leaseId },
        ConditionExpression: condition.expression,
        ...(Object.keys(condition.values).length > 0 ? { ExpressionAttributeValues: condition.values } : {}),
      },
    },
    {
      Update: {
        TableName: table(),
        Key: { PK: queuePk('STATE'), SK: STATE_SK },
        UpdateExpression:
          tookMs === undefined ? 'ADD inFlight :minus' : 'ADD inFlight :minus, callMsSum :took, calls :one',
        ExpressionAttributeValues: {
          ':minus': -1,
          ...(tookMs === undefined ? {} : { ':took': Math.max(0, Math.round(tookMs)), ':one': 1 }),
        },
      },
    },
  ];
}

/** Runs a give-back; `false` when its condition failed (the lease was already gone or is another's). */
async function tryGiveBack(operation: string, items: ReturnType<typeof giveBack>): Promise<boolean> {
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({ TransactItems: items, ReturnConsumedCapacity: 'TOTAL' }),
    );
    countCapacity(operation, 'write', result.ConsumedCapacity);
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/**
 * Ends a call's hold on the provider (ReleaseProviderSlot): gives its lease back (idempotent: a lease already given
 * back or reclaimed changes nothing), feeds the call's duration into the average, and after a 429 (`throttleMs`, the
 * provider's `retry-after`) pauses every admission — for at most PROVIDER_MAX_PAUSE_SECONDS.
 *
 * @param now epoch ms (tests)
 * @returns whether this call gave a lease back
 */
export async function releaseLease(leaseId: string, throttleMs?: number, now = Date.now()): Promise<boolean> {
  const { Item, ConsumedCapacity } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: queuePk('LEASE'), SK: leaseId },
      ConsistentRead: true,
      ProjectionExpression: 'grantedAt',
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity('release', 'read', ConsumedCapacity);
  const throttled = throttleMs !== undefined;
  const released = Item
    ? await tryGiveBack(
        'release',
        giveBack(
          leaseId,
          { expression: 'attribute_exists(SK)', values: {} },
          throttled ? undefined : now - Number(Item.grantedAt),
        ),
      )
    : false;
  if (throttled) await pause(throttleMs, now);
  return released;
}

/**
 * Pauses every admission after a 429: `pausedUntil` moves later only (a conditional update), the bucket holds one
 * token at its end, and `version` moves so a dispatcher that read the state before cannot admit over the pause.
 */
async function pause(throttleMs: number | undefined, now: number): Promise<void> {
  const limits = queueLimits();
  const until = pausedUntilAfter429({ pausedUntil: 0 }, limits, throttleMs, now);
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: queuePk('STATE'), SK: STATE_SK },
        UpdateExpression: 'SET pausedUntil = :until, tokens = :tokens, refilledAt = :until ADD version :one',
        ConditionExpression: 'attribute_not_exists(pausedUntil) OR pausedUntil < :until',
        ExpressionAttributeValues: { ':until': until, ':tokens': tokensAfterPause(limits), ':one': 1 },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('release', 'write', result.ConsumedCapacity);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

/**
 * Gives back a lease granted to a Task that no longer waits (its token answered TaskTimedOut, TaskDoesNotExist or
 * InvalidToken): only while the lease still belongs to that token — a retried EnterLine may have taken it over.
 */
export async function releaseDeadLease(leaseId: string, taskToken: string): Promise<boolean> {
  return tryGiveBack(
    'dispatch',
    giveBack(leaseId, { expression: 'taskToken = :token', values: { ':token': taskToken } }),
  );
}

/**
 * The reaper (every minute): gives back every lease past its `leaseUntil` (its holder crashed: the execution stopped
 * or timed out between admission and release), and drops place entries older than any generation still in line.
 * Reads the lease partition — at most PROVIDER_MAX_CONCURRENCY items, whatever the length of the line.
 *
 * @param now epoch ms (tests)
 * @returns how many leases were reclaimed
 */
export async function reclaimExpired(now = Date.now()): Promise<number> {
  let reclaimed = 0;
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk',
    FilterExpression: 'leaseUntil < :now',
    ExpressionAttributeValues: { ':pk': queuePk('LEASE'), ':now': now },
    ProjectionExpression: 'SK, leaseUntil',
    ReturnConsumedCapacity: 'TOTAL',
  })) {
    countCapacity('reap', 'read', page.ConsumedCapacity);
    for (const lease of page.Items ?? []) {
      const gone = await tryGiveBack(
        'reap',
        giveBack(String(lease.SK), {
          expression: 'leaseUntil = :until',
          values: { ':until': lease.leaseUntil },
        }),
      );
      if (gone) reclaimed++;
    }
  }
  const oldest = oldestLiveKey(now, deadlineMs(), headStartMs());
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': queuePk('PLACE'),
      ':from': 'P#',
      ':to': placeSk({ orderKey: oldest, generationId: '' }),
    },
    ProjectionExpression: 'SK',
    ReturnConsumedCapacity: 'TOTAL',
  })) {
    countCapacity('reap', 'read', page.ConsumedCapacity);
    for (const entry of page.Items ?? []) {
      const [, key, generationId] = String(entry.SK).split('#');
      await leavePlace(Number(key), generationId!);
    }
  }
  return reclaimed;
}
