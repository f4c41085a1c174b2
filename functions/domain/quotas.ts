/**
 * Per-user quotas on the costly routes (docs/architecture.md §8 "Money"): a fixed window per rule (e.g. 100
 * presigned uploads per hour), counted in one DynamoDB item per user, rule and window. The rules here are pure;
 * `functions/adapters/quotas.ts` counts them.
 */

/** One quota: at most `limit` units per fixed window of `windowSeconds`. */
export interface QuotaRule {
  /** Stable name, part of the counter item's key: lower-case letters, digits and `-` (e.g. `uploads`). */
  name: string;
  /** Units allowed per window (files presigned, sessions created, photos checked…), a positive whole number. */
  limit: number;
  /** Window length in seconds (3600 = per hour); windows start at multiples of it since the Unix epoch. */
  windowSeconds: number;
  /** What is counted, plural, for a person: `photo uploads`, `checkout attempts`, `photo checks`. */
  noun: string;
}

/**
 * A quota was used up: the API answers 429 with `Retry-After: <retryAfterSeconds>` and `message` (mapped once, in
 * `functions/http/errors.ts`). Nothing else of the request was applied.
 */
export class QuotaExceededError extends Error {
  override readonly name = 'QuotaExceededError';
  constructor(
    /** The rule's name (`uploads`, `checkout-sessions`, `generations-in-flight`, …). */
    readonly quota: string,
    /** Whole seconds until a retry can succeed (≥ 1). */
    readonly retryAfterSeconds: number,
    /** A sentence for a person, saying what happened and when to try again. */
    message: string,
  ) {
    super(message);
  }
}

/** The fixed window `now` falls in: its start and end in epoch seconds. */
export function quotaWindow(rule: Pick<QuotaRule, 'windowSeconds'>, nowMs: number) {
  const nowSeconds = Math.floor(nowMs / 1000);
  const start = nowSeconds - (nowSeconds % rule.windowSeconds);
  return { start, end: start + rule.windowSeconds };
}

/** "about 1 minute", "12 minutes", "1 hour": a wait a person reads at a glance (rounded up to whole minutes). */
export function describeWait(seconds: number): string {
  if (seconds < 60) return 'a minute';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** The per-window phrase of a rule: "per hour", "per 10 minutes", "per day". */
function perWindow(windowSeconds: number): string {
  if (windowSeconds === 3600) return 'per hour';
  if (windowSeconds === 86_400) return 'per day';
  if (windowSeconds % 3600 === 0) return `per ${windowSeconds / 3600} hours`;
  if (windowSeconds % 60 === 0) return `per ${describeWait(windowSeconds)}`;
  return `per ${windowSeconds} seconds`;
}

/**
 * The error for a rule whose window is used up at `nowMs`: `Retry-After` is the rest of the window.
 *
 * @example "You've reached the limit of 100 photo uploads per hour. Please try again in 12 minutes."
 */
export function quotaExceeded(rule: QuotaRule, nowMs: number): QuotaExceededError {
  const { end } = quotaWindow(rule, nowMs);
  const retryAfterSeconds = Math.max(1, end - Math.floor(nowMs / 1000));
  return new QuotaExceededError(
    rule.name,
    retryAfterSeconds,
    `You've reached the limit of ${rule.limit} ${rule.noun} ${perWindow(rule.windowSeconds)}. ` +
      `Please try again in ${describeWait(retryAfterSeconds)}.`,
  );
}

/**
 * Validates a rule (a mistake here would let everything through or block everyone).
 *
 * @throws {RangeError} for a bad name, a limit or window that is not a positive whole number.
 */
export function assertQuotaRule(rule: QuotaRule): void {
  if (!/^[a-z0-9-]{1,40}$/.test(rule.name)) throw new RangeError(`Invalid quota name: ${rule.name}`);
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1)
    throw new RangeError(`Invalid quota limit: ${rule.limit}`);
  if (!Number.isSafeInteger(rule.windowSeconds) || rule.windowSeconds < 1)
    throw new RangeError(`Invalid quota window: ${rule.windowSeconds}`);
}

/** Seconds a client is told to wait while one of its generations is still running. */
export const GENERATION_IN_FLIGHT_RETRY_SECONDS = 30;

/** The 429 for a second generation while one is still being created (at most one in flight per user). */
export function generationInFlight(): QuotaExceededError {
  return new QuotaExceededError(
    'generations-in-flight',
    GENERATION_IN_FLIGHT_RETRY_SECONDS,
    'Your headshots are still being created. You can start a new generation as soon as they are ready.',
  );
}
