import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import {
  leaseId,
  priorityStanding,
  ticketOrderKey,
  ticketSk,
  type PurchaseStanding,
  type QueuePriority,
  type QueueEntry,
  type QueueTicket,
} from '../../domain/provider-queue-order';
import type { QueueState } from '../../domain/provider-queue';
import { documentClient } from '../support/aws';
import { userPk } from '../support/keys';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../support/transactions';
import { expiresAt, queuePk, STATE_SK, table } from './settings';
import { countCapacity, countEvent } from './usage';

/**
 * The tickets of the provider queue (docs/architecture.md §4): one item per waiting slot in `<base>#LINE`, sorted by
 * order key (domain/provider-queue-order.ts `ticketSk`), carrying the waiting Task's token; and the admission
 * transaction that turns tickets at the head into leases. Storage only: use-cases/enqueue-provider-call.ts and
 * use-cases/dispatch-provider-queue.ts decide.
 */

/** A ticket's key: its partition and sort key. */
const ticketKey = (ticket: Pick<QueueTicket, 'orderKey' | 'generationId' | 'slot'>) => ({
  PK: queuePk('LINE'),
  SK: ticketSk(ticket),
});

/** The delete of a ticket, only while it still carries the token read (a retried EnterLine replaces it). */
const ticketDelete = (ticket: QueueTicket) => ({
  TableName: table(),
  Key: ticketKey(ticket),
  ConditionExpression: 'taskToken = :token',
  ExpressionAttributeValues: { ':token': ticket.taskToken },
});

/**
 * The customer's class at this moment, from their purchase items (domain/provider-queue-order.ts
 * `priorityStanding`): a refund, a dispute or a 100 %-off purchase takes effect at the next slot enqueued.
 */
export async function currentPriority(sub: string): Promise<QueuePriority> {
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
 * Puts a slot's ticket: ONE item, whose key is the slot's (a retried EnterLine of the same call overwrites it with its
 * new token, so the slot never waits twice).
 *
 * @param orderKey the generation's order key, epoch ms
 * @param deadline the generation's deadline, epoch ms (the item expires an hour after it)
 * @param now epoch ms
 */
export async function putTicket(
  entry: QueueEntry,
  orderKey: number,
  deadline: number,
  now: number,
): Promise<void> {
  const put = await documentClient().send(
    new PutCommand({
      TableName: table(),
      Item: {
        ...ticketKey({ orderKey, generationId: entry.generationId, slot: entry.slot }),
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
}

/** The head of the queue: its first `limit` tickets, strongly consistent. */
export async function readHead(limit: number): Promise<QueueTicket[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': queuePk('LINE') },
      Limit: limit,
      ConsistentRead: true,
      ReturnConsumedCapacity: 'TOTAL',
    }),
  );
  countCapacity('dispatch', 'read', result.ConsumedCapacity);
  return (result.Items ?? []).map((item) => ({
    orderKey: ticketOrderKey(String(item.SK)),
    taskToken: String(item.taskToken),
    generationId: String(item.generationId),
    userId: String(item.userId),
    slot: Number(item.slot),
    call: Number(item.call),
    deadline: Number(item.deadline),
  }));
}

/**
 * Deletes a ticket that will not be admitted (its generation passed its deadline).
 *
 * @returns `false` when a retried EnterLine put a new token meanwhile (that Task is judged on its own)
 */
export async function removeTicket(ticket: QueueTicket): Promise<boolean> {
  try {
    await documentClient().send(new DeleteCommand(ticketDelete(ticket)));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The state item's write: every field, conditional on the version read (or on its absence for a fresh one). */
function stateUpdate(previous: QueueState, next: QueueState) {
  return {
    Update: {
      TableName: table(),
      Key: { PK: queuePk('STATE'), SK: STATE_SK },
      UpdateExpression:
        'SET tokens = :tokens, refilledAt = :refilledAt, callMsSum = :sum, calls = :calls, version = :next ADD inFlight :n',
      ConditionExpression: previous.version === 0 ? 'attribute_not_exists(version)' : 'version = :version',
      ExpressionAttributeValues: {
        ':tokens': next.tokens,
        ':refilledAt': next.refilledAt,
        ':sum': next.callMsSum,
        ':calls': next.calls,
        ':next': next.version,
        ':n': next.inFlight - previous.inFlight,
        ...(previous.version === 0 ? {} : { ':version': previous.version }),
      },
    },
  };
}

/** The lease put of an admitted ticket (only if absent: one lease per call). */
function leasePut(ticket: QueueTicket, grantedAt: number, leaseUntil: number) {
  return {
    Put: {
      TableName: table(),
      Item: {
        PK: queuePk('LEASE'),
        SK: leaseId(ticket),
        taskToken: ticket.taskToken,
        generationId: ticket.generationId,
        slot: ticket.slot,
        call: ticket.call,
        grantedAt,
        leaseUntil,
        expiresAt: expiresAt(leaseUntil, 0),
      },
      ConditionExpression: 'attribute_not_exists(SK)',
    },
  };
}

/** One admission: the state read, the state to write, the tickets to turn into leases and the leases' times (epoch ms). */
export interface Admission {
  state: QueueState;
  next: QueueState;
  tickets: QueueTicket[];
  grantedAt: number;
  leaseUntil: number;
}

/**
 * The admission's result: written, or lost — to another writer of the state (a concurrent dispatch, a pause) or to a
 * ticket's change — with the tickets whose call holds a lease already (`held`: a retried EnterLine after the first
 * try was admitted).
 */
export type AdmissionResult = { written: true } | { written: false; held: QueueTicket[] };

/**
 * Admits tickets in ONE TransactWriteItems: the state's update (conditional on its version), each ticket's delete
 * (conditional on its token), each lease's put (conditional on its absence).
 *
 * @throws the SDK's error for anything but a cancelled transaction
 */
export async function admitTickets(admission: Admission): Promise<AdmissionResult> {
  const { state, next, tickets, grantedAt, leaseUntil } = admission;
  try {
    const written = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          stateUpdate(state, next),
          ...tickets.flatMap((t) => [{ Delete: ticketDelete(t) }, leasePut(t, grantedAt, leaseUntil)]),
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('dispatch', 'write', written.ConsumedCapacity);
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    countEvent('lostRaces');
    // Items: 0 = state, then per ticket 1 + 2i = its delete, 2 + 2i = its lease's put.
    return { written: false, held: tickets.filter((_, i) => codes[2 + 2 * i] === 'ConditionalCheckFailed') };
  }
  countEvent('admitted', tickets.length);
  return { written: true };
}

/**
 * Passes the lease a ticket's call holds already to the ticket's token and deletes the ticket (one transaction): no
 * second lease, no second permit.
 *
 * @returns `false` when the ticket or the lease changed meanwhile (nothing written)
 */
export async function handOverLease(ticket: QueueTicket): Promise<boolean> {
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: ticketDelete(ticket) },
          {
            Update: {
              TableName: table(),
              Key: { PK: queuePk('LEASE'), SK: leaseId(ticket) },
              UpdateExpression: 'SET taskToken = :token',
              ConditionExpression: 'attribute_exists(SK)',
              ExpressionAttributeValues: { ':token': ticket.taskToken },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('dispatch', 'write', result.ConsumedCapacity);
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}
