import type { RefusalLimits } from '../../../../functions/domain/provider-refusals';
import type { LikenessStop } from '../../../../functions/domain/likeness-cap';
import type { ProviderRefusalPorts } from '../../../../functions/use-cases/provider-refusals';

/**
 * The provider refusals' items in memory (adapters/provider-refusals.ts): each generation's refused calls (a set: a
 * repeated task counts once), the account's refusal items with their time (a repeat keeps its first time), the photo
 * sets set aside with their expiry, and the generations' stops — shared with the likeness cap's fake when given, as
 * both write the generation item's `likenessStop` (the first reason stays).
 */
export class FakeProviderRefusals {
  limits: RefusalLimits = {
    refusalsToStop: 3,
    accountRefusals: 6,
    windowMs: 24 * 3_600_000,
    setAsideMs: 7 * 86_400_000,
  };
  /** Refused calls `<slot>.<call>` by generation id. */
  readonly generationRefusals = new Map<string, Set<string>>();
  /** The account's refusal items: `<sub>` → (`<generationId>#<slot>.<call>` → epoch ms). */
  readonly accountRefusals = new Map<string, Map<string, number>>();
  /** Each generation's photo set (absent on older generations). */
  readonly setHashes = new Map<string, string>();
  /** Sets aside by `<sub>|<hash>` → expiry, epoch s. */
  readonly refusedSets = new Map<string, number>();

  constructor(readonly stops = new Map<string, LikenessStop>()) {}

  /** Seeds `count` refusals of `sub` at `at` (epoch ms), as earlier generations left them. */
  seedAccountRefusals(sub: string, at: number, count: number): void {
    const items = this.accountRefusals.get(sub) ?? new Map<string, number>();
    for (let n = 0; n < count; n++) items.set(`01JSEEDED${at}#${n}.0`, at);
    this.accountRefusals.set(sub, items);
  }

  readonly ports: ProviderRefusalPorts = {
    limits: () => this.limits,
    recordProviderRefusal: async ({ sub, generationId, slot, call, at }) => {
      const calls = this.generationRefusals.get(generationId) ?? new Set<string>();
      calls.add(`${slot}.${call}`);
      this.generationRefusals.set(generationId, calls);
      const items = this.accountRefusals.get(sub) ?? new Map<string, number>();
      const key = `${generationId}#${slot}.${call}`;
      if (!items.has(key)) items.set(key, at);
      this.accountRefusals.set(sub, items);
      return {
        generationRefusals: calls.size,
        accountRefusalTimes: [...items.values()],
        referenceSetHash: this.setHashes.get(generationId),
      };
    },
    accountRefusalTimes: async (sub) => [...(this.accountRefusals.get(sub)?.values() ?? [])],
    isPhotoSetRefused: async (sub, hash, nowMs = Date.now()) =>
      (this.refusedSets.get(`${sub}|${hash}`) ?? 0) > Math.floor(nowMs / 1000),
    markPhotoSetRefused: async (sub, hash, untilMs) => {
      this.refusedSets.set(`${sub}|${hash}`, Math.ceil(untilMs / 1000));
    },
    stopGenerationCalls: async (_sub, generationId, reason) => {
      if (!this.stops.has(generationId)) this.stops.set(generationId, reason);
    },
  };
}
