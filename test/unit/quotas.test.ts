import { describe, expect, it } from 'vitest';
import {
  assertQuotaRule,
  describeWait,
  generationInFlight,
  quotaExceeded,
  QuotaExceededError,
  quotaWindow,
  type QuotaRule,
} from '../../functions/domain/quotas';
import { errorResponse } from '../../functions/http/handler';

const uploads: QuotaRule = { name: 'uploads', limit: 100, windowSeconds: 3600, noun: 'photo uploads' };
const at = (iso: string) => Date.parse(iso);

describe('quota windows', () => {
  it('puts every instant of an hour in the same fixed window, aligned to the hour', () => {
    expect(quotaWindow(uploads, at('2026-11-22T10:00:00Z'))).toEqual(
      quotaWindow(uploads, at('2026-11-22T10:59:59.999Z')),
    );
    const { start, end } = quotaWindow(uploads, at('2026-11-22T10:48:00Z'));
    expect(new Date(start * 1000).toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(end - start).toBe(3600);
    expect(quotaWindow(uploads, at('2026-11-22T11:00:00Z')).start).toBe(end);
  });

  it('tells a person how long to wait, with Retry-After the rest of the window', () => {
    const error = quotaExceeded(uploads, at('2026-11-22T10:48:00.500Z'));
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.retryAfterSeconds).toBe(720);
    expect(error.message).toBe(
      "You've reached the limit of 100 photo uploads per hour. Please try again in 12 minutes.",
    );
    expect(quotaExceeded(uploads, at('2026-11-22T10:59:59.900Z')).retryAfterSeconds).toBe(1);
    expect(describeWait(5)).toBe('a minute');
    expect(describeWait(61)).toBe('2 minutes');
    expect(describeWait(3600)).toBe('1 hour');
  });

  it('refuses rules that would let everything through or block everyone', () => {
    expect(() => assertQuotaRule({ ...uploads, limit: 0 })).toThrow(RangeError);
    expect(() => assertQuotaRule({ ...uploads, windowSeconds: 1.5 })).toThrow(RangeError);
    expect(() => assertQuotaRule({ ...uploads, name: 'Uploads#1' })).toThrow(RangeError);
    expect(() => assertQuotaRule(uploads)).not.toThrow();
  });
});

describe('QuotaExceededError over HTTP', () => {
  it('is answered 429 with Retry-After and the message, once, by the shared error mapping', () => {
    const res = errorResponse(quotaExceeded(uploads, at('2026-11-22T10:48:00Z')));
    expect(res.statusCode).toBe(429);
    expect(res.headers?.['retry-after']).toBe('720');
    expect(JSON.parse(String(res.body))).toEqual({
      error: {
        code: 'QUOTA_EXCEEDED',
        message: "You've reached the limit of 100 photo uploads per hour. Please try again in 12 minutes.",
        details: { quota: 'uploads', retryAfterSeconds: 720 },
      },
    });
    const inFlight = errorResponse(generationInFlight());
    expect(inFlight.statusCode).toBe(429);
    expect(Number(inFlight.headers?.['retry-after'])).toBeGreaterThan(0);
  });
});
