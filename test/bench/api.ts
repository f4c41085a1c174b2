import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../functions/adapters/support/aws';
import { GALLERY_STATS_SK, PROFILE_SK, userPk } from '../../functions/adapters/support/keys';
import { storageSettings } from '../../functions/config/storage';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import { GALLERY_PAGE_SIZE } from '../../functions/domain/gallery';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { apiJson, signedUpUser, type BenchStack } from './http';
import { percentile } from './stats';
import { batchPutItems, headshotSeedItem } from '../helpers/headshot-items';

const run = promisify(execFile);

/** Latency percentiles and throughput of one load run. */
export interface LoadFigures {
  connections: number;
  p50Ms: number;
  p99Ms: number;
  /** Completed requests (or operations) per second over the run. */
  perSecond: number;
  /** Completed requests (operations). */
  total: number;
  /** Answers other than 2xx, plus connection errors and timeouts (0 in a healthy run). */
  failures: number;
}

/** One API route under load beside the raw DynamoDB call it is built on. */
export interface ApiFigures {
  route: string;
  raw: string;
  api: LoadFigures;
  reference: LoadFigures;
  /**
   * The local gateway's own floor at the same concurrency: `GET /api/health` (public, no database call) through the
   * same HTTP server, event building and in-process Lambda runtime. What `raw` does not include.
   */
  gatewayFloor?: LoadFigures;
}

/** Unmeasured load on each route and its raw call before the measured runs, in seconds. */
const WARM_UP_SECONDS = 2;

/** Headshots seeded for the gallery route (the "100 headshots"). */
export const SEEDED_HEADSHOTS = 100;

/**
 * Seeds `count` headshot items for `sub`, shaped exactly like the workflow's `saveHeadshot` writes them (the images
 * themselves are not needed: listing only presigns their keys). 25 per BatchWriteItem.
 */
async function seedHeadshots(sub: string, count: number): Promise<void> {
  const items = Array.from(
    { length: count },
    (_, i) =>
      headshotSeedItem(sub, i, {
        style: STYLES[i % STYLES.length]!,
        background: BACKGROUNDS[i % BACKGROUNDS.length]!,
        isFavorite: i % 5 === 0,
        createdAt: new Date(Date.now() - i * 1000).toISOString(),
      }).item,
  );
  await batchPutItems(storageSettings().TABLE_NAME, items);
}

/**
 * `connections` HTTP/1.1 keep-alive connections hammering `url` for `seconds` with autocannon, run in a child
 * process so the load generator does not share an event loop (or a core's time slice) with the gateway and the
 * handlers, which run in this process like `npm start` runs them.
 *
 * Percentiles come from every 2xx response's own time (autocannon's `response` event, `process.hrtime`, fractions of
 * a ms) by the same nearest-rank {@link percentile} as the raw calls: autocannon's own histogram keeps whole
 * milliseconds, too coarse beside a raw call of 2-3 ms.
 */
export async function autocannon(
  url: string,
  token: string,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const script = `
    const autocannon = require('autocannon');
    const options = JSON.parse(process.argv[1]);
    const times = [];
    const instance = autocannon(options, (error, result) => {
      if (error) { console.error(error); process.exit(1); }
      process.stdout.write(JSON.stringify({ result, times }));
    });
    instance.on('response', (client, statusCode, bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) times.push(ms);
    });`;
  const options = {
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  };
  const { stdout } = await run(process.execPath, ['-e', script, JSON.stringify(options)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '' },
    maxBuffer: 16 * 1024 * 1024,
  });
  const { result, times } = JSON.parse(stdout) as {
    result: {
      requests: { total: number };
      duration: number;
      non2xx: number;
      errors: number;
      timeouts: number;
    };
    times: number[];
  };
  return {
    connections,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    perSecond: result.requests.total / result.duration,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * `connections` concurrent loops calling `operation` for `seconds`, in this process: the same DynamoDB document
 * client (and its keep-alive agent) the handlers use, with nothing in front of it.
 */
export async function rawLoad(
  operation: () => Promise<unknown>,
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          await operation();
          latencies.push(performance.now() - t);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    connections,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    perSecond: latencies.length / elapsed,
    total: latencies.length,
    failures,
  };
}

/**
 * The bare DynamoDB calls the two measured routes are built on, with the handlers' document client: a consistent
 * GetItem of `sub`'s user item (`GET /api/me`) and the Query of the first gallery page, newest first, exactly as
 * `GET /api/headshots` sends it (adapters/headshots/pages.ts): the key range `HEADSHOT#` … `HEADSHOT$STATS`, whose
 * first item newest first is the gallery's stats item, `Limit` one page + 1 + the stats item. `getStats` is the
 * GetItem of that stats item which later pages add.
 */
export function rawCalls(sub: string) {
  const table = storageSettings().TABLE_NAME;
  return {
    getItem: () =>
      documentClient().send(
        new GetCommand({ TableName: table, Key: { PK: userPk(sub), SK: PROFILE_SK }, ConsistentRead: true }),
      ),
    getStats: () =>
      documentClient().send(
        new GetCommand({
          TableName: table,
          Key: { PK: userPk(sub), SK: GALLERY_STATS_SK },
          ConsistentRead: true,
        }),
      ),
    query: () =>
      documentClient().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefix AND :stats',
          ExpressionAttributeValues: {
            ':pk': userPk(sub),
            ':prefix': 'HEADSHOT#',
            ':stats': GALLERY_STATS_SK,
          },
          ScanIndexForward: false,
          ConsistentRead: true,
          Limit: GALLERY_PAGE_SIZE + 2,
        }),
      ),
  };
}

/**
 * `GET /api/me` beside a raw GetItem of the same user item, and `GET /api/headshots` (100 headshots seeded) beside a
 * raw Query of the same first page, each at every concurrency in `connections` (`seconds` per autocannon run,
 * `rawSeconds` per raw run). Before measuring,
 * each route is called a few times so its handler module is loaded (the cold start is the bundles' row), then each
 * route and its raw call run {@link WARM_UP_SECONDS} unmeasured at 10 connections, so both sides are measured with
 * their code already optimised by V8 (otherwise the first route's 1-connection run pays the JIT warm-up of paths
 * its raw call, measured right after it, finds ready).
 */
export async function benchApi(
  stack: BenchStack,
  options: { connections: readonly number[]; seconds: number; rawSeconds: number },
): Promise<ApiFigures[]> {
  const user = await signedUpUser(stack);
  await seedHeadshots(user.sub, SEEDED_HEADSHOTS);
  const page = await apiJson<{ items: unknown[]; stats: { total: number } }>(
    stack,
    user.idToken,
    'GET',
    '/api/headshots',
  );
  if (page.stats.total !== SEEDED_HEADSHOTS || page.items.length !== GALLERY_PAGE_SIZE) {
    throw new Error(`GET /api/headshots saw ${page.stats.total} headshots, ${page.items.length} on the page`);
  }
  for (let i = 0; i < 5; i++) await apiJson(stack, user.idToken, 'GET', '/api/me');

  const { getItem, query } = rawCalls(user.sub);
  const targets = [
    { route: 'GET /api/me', raw: 'GetItem (user item)', path: '/api/me', operation: getItem },
    {
      route: `GET /api/headshots (${SEEDED_HEADSHOTS} seeded)`,
      raw: `Query (first page + stats item, Limit ${GALLERY_PAGE_SIZE + 2})`,
      path: '/api/headshots',
      operation: query,
    },
  ];
  const figures: ApiFigures[] = [];
  const floors = new Map<number, LoadFigures>();
  const warmUp = (path: string, operation?: () => Promise<unknown>) =>
    Promise.all([
      autocannon(`${stack.gatewayUrl}${path}`, user.idToken, 10, WARM_UP_SECONDS),
      operation ? rawLoad(operation, 10, WARM_UP_SECONDS) : undefined,
    ]);
  await warmUp('/api/health');
  for (const target of targets) await warmUp(target.path, target.operation);
  for (const connections of options.connections)
    floors.set(
      connections,
      await autocannon(`${stack.gatewayUrl}/api/health`, user.idToken, connections, options.seconds),
    );
  for (const target of targets) {
    for (const connections of options.connections) {
      const api = await autocannon(
        `${stack.gatewayUrl}${target.path}`,
        user.idToken,
        connections,
        options.seconds,
      );
      const reference = await rawLoad(target.operation, connections, options.rawSeconds);
      figures.push({
        route: target.route,
        raw: target.raw,
        api,
        reference,
        gatewayFloor: floors.get(connections),
      });
    }
  }
  return figures;
}

/** {@link seedHeadshots} for test/bench/profile-gallery.ts. */
export const seedHeadshotsForProfile = seedHeadshots;
