import { DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../../common/logger';
import { timingMetric } from '../../common/metrics';
import { leaseId as leaseIdOf } from '../../domain/provider-line';
import {
  admitSlots,
  freePermits,
  wakeUpDelaySeconds,
  type QueueLimits,
  type QueueState,
} from '../../domain/provider-queue';
import { documentClient } from '../aws';
import { cancellationCodes } from '../transactions';
import { failPastDeadline, resumeAdmitted, wakeDispatcher } from './callbacks';
import { releaseDeadLease } from './leases';
import { leavePlace, markAdmitted, readState } from './line';
import { deadlineMs, expiresAt, queueLimits, queuePk, STATE_SK, table } from './settings';
import { countCapacity, countEvent } from './usage';

/**
 * The dispatcher (docs/architecture.md §4): reads the gate's state item, reads ONLY the head of the line — as many
 * tickets as there are free permits — and admits them in one TransactWriteItems (the state's update conditional on
 * its version, each ticket's delete conditional on its token, each lease's put conditional on its absence), then
 * resumes each waiting Task with its lease. What it reads and writes per admitted slot does not depend on how many
 * wait behind the head.
 */

/** Tickets admitted per transaction at most: 1 state update + 2 items per ticket, under TransactWriteItems' 100. */
export const MAX_BATCH = 40;
/** Rounds per invocation at most (each round one batch), so one wake-up never runs for long. */
const MAX_ROUNDS = 20;

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
  /** Seconds until the delayed wake-up it sent, when tokens held the line. */
  wakeUpIn?: number;
}

/**
 * Admits as many waiting slots as the gate allows, head of the line first; sends itself a delayed wake-up for the
 * next token when the bucket is what holds the line. Safe to run twice at once (the event source mapping allows 2):
 * the state's version condition lets only one batch win, the other reads again.
 *
 * @param clock epoch ms source (tests)
 */
export async function dispatch(clock: () => number = Date.now): Promise<DispatchResult> {
  const limits = queueLimits();
  const result: DispatchResult = { admitted: 0, expired: 0 };
  let state = await readState(true);
  let waiting = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = clock();
    const permits = Math.min(MAX_BATCH, freePermits(state, limits, now));
    const tickets = await head(Math.max(1, permits));
    waiting = tickets.length > 0;
    if (!waiting || permits === 0) break;
    const expired = tickets.filter((t) => t.deadline <= now);
    const live = tickets.filter((t) => t.deadline > now);
    if (expired.length > 0) {
      await expire(expired);
      result.expired += expired.length;
    }
    if (live.length > 0) {
      const next = admitSlots(state, limits, live.length, now);
      const admitted = await admit(state, next, live, limits, now);
      result.admitted += admitted;
    }
    state = await readState(true);
  }
  const delay = waiting ? wakeUpDelaySeconds(state, limits, clock()) : undefined;
  if (delay !== undefined) {
    await wakeDispatcher('tokens', delay);
    result.wakeUpIn = delay;
  }
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
