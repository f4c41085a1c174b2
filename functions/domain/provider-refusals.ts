import { createHmac } from 'node:crypto';
import { namedError } from './named-error';
import { describeWait, QuotaExceededError } from './quotas';

/**
 * Refusals cost the refuser (docs/decisions/018-provider-refusals.md, issue 33): a provider call the provider refuses
 * (a 4xx other than 429 that names no configuration parameter, e.g. OpenAI's 400 `moderation_blocked`: the
 * `ProviderRejectedError` outcome) costs us a place in the line and our organisation's standing with the provider,
 * and was free to repeat. Counted like the likeness cap's failed checks (domain/likeness-cap.ts):
 *
 * 1. **Per generation:** its `refusalsToStop`-th refusal stops it (no slot calls again; the rest are refunded) and sets
 *    its photo set (its content: domain/likeness-cap.ts `referenceSetHash`) aside for `setAsideMs`: a start with it
 *    is refused before anything is spent.
 * 2. **Per account, over a rolling window:** `accountRefusals` refusals within the last `windowMs` stop the running
 *    generation and refuse every start until the oldest of them leaves the window — whatever the photos.
 *
 * Every provider call also carries a keyed hash of its caller ({@link safetyIdentifier}), so the provider's own abuse
 * monitoring acts on the caller instead of on our organisation. Pure: adapters/provider-refusals.ts stores,
 * use-cases/provider-refusals.ts applies.
 */

/** The rule's sizes (config group `quotas`: `QUOTA_PROVIDER_REFUSALS_TO_STOP`, `QUOTA_ACCOUNT_REFUSALS`, …). */
export interface RefusalLimits {
  /** Refusals in one generation that stop it and set its photos aside (default 3 of 6, as failed likeness checks). */
  refusalsToStop: number;
  /** Refusals of one account within {@link windowMs} that refuse its starts (default 6). */
  accountRefusals: number;
  /** The account's rolling window, ms (default 24 hours). */
  windowMs: number;
  /** How long a photo set whose generation was stopped by refusals is refused, ms (default 7 days). */
  setAsideMs: number;
}

/** The outcome name of a call the provider refused (the Step Functions `Error` of CallProvider). */
export const PROVIDER_REFUSAL = 'ProviderRejectedError';

/**
 * The refusals of an account still inside the rolling window at `nowMs`: those after `nowMs - windowMs`, oldest first.
 *
 * @param times when each refusal was counted, epoch ms (any order; older ones are dropped)
 */
export function refusalsInWindow(times: readonly number[], nowMs: number, limits: RefusalLimits): number[] {
  return times.filter((at) => at > nowMs - limits.windowMs && at <= nowMs).sort((a, b) => a - b);
}

/**
 * Whether a generation stops after a refusal: its own refusals reached `refusalsToStop` (rule 1), or its account's
 * within the window reached `accountRefusals` (rule 2).
 */
export function stopsForRefusals(
  generationRefusals: number,
  accountRefusals: number,
  limits: RefusalLimits,
): boolean {
  return generationRefusals >= limits.refusalsToStop || accountRefusals >= limits.accountRefusals;
}

/**
 * Until when (epoch ms) the account's starts are refused under rule 2, or `undefined` when they are not: the moment
 * enough of its refusals have left the window for fewer than `accountRefusals` to remain.
 *
 * @param times when each refusal was counted, epoch ms
 */
export function startsRefusedUntil(
  times: readonly number[],
  nowMs: number,
  limits: RefusalLimits,
): number | undefined {
  const inWindow = refusalsInWindow(times, nowMs, limits);
  if (inWindow.length < limits.accountRefusals) return undefined;
  return inWindow[inWindow.length - limits.accountRefusals]! + limits.windowMs;
}

const OTHER_PHOTOS =
  'Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.';

/** The lead of every refusal message: what happened, in the customer's terms. */
const REFUSED = 'Our image service refused to make headshots from these photos';

/**
 * The generation's `error` message after refusals stopped it (code `PHOTOS_REFUSED`, docs/product-spec.md §8), for a
 * generation that delivered `delivered` of `expected`.
 */
export function refusalStopMessage(delivered: number, expected: number): string {
  const refunded = expected - delivered;
  return `${REFUSED}, so we stopped. ${refunded} ${refunded === 1 ? 'credit has' : 'credits have'} been refunded. ${OTHER_PHOTOS}`;
}

/**
 * A start (`POST /api/generations`, a regeneration) with photos set aside by rule 1: refused before anything is spent
 * (HTTP 409 `PHOTOS_REFUSED`).
 */
export class PhotosRefusedError extends namedError('PhotosRefusedError') {
  constructor() {
    super(`${REFUSED}, so we won't use them again. ${OTHER_PHOTOS}`);
  }
}

/**
 * Rule 2 refuses the account's starts until `untilMs`: HTTP 429, quota `provider-refusals`, `Retry-After` the seconds
 * left, nothing spent.
 *
 * @param untilMs {@link startsRefusedUntil}, epoch ms
 * @param nowMs the clock, epoch ms
 */
export function refusalsUsedUp(untilMs: number, nowMs: number): QuotaExceededError {
  const retryAfterSeconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new QuotaExceededError(
    'provider-refusals',
    retryAfterSeconds,
    'Our image service refused too many of your recent requests. ' +
      `Please try again in ${describeWait(retryAfterSeconds)}, with different photos.`,
  );
}

/**
 * The `safety_identifier` of a caller's provider calls: HMAC-SHA-256 (hex, 64 characters) of their Cognito `sub`,
 * keyed with the stack's secret pepper and a purpose prefix of its own (so it never matches the sign-up bonus
 * markers made with the same key). OpenAI asks for "a stable identifier for an end user … Hash a username or email
 * address to avoid sending identifying information" (the `openai` SDK 7.57.0 `ImageEditParams.safety_identifier`,
 * https://developers.openai.com/api/docs/guides/safety-best-practices#implement-safety-identifiers); its documented
 * limit is 128 characters. Keyed, the provider (or anyone who sees it) cannot test a guessed `sub` against it.
 *
 * @param key the secret key (SIGNUP_BONUS_PEPPER, functions/config/signup-bonus.ts); never logged
 * @throws {Error} when `key` is empty (an unkeyed hash of a `sub` could be matched by anyone holding the `sub`)
 */
export function safetyIdentifier(sub: string, key: string): string {
  if (!key) throw new Error('The safety identifier key is empty');
  return createHmac('sha256', key).update(`headshot-studio:safety-identifier:${sub}`).digest('hex');
}
