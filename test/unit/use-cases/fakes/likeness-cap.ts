import type { LikenessCapPorts } from '../../../../functions/use-cases/likeness-cap';
import type { LikenessCapBeforeCallPorts } from '../../../../functions/use-cases/likeness-cap-before-call';
import {
  dayWindowStart,
  failedSetExpiresAt,
  generationStartMs,
  type LedgerDelta,
  type LikenessCapLimits,
  type LikenessStop,
} from '../../../../functions/domain/likeness-cap';

/**
 * The likeness cap's items in memory (adapters/likeness-cap.ts): the day's provider-call counter per account (its
 * `allowance` and `calls`, moved only under the same conditions as the table's), each generation's failed likeness
 * checks (a set: a repeated task counts once) and stop, the failed reference sets with their expiry, and the ledger
 * entries the day's credits are read from.
 */
export class FakeLikenessCap {
  limits: LikenessCapLimits = { callsPerCredit: 2, rejectionsToStop: 3, failedSetDays: 7 };
  /** Day counters by `<sub>|<day start, epoch s>`. */
  readonly counters = new Map<string, { allowance?: number; calls: number }>();
  readonly rejections = new Map<string, Set<string>>();
  readonly stops = new Map<string, LikenessStop>();
  /** Each generation's reference set hash (absent on older generations). */
  readonly setHashes = new Map<string, string>();
  /** Failed reference sets by `<sub>|<hash>` → expiry, epoch s. */
  readonly failedSets = new Map<string, number>();
  readonly ledger = new Map<string, LedgerDelta[]>();

  private counter(sub: string, dayStart: number) {
    const key = `${sub}|${dayStart}`;
    const counter = this.counters.get(key) ?? { calls: 0 };
    this.counters.set(key, counter);
    return counter;
  }

  /** The counter of the day `generationId` started in. */
  dayOf(sub: string, generationId: string): { allowance?: number; calls: number } {
    return this.counter(sub, dayWindowStart(generationStartMs(generationId)));
  }

  /** The ports of both halves of the likeness cap (use-cases/likeness-cap.ts and likeness-cap-before-call.ts). */
  readonly ports: LikenessCapPorts & LikenessCapBeforeCallPorts = {
    limits: () => this.limits,
    isReferenceSetFailed: async (sub, hash, nowMs = Date.now()) =>
      (this.failedSets.get(`${sub}|${hash}`) ?? 0) > Math.floor(nowMs / 1000),
    ledgerSince: async (sub) => [...(this.ledger.get(sub) ?? [])],
    setProviderCallAllowance: async (sub, allowance, nowMs = Date.now()) => {
      const counter = this.counter(sub, dayWindowStart(nowMs));
      counter.allowance = allowance;
      return { calls: counter.calls };
    },
    reserveProviderCall: async (sub, generationId) => {
      const counter = this.dayOf(sub, generationId);
      if (counter.allowance !== undefined && counter.calls >= counter.allowance) return false;
      counter.calls += 1;
      return true;
    },
    returnProviderCall: async (sub, generationId) => {
      const counter = this.dayOf(sub, generationId);
      if (counter.calls >= 1) counter.calls -= 1;
    },
    providerCallsUsedUp: async (sub, generationId) => {
      const counter = this.dayOf(sub, generationId);
      return counter.allowance !== undefined && counter.calls >= counter.allowance;
    },
    recordLikenessRejection: async (_sub, generationId, slot, attempt) => {
      const set = this.rejections.get(generationId) ?? new Set<string>();
      set.add(`${slot}.${attempt}`);
      this.rejections.set(generationId, set);
      return { rejections: set.size, referenceSetHash: this.setHashes.get(generationId) };
    },
    generationStop: async (_sub, generationId) => this.stops.get(generationId),
    stopGenerationCalls: async (_sub, generationId, reason) => {
      if (!this.stops.has(generationId)) this.stops.set(generationId, reason);
    },
    markReferenceSetFailed: async (sub, hash, limits, nowMs = Date.now()) => {
      this.failedSets.set(`${sub}|${hash}`, failedSetExpiresAt(nowMs, limits));
    },
  };
}
