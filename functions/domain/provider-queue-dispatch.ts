import { tokensAt, type QueueLimits, type QueueState } from './provider-queue';

/**
 * The provider queue's dispatcher, its decisions (docs/architecture.md §4, docs/decisions/010-provider-queue.md): how
 * many tickets one round admits, which of them expired, whether the dispatcher waits within its invocation for the
 * bucket's next token or hands over to a delayed wake-up message, and how long one invocation may run. Pure: every
 * time is an epoch-ms argument; use-cases/dispatch-provider-queue.ts runs the rounds.
 */

/** Tickets admitted per transaction at most: 1 state update + 2 items per ticket, under TransactWriteItems' 100. */
export const MAX_BATCH = 40;

/**
 * Rounds per invocation at most (each round one batch or one wait): {@link WAIT_BUDGET_MS} ÷ {@link MIN_TOKEN_WAIT_MS},
 * the most a dispatch waiting for tokens can run, with room for the rounds that admit.
 */
export const MAX_ROUNDS = 400;

/** The dispatcher function's timeout in ms (functions/catalogue.ts `provider-dispatcher`), when no context says. */
export const DISPATCHER_TIMEOUT_MS = 60_000;

/**
 * The longest a dispatcher invocation keeps admitting by waiting for tokens, in ms: a third of the function's 60 s
 * timeout ({@link DISPATCHER_TIMEOUT_MS}), so a slow round never brings it near the timeout; then it hands over to a
 * delayed wake-up message.
 */
export const WAIT_BUDGET_MS = 20_000;

/**
 * What the invocation keeps in hand before its timeout past its budget, in ms: its last round (a transaction and the
 * callbacks of up to {@link MAX_BATCH} slots) and its delayed wake-up message. A timed-out dispatch fails its batch,
 * whose wake-up messages come back only after the queue's visibility timeout.
 */
const TIMEOUT_MARGIN_MS = 30_000;

/**
 * Until when (epoch ms) an invocation with `remainingMs` before its timeout may start rounds and wait for tokens:
 * {@link WAIT_BUDGET_MS} from `now`, and never closer than 30 s to the timeout.
 */
export function waitUntil(now: number, remainingMs: number): number {
  return now + Math.max(0, Math.min(WAIT_BUDGET_MS, remainingMs - TIMEOUT_MARGIN_MS));
}

/**
 * Whether the dispatcher may start round `round` (0-based) at `now`: always the first; later ones only before `until`
 * (epoch ms, {@link waitUntil}) — past its budget (a slow machine, a slow table) the rest is the delayed wake-up
 * message's, never the timeout's. Without `until` (a single pass) every round may start, up to {@link MAX_ROUNDS}.
 */
export function mayStartRound(round: number, now: number, until: number | undefined): boolean {
  if (round >= MAX_ROUNDS) return false;
  return until === undefined || round === 0 || now <= until;
}

/** The tickets of one batch split at `now` (epoch ms): those whose generation passed its deadline, and the rest. */
export function splitByDeadline<T extends { deadline: number }>(
  tickets: readonly T[],
  now: number,
): { expired: T[]; live: T[] } {
  return {
    expired: tickets.filter((t) => t.deadline <= now),
    live: tickets.filter((t) => t.deadline > now),
  };
}

/** What a ticket needs to be told apart from another ticket of the same provider call. */
interface CallTicket {
  generationId: string;
  slot: number;
  call: number;
  /** When its EnterLine put it, epoch ms. */
  enqueuedAt: number;
}

/**
 * One ticket per provider call: a ticket's key holds its order key, read at each EnterLine, but its lease id does not
 * (domain/provider-queue-order.ts `ticketSk`, `leaseId`), so an EnterLine retried after the customer's standing changed
 * leaves two tickets of one call — and two puts of one lease in one TransactWriteItems are refused ("no two actions
 * can target the same item": https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 * Of each call's tickets the one put last stays (its Task is the one still waiting: a retry's token replaces the
 * failed attempt's); ties keep the first in the batch.
 *
 * @returns the tickets to admit, in the batch's order, and the older duplicates to delete
 */
export function oneTicketPerCall<T extends CallTicket>(
  tickets: readonly T[],
): { unique: T[]; duplicates: T[] } {
  const newest = new Map<string, T>();
  for (const ticket of tickets) {
    const id = `${ticket.generationId}#${ticket.slot}#${ticket.call}`;
    const kept = newest.get(id);
    if (!kept || ticket.enqueuedAt > kept.enqueuedAt) newest.set(id, ticket);
  }
  const keep = new Set(newest.values());
  return { unique: tickets.filter((t) => keep.has(t)), duplicates: tickets.filter((t) => !keep.has(t)) };
}

/**
 * The longest SQS delay of a message, in seconds (`DelaySeconds` 0-900:
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SendMessage.html).
 */
export const MAX_WAKE_UP_DELAY_SECONDS = 900;

/**
 * The shortest wait of the dispatcher within one invocation, in ms: above the provider's fastest token spacing
 * (2,000 images/min = one per 30 ms), it admits a few slots per round instead of one, so its rounds per second — and
 * its reads of the queue's state — stay bounded whatever the limit.
 */
export const MIN_TOKEN_WAIT_MS = 100;

/**
 * In how many ms the bucket holds its next whole token (or the pause ends and it holds one), when tokens are what
 * holds the queue: the dispatcher's in-invocation wait ({@link tokenWaitMs}) and, rounded up to whole seconds, its
 * delayed wake-up message ({@link wakeUpDelaySeconds}). `undefined` when a token is there already, or when the
 * permits are all taken and no pause runs (a release wakes the dispatcher then). Never under
 * {@link MIN_TOKEN_WAIT_MS}.
 */
export function nextTokenInMs(state: QueueState, limits: QueueLimits, now: number): number | undefined {
  if (limits.maxConcurrency - state.inFlight <= 0 && now >= state.pausedUntil) return undefined;
  if (tokensAt(state, limits, now) >= 1 - 1e-9) return undefined;
  const start = Math.max(now, state.pausedUntil);
  const missing = 1 - tokensAt(state, limits, start);
  const ms = start - now + (Math.max(0, missing) * 60_000) / limits.imagesPerMinute;
  return Math.max(MIN_TOKEN_WAIT_MS, Math.ceil(ms));
}

/**
 * When the dispatcher must look at the queue again by itself, in whole seconds from `now` (a wake-up message's SQS
 * `DelaySeconds`, at most {@link MAX_WAKE_UP_DELAY_SECONDS}): when the next token is in the bucket (or the pause
 * ends). `undefined` when tokens are not what holds the queue: a permit comes back with a release, which wakes the
 * dispatcher itself, and the reaper's tick reclaims a crashed holder's permit.
 */
export function wakeUpDelaySeconds(state: QueueState, limits: QueueLimits, now: number): number | undefined {
  const ms = nextTokenInMs(state, limits, now);
  if (ms === undefined) return undefined;
  return Math.min(MAX_WAKE_UP_DELAY_SECONDS, Math.max(1, Math.ceil(ms / 1000)));
}

/** What a dispatch knows when no permit is free this round. */
export interface HeldRound {
  /** Whether tickets wait at the head of the queue. */
  waiting: boolean;
  /** Slots this invocation admitted so far. */
  admitted: number;
  /** Whether this invocation lost the state's version race to another writer (a concurrent dispatch, a pause). */
  lostRace: boolean;
  /** Until when it may wait (epoch ms, {@link waitUntil}); `undefined`: it may not wait at all (a single pass). */
  until: number | undefined;
}

/**
 * How long the dispatcher waits within its invocation for the bucket's next token, in ms, or `undefined` when it ends
 * instead. It waits only when tickets wait, it admitted in this invocation and did not lose a race (the winner is the
 * one waiting), and the token is due before `until`: the provider's limit is then met to the token, where SQS's
 * `DelaySeconds` (whole seconds) would leave up to a second unused per token.
 */
export function tokenWaitMs(
  round: HeldRound,
  state: QueueState,
  limits: QueueLimits,
  now: number,
): number | undefined {
  if (!round.waiting || round.admitted === 0 || round.lostRace || round.until === undefined) return undefined;
  const ms = nextTokenInMs(state, limits, now);
  return ms !== undefined && now + ms <= round.until ? ms : undefined;
}
