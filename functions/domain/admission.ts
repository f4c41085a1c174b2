/**
 * The rules of the provider admission point (docs/architecture.md §2, §4): every image-provider
 * call of every generation waits in ONE line and is let through only while the provider has room — at most
 * `PROVIDER_MAX_CONCURRENCY` calls in flight (a semaphore of leases that expire, so a crashed holder cannot keep its
 * place) and at most `PROVIDER_IMAGES_PER_MINUTE` calls started per minute (a token bucket). The line is ordered by
 * (priority, round, arrival): buyers of a pack with "Priority generation" first, then the n-th slot of every
 * generation before anyone's (n+1)-th (so six slots of one generation never starve the others), then first come,
 * first served. Pure: no I/O, every time is an epoch-ms argument, so the adapter, the workflow tasks and the tests
 * share one definition.
 */

/** Provider capacity, from config. `Infinity` = unlimited. */
export interface AdmissionLimits {
  /** Calls started per minute across all generations. */
  imagesPerMinute: number;
  /** Calls in flight at once across all generations. */
  maxConcurrency: number;
  /**
   * How long a lease lasts, in ms; default {@link LEASE_MS}. Longer than the slot Task's timeout, which follows the
   * configured model and quality (provider-timeouts.ts), so only a holder that crashed loses its lease.
   */
  leaseMs?: number;
}

/** One call's hold on the provider (a semaphore permit with an expiry). Times are epoch ms. */
export interface Lease {
  generationId: string;
  grantedAt: number;
  /** After this the lease counts as released: its holder crashed or lost track of it. */
  expiresAt: number;
}

/** The shared admission state (one item). Times are epoch ms. */
export interface AdmissionState {
  /** Tokens in the bucket at `refilledAt` (fractional). */
  tokens: number;
  refilledAt: number;
  /** A 429 from the provider stops every admission until then (its `retry-after`). */
  pausedUntil: number;
  /** Lease id → lease. */
  leases: Record<string, Lease>;
  /** Moving average of a provider call's duration, in ms (estimates; the first call replaces the initial guess). */
  avgCallMs: number;
  /** Calls that have fed the average. */
  calls: number;
  /** Optimistic-locking counter: every write checks and bumps it. */
  version: number;
}

/**
 * How long a lease lasts at least, in ms: longer than the slowest provider call the slot task allows with the default
 * model and quality (its 240 s Lambda timeout, the Task's 270 s), so only a holder that crashed loses its lease.
 * A slower configuration lengthens it ({@link AdmissionLimits.leaseMs}).
 */
export const LEASE_MS = 300_000;
/** The shortest wait between two tries of one ticket, in ms. */
export const MIN_POLL_MS = 250;
/** The longest, in ms: a waiting ticket re-checks its place at least this often (and so stays alive). */
export const MAX_POLL_MS = 20_000;
/** A ticket not seen for this long (ms) belongs to an execution that ended: it no longer holds anyone up. */
export const TICKET_STALE_MS = 3 * MAX_POLL_MS + 10_000;
/** Call duration assumed before any call has finished, in ms (OpenAI image edits take 60-150 s). */
export const INITIAL_CALL_MS = 60_000;
/** Wait after a 429 that names no reset time, in ms. */
export const DEFAULT_THROTTLE_MS = 10_000;

/** The empty state: a full bucket, no leases. */
export function initialState(limits: AdmissionLimits, now: number): AdmissionState {
  return {
    tokens: bucketCapacity(limits),
    refilledAt: now,
    pausedUntil: 0,
    leases: {},
    avgCallMs: INITIAL_CALL_MS,
    calls: 0,
    version: 0,
  };
}

/**
 * The bucket's size: one second's worth of the per-minute limit, at least 1 — OpenAI documents that its per-minute
 * limits may be enforced over shorter periods ("quantized"), so a whole minute's burst is never sent at once.
 */
export function bucketCapacity(limits: AdmissionLimits): number {
  if (!Number.isFinite(limits.imagesPerMinute)) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil(limits.imagesPerMinute / 60));
}

/**
 * The bucket at `now`: its tokens and the instant they were counted. While a 429's pause lasts it is empty; at the
 * pause's end it holds one token and refills from there, so admissions resume one at a time, never with a burst.
 */
function refilled(
  state: AdmissionState,
  limits: AdmissionLimits,
  now: number,
): { tokens: number; at: number } {
  if (now < state.pausedUntil) return { tokens: 0, at: state.pausedUntil };
  if (!Number.isFinite(limits.imagesPerMinute)) return { tokens: Number.POSITIVE_INFINITY, at: now };
  const from = Math.min(now, state.refilledAt);
  const tokens = state.tokens + (Math.max(0, now - from) * limits.imagesPerMinute) / 60_000;
  return { tokens: Math.min(bucketCapacity(limits), tokens), at: now };
}

/** Tokens in the bucket at `now` (none while paused by a 429). */
export function tokensAt(state: AdmissionState, limits: AdmissionLimits, now: number): number {
  return refilled(state, limits, now).tokens;
}

/** The leases that have not expired at `now`. */
export function liveLeases(state: AdmissionState, now: number): [string, Lease][] {
  return Object.entries(state.leases).filter(([, lease]) => lease.expiresAt > now);
}

/** Whether the ticket at `rank` (0 = first in line among live tickets) may call the provider now. */
export function mayAdmit(state: AdmissionState, limits: AdmissionLimits, rank: number, now: number): boolean {
  const free = limits.maxConcurrency - liveLeases(state, now).length;
  return rank < Math.min(Math.floor(tokensAt(state, limits, now) + 1e-9), free);
}

/** The state after admitting one call under `leaseId`: one token spent, one lease more, expired leases dropped. */
export function admit(
  state: AdmissionState,
  limits: AdmissionLimits,
  leaseId: string,
  generationId: string,
  now: number,
): AdmissionState {
  const leases = Object.fromEntries(liveLeases(state, now));
  leases[leaseId] = { generationId, grantedAt: now, expiresAt: now + (limits.leaseMs ?? LEASE_MS) };
  const bucket = refilled(state, limits, now);
  return {
    ...state,
    tokens: Number.isFinite(bucket.tokens) ? bucket.tokens - 1 : 0,
    refilledAt: bucket.at,
    leases,
    version: state.version + 1,
  };
}

/**
 * The state after a call ends: its lease is gone, the call's duration feeds the average, and a 429 (`throttleMs`)
 * empties the bucket and pauses every admission for that long.
 */
export function release(
  state: AdmissionState,
  limits: AdmissionLimits,
  leaseId: string,
  now: number,
  throttleMs?: number,
): AdmissionState {
  const lease = state.leases[leaseId];
  const leases = Object.fromEntries(liveLeases(state, now).filter(([id]) => id !== leaseId));
  const took = lease && throttleMs === undefined ? now - lease.grantedAt : undefined;
  const bucket = refilled(state, limits, now);
  const next: AdmissionState = {
    ...state,
    leases,
    tokens: Number.isFinite(bucket.tokens) ? bucket.tokens : 0,
    refilledAt: bucket.at,
    avgCallMs:
      took === undefined
        ? state.avgCallMs
        : Math.round((state.calls ?? 0) === 0 ? took : state.avgCallMs * 0.8 + took * 0.2),
    calls: (state.calls ?? 0) + (took === undefined ? 0 : 1),
    version: state.version + 1,
  };
  if (throttleMs !== undefined) {
    // The provider's retry-after is when it takes a call again: one token then, the rest at the usual rate.
    next.pausedUntil = Math.max(state.pausedUntil, now + throttleMs);
    next.tokens = Math.min(1, bucketCapacity(limits));
    next.refilledAt = next.pausedUntil;
  }
  return next;
}

/**
 * Estimated ms until the ticket at `rank` is admitted: the later of "the bucket holds rank + 1 tokens" and "rank + 1
 * leases are free", the leases' ends estimated from the average call duration.
 */
export function etaMs(state: AdmissionState, limits: AdmissionLimits, rank: number, now: number): number {
  let tokenEta = Math.max(0, state.pausedUntil - now);
  if (Number.isFinite(limits.imagesPerMinute)) {
    const start = Math.max(now, state.pausedUntil);
    const needed = rank + 1 - tokensAt(state, limits, start);
    tokenEta = start - now + (Math.max(0, needed) * 60_000) / limits.imagesPerMinute;
  }
  let leaseEta = 0;
  const live = liveLeases(state, now);
  const free = limits.maxConcurrency - live.length;
  if (Number.isFinite(limits.maxConcurrency) && rank >= free) {
    const ends = live.map(([, l]) => Math.max(now, l.grantedAt + state.avgCallMs)).sort((a, b) => a - b);
    const k = rank + 1 - Math.max(0, free);
    const last = ends.at(-1) ?? now;
    leaseEta =
      (k <= ends.length
        ? ends[k - 1]!
        : last + Math.ceil((k - ends.length) / limits.maxConcurrency) * state.avgCallMs) - now;
  }
  return Math.max(tokenEta, leaseEta);
}

/**
 * How often a ticket that is next in line for a permit checks again while every permit is taken, in ms: a twentieth
 * of the average call (between {@link MIN_POLL_MS} and 5 s), so a permit freed early is not left idle for long.
 * Before any call has been measured, every ticket waiting for a permit checks every 2 s. `undefined` for a ticket
 * that waits for tokens, or behind more than one round of permits: its estimate is enough.
 */
export function permitCheckMs(
  state: AdmissionState,
  limits: AdmissionLimits,
  rank: number,
  now: number,
): number | undefined {
  if (!Number.isFinite(limits.maxConcurrency)) return undefined;
  if (limits.maxConcurrency - liveLeases(state, now).length > rank) return undefined;
  // Before any call has finished the average is a guess: check every 2 s rather than trust it.
  if ((state.calls ?? 0) === 0) return 2_000;
  if (rank >= limits.maxConcurrency) return undefined;
  return Math.min(5_000, Math.max(MIN_POLL_MS, state.avgCallMs / 20));
}

/**
 * How long a ticket that was not admitted waits before trying again, in ms: until its estimated turn (or sooner,
 * every `checkMs`, see {@link permitCheckMs}), with up to 10 % (at most 1 s) of random jitter so tickets released
 * together by a 429's reset do not all arrive at once, and between {@link MIN_POLL_MS} and {@link MAX_POLL_MS}.
 */
export function pollDelayMs(eta: number, random = Math.random(), checkMs?: number): number {
  const base = checkMs === undefined ? eta : eta > 0 ? Math.min(eta, checkMs) : checkMs;
  const jitter = random * Math.min(base * 0.1, 1000);
  return Math.round(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, base + jitter)));
}

// The deadline, the execution's timeout and the sweeper's cutoff have one source: generation-deadline.ts.
export { DEFAULT_DEADLINE_MINUTES, deadlineOf, executionTimeoutSeconds } from './generation-deadline';

/** Ticket priority classes: buyers of Popular or Pro ("Priority generation", docs/product-spec.md) go first. */
export type TicketPriority = 'priority' | 'standard';

/**
 * The sort key of a slot's ticket: `TICKET#<0|1>#<round>#<generationId>#<slot>`. Ordered by priority class, then
 * round (the slot's index in its generation, so generations interleave), then the generation id — a ULID, so
 * arrival order. The same slot always gets the same key: after a 429 it goes back to its old place in line.
 */
export function ticketSortKey(input: {
  priority: TicketPriority;
  round: number;
  generationId: string;
  slot: number;
}): string {
  const cls = input.priority === 'priority' ? '0' : '1';
  const pad = (n: number) => String(n).padStart(3, '0');
  return `TICKET#${cls}#${pad(input.round)}#${input.generationId}#${pad(input.slot)}`;
}
