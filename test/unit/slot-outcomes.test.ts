import { describe, expect, it } from 'vitest';
import { nextAfterCall, parseResetDuration, retryAfterMs } from '../../functions/domain/slot-outcomes';
import { grantsPriority } from '../../functions/domain/packs';

/*
 * What happens after a provider call. The provider queue's own rules (permits, order, leases, standing) are in
 * provider-queue.test.ts; the generation's time budget in generation-deadline.test.ts.
 */

const T = 1_800_000_000_000;

describe('the provider queue', () => {
  it('gives priority to Popular and Pro buyers only', () => {
    expect(['starter', 'popular', 'pro', 'nope'].map(grantsPriority)).toEqual([false, true, true, false]);
  });
});

describe('after a call', () => {
  it('goes back in the queue after a 429 without limit, after transient failures a bounded number of times', () => {
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
    // A provider image we lost before FinishHeadshot read it: one more call, then refunded (decision 022).
    expect(nextAfterCall('ProviderImageMissingError', {})).toEqual({
      next: 'acquire',
      retries: { ProviderImageMissingError: 1 },
      error: null,
    });
    expect(nextAfterCall('ProviderImageMissingError', { ProviderImageMissingError: 1 })).toMatchObject({
      next: 'fail',
      error: 'ProviderImageMissingError',
    });
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
