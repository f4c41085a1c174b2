import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { AnalyticsRecord } from '../../functions/domain/analytics';
import { send } from '../adversarial/requests';
import { createTestUser } from '../helpers/cognito';

const { gatewayUrl, runtimeConfig, env } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

/*
 * POST /api/analytics/events through the local gateway, from a loopback address of this file's own (127.0.0.x), so
 * its per-IP rate limit window is not shared with other test files.
 */
const sourceAddress = `127.0.0.${20 + Math.floor(Math.random() * 200)}`;

async function post(
  body: unknown,
  token?: string,
): Promise<{ status: number; headers: Record<string, unknown>; json: unknown }> {
  const res = await send(
    gatewayUrl,
    {
      method: 'POST',
      target: '/api/analytics/events',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
    sourceAddress,
  );
  return { status: res.status, headers: res.headers, json: JSON.parse(res.text || 'null') };
}

const event = (name: string, anonymousId: string, extra: Record<string, unknown> = {}) => ({
  name,
  ts: Date.now(),
  sessionId: 'session_test_0001',
  anonymousId,
  path: '/pricing',
  ...extra,
});

function recordsOf(anonymousId: string): AnalyticsRecord[] {
  const file = join(env.ANALYTICS_DIR!, `${new Date().toISOString().slice(0, 10)}.jsonl`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AnalyticsRecord)
    .filter((r) => r.anonymous_id === anonymousId);
}

describe('POST /api/analytics/events (public)', () => {
  it('appends valid events to <ANALYTICS_DIR>/<date>.jsonl, strings cut at 256, the sub only from a valid token', async () => {
    const user = await createTestUser(pool);
    const anon = `anon_${Date.now()}`;
    const signedIn = await post(
      { events: [event('page_view', anon, { props: { label: 'x'.repeat(300), n: 3, ok: true } })] },
      user.idToken,
    );
    expect(signedIn).toMatchObject({ status: 202, json: { accepted: 1 } });
    // A token that does not verify is ignored, never trusted: the event is kept, anonymous.
    const forged = `${user.idToken.slice(0, -4)}AAAA`;
    expect((await post({ events: [event('favorite', anon)] }, forged)).status).toBe(202);
    // A body that claims a user gets nothing: there is no such field.
    expect((await post({ events: [event('download', anon, { userSub: user.sub })] })).status).toBe(202);

    const records = recordsOf(anon);
    expect(records.map((r) => [r.event_name, r.user_sub])).toEqual([
      ['page_view', user.sub],
      ['favorite', null],
      ['download', null],
    ]);
    expect(records[0]).toMatchObject({
      source: 'client',
      session_id: 'session_test_0001',
      path: '/pricing',
      props: { label: 'x'.repeat(256), n: '3', ok: 'true' },
    });
  });

  it('rejects what is not a batch of known client events, and bodies over 64 KiB', async () => {
    const anon = `anon_bad_${Date.now()}`;
    const bad = [
      'not json',
      {},
      { events: [] },
      { events: [event('purchase_completed', anon)] },
      { events: [event('page_view', 'x')] },
      { events: Array.from({ length: 26 }, () => event('page_view', anon)) },
    ];
    for (const body of bad) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    }
    const huge = await post({ events: [event('page_view', anon, { path: 'p'.repeat(70_000) })] });
    expect(huge).toMatchObject({ status: 413, json: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
  });

  it('limits each client address per minute: 429 with Retry-After', async () => {
    const limit = Number(env.ANALYTICS_REQUESTS_PER_MINUTE ?? 60);
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    // Two windows' worth at most: a window may roll over once during the loop.
    for (let i = 0; i < limit * 2 + 2 && !limited; i++) {
      const res = await post({ events: [event('page_view', 'anon_rate_limit')] });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited?.json).toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
    const retryAfter = Number(limited?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
