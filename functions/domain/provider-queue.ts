/**
 * The provider queue's permits (docs/architecture.md §4, docs/decisions/010-provider-queue.md): how many waiting
 * slots the dispatcher may admit now — at most `PROVIDER_MAX_CONCURRENCY` calls in flight (leases, counted in the
 * state item's `inFlight`) and at most `PROVIDER_IMAGES_PER_MINUTE` calls started per minute (a token bucket) — how a
 * 429 pauses admissions (capped), how long a lease lasts, and the estimated wait. Pure: every time is an epoch-ms
 * argument, so the adapters, the use cases and the tests share one definition. The dispatcher's rounds are
 * domain/provider-queue-dispatch.ts; the order of the queue domain/provider-queue-order.ts.
 */

/** Provider capacity and the queue's tuning, from config. `Infinity` = unlimited. */
export interface QueueLimits {
  /** Calls started per minute across all generations (`PROVIDER_IMAGES_PER_MINUTE`). */
  imagesPerMinute: number;
  /** Calls in flight at once across all generations (`PROVIDER_MAX_CONCURRENCY`). */
  maxConcurrency: number;
  /** How long a lease lasts, in ms ({@link leaseMsFor}). */
  leaseMs: number;
  /** The longest a 429 may pause every admission, in ms (`PROVIDER_MAX_PAUSE_SECONDS`, default 60 s). */
  maxPauseMs: number;
}

/**
 * The queue's state: ONE small item of fixed size (no lease list, no tickets), so reading and writing it costs the
 * same whether 10 or 10,000 slots wait. Times are epoch ms.
 */
export interface QueueState {
  /** Tokens in the bucket at `refilledAt` (fractional). */
  tokens: number;
  refilledAt: number;
  /** A 429 stops every admission until then (its `retry-after`, capped at {@link QueueLimits.maxPauseMs}). */
  pausedUntil: number;
  /** Leases held now (each one a separate item; the reaper gives back the expired ones). */
  inFlight: number;
  /** Sum of the measured call durations (ms) and how many: their ratio is the average call, for the estimates. */
  callMsSum: number;
  calls: number;
  /** Optimistic-locking counter: the dispatcher's writes check and bump it. */
  version: number;
  /**
   * The free lane's admissions in hand while paid work waits (domain/provider-queue-lanes.ts `planLanes`), 0-1;
   * absent = 0.
   */
  freeAllowance?: number;
}

/** Call duration assumed before any call has been measured, in ms (OpenAI image edits take 60-150 s). */
export const INITIAL_CALL_MS = 60_000;
/** Wait after a 429 that names no reset time, in ms. */
export const DEFAULT_THROTTLE_MS = 10_000;

/**
 * The pause a provider call's end asks for, in ms: a 429 (`throttled`) pauses admissions for the wait the provider
 * named, or {@link DEFAULT_THROTTLE_MS} when it named none; any other end pauses nothing (`undefined`).
 *
 * @param retryAfterMs the 429's wait as CallProvider read it (domain/slot-outcomes.ts `retryAfterMs`), or `null`
 */
export function throttleMsOf(outcome: string, retryAfterMs: number | null | undefined): number | undefined {
  return outcome === 'throttled' ? (retryAfterMs ?? DEFAULT_THROTTLE_MS) : undefined;
}
/** PROVIDER_MAX_PAUSE_SECONDS when unset: a 429 never stops everyone for more than a minute. */
export const DEFAULT_MAX_PAUSE_SECONDS = 60;
/** The averages are halved past this many calls, so the estimate follows the provider's recent speed. */
export const CALL_AVERAGE_WINDOW = 200;

/** The empty state: a full bucket, nothing in flight. */
export function initialQueueState(limits: QueueLimits, now: number): QueueState {
  const tokens = bucketCapacity(limits);
  return {
    tokens: Number.isFinite(tokens) ? tokens : 0,
    refilledAt: now,
    pausedUntil: 0,
    inFlight: 0,
    callMsSum: 0,
    calls: 0,
    version: 0,
  };
}

/**
 * The bucket's size: one second's worth of the per-minute limit, at least 1 — OpenAI documents that its per-minute
 * limits may be enforced over shorter periods ("quantized",
 * https://platform.openai.com/docs/guides/rate-limits), so a whole minute's burst is never sent at once.
 */
export function bucketCapacity(limits: Pick<QueueLimits, 'imagesPerMinute'>): number {
  if (!Number.isFinite(limits.imagesPerMinute)) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil(limits.imagesPerMinute / 60));
}

/**
 * Tokens in the bucket at `now`: none while a 429's pause lasts; at the pause's end one token, refilling from there,
 * so admissions resume one at a time, never with a burst.
 */
export function tokensAt(state: QueueState, limits: QueueLimits, now: number): number {
  if (now < state.pausedUntil) return 0;
  if (!Number.isFinite(limits.imagesPerMinute)) return Number.POSITIVE_INFINITY;
  const from = Math.min(now, state.refilledAt);
  const refill = (Math.max(0, now - from) * limits.imagesPerMinute) / 60_000;
  return Math.min(bucketCapacity(limits), state.tokens + refill);
}

/**
 * How many waiting slots may be admitted at `now`: the whole tokens in the bucket and the free permits, whichever is
 * fewer (0 while paused). The dispatcher reads exactly this many tickets at the head of the queue.
 */
export function freePermits(state: QueueState, limits: QueueLimits, now: number): number {
  const tokens = Math.floor(tokensAt(state, limits, now) + 1e-9);
  const permits = limits.maxConcurrency - state.inFlight;
  return Math.max(0, Math.min(tokens, permits));
}

/**
 * The state after admitting `n` slots at `now`: `n` tokens spent, `n` leases more in flight, the version bumped.
 *
 * @throws {RangeError} when `n` exceeds {@link freePermits} (the caller read the queue wrong)
 */
export function admitSlots(state: QueueState, limits: QueueLimits, n: number, now: number): QueueState {
  if (n > freePermits(state, limits, now)) {
    throw new RangeError(`Cannot admit ${n} slots: ${freePermits(state, limits, now)} permits free`);
  }
  const tokens = tokensAt(state, limits, now);
  const decayed = state.calls > CALL_AVERAGE_WINDOW;
  return {
    ...state,
    tokens: Number.isFinite(tokens) ? tokens - n : 0,
    refilledAt: Math.max(now, state.pausedUntil),
    inFlight: state.inFlight + n,
    callMsSum: decayed ? Math.round(state.callMsSum / 2) : state.callMsSum,
    calls: decayed ? Math.round(state.calls / 2) : state.calls,
    version: state.version + 1,
  };
}

/** The average provider call in ms: the measured calls' mean, or {@link INITIAL_CALL_MS} before any. */
export function averageCallMs(state: Pick<QueueState, 'callMsSum' | 'calls'>): number {
  return state.calls > 0 ? state.callMsSum / state.calls : INITIAL_CALL_MS;
}

/**
 * How long a 429 pauses every admission, in ms: what the provider asked (`retry-after`, or
 * {@link DEFAULT_THROTTLE_MS} when it named nothing), at most `maxPauseMs` — a header saying "an hour" must not stop
 * every customer for an hour (issue 25); a slot admitted too early meets another 429 and pauses again.
 */
export function cappedPauseMs(throttleMs: number | undefined, maxPauseMs: number): number {
  const asked = throttleMs ?? DEFAULT_THROTTLE_MS;
  return Math.max(0, Math.min(Number.isFinite(asked) ? asked : maxPauseMs, maxPauseMs));
}

/**
 * The pause after a 429 at `now` (see {@link cappedPauseMs}): the later of any pause already set and
 * now + the capped wait. The bucket then holds one token at the pause's end ({@link tokensAt}).
 */
export function pausedUntilAfter429(
  state: Pick<QueueState, 'pausedUntil'>,
  limits: QueueLimits,
  throttleMs: number | undefined,
  now: number,
): number {
  return Math.max(state.pausedUntil, now + cappedPauseMs(throttleMs, limits.maxPauseMs));
}

/**
 * The bucket's tokens to store with a new pause: one at the pause's end (`refilledAt` = the pause's end), so the
 * first call after it is a probe, not a burst.
 */
export function tokensAfterPause(limits: QueueLimits): number {
  return Math.min(1, bucketCapacity(limits));
}

/**
 * How many attempts of the provider-call Task a lease covers: the call and one retry after its Lambda failed
 * (decision 005: a Task retried after its provider call calls the provider again under the lease it holds).
 */
export const LEASE_CALL_ATTEMPTS = 2;
/** Beyond the attempts: the retry's backoff (at most 30 s) and ReleaseProviderSlot, in seconds. */
export const LEASE_MARGIN_SECONDS = 60;

/**
 * How long a lease lasts, in ms: the provider-call Task's `TimeoutSeconds` × {@link LEASE_CALL_ATTEMPTS}, then the
 * rest of the slot (FinishHeadshot's Task: `slotSeconds − taskSeconds`), + {@link LEASE_MARGIN_SECONDS}
 * (functions/domain/provider-timeouts.ts, which follows the model, the quality and OPENAI_TIMEOUT_SECONDS): 690 s for
 * the default model at `high` (270 s + 270 s + 90 s + 60 s). Only a holder that crashed — its execution stopped or
 * timed out between admission and release — ever loses its lease; the reaper then gives the permit back.
 */
export function leaseMsFor(
  slot: { taskSeconds: number; slotSeconds: number },
  attempts = LEASE_CALL_ATTEMPTS,
): number {
  return (slot.taskSeconds * attempts + (slot.slotSeconds - slot.taskSeconds) + LEASE_MARGIN_SECONDS) * 1000;
}

/**
 * Estimated seconds until a generation with `slotsAhead` waiting slots ahead of it gets its first call: the later of
 * "the bucket has let them all through" and "the permits have served them all" (each permit one average call per
 * slot), plus any pause left.
 */
export function etaSeconds(state: QueueState, limits: QueueLimits, slotsAhead: number, now: number): number {
  const pause = Math.max(0, state.pausedUntil - now);
  const byRate = Number.isFinite(limits.imagesPerMinute)
    ? (Math.max(0, slotsAhead + 1 - tokensAt(state, limits, Math.max(now, state.pausedUntil))) * 60_000) /
      limits.imagesPerMinute
    : 0;
  const byPermits = Number.isFinite(limits.maxConcurrency)
    ? Math.ceil(
        Math.max(0, slotsAhead + 1 - (limits.maxConcurrency - state.inFlight)) / limits.maxConcurrency,
      ) * averageCallMs(state)
    : 0;
  return Math.ceil((pause + Math.max(byRate, byPermits)) / 1000);
}
