import { DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../../common/logger';
import { timingMetric } from '../../common/metrics';
import { leaseId as leaseIdOf } from '../../domain/provider-queue-order';
import {
  admitSlots,
  freePermits,
  nextTokenInMs,
  wakeUpDelaySeconds,
  type QueueLimits,
  type QueueState,
} from '../../domain/provider-queue';
import { documentClient } from '../support/aws';
import { cancellationCodes } from '../support/transactions';
import { failPastDeadline, resumeAdmitted, wakeDispatcher } from './callbacks';
import { releaseDeadLease } from './leases';
import { leavePlace, markAdmitted, readState } from './positions';
import { deadlineMs, expiresAt, queueLimits, queuePk, STATE_SK, table } from './settings';
import { countCapacity, countDispatch, countEvent } from './usage';

/**
 * The dispatcher (docs/architecture.md §4): reads the gate's state item, reads ONLY the head of the line — as many
 * tickets as there are free permits — and admits them in one TransactWriteItems (the state's update conditional on
 * its version, each ticket's delete conditional on its token, each lease's put conditional on its absence), then
 * resumes each waiting Task with its lease. What it reads and writes per admitted slot does not depend on how many
 * wait behind the head.
 */

/** Tickets admitted per transaction at most: 1 state update + 2 items per ticket, under TransactWriteItems' 100. */
export const MAX_BATCH = 40;
/**
 * Rounds per invocation at most (each round one batch or one wait): {@link WAIT_BUDGET_MS} ÷ MIN_TOKEN_WAIT_MS, the
 * most a dispatch waiting for tokens can run, with room for the rounds that admit.
 */
const MAX_ROUNDS = 400;

/** One ticket as the dispatcher reads it. */
interface Ticket {
  SK: string;
  taskToken: string;
  generationId: string;
  userId: string;
  slot: number;
  call: number;
  deadline: number;
}

const orderKeyOf = (ticketSk: string) => Number(ticketSk.split('#')[1]);

/** The head of the line: the first `limit` tickets, strongly consistent. */
async function head(limit: number): Promise<Ticket[]> {
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
  return (result.Items ?? []) as Ticket[];
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

/** The lease items of an admission: its put (absent before), and the ticket's delete (same token as read). */
function admissionItems(ticket: Ticket, limits: QueueLimits, now: number) {
  const leaseId = leaseIdOf(ticket);
  const leaseUntil = now + limits.leaseMs;
  return [
    {
      Delete: {
        TableName: table(),
        Key: { PK: queuePk('LINE'), SK: ticket.SK },
        ConditionExpression: 'taskToken = :token',
        ExpressionAttributeValues: { ':token': ticket.taskToken },
      },
    },
    {
      Put: {
        TableName: table(),
        Item: {
          PK: queuePk('LEASE'),
          SK: leaseId,
          taskToken: ticket.taskToken,
          generationId: ticket.generationId,
          slot: ticket.slot,
          call: ticket.call,
          grantedAt: now,
          leaseUntil,
          expiresAt: expiresAt(leaseUntil, 0),
        },
        ConditionExpression: 'attribute_not_exists(SK)',
      },
    },
  ];
}

/**
 * A ticket whose call already holds a lease (a retried EnterLine after the first try was admitted but its Task had
 * failed): the lease passes to the new token and the ticket goes — no second lease, no second permit.
 */
async function handOver(ticket: Ticket): Promise<void> {
  const leaseId = leaseIdOf(ticket);
  try {
    const result = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: table(),
              Key: { PK: queuePk('LINE'), SK: ticket.SK },
              ConditionExpression: 'taskToken = :token',
              ExpressionAttributeValues: { ':token': ticket.taskToken },
            },
          },
          {
            Update: {
              TableName: table(),
              Key: { PK: queuePk('LEASE'), SK: leaseId },
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
  } catch (error) {
    if (cancellationCodes(error)?.includes('ConditionalCheckFailed')) return;
    throw error;
  }
  if (!(await resumeAdmitted(ticket.taskToken, leaseId))) await releaseDeadLease(leaseId, ticket.taskToken);
}

/** Ends the tickets whose generation passed its deadline: ticket deleted, Task failed (`AdmissionDeadline`). */
async function expire(tickets: Ticket[]): Promise<void> {
  for (const ticket of tickets) {
    try {
      await documentClient().send(
        new DeleteCommand({
          TableName: table(),
          Key: { PK: queuePk('LINE'), SK: ticket.SK },
          ConditionExpression: 'taskToken = :token',
          ExpressionAttributeValues: { ':token': ticket.taskToken },
        }),
      );
    } catch (error) {
      // A retried EnterLine put a new token meanwhile: that Task is judged on its own.
      if ((error as Error).name === 'ConditionalCheckFailedException') continue;
      throw error;
    }
    await failPastDeadline(ticket.taskToken, ticket.generationId);
    await leavePlace(orderKeyOf(ticket.SK), ticket.generationId);
  }
}

/** What one dispatch did. */
export interface DispatchResult {
  admitted: number;
  expired: number;
  /** Waits for the bucket's next token within the invocation, and their total in ms. */
  waits: number;
  waitedMs: number;
  /** Seconds until the delayed wake-up it sent, when tokens held the line. */
  wakeUpIn?: number;
}

/** How one dispatch runs: its clock, how it waits, and until when it may wait for tokens (epoch ms). */
export interface DispatchOptions {
  /** Epoch ms source (tests). */
  clock?: () => number;
  /** Waits `ms` (tests pass a fake that moves their clock). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Until when (epoch ms) the dispatch may wait within its invocation for the bucket's next token; not at all when
   * absent (a test's single pass). The handler passes {@link waitUntil}.
   */
  waitUntil?: number;
}

/**
 * The longest a dispatcher invocation keeps admitting by waiting for tokens, in ms: a third of the function's 60 s
 * timeout (functions/catalogue.ts `provider-dispatcher`), so a slow round never brings it near the timeout; then it
 * hands over to a delayed wake-up.
 */
export const WAIT_BUDGET_MS = 20_000;
/**
 * What the invocation keeps in hand before its timeout past its budget, in ms: its last round (a transaction and the
 * callbacks of up to MAX_BATCH slots) and its delayed wake-up. A timed-out dispatch fails its batch, whose wake-ups
 * come back only after the queue's visibility timeout.
 */
const TIMEOUT_MARGIN_MS = 30_000;

/**
 * Until when an invocation with `remainingMs` before its timeout may start rounds and wait for tokens:
 * {@link WAIT_BUDGET_MS} from `now`, and never closer than {@link TIMEOUT_MARGIN_MS} to the timeout.
 */
export function waitUntil(now: number, remainingMs: number): number {
  return now + Math.max(0, Math.min(WAIT_BUDGET_MS, remainingMs - TIMEOUT_MARGIN_MS));
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Admits as many waiting slots as the gate allows, head of the line first.
 *
 * When the bucket is what holds the line (permits free, a token due within `waitUntil`), a dispatch that has itself
 * admitted in this invocation waits for the next token (sub-second at any limit over 60 images/min) and admits again:
 * the provider's limit is met to the token, where SQS's `DelaySeconds` (whole seconds) would leave up to a second
 * unused per token. One that admitted nothing, or lost the gate's version race (another dispatch admitted: that one
 * is the one waiting), does not wait; when slots still wait, it ends with a delayed wake-up for the next token, as
 * every dispatch does at the end of its budget. Safe to run twice at once (the event source mapping allows 2): the
 * state's version condition lets only one batch win.
 *
 * Per round, whatever the line: one strongly consistent Get of the gate, one Query of at most (permits + 1) tickets at
 * the head, one transaction.
 */
export async function dispatch(options: DispatchOptions = {}): Promise<DispatchResult> {
  const { clock = Date.now, sleep = realSleep, waitUntil: until } = options;
  const limits = queueLimits();
  const began = clock();
  const result: DispatchResult = { admitted: 0, expired: 0, waits: 0, waitedMs: 0 };
  let state = await readState(true);
  // Whether tickets wait behind what was admitted: known after a round that admitted, read otherwise.
  let waiting: boolean | undefined;
  let lostRace = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = clock();
    // Past its budget (a slow machine, a slow table): the rest is the delayed wake-up's, never the timeout's.
    if (until !== undefined && round > 0 && now > until) break;
    const permits = Math.min(MAX_BATCH, freePermits(state, limits, now));
    if (permits === 0) {
      waiting ??= (await head(1)).length > 0;
      const waitMs =
        waiting && result.admitted > 0 && !lostRace ? nextTokenInMs(state, limits, now) : undefined;
      if (waitMs === undefined || until === undefined || now + waitMs > until) break;
      await sleep(waitMs);
      result.waits += 1;
      result.waitedMs += waitMs;
      state = await readState(true);
      continue;
    }
    // One ticket more than can be admitted: whether any still wait behind this batch.
    const tickets = await head(permits + 1);
    const batch = tickets.slice(0, permits);
    waiting = tickets.length > batch.length;
    if (batch.length === 0) break;
    const expired = batch.filter((t) => t.deadline <= now);
    const live = batch.filter((t) => t.deadline > now);
    if (expired.length > 0) {
      await expire(expired);
      result.expired += expired.length;
    }
    if (live.length === 0) {
      state = await readState(true);
      continue;
    }
    const next = admitSlots(state, limits, live.length, now);
    const admitted = await admit(state, next, live, limits, now);
    result.admitted += admitted;
    if (admitted === 0) {
      // Another writer moved the gate (a concurrent dispatch, a pause): read it again, and leave the waiting to it.
      lostRace = true;
      waiting = undefined;
      state = await readState(true);
      continue;
    }
    if (!waiting) break;
    // The gate is what this dispatch wrote, but for releases' `ADD inFlight` meanwhile (fewer in flight than `next`
    // says: it may only under-admit until the next read). A batch cut at MAX_BATCH reads it again at once.
    state = freePermits(next, limits, clock()) > 0 ? await readState(true) : next;
  }
  const delay = waiting === true ? wakeUpDelaySeconds(state, limits, clock()) : undefined;
  if (delay !== undefined) {
    await wakeDispatcher('tokens', delay);
    result.wakeUpIn = delay;
  }
  countDispatch(clock() - began);
  return result;
}

/**
 * One batch: the transaction, then each Task resumed with its lease. A lost race (another dispatcher, a release's
 * pause, a retried EnterLine) admits nothing this round: the caller reads again.
 *
 * @returns slots admitted
 */
async function admit(
  state: QueueState,
  next: QueueState,
  tickets: Ticket[],
  limits: QueueLimits,
  now: number,
): Promise<number> {
  try {
    const written = await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [stateUpdate(state, next), ...tickets.flatMap((t) => admissionItems(t, limits, now))],
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    countCapacity('dispatch', 'write', written.ConsumedCapacity);
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    countEvent('lostRaces');
    // Items: 0 = state, then per ticket 1 + 2i = its delete, 2 + 2i = its lease's put.
    const held = tickets.filter((_, i) => codes[2 + 2 * i] === 'ConditionalCheckFailed');
    for (const ticket of held) await handOver(ticket);
    return 0;
  }
  countEvent('admitted', tickets.length);
  await Promise.all(
    tickets.map(async (ticket) => {
      const id = leaseIdOf(ticket);
      // The dashboard's queue: how long the slot waited since its generation started.
      timingMetric('QueueWait', now - (ticket.deadline - deadlineMs()));
      if (!(await resumeAdmitted(ticket.taskToken, id))) {
        logger.info('An admitted slot no longer waits: its lease is given back', { leaseId: id });
        await releaseDeadLease(id, ticket.taskToken);
      }
    }),
  );
  const generations = new Map(tickets.map((t) => [t.generationId, t]));
  await Promise.all(
    [...generations.values()].map((t) =>
      markAdmitted({ userId: t.userId, generationId: t.generationId, orderKey: orderKeyOf(t.SK), now }),
    ),
  );
  return tickets.length;
}
