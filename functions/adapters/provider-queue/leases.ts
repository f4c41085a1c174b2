import {
  DeleteCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { pausedUntilAfter429, tokensAfterPause } from '../../domain/provider-queue';
import { documentClient } from '../support/aws';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../support/transactions';
import { queueLimits, queuePk, STATE_SK, table } from './settings';
import { countCapacity } from './usage';

/**
 * The leases of the provider queue (docs/architecture.md §4): one item per admitted call in `<base>#LEASE`
 * (`L#<generationId>#<slot>#<call>`, with the Task token it was granted to and `leaseUntil`), counted in the queue state's
 * `inFlight` until its permit comes back — when the provider answered with an image ({@link returnPermit}: the item
 * is marked `permitReturned`), else when the lease goes. Every permit's return changes the item and decrements the
 * counter in ONE transaction, conditional on the item, so a permit is never given back twice.
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
async function tryGiveBack(
  operation: string,
  items: NonNullable<TransactWriteCommandInput['TransactItems']>,
): Promise<boolean> {
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
 * Gives a lease's permit back as soon as its provider call has answered with an image (CallProvider, before
 * FinishHeadshot): `PROVIDER_MAX_CONCURRENCY` counts calls at the provider, not headshots being finished, so the next
 * slot may call while this one's likeness check and encodes run. The lease item stays, marked `permitReturned`, until
 * ReleaseProviderSlot deletes it; the call's duration (grant → now) feeds the average. Idempotent: a permit given back
 * already (or a lease released or reclaimed) changes nothing.
 *
 * @param now epoch ms (tests)
 * @returns whether this call gave the permit back
 */
export async function returnPermit(leaseId: string, now = Date.now()): Promise<boolean> {
  const Item = await readLease(leaseId, 'permit');
  if (!Item || Item.permitReturned !== undefined) return false;
  const [, stateUpdate] = giveBack(
    leaseId,
    { expression: 'attribute_exists(SK)', values: {} },
    now - Number(Item.grantedAt),
  );
  return tryGiveBack('permit', [
    {
      Update: {
        TableName: table(),
        Key: { PK: queuePk('LEASE'), SK: leaseId },
        UpdateExpression: 'SET permitReturned = :now',
        ConditionExpression: 'attribute_exists(SK) AND attribute_not_exists(permitReturned)',
        ExpressionAttributeValues: { ':now': now },
      },
    },
    stateUpdate!,
  ]);
}

/**
 * A lease's grant time (epoch ms) and whether its permit came back already, read consistently; `undefined` when the
 * lease is gone (given back, or reclaimed by the sweep). The read counts toward `operation`'s capacity.
 */
async function readLease(
  leaseId: string,
  operation: 'permit' | 'release',
): Promise<{ grantedAt?: number; permitReturned?: number } | undefined> {
  const { Item, ConsumedCapacity } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: queuePk('LEASE'), SK: leaseId },
      ConsistentRead: true,
      ProjectionExpression: 'grantedAt, permitReturned',
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity(operation, 'read', ConsumedCapacity);
  return Item;
}

/**
 * Ends a call's hold on the provider (ReleaseProviderSlot): deletes its lease and gives its permit back unless
 * CallProvider did already ({@link returnPermit}), feeding the call's duration into the average (idempotent: a lease
 * already given back or reclaimed changes nothing), and after a 429 (`throttleMs`, the provider's `retry-after`)
 * pauses every admission — for at most PROVIDER_MAX_PAUSE_SECONDS.
 *
 * @param now epoch ms (tests)
 * @returns whether this call gave a permit back (the dispatcher has one more to admit with)
 */
export async function releaseLease(leaseId: string, throttleMs?: number, now = Date.now()): Promise<boolean> {
  const Item = await readLease(leaseId, 'release');
  const throttled = throttleMs !== undefined;
  let released = false;
  if (Item?.permitReturned !== undefined) {
    // The permit came back when the provider answered: only the lease item goes.
    await deleteLease(leaseId, 'release', { expression: 'attribute_exists(permitReturned)', values: {} });
  } else if (Item) {
    released = await tryGiveBack(
      'release',
      giveBack(
        leaseId,
        { expression: 'attribute_exists(SK) AND attribute_not_exists(permitReturned)', values: {} },
        throttled ? undefined : now - Number(Item.grantedAt),
      ),
    );
  }
  if (throttled) await pause(throttleMs, now);
  return released;
}

/** Deletes a lease whose permit came back already, under `condition`; `false` when the condition failed. */
async function deleteLease(
  leaseId: string,
  operation: string,
  condition: { expression: string; values: Record<string, unknown> },
): Promise<boolean> {
  try {
    const result = await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: { PK: queuePk('LEASE'), SK: leaseId },
        ConditionExpression: condition.expression,
        ...(Object.keys(condition.values).length > 0 ? { ExpressionAttributeValues: condition.values } : {}),
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity(operation, 'write', result.ConsumedCapacity);
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
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
 * The reaper's half on leases (every minute, use-cases/reap-provider-leases.ts): gives back every lease past its
 * `leaseUntil` (its holder crashed: the execution stopped or timed out between admission and release). Reads the
 * lease partition — at most PROVIDER_MAX_CONCURRENCY items, whatever the length of the queue.
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
    ProjectionExpression: 'SK, leaseUntil, permitReturned',
    ReturnConsumedCapacity: 'TOTAL',
  })) {
    countCapacity('reap', 'read', page.ConsumedCapacity);
    for (const lease of page.Items ?? []) {
      const condition = { expression: 'leaseUntil = :until', values: { ':until': lease.leaseUntil } };
      if (lease.permitReturned !== undefined) {
        // Its permit came back when the provider answered; only the item is left.
        await deleteLease(String(lease.SK), 'reap', condition);
        continue;
      }
      const gone = await tryGiveBack(
        'reap',
        giveBack(String(lease.SK), {
          expression: `${condition.expression} AND attribute_not_exists(permitReturned)`,
          values: condition.values,
        }),
      );
      if (gone) reclaimed++;
    }
  }
  return reclaimed;
}
