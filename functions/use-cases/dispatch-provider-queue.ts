import {
  failPastDeadline,
  failRefusedAdmission,
  resumeAdmitted,
  wakeDispatcher,
} from '../adapters/provider-queue/callbacks';
import { releaseDeadLease } from '../adapters/provider-queue/leases';
import { leavePosition, markAdmitted } from '../adapters/provider-queue/positions';
import { deadlineMs, freeShare, queueLimits } from '../adapters/provider-queue/settings';
import { readState } from '../adapters/provider-queue/state';
import {
  admitTickets,
  handOverLease,
  readHead,
  removeTicket,
  setTicketAside,
  type AdmissionRefusal,
} from '../adapters/provider-queue/tickets';
import { countDispatch, queueUsage, type QueueUsage } from '../adapters/provider-queue/usage';
import { logger } from '../common/logger';
import { countMetric, timingMetric } from '../common/metrics';
import { admitSlots, freePermits, type QueueLimits, type QueueState } from '../domain/provider-queue';
import {
  MAX_BATCH,
  mayStartRound,
  oneTicketPerCall,
  splitByDeadline,
  tokenWaitMs,
  wakeUpDelaySeconds,
} from '../domain/provider-queue-dispatch';
import { planLanes } from '../domain/provider-queue-lanes';
import { leaseId, type QueueTicket } from '../domain/provider-queue-order';

/**
 * The provider queue's dispatcher (docs/architecture.md §4, docs/decisions/010-provider-queue.md): reads the queue's
 * state, reads ONLY the head of the queue — as many tickets as there are free permits — and admits them in one
 * transaction, then resumes each waiting Task with its lease. What it reads and writes per admitted slot does not
 * depend on how many wait behind the head. Decisions: domain/provider-queue.ts and provider-queue-dispatch.ts.
 */

/** What the dispatcher needs from the outside world: the queue's items, the Tasks' callbacks, wake-up messages. */
export interface DispatchProviderQueuePorts {
  queueLimits: () => QueueLimits;
  /** PROVIDER_FREE_SHARE: the free lane's share of the admissions while paid work waits (0-1). */
  freeShare: () => number;
  /** GENERATION_DEADLINE_MINUTES in ms: a ticket's deadline minus it is when its generation started. */
  deadlineMs: () => number;
  readState: (consistent: boolean) => Promise<QueueState>;
  readHead: typeof readHead;
  admitTickets: typeof admitTickets;
  handOverLease: typeof handOverLease;
  removeTicket: typeof removeTicket;
  setTicketAside: typeof setTicketAside;
  markAdmitted: typeof markAdmitted;
  leavePosition: typeof leavePosition;
  resumeAdmitted: typeof resumeAdmitted;
  failPastDeadline: typeof failPastDeadline;
  failRefusedAdmission: typeof failRefusedAdmission;
  releaseDeadLease: typeof releaseDeadLease;
  wakeDispatcher: typeof wakeDispatcher;
  countDispatch: typeof countDispatch;
  queueUsage: typeof queueUsage;
}

/** The real adapters: the default ports (a contract test replaces some, e.g. the Step Functions callback). */
export const dispatchProviderQueueAdapters: DispatchProviderQueuePorts = {
  queueLimits,
  freeShare,
  deadlineMs,
  readState,
  readHead,
  admitTickets,
  handOverLease,
  removeTicket,
  setTicketAside,
  markAdmitted,
  leavePosition,
  resumeAdmitted,
  failPastDeadline,
  failRefusedAdmission,
  releaseDeadLease,
  wakeDispatcher,
  countDispatch,
  queueUsage,
};

/** What one dispatch did. */
export interface DispatchResult {
  admitted: number;
  expired: number;
  /** Tickets the table refused to admit, set aside with their slots refunded (the line moved on). */
  setAside: number;
  /** Waits for the bucket's next token within the invocation, and their total in ms. */
  waits: number;
  waitedMs: number;
  /** Seconds until the delayed wake-up message it sent, when tokens held the queue. */
  wakeUpIn?: number;
  /** What the queue has cost in this process so far (adapters/provider-queue/usage.ts), for the log. */
  usage: QueueUsage;
}

/** How one dispatch runs: its clock, how it waits, and until when it may wait for tokens (epoch ms). */
export interface DispatchOptions {
  /** Epoch ms source (tests). */
  clock?: () => number;
  /** Waits `ms` (tests pass a fake that moves their clock). */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Until when (epoch ms) the dispatch may wait within its invocation for the bucket's next token; not at all when
   * absent (a single pass). The handler passes domain/provider-queue-dispatch.ts `waitUntil`.
   */
  waitUntil?: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a dispatch carries from round to round. */
interface Rounds {
  state: QueueState;
  /** Whether tickets wait behind what was admitted: known after a round that admitted, read otherwise. */
  waiting: boolean | undefined;
  lostRace: boolean;
  result: Omit<DispatchResult, 'usage'>;
}

/**
 * Admits as many waiting slots as the permits allow, head of the queue first.
 *
 * When the bucket is what holds the queue (permits free, a token due within `waitUntil`), a dispatch that has itself
 * admitted in this invocation waits for the next token and admits again (domain `tokenWaitMs`). One that admitted
 * nothing, or lost the state's version race (another dispatch admitted: that one is the one waiting), does not wait;
 * when slots still wait, it ends with a delayed wake-up message for the next token, as every dispatch does at the end
 * of its budget. Safe to run twice at once (the event source mapping allows 2): the state's version condition lets
 * only one batch win.
 *
 * Paid work first, free work bounded (docs/decisions/019-paid-first.md): each round reads the paid lane's head, and
 * the free lane's when free tickets may go (domain `planLanes`: what paid work leaves, or the free share while paid
 * work waits).
 *
 * Per round, whatever the queue's length: one strongly consistent read of the state, one or two reads of at most
 * (permits + 1) tickets at the lanes' heads, one transaction.
 *
 * Nobody can wedge the line: of two tickets of one call the older is deleted before the batch is written
 * (domain `oneTicketPerCall`), and a batch the table refuses as invalid is admitted one ticket at a time, each ticket
 * it still refuses set aside with its slot refunded ({@link setAside}, metric `QueueTicketsSetAside`).
 *
 * @throws whatever a port throws (the dispatcher's batch fails and SQS delivers its wake-up messages again)
 */
export async function dispatchProviderQueue(
  options: DispatchOptions = {},
  ports: DispatchProviderQueuePorts = dispatchProviderQueueAdapters,
): Promise<DispatchResult> {
  const { clock = Date.now, sleep = realSleep, waitUntil: until } = options;
  const limits = ports.queueLimits();
  const began = clock();
  const run: Rounds = {
    state: await ports.readState(true),
    waiting: undefined,
    lostRace: false,
    result: { admitted: 0, expired: 0, setAside: 0, waits: 0, waitedMs: 0 },
  };
  for (let round = 0; mayStartRound(round, clock(), until); round++) {
    const permits = Math.min(MAX_BATCH, freePermits(run.state, limits, clock()));
    const go =
      permits === 0
        ? await waitForToken(run, limits, until, clock, sleep, ports)
        : await admitRound(run, permits, limits, clock, ports);
    if (!go) break;
  }
  const delay = run.waiting === true ? wakeUpDelaySeconds(run.state, limits, clock()) : undefined;
  if (delay !== undefined) {
    await ports.wakeDispatcher('tokens', delay);
    run.result.wakeUpIn = delay;
  }
  ports.countDispatch(clock() - began);
  return { ...run.result, usage: ports.queueUsage() };
}

/** A round without a free permit: waits for the next token when that is what holds the queue. `false`: stop. */
async function waitForToken(
  run: Rounds,
  limits: QueueLimits,
  until: number | undefined,
  clock: () => number,
  sleep: (ms: number) => Promise<void>,
  ports: DispatchProviderQueuePorts,
): Promise<boolean> {
  run.waiting ??= (await ports.readHead(1)).length > 0;
  const round = { waiting: run.waiting, admitted: run.result.admitted, lostRace: run.lostRace, until };
  const waitMs = tokenWaitMs(round, run.state, limits, clock());
  if (waitMs === undefined) return false;
  await sleep(waitMs);
  run.result.waits += 1;
  run.result.waitedMs += waitMs;
  run.state = await ports.readState(true);
  return true;
}

/** A round with `permits` free: expires the tickets past their deadline and admits the rest. `false`: stop. */
async function admitRound(
  run: Rounds,
  permits: number,
  limits: QueueLimits,
  clock: () => number,
  ports: DispatchProviderQueuePorts,
): Promise<boolean> {
  const now = clock();
  const { batch, waiting, allowance } = await readLanes(run.state, permits, ports);
  run.waiting = waiting;
  if (batch.length === 0) return false;
  const { expired, live } = splitByDeadline(batch, now);
  await expire(expired, ports);
  run.result.expired += expired.length;
  const { unique, duplicates } = oneTicketPerCall(live);
  // The older ticket of a call a retried EnterLine entered twice: its Task no longer waits.
  for (const duplicate of duplicates) await ports.removeTicket(duplicate);
  if (unique.length === 0) {
    run.state = await ports.readState(true);
    return true;
  }
  const next = { ...admitSlots(run.state, limits, unique.length, now), freeAllowance: allowance };
  const outcome = await admit(run.state, next, unique, limits, now, ports);
  if (outcome.refused) {
    // The table refused the batch: one at a time, so only the ticket it still refuses is set aside.
    await admitSingly(run, outcome.refused, limits, now, ports);
    run.state = await ports.readState(true);
    return true;
  }
  run.result.admitted += outcome.admitted;
  if (outcome.admitted === 0) {
    // Another writer moved the state (a concurrent dispatch, a pause): read it again, and leave the waiting to it.
    run.lostRace = true;
    run.waiting = undefined;
    run.state = await ports.readState(true);
    return true;
  }
  if (!run.waiting) return false;
  // The state is what this dispatch wrote, but for releases' `ADD inFlight` meanwhile (fewer in flight than `next`
  // says: it may only under-admit until the next read). A batch cut at MAX_BATCH reads it again at once.
  run.state = freePermits(next, limits, clock()) > 0 ? await ports.readState(true) : next;
  return true;
}

/**
 * One round's batch from the lanes' heads (domain `planLanes`): the paid lane's first `permits` + 1 tickets (one more
 * than can go: whether any still wait), then the free lane's, as many as may go.
 *
 * @returns the tickets to admit, whether any wait behind them, the free lane's allowance to store
 */
async function readLanes(
  state: QueueState,
  permits: number,
  ports: DispatchProviderQueuePorts,
): Promise<{ batch: QueueTicket[]; waiting: boolean; allowance: number }> {
  const share = ports.freeShare();
  const allowance = state.freeAllowance ?? 0;
  const paid = await ports.readHead(permits + 1, 'paid');
  const freeWanted =
    paid.length <= permits ? permits - paid.length + 1 : Math.floor(allowance + permits * share + 1e-9);
  const free = freeWanted > 0 ? await ports.readHead(Math.min(freeWanted, permits + 1), 'free') : [];
  const plan = planLanes({
    permits,
    paidWaiting: paid.length,
    freeWaiting: Math.min(free.length, permits),
    allowance,
    share,
  });
  return {
    batch: [...paid.slice(0, plan.paid), ...free.slice(0, plan.free)],
    waiting: paid.length > plan.paid || free.length > plan.free,
    allowance: plan.allowance,
  };
}

/**
 * The tickets of a refused batch, each in a transaction of its own (with the state as read just before): admitted, or
 * set aside when the table refuses that one alone. A batch of one is set aside at once. Stops when no permit is left.
 */
async function admitSingly(
  run: Rounds,
  refusal: AdmissionRefusal,
  limits: QueueLimits,
  now: number,
  ports: DispatchProviderQueuePorts,
): Promise<void> {
  if (refusal.tickets.length === 1) {
    run.result.setAside += await setAside(refusal.tickets[0]!, refusal, now, ports);
    return;
  }
  logger.warn('The table refused an admission batch: admitting its tickets one at a time', {
    tickets: refusal.tickets.length,
    error: refusal.error,
  });
  for (const ticket of refusal.tickets) {
    const state = await ports.readState(true);
    if (freePermits(state, limits, now) === 0) return;
    const outcome = await admit(state, admitSlots(state, limits, 1, now), [ticket], limits, now, ports);
    if (outcome.refused) run.result.setAside += await setAside(ticket, outcome.refused, now, ports);
    run.result.admitted += outcome.admitted;
  }
}

/**
 * Sets aside a ticket the table refuses to admit on its own (adapters/provider-queue/tickets.ts `setTicketAside`), so
 * the line moves on: its Task fails with `AdmissionRefused` (the workflow refunds the slot), an error is logged with
 * what the table said, and `QueueTicketsSetAside` counts it (an alarm pages: it is a bug).
 *
 * @returns 1 when set aside, 0 when a retried EnterLine replaced the ticket meanwhile (judged on its own)
 */
async function setAside(
  ticket: QueueTicket,
  refusal: Pick<AdmissionRefusal, 'error' | 'message'>,
  now: number,
  ports: DispatchProviderQueuePorts,
): Promise<number> {
  if (!(await ports.setTicketAside(ticket, refusal, now))) return 0;
  logger.error('A ticket the table refused to admit was set aside; its slot is refunded', {
    leaseId: leaseId(ticket),
    generationId: ticket.generationId,
    error: refusal.error,
    problem: refusal.message,
  });
  countMetric('QueueTicketsSetAside', 1, { error: refusal.error });
  await ports.failRefusedAdmission(ticket.taskToken, ticket.generationId);
  return 1;
}

/**
 * One batch: the transaction, then each Task resumed with its lease. A lost race (another dispatcher, a release's
 * pause, a retried EnterLine) admits nothing this round: the caller reads again; a ticket whose call holds a lease
 * already gets that lease instead ({@link handOver}). A batch the table refuses comes back as `refused`.
 *
 * @returns slots admitted, and the table's refusal
 */
async function admit(
  state: QueueState,
  next: QueueState,
  tickets: QueueTicket[],
  limits: QueueLimits,
  now: number,
  ports: DispatchProviderQueuePorts,
): Promise<{ admitted: number; refused?: AdmissionRefusal }> {
  const written = await ports.admitTickets({
    state,
    next,
    tickets,
    grantedAt: now,
    leaseUntil: now + limits.leaseMs,
  });
  if (!written.written) {
    if (written.refused) return { admitted: 0, refused: written.refused };
    for (const ticket of written.held) await handOver(ticket, ports);
    return { admitted: 0 };
  }
  await Promise.all(
    tickets.map(async (ticket) => {
      // The dashboard's queue: how long the slot waited since its generation started.
      timingMetric('QueueWait', now - (ticket.deadline - ports.deadlineMs()));
      await resume(ticket, ports);
    }),
  );
  const generations = new Map(tickets.map((t) => [t.generationId, t]));
  await Promise.all(
    [...generations.values()].map((t) =>
      ports.markAdmitted({ userId: t.userId, generationId: t.generationId, orderKey: t.orderKey, now }),
    ),
  );
  return { admitted: tickets.length };
}

/** Resumes an admitted Task with its lease; a Task that no longer waits gives its lease back at once. */
async function resume(ticket: QueueTicket, ports: DispatchProviderQueuePorts): Promise<void> {
  const id = leaseId(ticket);
  if (await ports.resumeAdmitted(ticket.taskToken, id)) return;
  logger.info('An admitted slot no longer waits: its lease is given back', { leaseId: id });
  await ports.releaseDeadLease(id, ticket.taskToken);
}

/**
 * A ticket whose call already holds a lease (a retried EnterLine after the first try was admitted but its Task had
 * failed): the lease passes to the new token and the ticket goes — no second lease, no second permit. A ticket older
 * than the one the lease was granted to is deleted instead (the adapter's `superseded`): its Task no longer waits.
 */
async function handOver(ticket: QueueTicket, ports: DispatchProviderQueuePorts): Promise<void> {
  if ((await ports.handOverLease(ticket)) !== 'handedOver') return;
  await resume(ticket, ports);
}

/** Ends the tickets whose generation passed its deadline: ticket deleted, Task failed (`AdmissionDeadline`). */
async function expire(tickets: readonly QueueTicket[], ports: DispatchProviderQueuePorts): Promise<void> {
  for (const ticket of tickets) {
    // A retried EnterLine put a new token meanwhile: that Task is judged on its own.
    if (!(await ports.removeTicket(ticket))) continue;
    await ports.failPastDeadline(ticket.taskToken, ticket.generationId);
    await ports.leavePosition(ticket.orderKey, ticket.generationId);
  }
}
