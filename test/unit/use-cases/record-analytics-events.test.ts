import { describe, expect, it } from 'vitest';
import { QuotaExceededError } from '../../../functions/domain/quotas';
import type { ClientEvent } from '../../../functions/domain/analytics';
import {
  recordAnalyticsEvents,
  type RecordAnalyticsEventsPorts,
} from '../../../functions/use-cases/record-analytics-events';
import { RecordingAnalytics } from './fakes/analytics';
import { failing } from './fakes/failures';
import { FakeQuotas } from './fakes/quotas';

const NOW = new Date('2026-01-01T12:00:00.000Z');
const event = (name: ClientEvent['name'] = 'page_view'): ClientEvent => ({
  name,
  ts: NOW.getTime() - 1000,
  sessionId: 'session-0001',
  anonymousId: 'anonymous-0001',
  path: '/pricing',
});

function setup(overrides: Partial<RecordAnalyticsEventsPorts> = {}) {
  const analytics = new RecordingAnalytics();
  const quotas = new FakeQuotas();
  const ports: RecordAnalyticsEventsPorts = {
    consumeQuota: quotas.consumeQuota,
    // The token `Bearer good` is user-1's; anything else is no caller.
    verifiedSub: async (authorization) => (authorization === 'Bearer good' ? 'user-1' : null),
    recordAnalytics: analytics.recordAnalytics,
    ...overrides,
  };
  return { analytics, quotas, ports };
}

const request = (authorization?: string, events = [event(), event('checkout_started')]) => ({
  sourceIp: '203.0.113.7',
  authorization,
  events,
});

describe('recordAnalyticsEvents: the browser’s product analytics', () => {
  it('records every event with the verified caller, and counts the request against its address only as a hash', async () => {
    const { analytics, quotas, ports } = setup();
    expect(await recordAnalyticsEvents(request('Bearer good'), NOW, ports)).toEqual({ accepted: 2 });
    expect(analytics.records.map((r) => [r.event_name, r.user_sub, r.path])).toEqual([
      ['page_view', 'user-1', '/pricing'],
      ['checkout_started', 'user-1', '/pricing'],
    ]);
    expect(analytics.records[0]?.received_at).toBe(NOW.toISOString());
    const [counter] = [...quotas.used.keys()];
    expect(counter).toMatch(/^anon#ip-[0-9a-f]{32}\|analytics-events$/);
    expect(counter).not.toContain('203.0.113.7');
  });

  it('records anonymously without a token, or with one that does not verify (never trusted)', async () => {
    const { analytics, ports } = setup();
    await recordAnalyticsEvents(request(), NOW, ports);
    await recordAnalyticsEvents(request('Bearer forged'), NOW, ports);
    expect(analytics.records.map((r) => r.user_sub)).toEqual([null, null, null, null]);
  });

  it('refuses past the address’s per-minute quota with QuotaExceededError, recording nothing', async () => {
    const { analytics, ports } = setup();
    for (let i = 0; i < 60; i++) await recordAnalyticsEvents(request(undefined, [event()]), NOW, ports);
    await expect(recordAnalyticsEvents(request(), NOW, ports)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(analytics.records).toHaveLength(60);
  });

  it('lets a failing sink or token verifier through', async () => {
    const down = new Error('Firehose down');
    await expect(
      recordAnalyticsEvents(request(), NOW, setup({ recordAnalytics: failing(down) }).ports),
    ).rejects.toBe(down);
    const jwks = new Error('JWKS unavailable');
    const { analytics, ports } = setup({ verifiedSub: failing(jwks) });
    await expect(recordAnalyticsEvents(request('Bearer good'), NOW, ports)).rejects.toBe(jwks);
    expect(analytics.records).toHaveLength(0);
  });
});
