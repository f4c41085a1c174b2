import { describe, expect, it } from 'vitest';
import {
  admitSlots,
  averageCallMs,
  bucketCapacity,
  cappedPauseMs,
  DEFAULT_THROTTLE_MS,
  etaSeconds,
  freePermits,
  initialQueueState,
  leaseMsFor,
  pausedUntilAfter429,
  throttleMsOf,
  tokensAfterPause,
  tokensAt,
  type QueueLimits,
  type QueueState,
} from '../../functions/domain/provider-queue';
import {
  MAX_WAKE_UP_DELAY_SECONDS,
  MIN_TOKEN_WAIT_MS,
  nextTokenInMs,
  wakeUpDelaySeconds,
} from '../../functions/domain/provider-queue-dispatch';
import {
  agingBoundMs,
  enqueueTimeoutSeconds,
  isAhead,
  leaseId,
  orderKey,
  registersPosition,
  ticketDeadline,
  ticketOrderKey,
  ticketSk,
  AdmissionDeadlineError,
} from '../../functions/domain/provider-queue-order';
import {
  bucketSk,
  counterKeys,
  counterRanges,
  oldestLiveKey,
  placeBucket,
  placeSk,
  queuePosition,
  slotsAhead,
} from '../../functions/domain/provider-queue-positions';
import { providerTimeouts } from '../../functions/domain/provider-timeouts';
import { priorityStanding } from '../../functions/domain/provider-queue-standing';

const T = 1_800_000_000_000;
const limits: QueueLimits = { imagesPerMinute: 30, maxConcurrency: 2, leaseMs: 600_000, maxPauseMs: 60_000 };

describe('the permits', () => {
  it('admits at most the whole tokens and the free permits, whichever is fewer', () => {
    const state = initialQueueState(limits, T);
    expect(bucketCapacity(limits)).toBe(1);
    expect(freePermits(state, limits, T)).toBe(1);
    const after = admitSlots(state, limits, 1, T);
    expect(after).toMatchObject({ inFlight: 1, version: 1 });
    expect(freePermits(after, limits, T)).toBe(0);
    // 30 a minute: a token every 2 s.
    expect(freePermits(after, limits, T + 1_999)).toBe(0);
    expect(freePermits(after, limits, T + 2_000)).toBe(1);
    const full = admitSlots(after, limits, 1, T + 2_000);
    // Both permits taken: no admission however many tokens pile up.
    expect(freePermits(full, limits, T + 60_000)).toBe(0);
    expect(freePermits({ ...full, inFlight: 1 }, limits, T + 60_000)).toBe(1);
    expect(() => admitSlots(full, limits, 1, T + 60_000)).toThrow(RangeError);
  });

  it('holds one second of the per-minute limit, so a minute is never sent at once', () => {
    const fast: QueueLimits = { ...limits, imagesPerMinute: 2_000, maxConcurrency: 400 };
    expect(bucketCapacity(fast)).toBe(34);
    const state = initialQueueState(fast, T);
    expect(freePermits(state, fast, T + 600_000)).toBe(34);
    const unlimited: QueueLimits = { ...limits, imagesPerMinute: Infinity, maxConcurrency: Infinity };
    expect(freePermits(initialQueueState(unlimited, T), unlimited, T)).toBe(Infinity);
  });

  it("caps a 429's pause at the configured maximum, and resumes with one token", () => {
    expect(cappedPauseMs(3_600_000, 60_000)).toBe(60_000);
    expect(cappedPauseMs(5_000, 60_000)).toBe(5_000);
    expect(cappedPauseMs(undefined, 60_000)).toBe(DEFAULT_THROTTLE_MS);
    expect(cappedPauseMs(Infinity, 60_000)).toBe(60_000);
    const state = initialQueueState({ ...limits, imagesPerMinute: 600 }, T);
    const until = pausedUntilAfter429(state, limits, 3_600_000, T);
    expect(until).toBe(T + 60_000);
    // A later, shorter 429 does not shorten a pause already set.
    expect(pausedUntilAfter429({ pausedUntil: until }, limits, 1_000, T + 1_000)).toBe(until);
    const fast: QueueLimits = { ...limits, imagesPerMinute: 600, maxConcurrency: 50 };
    const paused: QueueState = {
      ...state,
      pausedUntil: until,
      tokens: tokensAfterPause(fast),
      refilledAt: until,
    };
    expect(freePermits(paused, fast, until - 1)).toBe(0);
    expect(freePermits(paused, fast, until)).toBe(1);
    expect(tokensAt(paused, fast, until + 1_000)).toBeCloseTo(10);
  });

  it('wakes itself when the next token is due, never later than SQS allows, and not when permits hold the queue', () => {
    const slow: QueueLimits = { ...limits, imagesPerMinute: 0.05 };
    const empty = admitSlots(initialQueueState(slow, T), slow, 1, T);
    // One image every 20 minutes: the wake-up is capped at 900 s (and the dispatcher then sets another).
    expect(wakeUpDelaySeconds({ ...empty, inFlight: 0 }, slow, T)).toBe(MAX_WAKE_UP_DELAY_SECONDS);
    const state = admitSlots(initialQueueState(limits, T), limits, 1, T);
    expect(wakeUpDelaySeconds(state, limits, T)).toBe(2);
    expect(wakeUpDelaySeconds(state, limits, T + 1_500)).toBe(1);
    // Every permit taken: a release wakes the dispatcher.
    expect(wakeUpDelaySeconds({ ...state, inFlight: 2 }, limits, T)).toBeUndefined();
    // Paused: wake up when the pause ends.
    expect(wakeUpDelaySeconds({ ...state, inFlight: 2, pausedUntil: T + 30_000 }, limits, T)).toBe(30);
  });

  it('times the next token to the ms for the in-invocation wait, with a floor so fast limits batch a few', () => {
    // 120 images/min: a token every 500 ms; the bucket (2) emptied at T.
    const twoPerSecond: QueueLimits = { ...limits, imagesPerMinute: 120, maxConcurrency: 10 };
    const empty = admitSlots(initialQueueState(twoPerSecond, T), twoPerSecond, 2, T);
    expect(nextTokenInMs(empty, twoPerSecond, T)).toBe(500);
    expect(nextTokenInMs(empty, twoPerSecond, T + 200)).toBe(300);
    // A token is there: nothing to wait for.
    expect(nextTokenInMs(empty, twoPerSecond, T + 500)).toBeUndefined();
    // The SQS wake-up for the same token is a whole second.
    expect(wakeUpDelaySeconds(empty, twoPerSecond, T)).toBe(1);
    // 2,000 images/min (a token every 30 ms): at least MIN_TOKEN_WAIT_MS, so a round admits about three.
    const fastest: QueueLimits = { ...twoPerSecond, imagesPerMinute: 2_000, maxConcurrency: 400 };
    const drained = admitSlots(initialQueueState(fastest, T), fastest, bucketCapacity(fastest), T);
    expect(nextTokenInMs(drained, fastest, T)).toBe(MIN_TOKEN_WAIT_MS);
    // Every permit taken: a release wakes the dispatcher, nothing to wait for.
    expect(nextTokenInMs({ ...empty, inFlight: 10 }, twoPerSecond, T)).toBeUndefined();
    // Paused: the pause's end, when the bucket holds its one probing token.
    const paused = {
      ...empty,
      pausedUntil: T + 4_000,
      tokens: tokensAfterPause(twoPerSecond),
      refilledAt: T + 4_000,
    };
    expect(nextTokenInMs(paused, twoPerSecond, T)).toBe(4_000);
  });

  it('estimates the wait from the rate, the permits and the measured calls', () => {
    const state = { ...initialQueueState(limits, T), tokens: 0, callMsSum: 100_000, calls: 2 };
    expect(averageCallMs(state)).toBe(50_000);
    expect(averageCallMs({ callMsSum: 0, calls: 0 })).toBe(60_000);
    // 5 slots ahead + its own at 30/min = 12 s by rate; by permits 2 free now, then 2 rounds of 2 × 50 s.
    expect(etaSeconds(state, limits, 5, T)).toBe(100);
    expect(etaSeconds(state, { ...limits, maxConcurrency: Infinity }, 5, T)).toBe(12);
  });
});

describe('a lease', () => {
  it('outlives a retried provider call and the finishing: the call Task × 2 + the finish Task + 60 s', () => {
    const slot = providerTimeouts('gpt-image-2.6-sunburst', 'high');
    expect(slot).toMatchObject({ taskSeconds: 270, slotSeconds: 360 });
    expect(leaseMsFor(slot)).toBe(690_000);
    expect(leaseMsFor(slot)).toBeGreaterThan((slot.taskSeconds + slot.slotSeconds) * 1000);
    expect(leaseMsFor({ taskSeconds: 900, slotSeconds: 990 })).toBe(1_950_000);
  });

  it('has one id per call of a slot: a retried EnterLine of the same call gets the same one', () => {
    const call = { generationId: '01JGEN00000000000000000000', slot: 3, call: 0 };
    expect(leaseId(call)).toBe('L#01JGEN00000000000000000000#03#000');
    expect(leaseId({ ...call })).toBe(leaseId(call));
    expect(leaseId({ ...call, call: 1 })).not.toBe(leaseId(call));
    expect(leaseId({ ...call, slot: 4 })).not.toBe(leaseId(call));
  });
});

describe('the order of the queue', () => {
  const H = 300_000;
  const slot = (generationId: string, startedAt: number, priority: 'priority' | 'standard', s: number) => ({
    generationId,
    slot: s,
    orderKey: orderKey(startedAt, priority, H),
  });

  it('is first come, first served by generation: all of the older generation before any of the next', () => {
    const a = [0, 1, 2, 3, 4, 5].map((s) => slot('01JA', T, 'standard', s));
    const b = [0, 1, 2, 3, 4, 5].map((s) => slot('01JB', T + 1, 'standard', s));
    // A retry of a's slot 5 (after a 429) keeps its key and so its place ahead of b.
    const keys = [...b, ...a].map(ticketSk).sort();
    expect(keys).toEqual([...a, ...b].map(ticketSk));
    expect(ticketSk(a[5]!) < ticketSk(b[0]!)).toBe(true);
  });

  it('lets a priority generation overtake free ones only within the head start, so a free wait is bounded', () => {
    const free = slot('01JFREE', T, 'standard', 0);
    const paidSoon = slot('01JPAID1', T + H - 1, 'priority', 0);
    const paidLate = slot('01JPAID2', T + H + 1, 'priority', 0);
    expect(isAhead(paidSoon, free)).toBe(true);
    expect(ticketSk(paidSoon) < ticketSk(free)).toBe(true);
    expect(isAhead(paidLate, free)).toBe(false);
    expect(ticketSk(free) < ticketSk(paidLate)).toBe(true);
    // A stream of paid generations, one a second: only those of the first H pass the free one.
    const stream = Array.from({ length: 1_000 }, (_, i) =>
      slot(`01JP${String(i).padStart(4, '0')}`, T + i * 1_000, 'priority', 0),
    );
    const ahead = stream.filter((p) => isAhead(p, free));
    expect(ahead).toHaveLength(300);
    expect(agingBoundMs('standard', H)).toBe(H);
    expect(agingBoundMs('priority', H)).toBe(0);
    // No head start configured: strict first come, first served.
    expect(orderKey(T, 'priority', 0)).toBe(orderKey(T, 'standard', 0));
  });

  it('keeps place entries and their bucket counters in queue order', () => {
    expect(placeBucket(T + 9_999)).toBe(T);
    expect(placeBucket(T + 9_999, 100)).toBe(T + 9_900);
    expect(bucketSk(T + 10_000) > bucketSk(T + 9_999)).toBe(true);
    expect(counterKeys(T + 12_345).map((c) => c.sk)).toEqual(
      [T + 10_000, T + 12_000, T + 12_300, T + 12_345].map(bucketSk),
    );
    expect(
      placeSk({ orderKey: T, generationId: '01JB' }) < placeSk({ orderKey: T + 1, generationId: '01JA' }),
    ).toBe(true);
    expect(queuePosition(0, 0)).toBe(1);
    expect(queuePosition(12, 3)).toBe(16);
    expect(oldestLiveKey(T, 1_800_000, H)).toBe(T - 1_800_000 - H - 10_000);
    expect(() => orderKey('not a date', 'standard', H)).toThrow(RangeError);
  });
});

describe('the position in the queue', () => {
  it('is exact from the counters, however densely a burst packs the order keys', () => {
    const oldest = T - 2_110_000;
    // 400 generations: a burst of 300 within 250 ms, then 100 spread over 20 minutes; ties broken by id.
    const keys = [
      ...Array.from({ length: 300 }, (_, i) => T + Math.floor(i * 0.83)),
      ...Array.from({ length: 100 }, (_, i) => T + 1_000 + i * 12_345),
    ].map((key, i) => ({ orderKey: key, generationId: `01J${String(i).padStart(4, '0')}` }));
    const counters = new Map<string, number>();
    for (const { orderKey: key } of keys)
      for (const { levelMs, sk } of counterKeys(key))
        counters.set(`${levelMs}${sk}`, (counters.get(`${levelMs}${sk}`) ?? 0) + 1);
    const sorted = [...keys].sort((a, b) => (isAhead(a, b) ? -1 : 1));
    for (const [rank, g] of sorted.entries()) {
      let before = 0;
      for (const range of counterRanges(g.orderKey, oldest))
        for (const [name, n] of counters)
          if (
            name.startsWith(String(range.levelMs) + 'B#') &&
            name.slice(String(range.levelMs).length) >= range.from
          )
            if (name.slice(String(range.levelMs).length) <= range.to) before += n;
      const sameKeyAhead = keys.filter(
        (o) => o.orderKey === g.orderKey && o.generationId < g.generationId,
      ).length;
      expect(queuePosition(before, sameKeyAhead)).toBe(rank + 1);
    }
    // The reads stay small: at most 10 or 100 counters below the top level.
    for (const range of counterRanges(T + 123_456, oldest).slice(1)) {
      const width = (Number(range.to.slice(2)) - Number(range.from.slice(2))) / range.levelMs + 1;
      expect(width).toBeLessThanOrEqual(100);
    }
  });
});

describe("a customer's standing", () => {
  const pro = { packId: 'pro', credits: 100, amountTotal: 9_900, creditsReversed: 0, status: 'completed' };
  const starter = {
    packId: 'starter',
    credits: 40,
    amountTotal: 3_500,
    creditsReversed: 0,
    status: 'completed',
  };

  it('counts every paid pack as paid: priority for Popular or Pro, standard for Starter, free without one', () => {
    expect(priorityStanding([pro])).toBe('priority');
    expect(priorityStanding([{ ...pro, packId: 'popular', credits: 60 }])).toBe('priority');
    expect(priorityStanding([starter])).toBe('standard');
    expect(priorityStanding([])).toBe('free');
  });

  it('takes it back after a refund above the threshold, a dispute or a purchase discounted to near zero', () => {
    expect(priorityStanding([{ ...pro, creditsReversed: 100, status: 'refunded' }])).toBe('free');
    // 99 % refunded: no longer counts (the threshold is half the credits).
    expect(priorityStanding([{ ...starter, creditsReversed: 39, status: 'refunded' }])).toBe('free');
    // Half refunded still counts; a bit more does not.
    expect(priorityStanding([{ ...pro, creditsReversed: 50, status: 'refunded' }])).toBe('priority');
    expect(priorityStanding([{ ...pro, creditsReversed: 51, status: 'refunded' }])).toBe('free');
    expect(priorityStanding([{ ...pro, amountTotal: 0 }])).toBe('free');
    // A 1-cent promotion code: under the minimum charge.
    expect(priorityStanding([{ ...starter, amountTotal: 1 }])).toBe('free');
    expect(priorityStanding([{ ...starter, amountTotal: 100 }])).toBe('standard');
    // A chargeback on any payment takes the standing from the account, whatever else it bought.
    expect(priorityStanding([pro, { ...starter, status: 'disputed' }])).toBe('free');
    // A Pro pack refunded leaves the Starter one: paid, without priority.
    expect(priorityStanding([{ ...pro, creditsReversed: 100 }, starter])).toBe('standard');
    // Items written before amounts were recorded count as paid.
    expect(priorityStanding([{ packId: 'pro', credits: 100 }])).toBe('priority');
  });

  it('follows the configured thresholds', () => {
    const rules = { minPaidCents: 5_000, maxRefundedShare: 0 };
    expect(priorityStanding([starter], rules)).toBe('free');
    expect(priorityStanding([pro], rules)).toBe('priority');
    expect(priorityStanding([{ ...pro, creditsReversed: 1 }], rules)).toBe('free');
  });
});

describe('enqueueing', () => {
  const entry = { generationId: '01JGEN00000000000000000000', slot: 2, startedAt: new Date(T).toISOString() };

  it('gives a ticket its generation deadline, and refuses it once that has passed', () => {
    expect(ticketDeadline(entry, 600_000, T + 599_999)).toBe(T + 600_000);
    expect(() => ticketDeadline(entry, 600_000, T + 600_000)).toThrow(AdmissionDeadlineError);
    expect(() => ticketDeadline(entry, 600_000, T + 600_000)).toThrow(/slot 2/);
  });

  it('reads the order key back from a ticket sort key', () => {
    expect(ticketOrderKey(ticketSk({ orderKey: T, generationId: '01JA', slot: 5 }))).toBe(T);
    expect(ticketOrderKey(ticketSk({ orderKey: 42, generationId: '01JA', slot: 0 }))).toBe(42);
  });

  it("registers a generation's position once: its first slot's first call", () => {
    expect(registersPosition({ round: 0, call: 0 })).toBe(true);
    expect(registersPosition({ round: 0, call: 1 })).toBe(false);
    expect(registersPosition({ round: 3, call: 0 })).toBe(false);
  });

  it('lets the next EnterLine wait until the deadline, at least a second', () => {
    expect(enqueueTimeoutSeconds(T + 10_500, T)).toBe(11);
    expect(enqueueTimeoutSeconds(T, T)).toBe(1);
    expect(enqueueTimeoutSeconds(T - 60_000, T)).toBe(1);
  });

  it('counts every slot of the generations ahead', () => {
    expect(slotsAhead(1)).toBe(0);
    expect(slotsAhead(3)).toBe(12);
    expect(slotsAhead(0)).toBe(0);
  });

  it('pauses admissions after a 429 only, for the wait it named or the default', () => {
    expect(throttleMsOf('throttled', 3_000)).toBe(3_000);
    expect(throttleMsOf('throttled', null)).toBe(DEFAULT_THROTTLE_MS);
    expect(throttleMsOf('saved', 3_000)).toBeUndefined();
    expect(throttleMsOf('ProviderUnavailableError', undefined)).toBeUndefined();
  });
});
