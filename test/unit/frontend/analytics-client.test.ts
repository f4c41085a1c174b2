import { describe, expect, it } from 'vitest';
import {
  BATCH_SIZE,
  createAnalyticsClient,
  FLUSH_DELAY_MS,
  privacySignalsOn,
  SESSION_IDLE_MS,
  type AnalyticsDeps,
  type QueuedEvent,
} from '../../../frontend/src/lib/analytics/client';

/** A client on fakes: a manual clock and timer, a Map for storage, and recorders for both transports. */
function harness(options: { optedOut?: boolean; beaconWorks?: boolean } = {}) {
  const sent: QueuedEvent[][] = [];
  const beaconed: QueuedEvent[][] = [];
  const store = new Map<string, string>();
  const timers: { fn: () => void; at: number }[] = [];
  let clock = 1_700_000_000_000;
  let ids = 0;
  const deps: AnalyticsDeps = {
    send: async (events) => void sent.push(events),
    beacon: (events) => {
      if (options.beaconWorks === false) return false;
      beaconed.push(events);
      return true;
    },
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    optedOut: () => options.optedOut ?? false,
    now: () => clock,
    randomId: () => `id_${String((ids += 1)).padStart(8, '0')}`,
    setTimer: (fn, ms) => {
      const timer = { fn, at: clock + ms };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle) => {
      const i = timers.indexOf(handle as (typeof timers)[number]);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const client = createAnalyticsClient(deps);
  /** Moves the clock and fires the timers that are due. */
  const advance = async (ms: number) => {
    clock += ms;
    for (const t of timers.filter((x) => x.at <= clock)) {
      timers.splice(timers.indexOf(t), 1);
      t.fn();
    }
    await Promise.resolve();
  };
  return { client, sent, beaconed, store, advance, timers };
}

describe('analytics client', () => {
  it('sends 10 events at once as one batch, and the rest after 3 s', async () => {
    const { client, sent, advance } = harness();
    for (let i = 0; i < BATCH_SIZE + 2; i++) client.track('page_view', { i }, `/p${i}`);
    await Promise.resolve();
    expect(sent.map((b) => b.length)).toEqual([BATCH_SIZE]);
    expect(client.pending()).toHaveLength(2);
    await advance(FLUSH_DELAY_MS - 1);
    expect(sent).toHaveLength(1);
    await advance(1);
    expect(sent.map((b) => b.length)).toEqual([BATCH_SIZE, 2]);
    expect(sent[1]?.map((e) => e.path)).toEqual(['/p10', '/p11']);
  });

  it('flushes 3 s after the first queued event, not after the last', async () => {
    const { client, sent, advance } = harness();
    client.track('page_view');
    await advance(2_000);
    client.track('download');
    await advance(1_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.map((e) => e.name)).toEqual(['page_view', 'download']);
  });

  it('cuts string values and paths at 256 characters and drops undefined values', () => {
    const { client } = harness();
    client.track(
      'favorite',
      { label: 'x'.repeat(300), n: 1, ok: false, gone: undefined },
      `/${'p'.repeat(400)}`,
    );
    const [event] = client.pending();
    expect(event?.props).toEqual({ label: 'x'.repeat(256), n: 1, ok: false });
    expect(event?.path).toHaveLength(256);
  });

  it('keeps one anonymous id; activity extends the session, 30 minutes idle starts a new one', async () => {
    const { client, sent, advance } = harness();
    client.track('page_view');
    await advance(SESSION_IDLE_MS - 1);
    client.track('page_view');
    await advance(SESSION_IDLE_MS);
    client.track('page_view');
    await client.flush();
    const events = sent.flat();
    expect(events).toHaveLength(3);
    expect(events[0]?.sessionId).toBe(events[1]?.sessionId);
    expect(events[2]?.sessionId).not.toBe(events[1]?.sessionId);
    expect(new Set(events.map((e) => e.anonymousId)).size).toBe(1);
  });

  it('hands the queue to sendBeacon on page hide, and falls back to a request if the beacon is refused', async () => {
    const ok = harness();
    ok.client.track('checkout_started', { packId: 'popular' });
    ok.client.flushOnHide();
    expect(ok.beaconed.flat().map((e) => e.name)).toEqual(['checkout_started']);
    expect(ok.client.pending()).toHaveLength(0);
    await ok.advance(FLUSH_DELAY_MS);
    expect(ok.sent).toHaveLength(0);

    const refused = harness({ beaconWorks: false });
    refused.client.track('page_view');
    refused.client.flushOnHide();
    await Promise.resolve();
    expect(refused.sent.flat()).toHaveLength(1);
  });

  it('under Do Not Track or Global Privacy Control collects, stores and sends nothing', async () => {
    const { client, sent, beaconed, store, advance, timers } = harness({ optedOut: true });
    for (let i = 0; i < 25; i++) client.track('page_view');
    client.flushOnHide();
    await advance(FLUSH_DELAY_MS);
    await client.flush();
    expect(client.pending()).toEqual([]);
    expect(sent).toEqual([]);
    expect(beaconed).toEqual([]);
    expect(store.size).toBe(0);
    expect(timers).toEqual([]);
  });

  it('reads DNT and GPC from the browser', () => {
    const nav = (v: Record<string, unknown>) => v as unknown as Navigator;
    expect(privacySignalsOn(nav({ doNotTrack: '1' }))).toBe(true);
    expect(privacySignalsOn(nav({ globalPrivacyControl: true }))).toBe(true);
    expect(privacySignalsOn(nav({}), { doNotTrack: '1' })).toBe(true);
    expect(privacySignalsOn(nav({ doNotTrack: '0', globalPrivacyControl: false }))).toBe(false);
    expect(privacySignalsOn(nav({ doNotTrack: null }))).toBe(false);
  });

  it('a failed request drops its batch without throwing', async () => {
    const failing = createAnalyticsClient({
      send: () => Promise.reject(new Error('offline')),
      beacon: () => false,
      storage: { getItem: () => null, setItem: () => undefined },
      optedOut: () => false,
      now: () => 1,
      randomId: () => 'id_00000001',
      setTimer: () => 0,
      clearTimer: () => undefined,
    });
    failing.track('page_view');
    await expect(failing.flush()).resolves.toBeUndefined();
    expect(failing.pending()).toEqual([]);
  });
});
