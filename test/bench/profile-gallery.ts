/**
 * `node --import tsx test/bench/profile-gallery.ts` (PROFILE=1 for a CPU profile in /tmp/perf-gallery.cpuprofile):
 * where `GET /api/headshots`'s time goes, one request at a time on the local stack — the raw first-page Query (which
 * also reads the counters), the GetItem of the counters and both in parallel (what a later page waits for), the
 * page read through the adapter, the 30 headshots' API views (90 presigned URLs: thumbnail, image and download; cache hits), the response's JSON,
 * the handler called in-process, the same route through the local gateway, and a route without a handler's
 * database work (health). Not part of `npm run bench`.
 */
import './env';
import { performance } from 'node:perf_hooks';
import { startLocalStack } from '../../infrastructure/local/stack';
import { signedUpUser } from './http';
import { benchStackPorts } from './site';
import { autocannon, rawCalls, rawLoad, seedHeadshotsForProfile } from './api';

const stack = await startLocalStack({
  ports: benchStackPorts(0),
  withSite: false,
  quiet: true,
});
try {
  const target = {
    gatewayUrl: stack.gatewayUrl,
    userPoolId: stack.runtimeConfig.userPoolId,
    clientId: stack.runtimeConfig.userPoolClientId,
  };
  const user = await signedUpUser(target);
  await seedHeadshotsForProfile(user.sub, 100);
  const { handler } = await import('../../functions/http/list-headshots');
  const event = {
    version: '2.0',
    routeKey: 'GET /api/headshots',
    rawPath: '/api/headshots',
    rawQueryString: '',
    headers: {},
    requestContext: {
      authorizer: { jwt: { claims: { sub: user.sub, email: 'x@example.com' }, scopes: [] } },
      http: { method: 'GET', path: '/api/headshots' },
    },
    isBase64Encoded: false,
  } as never;
  const { query, getStats } = rawCalls(user.sub);
  const { readGalleryPage } = await import('../../functions/adapters/headshots/pages');
  const { toHeadshot } = await import('../../functions/http/headshot-view');
  const read = () => readGalleryPage(user.sub, { filter: 'all', sort: 'newest' });
  const page = await read();
  const views = await Promise.all(page.items.map(toHeadshot));
  const time = async (label: string, fn: () => Promise<unknown>, n = 300) => {
    for (let i = 0; i < 30; i++) await fn();
    const t: number[] = [];
    for (let i = 0; i < n; i++) {
      const s = performance.now();
      await fn();
      t.push(performance.now() - s);
    }
    t.sort((a, b) => a - b);
    console.log(
      label.padEnd(30),
      'p50',
      t[Math.floor(n / 2)]!.toFixed(2),
      'p90',
      t[Math.floor(n * 0.9)]!.toFixed(2),
    );
  };
  const token = user.idToken;
  const http = () =>
    fetch(`${stack.gatewayUrl}/api/headshots`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.arrayBuffer(),
    );
  const health = () => fetch(`${stack.gatewayUrl}/api/health`).then((r) => r.arrayBuffer());
  for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
    await time('raw query (page + stats)', query);
    await time('raw getitem (stats)', getStats);
    await time('raw query || getitem', () => Promise.all([query(), getStats()]));
    await time('readGalleryPage (adapter)', read);
    await time('30 API views (90 URLs)', () => Promise.all(page.items.map(toHeadshot)));
    await time('JSON of the page', async () =>
      JSON.stringify({ items: views, nextCursor: null, stats: page.stats }),
    );
    await time('handler in-process', () => handler(event));
    await time('HTTP via gateway', http);
    await time('HTTP health', health);
  }
  const connections = Number(process.env.PROFILE_CONNECTIONS ?? 10);
  const load = async (label: string) => {
    const figures = await autocannon(`${stack.gatewayUrl}/api/headshots`, token, connections, 4);
    console.log(
      label.padEnd(30),
      'p50',
      figures.p50Ms.toFixed(2),
      'p99',
      figures.p99Ms.toFixed(2),
      `${figures.perSecond.toFixed(0)}/s`,
    );
  };
  await load(`HTTP @${connections} (warm-up)`);
  const before = process.cpuUsage();
  const requests = await autocannon(`${stack.gatewayUrl}/api/headshots`, token, connections, 4);
  const used = process.cpuUsage(before);
  console.log(
    `HTTP @${connections}`.padEnd(30),
    'p50',
    requests.p50Ms.toFixed(2),
    `${requests.perSecond.toFixed(0)}/s`,
    'gateway process CPU per request (ms)',
    ((used.user + used.system) / 1000 / requests.total).toFixed(3),
  );
  await rawLoad(query, connections, 2);
  const rawBefore = process.cpuUsage();
  const raw = await rawLoad(query, connections, 4);
  const rawUsed = process.cpuUsage(rawBefore);
  console.log(
    `raw query @${connections}`.padEnd(30),
    'p50',
    raw.p50Ms.toFixed(2),
    `${raw.perSecond.toFixed(0)}/s`,
    'process CPU per query (ms)',
    ((rawUsed.user + rawUsed.system) / 1000 / raw.total).toFixed(3),
  );
  if (process.env.PROFILE === '1') {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await load(`HTTP @${connections} (profiled)`);
    const { profile } = await session.post('Profiler.stop');
    (await import('node:fs')).writeFileSync('/tmp/perf-gallery.cpuprofile', JSON.stringify(profile));
  }
} finally {
  await stack.stop();
}
