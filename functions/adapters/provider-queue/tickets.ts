import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  FREE_LANE_SK,
  leaseId,
  ticketOrderKey,
  ticketSk,
  type QueuePriority,
  type QueueEntry,
  type QueueTicket,
} from '../../domain/provider-queue-order';
import type { QueueState } from '../../domain/provider-queue';
import { priorityStanding, type PurchaseStanding } from '../../domain/provider-queue-standing';
import type { AccountRef } from '../../domain/ledger-account';
import { documentClient } from '../support/aws';
import { accountPk } from '../support/ledger-items';
import { queryPages } from '../support/query';
import { cancellationCodes } from '../support/transactions';
import { expiresAt, queuePk, STATE_SK, standingRules, table } from './settings';
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
 * The class at this moment of whoever pays for the generation — the customer, or the team of a team-paid one (its
 * seat purchases: docs/teams.md "Money") — from their purchase items (domain/provider-queue-standing.ts
 * `priorityStanding`, under PROVIDER_PAID_MIN_CENTS and PROVIDER_PAID_MAX_REFUNDED_SHARE): a refund, a dispute or a
 * purchase discounted to near zero takes effect at the next slot enqueued.
 *
 * @param payer a customer's `sub`, or a ledger account (domain/ledger-account.ts)
 */
export async function currentPriority(payer: AccountRef): Promise<QueuePriority> {
  const purchases: PurchaseStanding[] = [];
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :purchase)',
    ExpressionAttributeValues: { ':pk': accountPk(payer), ':purchase': 'PURCHASE#' },
    ProjectionExpression: 'packId, credits, amountTotal, creditsReversed, #status',
    ExpressionAttributeNames: { '#status': 'status' },
  })) {
    purchases.push(...((page.Items ?? []) as PurchaseStanding[]));
  }
  return priorityStanding(purchases, standingRules());
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

/**
 * The head of the queue: its first `limit` tickets, strongly consistent — of one lane (domain/provider-queue-order.ts
 * `FREE_LANE_SK`: paid tickets sort below it, free ones from it), or of the whole line (paid first) without `lane`.
 */
export async function readHead(limit: number, lane?: 'paid' | 'free'): Promise<QueueTicket[]> {
  const condition = { paid: ' AND SK < :lane', free: ' AND SK >= :lane' };
  const result = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      KeyConditionExpression: `PK = :pk${lane ? condition[lane] : ''}`,
      ExpressionAttributeValues: { ':pk': queuePk('LINE'), ...(lane ? { ':lane': FREE_LANE_SK } : {}) },
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
    enqueuedAt: Number(item.enqueuedAt ?? 0),
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
        'SET tokens = :tokens, refilledAt = :refilledAt, callMsSum = :sum, calls = :calls, version = :next, freeAllowance = :allowance ADD inFlight :n',
      ConditionExpression: previous.version === 0 ? 'attribute_not_exists(version)' : 'version = :version',
      ExpressionAttributeValues: {
        ':tokens': next.tokens,
        ':refilledAt': next.refilledAt,
        ':sum': next.callMsSum,
        ':calls': next.calls,
        ':next': next.version,
        ':allowance': next.freeAllowance ?? 0,
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
        // Which of a call's tickets the lease was granted to: only a later one may take it over (handOverLease).
        ticketEnqueuedAt: ticket.enqueuedAt,
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
 * What DynamoDB refused in an admission as invalid — not a race: the same request fails the same way every time — with
 * the tickets it named (a `ValidationError` cancellation code on a ticket's items), or every ticket of the batch when
 * the whole request was refused (`ValidationException`, e.g. "Transaction request cannot include multiple operations
 * on one item": https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 */
export interface AdmissionRefusal {
  tickets: QueueTicket[];
  /** `ValidationException`, or the item's cancellation code (`ValidationError`, `ItemCollectionSizeLimitExceeded`). */
  error: string;
  message: string;
}

/**
 * The admission's result: written; or lost — to another writer of the state (a concurrent dispatch, a pause) or to a
 * ticket's change — with the tickets whose call holds a lease already (`held`: a retried EnterLine after the first
 * try was admitted); or refused by the table ({@link AdmissionRefusal}).
 */
export type AdmissionResult =
  { written: true } | { written: false; held: QueueTicket[]; refused?: AdmissionRefusal };

/** Cancellation codes of an item the table refuses as such, whatever runs beside it: retrying cannot help. */
const REFUSED_CODES = new Set(['ValidationError', 'ItemCollectionSizeLimitExceeded']);

/**
 * DynamoDB's refusal of a transaction with two actions on one item ("no two actions can target the same item",
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html): a
 * `ValidationException` before any condition is evaluated. DynamoDB Local sends the same error for two unconditional
 * puts, but evaluates conditional ones first and cancels the later put as `ConditionalCheckFailed` (measured,
 * test/integration/provider-dispatch.test.ts) — an answer that reads as "its call holds a lease". So the admission
 * checks its own items first and answers as DynamoDB does, here and in the cloud alike.
 */
const MULTIPLE_OPERATIONS = {
  error: 'ValidationException',
  message: 'Transaction request cannot include multiple operations on one item',
};

/** Whether two of the admission's actions would target one item (two tickets of one call share a lease). */
function targetsAnItemTwice(tickets: readonly QueueTicket[]): boolean {
  const leases = new Set(tickets.map((t) => leaseId(t)));
  const keys = new Set(tickets.map((t) => ticketSk(t)));
  return leases.size < tickets.length || keys.size < tickets.length;
}

/**
 * Admits tickets in ONE TransactWriteItems: the state's update (conditional on its version), each ticket's delete
 * (conditional on its token), each lease's put (conditional on its absence).
 *
 * @throws the SDK's error for anything but a cancelled or refused transaction — and when the table refuses the state
 *   item itself (no ticket is to blame: the dispatcher fails loudly)
 */
export async function admitTickets(admission: Admission): Promise<AdmissionResult> {
  const { state, next, tickets, grantedAt, leaseUntil } = admission;
  if (targetsAnItemTwice(tickets))
    return { written: false, held: [], refused: { tickets, ...MULTIPLE_OPERATIONS } };
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
    return admissionFailure(error, tickets);
  }
  countEvent('admitted', tickets.length);
  return { written: true };
}

/** What a failed admission transaction means ({@link admitTickets}). */
function admissionFailure(error: unknown, tickets: QueueTicket[]): AdmissionResult {
  const codes = cancellationCodes(error);
  if (!codes) {
    if ((error as Error).name !== 'ValidationException') throw error;
    const { name, message } = error as Error;
    return { written: false, held: [], refused: { tickets, error: name, message } };
  }
  if (REFUSED_CODES.has(codes[0] ?? 'None')) throw error;
  // Items: 0 = state, then per ticket 1 + 2i = its delete, 2 + 2i = its lease's put.
  const refusedCode = (i: number) =>
    [codes[1 + 2 * i], codes[2 + 2 * i]].find((c) => REFUSED_CODES.has(c ?? ''));
  const refused = tickets.filter((_, i) => refusedCode(i) !== undefined);
  if (refused.length > 0) {
    const code = refusedCode(tickets.indexOf(refused[0]!))!;
    return {
      written: false,
      held: [],
      refused: { tickets: refused, error: code, message: (error as Error).message },
    };
  }
  countEvent('lostRaces');
  return { written: false, held: tickets.filter((_, i) => codes[2 + 2 * i] === 'ConditionalCheckFailed') };
}

/**
 * What became of a ticket whose call holds a lease already: the lease passed to its token (`handedOver`); the ticket
 * or the lease changed meanwhile (`changed`: the next round looks again); or the lease belongs to a LATER ticket of
 * the same call (`superseded`: this one is the older of two tickets a retried EnterLine left, its Task no longer
 * waits, and the ticket is deleted).
 */
export type HandOver = 'handedOver' | 'changed' | 'superseded';

/**
 * Passes the lease a ticket's call holds already to the ticket's token and deletes the ticket (one transaction): no
 * second lease, no second permit — only to a ticket put after the one the lease was granted to, so a stale ticket
 * never takes a lease from the Task that holds it.
 */
export async function handOverLease(ticket: QueueTicket): Promise<HandOver> {
  const leaseKey = { PK: queuePk('LEASE'), SK: leaseId(ticket) };
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: ticketDelete(ticket) },
          {
            Update: {
              TableName: table(),
              Key: leaseKey,
              UpdateExpression: 'SET taskToken = :token, ticketEnqueuedAt = :enqueuedAt',
              ConditionExpression:
                'attribute_exists(SK) AND (attribute_not_exists(ticketEnqueuedAt) OR ticketEnqueuedAt < :enqueuedAt)',
              ExpressionAttributeValues: { ':token': ticket.taskToken, ':enqueuedAt': ticket.enqueuedAt },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('dispatch', 'write', result.ConsumedCapacity);
    return 'handedOver';
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes?.includes('ConditionalCheckFailed')) throw error;
    if (codes[0] === 'ConditionalCheckFailed') return 'changed';
  }
  // The lease refused: gone (given back meanwhile: the next round admits the ticket anew), or a later ticket's.
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: leaseKey, ConsistentRead: true }),
  );
  if (!Item || Number(Item.ticketEnqueuedAt ?? 0) < ticket.enqueuedAt) return 'changed';
  return (await removeTicket(ticket)) ? 'superseded' : 'changed';
}

/** How long a ticket set aside is kept for a person to look at: 14 days, in ms. */
const ASIDE_MS = 14 * 86_400_000;

/**
 * Sets aside a ticket the table refused to admit, so the line moves on: the ticket's delete (only while it carries
 * the token read) and its copy in `<base>#ASIDE` with the refusal, kept 14 days, in one transaction. Should the table
 * refuse that too, the ticket is deleted alone (the caller logs it).
 *
 * @param now epoch ms
 * @returns `false` when a retried EnterLine replaced the ticket meanwhile (that one is judged on its own)
 */
export async function setTicketAside(
  ticket: QueueTicket,
  refusal: Pick<AdmissionRefusal, 'error' | 'message'>,
  now: number,
): Promise<boolean> {
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: ticketDelete(ticket) },
          {
            Put: {
              TableName: table(),
              Item: {
                PK: queuePk('ASIDE'),
                SK: `${leaseId(ticket)}#${ticket.enqueuedAt}`,
                ...ticket,
                ticketSk: ticketSk(ticket),
                error: refusal.error,
                message: refusal.message.slice(0, 1_000),
                setAsideAt: now,
                expiresAt: expiresAt(now, ASIDE_MS),
              },
            },
          },
        ],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('dispatch', 'write', result.ConsumedCapacity);
    return true;
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') return false;
    if (cancellationCodes(error) === undefined && (error as Error).name !== 'ValidationException')
      throw error;
    return removeTicket(ticket);
  }
}
