import {
  accountRefusalTimes,
  isPhotoSetRefused,
  markPhotoSetRefused,
  recordProviderRefusal,
} from '../adapters/provider-refusals';
import { stopGenerationCalls } from '../adapters/likeness-cap';
import { quotaSettings } from '../config/quotas';
import { logger } from '../common/logger';
import {
  PhotosRefusedError,
  refusalsInWindow,
  refusalsUsedUp,
  startsRefusedUntil,
  stopsForRefusals,
  type RefusalLimits,
} from '../domain/provider-refusals';

/**
 * Refusals cost the refuser, applied (domain/provider-refusals.ts, docs/decisions/018-provider-refusals.md): at the
 * start of a generation ({@link enforceRefusalCapAtStart}) and after each refused call ({@link countProviderRefusal});
 * before a call, the generation's stop (`likenessStop: 'refused'`) is read by use-cases/likeness-cap-before-call.ts.
 */

/** What the refusal rules need from the outside world: their counters and markers, the generation's stop, sizes. */
export interface ProviderRefusalPorts {
  limits: () => RefusalLimits;
  recordProviderRefusal: typeof recordProviderRefusal;
  accountRefusalTimes: typeof accountRefusalTimes;
  isPhotoSetRefused: typeof isPhotoSetRefused;
  markPhotoSetRefused: typeof markPhotoSetRefused;
  stopGenerationCalls: typeof stopGenerationCalls;
}

/** The rules' sizes from the `quotas` settings group. */
export function providerRefusalLimits(): RefusalLimits {
  const config = quotaSettings();
  return {
    refusalsToStop: config.QUOTA_PROVIDER_REFUSALS_TO_STOP,
    accountRefusals: config.QUOTA_ACCOUNT_REFUSALS,
    windowMs: config.QUOTA_REFUSAL_WINDOW_HOURS * 3_600_000,
    setAsideMs: config.QUOTA_REFUSED_PHOTO_SET_DAYS * 86_400_000,
  };
}

const adapters: ProviderRefusalPorts = {
  limits: providerRefusalLimits,
  recordProviderRefusal,
  accountRefusalTimes,
  isPhotoSetRefused,
  markPhotoSetRefused,
  stopGenerationCalls,
};

/**
 * Before a generation (or a regeneration) spends anything: refuses photos set aside after refusals, and every start
 * of an account whose refusals within the rolling window reached the limit.
 *
 * @param referenceSetHash the photos' identity (domain/likeness-cap.ts `referenceSetHash`)
 * @param nowMs the clock, epoch ms
 * @throws {PhotosRefusedError} (409) for a set aside; {QuotaExceededError} (429, `provider-refusals`, `Retry-After`
 *   until enough of the account's refusals leave the window)
 */
export async function enforceRefusalCapAtStart(
  sub: string,
  referenceSetHash: string,
  nowMs: number,
  ports: ProviderRefusalPorts = adapters,
): Promise<void> {
  const [setAside, times] = await Promise.all([
    ports.isPhotoSetRefused(sub, referenceSetHash, nowMs),
    ports.accountRefusalTimes(sub),
  ]);
  if (setAside) throw new PhotosRefusedError();
  const until = startsRefusedUntil(times, nowMs, ports.limits());
  if (until !== undefined) throw refusalsUsedUp(until, nowMs);
}

/** One refused provider call (ReleaseProviderSlot's, with the slot's call number: 0 for its first). */
export interface RefusedCall {
  sub: string;
  generationId: string;
  slot: number;
  call: number;
}

/**
 * After a call the provider refused (the slot itself is refunded: domain/slot-outcomes.ts): counts it on the
 * generation and the account; when the generation's refusals or the account's within the window reach their limit,
 * stops the generation (its waiting slots end without a call and are refunded) and, when the generation's own
 * refusals did, sets its photos aside.
 *
 * @param nowMs when, epoch ms
 * @returns whether the generation was stopped
 */
export async function countProviderRefusal(
  refused: RefusedCall,
  nowMs = Date.now(),
  ports: ProviderRefusalPorts = adapters,
): Promise<boolean> {
  const limits = ports.limits();
  const counts = await ports.recordProviderRefusal({ ...refused, at: nowMs }, limits.windowMs);
  const account = refusalsInWindow(counts.accountRefusalTimes, nowMs, limits).length;
  if (!stopsForRefusals(counts.generationRefusals, account, limits)) return false;
  await ports.stopGenerationCalls(refused.sub, refused.generationId, 'refused');
  const setAside =
    counts.generationRefusals >= limits.refusalsToStop && counts.referenceSetHash !== undefined;
  if (setAside) {
    await ports.markPhotoSetRefused(refused.sub, counts.referenceSetHash!, nowMs + limits.setAsideMs, nowMs);
  }
  logger.warn('Generation stopped: the provider keeps refusing its calls', {
    generationRefusals: counts.generationRefusals,
    accountRefusals: account,
    setAside,
  });
  return true;
}
