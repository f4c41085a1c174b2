import { createHash } from 'node:crypto';
import { decodeTime } from 'ulid';
import type { LedgerReason } from './credits';
import type { GenerationError } from './generation-errors';
import { namedError } from './named-error';
import { refusalStopMessage } from './provider-refusals';
import { describeWait, QuotaExceededError } from './quotas';

/**
 * The likeness guarantee's cap (docs/architecture.md §4 "Likeness cap", docs/decisions/004-likeness-retry-cap.md):
 * a headshot that does not look like its customer is refunded, and a refunded credit can be spent again — so without
 * a cap, photos whose headshots never match buy unlimited provider calls. Two rules close that:
 *
 * 1. **Calls per day follow the credits paid for.** In one UTC day an account gets at most `callsPerCredit` (2: the
 *    headshot and one retry) provider calls per credit it paid for: the credits it held when the day began plus those
 *    it bought (or was given) during the day. A credit refunded and spent again brings no new calls.
 * 2. **A reference set whose headshots keep failing stops.** When `rejectionsToStop` headshots of one generation fail
 *    the likeness check, no slot of it is retried or called again (they are refunded), the customer is asked for
 *    other photos, and the same photos (the same bytes, in any order: {@link referenceSetHash}) are refused for
 *    `failedSetDays` days.
 *
 * Pure: adapters/likeness-cap.ts counts in DynamoDB and use-cases/likeness-cap.ts applies the decisions.
 */

/** The cap's sizes (config group `quotas`: `QUOTA_PROVIDER_CALLS_PER_CREDIT`, `QUOTA_LIKENESS_REJECTIONS_TO_STOP`,
 *  `QUOTA_FAILED_PHOTO_SET_DAYS`). */
export interface LikenessCapLimits {
  /** Provider calls per credit paid for, per day (default 2: one headshot and one likeness retry). */
  callsPerCredit: number;
  /** Failed likeness checks in one generation that stop it and mark its photos (default 3 of 6). */
  rejectionsToStop: number;
  /** Days a stopped reference set is refused (default 7). */
  failedSetDays: number;
}

/** The day window the provider-call counter uses (fixed UTC days, like the quotas' windows). */
export const PROVIDER_CALL_WINDOW_SECONDS = 86_400;

/** The quota rule name of the provider-call counter (its item: `QUOTA#provider-calls#<windowStart>`). */
export const PROVIDER_CALLS_RULE = 'provider-calls';

/** Start of the UTC day `ms` falls in, in epoch seconds. */
export function dayWindowStart(ms: number): number {
  const seconds = Math.floor(ms / 1000);
  return seconds - (seconds % PROVIDER_CALL_WINDOW_SECONDS);
}

/**
 * When a generation started, epoch ms: its id is a ULID (https://github.com/ulid/spec), whose first 10 characters
 * are the time. Every call of a generation counts in the day it started, even when it runs past midnight.
 *
 * @throws {Error} (from `ulid`) for an id that is not a ULID
 */
export function generationStartMs(generationId: string): number {
  return decodeTime(generationId);
}

/** One ledger entry as the cap reads it. */
export interface LedgerDelta {
  delta: number;
  reason: LedgerReason;
  /** The generation id (spend) or `<generationId>#slot-<n>` (refund); other reasons carry other refs. */
  ref: string;
}

/**
 * Credits the account paid for today: its balance minus the spends and refunds of today's generations, i.e. what it
 * held when the day began plus what it bought or was given since (reversals taken off). Spending and refunding do not
 * change it, which is what makes a refunded credit worth no new calls.
 *
 * @param balance the balance now, in credits
 * @param entries at least every ledger entry written since `windowStartSeconds`; older ones are ignored
 * @param windowStartSeconds start of the day, epoch seconds ({@link dayWindowStart})
 * @returns whole credits, never negative
 */
export function creditsPaidForToday(
  balance: number,
  entries: readonly LedgerDelta[],
  windowStartSeconds: number,
): number {
  const todays = (ref: string) => {
    const id = ref.split('#')[0] ?? '';
    try {
      return dayWindowStart(generationStartMs(id)) === windowStartSeconds;
    } catch {
      return false;
    }
  };
  const moved = entries
    .filter((e) => (e.reason === 'generation' || e.reason === 'refund') && todays(e.ref))
    .reduce((sum, e) => sum + e.delta, 0);
  return Math.max(0, balance - moved);
}

/** Provider calls an account may make today: `callsPerCredit` per credit paid for. */
export function providerCallAllowance(creditsPaidFor: number, limits: LikenessCapLimits): number {
  return Math.max(0, creditsPaidFor) * limits.callsPerCredit;
}

/**
 * Outcomes of a provider call not charged to the customer: the call goes back to the day's count. The provider did
 * not bill it (no image made): a 429 (`throttled`), a 5xx or dropped connection, a refusal (HTTP 400); or the image
 * was made and we lost it before FinishHeadshot read it (`ProviderImageMissingError`, our fault:
 * docs/decisions/022-missing-work-image.md). Everything else — a saved headshot, a likeness rejection, an unusable
 * image, a timeout (the image may have been made) — stays counted.
 */
const UNBILLED_OUTCOMES: ReadonlySet<string> = new Set([
  'throttled',
  'ProviderUnavailableError',
  'ProviderRejectedError',
  'ProviderImageMissingError',
]);

/** True when a call that ended with `outcome` gives its place in the day's count back. */
export function isUnbilledOutcome(outcome: string): boolean {
  return UNBILLED_OUTCOMES.has(outcome);
}

/**
 * Why a generation stopped calling the provider: its photos keep failing the likeness check (`mismatch`), the day's
 * calls are used up (`limit`), or the provider kept refusing its calls (`refused`, domain/provider-refusals.ts).
 */
export type LikenessStop = 'mismatch' | 'limit' | 'refused';

/** True when the `rejections`-th failed likeness check of a generation stops it (rule 2). */
export function stopsGeneration(rejections: number, limits: LikenessCapLimits): boolean {
  return rejections >= limits.rejectionsToStop;
}

/**
 * The identity of a set of reference photos, by their content: a SHA-256 (hex, 32 characters) of the SHA-256 digests
 * of each photo's bytes, sorted and without repeats, so the same photos uploaded again, under other keys or in another
 * order, are the same set. S3 ETags are not content (a multipart upload's or an SSE-KMS object's ETag is no digest of
 * its bytes: https://docs.aws.amazon.com/AmazonS3/latest/API/API_Object.html), so they are not used. A photo
 * re-encoded is another photo here: the account's rules (rule 1 above, and domain/provider-refusals.ts rule 2) bound
 * what new sets buy.
 *
 * @param digests each photo's SHA-256, hex (adapters/storage.ts `objectSha256`); an empty entry is an error
 * @throws {RangeError} when a photo has no digest
 */
export function referenceSetHash(digests: readonly (string | undefined)[]): string {
  const normalized = digests.map((digest) => {
    const value = digest?.trim().toLowerCase();
    if (!value) throw new RangeError('Every reference photo needs its digest');
    return value;
  });
  return createHash('sha256')
    .update([...new Set(normalized)].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/** When a stopped reference set may be used again, epoch seconds (the marker's TTL). */
export function failedSetExpiresAt(nowMs: number, limits: LikenessCapLimits): number {
  return Math.floor(nowMs / 1000) + limits.failedSetDays * 86_400;
}

const OTHER_PHOTOS =
  'Please upload 5-10 different photos: recent, well lit, just you, facing the camera, with nothing covering your face.';

/** The generation's `error` after a stop, by its reason, for a generation that delivered `delivered` of `expected`. */
export function likenessStopMessage(stop: LikenessStop, delivered: number, expected: number): string {
  if (stop === 'refused') return refusalStopMessage(delivered, expected);
  const refunded = expected - delivered;
  const credits = `${refunded} ${refunded === 1 ? 'credit has' : 'credits have'} been refunded`;
  if (stop === 'mismatch') {
    const lead =
      delivered === 0
        ? "Your headshots didn't look enough like you, so we stopped instead of trying again with these photos."
        : "Some of your headshots didn't look enough like you, so we stopped instead of trying again with these photos.";
    return `${lead} ${credits}. ${OTHER_PHOTOS}`;
  }
  return (
    "We stopped because today's headshot attempts are used up: your recent headshots didn't look enough like you. " +
    `${credits}. ${OTHER_PHOTOS}`
  );
}

/**
 * The generation's `error` after a stop (code `LIKENESS_MISMATCH`, `LIKENESS_LIMIT` or `PHOTOS_REFUSED`, see
 * {@link likenessStopMessage}).
 */
export function likenessStopError(stop: LikenessStop, delivered: number, expected: number): GenerationError {
  const codes = {
    mismatch: 'LIKENESS_MISMATCH',
    limit: 'LIKENESS_LIMIT',
    refused: 'PHOTOS_REFUSED',
  } as const;
  return {
    code: codes[stop],
    message: likenessStopMessage(stop, delivered, expected),
  };
}

/**
 * True when every slot of a generation that delivered nothing failed the likeness check at least once (`rejections`:
 * the generation item's `likenessRejections`, `<slot>.<attempt>`): its headshots were made and refused for not looking
 * like the customer, not lost to the image service. Mostly a one-slot generation (a regeneration or an edit, whose slot
 * is made again once and then refunded), which refuses too few headshots to stop the generation (rule 2).
 *
 * @param slotCount the generation's slots (6, or 1 for a regeneration or an edit)
 */
export function refusedForLikeness(rejections: Iterable<string> | undefined, slotCount: number): boolean {
  const refused = new Set([...(rejections ?? [])].map((key) => key.split('.')[0]));
  return (
    slotCount > 0 && Array.from({ length: slotCount }, (_, slot) => String(slot)).every((s) => refused.has(s))
  );
}

/**
 * The error of a generation that delivered nothing because its headshots did not look like the customer, without a
 * stop ({@link refusedForLikeness}): code `LIKENESS_MISMATCH`, and words for one headshot or several
 * (docs/product-spec.md §2, "Regenerate" and "Edit a headshot").
 */
export function likenessRefusedError(slotCount: number): GenerationError {
  return {
    code: 'LIKENESS_MISMATCH',
    message:
      slotCount === 1
        ? "This headshot didn't look enough like you, so it was not delivered. 1 credit has been refunded."
        : `Your headshots didn't look enough like you, so none was delivered. ${slotCount} credits have been refunded. ${OTHER_PHOTOS}`,
  };
}

/**
 * `POST /api/generations` (or a regeneration) with photos whose headshots kept failing the likeness check: refused
 * before anything is spent (HTTP 409 `PHOTOS_DONT_MATCH`).
 */
export class PhotosDontMatchError extends namedError('PhotosDontMatchError') {
  constructor() {
    super(
      "These photos didn't give us headshots that look like you, so we won't use them again. " + OTHER_PHOTOS,
    );
  }
}

/**
 * The day's provider calls are used up: a new generation is refused before anything is spent (HTTP 429, quota
 * `likeness-attempts`, `Retry-After` = the rest of the day).
 *
 * @param nowMs the clock, epoch ms
 */
export function attemptsUsedUp(nowMs: number): QuotaExceededError {
  const end = dayWindowStart(nowMs) + PROVIDER_CALL_WINDOW_SECONDS;
  const retryAfterSeconds = Math.max(1, end - Math.floor(nowMs / 1000));
  return new QuotaExceededError(
    'likeness-attempts',
    retryAfterSeconds,
    "You've used today's headshot attempts: your recent headshots didn't look enough like you. " +
      `Please try again in ${describeWait(retryAfterSeconds)}, with different photos.`,
  );
}

/** A slot of a generation stopped by rule 2 ends without a provider call (Step Functions `Error`: `LikenessStopped`). */
export class LikenessStoppedError extends namedError('LikenessStopped') {}

/** A slot refused by rule 1 ends without a provider call (Step Functions `Error`: `ProviderCallCapReached`). */
export class ProviderCallCapError extends namedError('ProviderCallCapReached') {}
