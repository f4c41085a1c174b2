import { describe, expect, it } from 'vitest';
import {
  assertWaitFitsDeadline,
  laneSlotsAhead,
  lineFullMessage,
  planLanes,
  type LaneRound,
} from '../../functions/domain/provider-queue-lanes';
import {
  FREE_LANE_SK,
  isFreeKey,
  keyTime,
  orderKey,
  ticketSk,
} from '../../functions/domain/provider-queue-order';
import { QuotaExceededError } from '../../functions/domain/quotas';

const T = 1_800_000_000_000;
const HEAD_START = 300_000;

describe('the lanes of the line', () => {
  it('puts every free generation behind every paid one, a priority one first among the paid', () => {
    const free = orderKey(T - 3_600_000, 'free', HEAD_START);
    const paid = orderKey(T, 'standard', HEAD_START);
    const priority = orderKey(T + 60_000, 'priority', HEAD_START);
    expect(priority).toBeLessThan(paid);
    expect(paid).toBeLessThan(free);
    expect(isFreeKey(free)).toBe(true);
    expect(isFreeKey(paid)).toBe(false);
    expect(keyTime(free)).toBe(T - 3_600_000);
    // The sort keys hold the same order, split at the free lane's first key.
    const sk = (key: number) => ticketSk({ orderKey: key, generationId: '01JGEN', slot: 0 });
    expect(sk(paid) < FREE_LANE_SK && FREE_LANE_SK <= sk(free)).toBe(true);
  });
});

describe('a round of admissions', () => {
  const round = (over: Partial<LaneRound>): LaneRound => ({
    permits: 1,
    paidWaiting: 2,
    freeWaiting: 1,
    allowance: 0,
    share: 0.25,
    ...over,
  });

  it('gives free work one admission in four while paid work waits (share 0.25)', () => {
    let allowance = 0;
    const lanes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const plan = planLanes(round({ allowance }));
      lanes.push(plan.free === 1 ? 'free' : 'paid');
      allowance = plan.allowance;
    }
    expect(lanes.filter((l) => l === 'free')).toHaveLength(3);
    // Never two free admissions in a row while paid work waits.
    expect(lanes.join(',')).not.toContain('free,free');
  });

  it('gives a batch its share at once, and never more than the free tickets waiting', () => {
    expect(planLanes(round({ permits: 8, paidWaiting: 9, freeWaiting: 8 }))).toEqual({
      paid: 6,
      free: 2,
      allowance: 0,
    });
    expect(planLanes(round({ permits: 8, paidWaiting: 9, freeWaiting: 1 }))).toEqual({
      paid: 7,
      free: 1,
      allowance: 1,
    });
  });

  it('lets free work take what the paid lane leaves, at no cost to its allowance', () => {
    expect(planLanes(round({ permits: 4, paidWaiting: 1, freeWaiting: 4, allowance: 0.5 }))).toEqual({
      paid: 1,
      free: 3,
      allowance: 0.5,
    });
    expect(planLanes(round({ permits: 4, paidWaiting: 0, freeWaiting: 4 }))).toEqual({
      paid: 0,
      free: 4,
      allowance: 0,
    });
  });

  it('admits no free work while paid work waits at share 0, and keeps the allowance under one', () => {
    expect(planLanes(round({ share: 0, allowance: 0 }))).toEqual({ paid: 1, free: 0, allowance: 0 });
    // No free ticket waits: the allowance does not pile up past one admission.
    expect(planLanes(round({ freeWaiting: 0, allowance: 0.9 })).allowance).toBe(1);
    expect(planLanes(round({ permits: 0 }))).toEqual({ paid: 0, free: 0, allowance: 0 });
  });
});

describe('the wait of a new generation', () => {
  it('counts the paid slots admitted while a free generation waits at its share', () => {
    // 120 free slots ahead, none paid: the last of 6 own slots is the 126th.
    expect(laneSlotsAhead('free', { paid: 0, free: 120 }, 6, 0.25)).toBe(125);
    // 18 paid slots ahead of 6 free ones: the free lane gets 1 in 4, so all 18 paid go first.
    expect(laneSlotsAhead('free', { paid: 18, free: 0 }, 6, 0.25)).toBe(23);
    // 100 paid slots ahead of 6 free ones: only 18 paid go before the 6 free are through.
    expect(laneSlotsAhead('free', { paid: 100, free: 0 }, 6, 0.25)).toBe(23);
  });

  it('counts the free slots a paid generation meets at most', () => {
    expect(laneSlotsAhead('paid', { paid: 0, free: 120 }, 6, 0.25)).toBe(7);
    expect(laneSlotsAhead('paid', { paid: 12, free: 0 }, 6, 0.25)).toBe(17);
    expect(laneSlotsAhead('paid', { paid: 0, free: 120 }, 6, 0)).toBe(5);
    expect(laneSlotsAhead('free', { paid: 30, free: 0 }, 6, 0)).toBe(35);
  });
});

describe('a start the line cannot serve in time', () => {
  it('passes a wait within the deadline', () => {
    expect(() => assertWaitFitsDeadline(1_800, 1_800)).not.toThrow();
  });

  it('is refused up front with the time to try again', () => {
    let refusal: unknown;
    try {
      assertWaitFitsDeadline(2_400, 1_800);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(QuotaExceededError);
    const quota = refusal as QuotaExceededError;
    expect(quota.quota).toBe('provider-line');
    expect(quota.retryAfterSeconds).toBe(600);
    expect(quota.message).toBe(lineFullMessage(600));
    expect(quota.message).toContain('Nothing was spent');
    expect(quota.message).toContain('10 minutes');
  });

  it('asks for at least a minute', () => {
    expect(() => assertWaitFitsDeadline(1_801, 1_800)).toThrow(
      expect.objectContaining({ retryAfterSeconds: 60 }),
    );
  });
});
