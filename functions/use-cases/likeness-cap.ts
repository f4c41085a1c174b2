import {
  isReferenceSetFailed,
  ledgerSince,
  markReferenceSetFailed,
  recordLikenessRejection,
  returnProviderCall,
  setProviderCallAllowance,
  stopGenerationCalls,
} from '../adapters/likeness-cap';
import { quotaSettings } from '../config/quotas';
import { logger } from '../common/logger';
import {
  attemptsUsedUp,
  creditsPaidForToday,
  dayWindowStart,
  isUnbilledOutcome,
  PhotosDontMatchError,
  providerCallAllowance,
  stopsGeneration,
  type LikenessCapLimits,
} from '../domain/likeness-cap';
import { nextAfterCall, type RetryCounts, type SlotNext } from '../domain/slot-outcomes';

/**
 * The likeness cap applied (domain/likeness-cap.ts, docs/decisions/004-likeness-retry-cap.md): the per-account cap of
 * provider calls whose headshots failed likeness — at the start of a generation ({@link enforceLikenessCapAtStart})
 * and after each provider call ({@link decideAfterCall}); before a call, use-cases/likeness-cap-before-call.ts, which
 * reads no settings (its handlers bundle no `quotas` group).
 */

/** What the likeness cap needs from the outside world: its counters and markers (adapters/likeness-cap.ts), its sizes. */
export interface LikenessCapPorts {
  limits: () => LikenessCapLimits;
  isReferenceSetFailed: typeof isReferenceSetFailed;
  ledgerSince: typeof ledgerSince;
  setProviderCallAllowance: typeof setProviderCallAllowance;
  returnProviderCall: typeof returnProviderCall;
  recordLikenessRejection: typeof recordLikenessRejection;
  stopGenerationCalls: typeof stopGenerationCalls;
  markReferenceSetFailed: typeof markReferenceSetFailed;
}

/** The cap's sizes from the `quotas` settings group. */
export function likenessCapLimits(): LikenessCapLimits {
  const config = quotaSettings();
  return {
    callsPerCredit: config.QUOTA_PROVIDER_CALLS_PER_CREDIT,
    rejectionsToStop: config.QUOTA_LIKENESS_REJECTIONS_TO_STOP,
    failedSetDays: config.QUOTA_FAILED_PHOTO_SET_DAYS,
  };
}

const adapters: LikenessCapPorts = {
  limits: likenessCapLimits,
  isReferenceSetFailed,
  ledgerSince,
  setProviderCallAllowance,
  returnProviderCall,
  recordLikenessRejection,
  stopGenerationCalls,
  markReferenceSetFailed,
};

/**
 * Before a generation (or a regeneration) spends anything: refuses photos whose headshots kept failing, sets the
 * day's allowance of provider calls from the credits paid for, and refuses the start when none is left.
 *
 * @param balance the caller's balance, in credits, read before the spend
 * @param referenceSetHash the photos' identity (domain `referenceSetHash`)
 * @param nowMs when the generation starts (its id's time), epoch ms
 * @throws {PhotosDontMatchError} (409) for a failed reference set; {QuotaExceededError} (429, `likeness-attempts`)
 *   when the day's provider calls are used up
 */
export async function enforceLikenessCapAtStart(
  sub: string,
  balance: number,
  referenceSetHash: string,
  nowMs: number,
  ports: LikenessCapPorts = adapters,
): Promise<void> {
  const windowStart = dayWindowStart(nowMs);
  const [failed, ledger] = await Promise.all([
    ports.isReferenceSetFailed(sub, referenceSetHash, nowMs),
    ports.ledgerSince(sub, windowStart),
  ]);
  if (failed) throw new PhotosDontMatchError();
  const allowance = providerCallAllowance(creditsPaidForToday(balance, ledger, windowStart), ports.limits());
  const { calls } = await ports.setProviderCallAllowance(sub, allowance, nowMs);
  if (calls >= allowance) throw attemptsUsedUp(nowMs);
}

/** What ReleaseProviderSlot decides (domain/slot-outcomes.ts `nextAfterCall`, then the likeness cap). */
export interface SlotDecision {
  next: SlotNext;
  retries: RetryCounts;
  error: string | null;
}

/**
 * After a provider call: gives back a call the provider did not bill, counts a failed likeness check, and when the
 * generation's failed checks reach the limit stops it (no retry, remaining slots refunded without a call) and
 * remembers its photos as failing.
 *
 * @param call.outcome `saved`, `throttled`, or the failed call's error name
 * @param call.retries the slot's retries so far, by error name
 */
export async function decideAfterCall(
  call: { sub: string; generationId: string; slot: number; outcome: string; retries: RetryCounts },
  ports: LikenessCapPorts = adapters,
): Promise<SlotDecision> {
  const { sub, generationId, outcome, retries } = call;
  if (isUnbilledOutcome(outcome)) await ports.returnProviderCall(sub, generationId);
  const decision = nextAfterCall(outcome, retries);
  if (outcome !== 'LikenessRejected') return decision;
  const attempt = retries.LikenessRejected ?? 0;
  const { rejections, referenceSetHash } = await ports.recordLikenessRejection(
    sub,
    generationId,
    call.slot,
    attempt,
  );
  const limits = ports.limits();
  if (!stopsGeneration(rejections, limits)) return decision;
  await ports.stopGenerationCalls(sub, generationId, 'mismatch');
  if (referenceSetHash) await ports.markReferenceSetFailed(sub, referenceSetHash, limits);
  logger.warn('Generation stopped: its headshots keep failing the likeness check', { rejections });
  return { next: 'fail', retries, error: outcome };
}
