import { describe, expect, it } from 'vitest';
import {
  admit,
  bucketCapacity,
  etaMs,
  initialState,
  LEASE_MS,
  mayAdmit,
  permitCheckMs,
  pollDelayMs,
  release,
  ticketSortKey,
  tokensAt,
  type AdmissionLimits,
} from '../../functions/domain/admission';
import { nextAfterCall, parseResetDuration, retryAfterMs } from '../../functions/domain/slot-outcomes';
import { grantsPriority } from '../../functions/domain/packs';

const limits: AdmissionLimits = { imagesPerMinute: 30, maxConcurrency: 2 };
const T = 1_800_000_000_000;

describe('the token bucket', () => {
  it('holds one second of the per-minute limit (at least 1) and refills at the limit', () => {
    expect(bucketCapacity({ imagesPerMinute: 5, maxConcurrency: 1 })).toBe(1);
    expect(bucketCapacity({ imagesPerMinute: 300, maxConcurrency: 1 })).toBe(5);
    const state = { ...initialState(limits, T), tokens: 0 };
    expect(tokensAt(state, limits, T + 1_000)).toBeCloseTo(0.5);
    expect(tokensAt(state, limits, T + 60_000)).toBe(1);
  });

  it('admits only as many tickets at the head of the line as there are tokens and free permits', () => {
    let state = initialState(limits, T);
    expect(mayAdmit(state, limits, 0, T)).toBe(true);
    expect(mayAdmit(state, limits, 1, T)).toBe(false);
    state = admit(state, limits, 'a', 'g1', T);
    expect(mayAdmit(state, limits, 0, T)).toBe(false);
    expect(mayAdmit(state, limits, 0, T + 2_000)).toBe(true);
    state = admit(state, limits, 'b', 'g1', T + 2_000);
    // Two leases held: no permit free, however many tokens.
    expect(mayAdmit(state, limits, 0, T + 60_000)).toBe(false);
    state = release(state, limits, 'a', T + 61_000);
    expect(mayAdmit(state, limits, 0, T + 61_000)).toBe(true);
  });

  it('frees the permit of a crashed holder when its lease expires', () => {
    const held = admit(admit(initialState(limits, T), limits, 'a', 'g', T), limits, 'b', 'g', T + 5_000);
    expect(mayAdmit(held, limits, 0, T + LEASE_MS - 1)).toBe(false);
    expect(mayAdmit(held, limits, 0, T + LEASE_MS + 1)).toBe(true);
  });

  it('after a 429 pauses every admission for the retry-after, then resumes one token at a time', () => {
    let state = admit(initialState(limits, T), limits, 'a', 'g', T);
    state = release(state, limits, 'a', T + 100, 10_000);
    expect(state.leases).toEqual({});
    expect(mayAdmit(state, limits, 0, T + 10_000)).toBe(false);
    expect(tokensAt(state, limits, T + 10_099)).toBe(0);
    expect(tokensAt(state, limits, T + 10_100)).toBe(1);
    expect(mayAdmit(state, limits, 1, T + 10_100)).toBe(false);
    expect(etaMs(state, limits, 0, T + 5_100)).toBeCloseTo(5_000);
    expect(etaMs(state, limits, 1, T + 5_100)).toBeCloseTo(7_000);
  });

  it('learns the call duration from the first call, then averages', () => {
    let state = admit(initialState(limits, T), limits, 'a', 'g', T);
    state = release(state, limits, 'a', T + 4_000);
    expect(state).toMatchObject({ avgCallMs: 4_000, calls: 1 });
    state = release(admit(state, limits, 'b', 'g', T + 10_000), limits, 'b', T + 19_000);
    expect(state.avgCallMs).toBe(5_000);
  });
});

describe('waiting', () => {
  it('estimates the turn from tokens and from the ends of the running calls', () => {
    const wide = { ...limits, maxConcurrency: 10 };
    const empty = { ...initialState(wide, T), tokens: 0 };
    expect(etaMs(empty, wide, 0, T)).toBe(2_000);
    expect(etaMs(empty, wide, 3, T)).toBe(8_000);
    const full = {
      ...admit(admit(initialState(limits, T), limits, 'a', 'g', T), limits, 'b', 'g', T),
      avgCallMs: 30_000,
      calls: 3,
    };
    expect(etaMs(full, limits, 0, T + 10_000)).toBe(20_000);
    expect(etaMs(full, limits, 2, T + 10_000)).toBe(50_000);
  });

  it('polls at the estimated turn, sooner for the next in line while permits are all taken, within bounds', () => {
    expect(pollDelayMs(0, 0)).toBe(250);
    expect(pollDelayMs(5_000, 0)).toBe(5_000);
    expect(pollDelayMs(5_000, 1)).toBe(5_500);
    expect(pollDelayMs(120_000, 0)).toBe(20_000);
    expect(pollDelayMs(60_000, 0, 3_000)).toBe(3_000);
    const full = { ...admit(initialState(limits, T), limits, 'a', 'g', T), calls: 0 };
    const busy = admit(full, limits, 'b', 'g', T);
    expect(permitCheckMs(busy, limits, 5, T)).toBe(2_000);
    expect(permitCheckMs({ ...busy, calls: 4, avgCallMs: 90_000 }, limits, 0, T)).toBe(4_500);
    expect(permitCheckMs({ ...busy, calls: 4, avgCallMs: 90_000 }, limits, 5, T)).toBeUndefined();
    expect(permitCheckMs(initialState(limits, T), limits, 0, T)).toBeUndefined();
  });
});

describe('the order of the line', () => {
  it('is priority, then round (so generations interleave), then arrival', () => {
    const keys = [
      ticketSortKey({ priority: 'standard', round: 0, generationId: '01B', slot: 0 }),
      ticketSortKey({ priority: 'standard', round: 1, generationId: '01A', slot: 1 }),
      ticketSortKey({ priority: 'standard', round: 0, generationId: '01A', slot: 0 }),
      ticketSortKey({ priority: 'priority', round: 3, generationId: '01C', slot: 3 }),
    ];
    expect([...keys].sort()).toEqual([keys[3], keys[2], keys[0], keys[1]]);
  });

  it('gives priority to Popular and Pro buyers only', () => {
    expect(['starter', 'popular', 'pro', 'nope'].map(grantsPriority)).toEqual([false, true, true, false]);
  });
});

describe('after a call', () => {
  it('goes back in line after a 429 without limit, after transient failures a bounded number of times', () => {
    expect(nextAfterCall('saved', {})).toEqual({ next: 'done', retries: {}, error: null });
    expect(nextAfterCall('throttled', { x: 1 })).toEqual({ next: 'acquire', retries: { x: 1 }, error: null });
    const once = nextAfterCall('LikenessRejected', {});
    expect(once).toEqual({ next: 'acquire', retries: { LikenessRejected: 1 }, error: null });
    expect(nextAfterCall('LikenessRejected', once.retries)).toMatchObject({
      next: 'fail',
      error: 'LikenessRejected',
    });
    expect(nextAfterCall('ProviderUnavailableError', { ProviderUnavailableError: 1 }).next).toBe('acquire');
    expect(nextAfterCall('ProviderUnavailableError', { ProviderUnavailableError: 2 }).next).toBe('fail');
    for (const refused of ['ProviderRejectedError', 'ProviderInvalidOutputError', 'GenerationClosedError']) {
      expect(nextAfterCall(refused, {})).toEqual({ next: 'fail', retries: {}, error: refused });
    }
  });

  it("reads the wait from a 429's headers as OpenAI sends them", () => {
    const headers = (h: Record<string, string>) => (name: string) => h[name];
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '2' }))).toBe(1_500);
    expect(retryAfterMs(headers({ 'retry-after': '12' }))).toBe(12_000);
    expect(retryAfterMs(headers({ 'retry-after': new Date(T + 3_000).toUTCString() }), T)).toBe(3_000);
    expect(
      retryAfterMs(
        headers({
          'x-ratelimit-reset-requests': '6m0s',
          'x-ratelimit-remaining-requests': '5',
          'x-ratelimit-reset-tokens': '20ms',
          'x-ratelimit-remaining-tokens': '0',
        }),
      ),
    ).toBe(20);
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(parseResetDuration('1m30.5s')).toBe(90_500);
    expect(parseResetDuration('soon')).toBeUndefined();
  });
});
