/**
 * `npm run bench`: the product's performance claims as figures measured in ONE run on the local stack, each beside
 * its reference. Not part of `npm test`. Prints a Markdown table and writes every raw figure to
 * `test-results/bench/<timestamp>.json` (git-ignored).
 *
 * Sections: generation of 6 headshots with the `local` provider at a fixed latency L; API latency and throughput
 * beside raw DynamoDB Local; the esbuild bundle and cold init of every Lambda function beside an empty handler's;
 * the SPA's production build (gzip bytes of `/` and of each lazy chunk); and the bytes the browser's photo downscale
 * saves (emulated with sharp); the vision module (cold init, photo check per photo cold and warm, offline render);
 * and "vision: identity", the identity models compared on the labelled faces (docs/decisions/002-identity-model.md).
 *
 * Environment: BENCH_LATENCY_MS (L, default 2000), BENCH_API_SECONDS (per autocannon run, default 4),
 * BENCH_RAW_SECONDS (per raw DynamoDB run, default 3), BENCH_GENERATION_RUNS (generations per fixed-latency row, whose
 * medians it reports, default 5), BENCH_INIT_RUNS (fresh processes per bundle, default 3),
 * BENCH_PROVIDER_LATENCY_MS (the rate-limited stand-in's latency per image in "generation under provider limits",
 * whose runs are issue 25's: provider-limits.ts LOAD_RUNS; default 1000), BENCH_LIGHTHOUSE_RUNS (Lighthouse mobile runs
 * per page, whose median it reports, default 3), BENCH_ONLY (comma-separated sections to run
 * alone, on a shared machine: generation, renderer, provider-limits, paid-first (test/bench/paid-first.ts), queue (test/bench/queue-cost.ts), api, bundles, frontend, lighthouse,
 * browser-uploads, uploads, vision, identity; default all); BENCH_LOAD_RUNS (the provider-limits load runs to run, by
 * their generations: `20`, `100`, or `20,100`; default all); BENCH_IDENTITY_MODELS (comma-separated models of the
 * identity section, default all: test/bench/identity-set.ts).
 */
import './env';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, REPO_ROOT, type LocalStack } from '../../infrastructure/local/stack';
import { findFreePort } from '../../infrastructure/local/support/ports';
import { benchApi, type ApiFigures } from './api';
import { buildBundles, measureColdInits, type BundleFigures } from './bundles';
import { benchFrontend, type FrontendFigures } from './frontend';
import {
  benchGeneration,
  benchRenderer,
  medianGeneration,
  type GenerationFigures,
  type RendererFigures,
} from './generation';
import { benchBrowserUploads, type BrowserUploadFigures } from './browser-uploads';
import { lighthouseMedian, type LighthouseMedian } from './lighthouse';
import { benchProviderLimits, LOAD_RUNS, type ProviderLimitFigures } from './provider-limits';
import { benchQueueCost, queueCostRows, type QueueCostFigures } from './queue-cost';
import { benchPaidFirst, type PaidFirstFigures } from './paid-first';
import {
  apiRows,
  browserUploadRows,
  bundleRows,
  frontendRows,
  generationRows,
  lighthouseRows,
  markdownTable,
  NOTE,
  providerLimitRows,
  rendererRows,
  uploadRows,
  type Row,
} from './rows';
import { benchStackPorts, startPreviewSite } from './site';
import { benchUploads, type UploadFigures } from './uploads';
import { benchIdentity, identityRows, identityTable, type IdentityFigures } from './identity';
import { benchVision, visionRows, type VisionFigures } from './vision';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2000);
/** Generations per fixed-latency row: the row reports their medians. */
const GENERATION_RUNS = Math.max(1, Number(process.env.BENCH_GENERATION_RUNS ?? 5));
const API_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 4);
/** The raw DynamoDB loops settle faster than HTTP runs: a shorter window gives the same percentiles. */
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 3);
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 3);
const CONNECTIONS = [1, 10, 50] as const;
const PROVIDER_LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 1000);
/** Lighthouse mobile runs per page: the row reports their median. */
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
const SECTIONS = [
  'generation',
  'renderer',
  'provider-limits',
  'paid-first',
  'queue',
  'api',
  'bundles',
  'frontend',
  'lighthouse',
  'browser-uploads',
  'uploads',
  'vision',
  'identity',
] as const;
type Section = (typeof SECTIONS)[number];
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
/** BENCH_LOAD_RUNS: the load runs of provider-limits to run, by their generations (`20`, `100`; default all). */
const LOAD_ONLY = (process.env.BENCH_LOAD_RUNS ?? '').split(',').filter(Boolean).map(Number);
for (const name of ONLY)
  if (!(SECTIONS as readonly string[]).includes(name))
    throw new Error(`BENCH_ONLY: unknown section ${name} (${SECTIONS.join(', ')})`);
/** Whether `name` runs in this invocation (every section when BENCH_ONLY is unset). */
const runs = (name: Section) => ONLY.length === 0 || ONLY.includes(name);
/** Sections that need the local stack running. */
const needsStack = [
  'generation',
  'provider-limits',
  'paid-first',
  'queue',
  'api',
  'lighthouse',
  'browser-uploads',
].some((n) => runs(n as Section));
/** The frontend build is needed by its own row and by the pages measured in the browser. */
const needsSite = runs('frontend') || runs('lighthouse') || runs('browser-uploads');
const RESULTS_DIR = join(REPO_ROOT, 'test-results', 'bench');

/** Everything one run measured (the JSON file). */
interface BenchResults {
  startedAt: string;
  durationMs: number;
  machine: { node: string; platform: string; cpus: number; cpuModel: string; loadavgAtStart: number[] };
  commit: string | null;
  settings: {
    latencyMs: number;
    apiSeconds: number;
    rawSeconds: number;
    initRuns: number;
    connections: readonly number[];
  };
  /** The unmeasured warm-up generation (L = 0): loads every handler module and warms the caches first. */
  warmUp?: GenerationFigures;
  generation?: GenerationFigures[];
  /** The offline renderer's own time per headshot. */
  renderer?: RendererFigures;
  lighthouse?: LighthouseMedian[];
  browserUploads?: BrowserUploadFigures;
  providerLimits?: ProviderLimitFigures[];
  /** Paid work first (issue 33): a free crowd, then Starter-pack buyers (test/bench/paid-first.ts). */
  paidFirst?: PaidFirstFigures;
  queue?: QueueCostFigures[];
  api?: ApiFigures[];
  bundles?: BundleFigures[];
  frontend?: FrontendFigures;
  uploads?: UploadFigures[];
  vision?: VisionFigures;
  identity?: IdentityFigures;
  errors: { section: string; message: string }[];
}

const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Runs one section; a failure is recorded (and printed in the table) instead of ending the run. */
async function section<T>(results: BenchResults, name: string, fn: () => Promise<T>): Promise<T | undefined> {
  const started = Date.now();
  log(`${name}…`);
  try {
    const value = await fn();
    log(`${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return value;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    const message = error instanceof Error ? `${error.message}${cause}` : String(error);
    if (error instanceof Error) log(error.stack ?? message);
    results.errors.push({ section: name, message });
    log(`${name} FAILED: ${message}`);
    return undefined;
  }
}

// --- the run --------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = Date.now();
  const results: BenchResults = {
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadavgAtStart: loadavg().map((l) => Number(l.toFixed(2))),
    },
    commit: gitCommit(),
    settings: {
      latencyMs: LATENCY_MS,
      apiSeconds: API_SECONDS,
      rawSeconds: RAW_SECONDS,
      initRuns: INIT_RUNS,
      connections: CONNECTIONS,
    },
    errors: [],
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const siteDir = mkdtempSync(join(tmpdir(), 'headshot-bench-site-'));
  // The preview site's port is fixed before the stack starts: the buckets' CORS allow that origin.
  const sitePort = await findFreePort();
  // Absolute URLs of robots.txt, sitemap.xml and the share card point at the site being measured.
  process.env.SITE_URL = `http://localhost:${sitePort}`;

  let stack: LocalStack | undefined;
  const stopStack = async () => {
    const s = stack;
    stack = undefined;
    await s?.stop();
  };
  process.once('SIGINT', () => {
    log('interrupted: stopping the local stack');
    void stopStack().finally(() => process.exit(130));
  });

  try {
    // Sizes do not depend on load, so they are taken while the stack starts; timings run afterwards, one at a time.
    const starting = !needsStack
      ? Promise.resolve(undefined)
      : section(results, 'local stack start', () =>
          startLocalStack({
            ports: benchStackPorts(sitePort),
            withSite: false,
            quiet: true,
            env: {
              LOCAL_PROVIDER_LATENCY_MS: String(LATENCY_MS),
              GENERATION_MAX_CONCURRENCY: '6',
              IMAGE_PROVIDER: 'local',
            },
          }),
        );
    const sizes = (async () => {
      if (runs('bundles'))
        results.bundles = await section(results, 'Lambda bundles (esbuild)', () =>
          buildBundles(join(RESULTS_DIR, 'bundles')),
        );
      if (needsSite)
        results.frontend = await section(results, 'frontend (vite build)', () => benchFrontend(siteDir));
      if (runs('uploads'))
        results.uploads = await section(results, 'uploads (sharp emulation)', () => benchUploads());
    })();
    [stack] = await Promise.all([starting, sizes]);

    if (
      stack &&
      (runs('generation') || runs('provider-limits') || runs('paid-first') || runs('queue') || runs('api'))
    ) {
      const target = {
        gatewayUrl: stack.gatewayUrl,
        userPoolId: stack.runtimeConfig.userPoolId,
        clientId: stack.runtimeConfig.userPoolClientId,
      };
      // Both measured runs then find the handler modules loaded and the same caches warm (the `local` provider
      // locates each reference's face once per process), as a warm Lambda environment would.
      if (runs('generation') || runs('provider-limits') || runs('paid-first'))
        results.warmUp = await section(results, 'generation warm-up (L = 0, not reported)', () =>
          benchGeneration(target, { latencyMs: 0, maxConcurrency: 6 }),
        );
      if (runs('generation')) {
        const generation: GenerationFigures[] = [];
        const runs = [
          { provider: 'fixed', maxConcurrency: 6 },
          { provider: 'local', maxConcurrency: 6 },
          { provider: 'local', maxConcurrency: 1 },
        ] as const;
        for (const { provider, maxConcurrency } of runs) {
          // The goal rows (fixed-latency provider) are the medians of several generations, the others one run each.
          const times = provider === 'fixed' ? GENERATION_RUNS : 1;
          const figures = await section(
            results,
            `generation, ${provider}, MaxConcurrency ${maxConcurrency}, ${times} run(s)`,
            async () => {
              const each: GenerationFigures[] = [];
              for (let i = 0; i < times; i++)
                each.push(await benchGeneration(target, { latencyMs: LATENCY_MS, maxConcurrency, provider }));
              return times === 1 ? each[0]! : medianGeneration(each);
            },
          );
          if (figures) generation.push(figures);
        }
        results.generation = generation;
      }
      if (runs('renderer'))
        results.renderer = await section(results, 'local renderer alone', () => benchRenderer());
      if (runs('provider-limits')) {
        results.providerLimits = [];
        for (const load of LOAD_RUNS.filter(
          (l) => LOAD_ONLY.length === 0 || LOAD_ONLY.includes(l.generations),
        )) {
          const figures = await section(
            results,
            `generation under provider limits: ${load.generations} × 6 at ${load.imagesPerMinute}/min`,
            () => benchProviderLimits(target, { ...load, latencyMs: PROVIDER_LATENCY_MS }),
          );
          if (figures) results.providerLimits.push(figures);
        }
      }
      if (runs('paid-first')) {
        results.paidFirst = await section(
          results,
          'paid first: 20 free at once, 3 Starter buyers 10 s later, 30/min',
          () => benchPaidFirst(target),
        );
      }
      if (runs('queue')) {
        results.queue = [];
        for (const waiting of [10, 100, 1000]) {
          const figures = await section(results, `provider queue, ${waiting} waiting (seeded)`, () =>
            benchQueueCost(waiting),
          );
          if (figures) results.queue.push(figures);
        }
      }
      if (runs('api')) {
        results.api = await section(results, 'API (autocannon + raw DynamoDB)', () =>
          benchApi(target, { connections: CONNECTIONS, seconds: API_SECONDS, rawSeconds: RAW_SECONDS }),
        );
      }
    }
    const running = stack;
    if (running && results.frontend && (runs('lighthouse') || runs('browser-uploads'))) {
      results.lighthouse = await section(results, 'Lighthouse (production build + API)', async () => {
        const site = await startPreviewSite({
          outDir: siteDir,
          port: sitePort,
          gatewayUrl: running.gatewayUrl,
          runtimeConfig: running.runtimeConfig,
        });
        try {
          const figures: LighthouseMedian[] = [];
          if (runs('lighthouse'))
            for (const formFactor of ['mobile', 'desktop'] as const) {
              // The mobile goal is judged on the median of several runs (issue 27); desktop is reported from one.
              const times = formFactor === 'mobile' ? LIGHTHOUSE_RUNS : 1;
              for (const path of ['/', '/pricing'])
                figures.push(await lighthouseMedian(`${site.url}${path}`, formFactor, times));
            }
          if (runs('browser-uploads'))
            results.browserUploads = await section(results, 'uploads in Chromium (real wizard)', () =>
              benchBrowserUploads(site.url),
            );
          return figures;
        } finally {
          await site.stop();
        }
      });
    }
    await section(results, 'local stack stop', stopStack);
    const bundles = results.bundles;
    if (bundles) await section(results, 'cold inits', () => measureColdInits(bundles, INIT_RUNS));
    if (runs('vision')) results.vision = await section(results, 'vision', async () => benchVision());
    if (runs('identity'))
      results.identity = await section(results, 'vision: identity', async () => benchIdentity());
  } finally {
    await stopStack().catch(() => undefined);
    rmSync(siteDir, { recursive: true, force: true });
  }

  results.durationMs = Date.now() - started;
  const rows: Row[] = [
    ...generationRows(results.generation ?? []),
    ...(results.renderer ? rendererRows(results.renderer) : []),
    ...providerLimitRows(results.providerLimits ?? []),
    ...queueCostRows(results.queue ?? []),
    ...apiRows(results.api ?? []),
    ...bundleRows(results.bundles ?? []),
    ...(results.frontend && runs('frontend') ? frontendRows(results.frontend) : []),
    ...lighthouseRows(results.lighthouse ?? []),
    ...(results.browserUploads ? browserUploadRows(results.browserUploads) : []),
    ...uploadRows(results.uploads ?? []),
    ...(results.vision ? visionRows(results.vision) : []),
    ...(results.identity ? identityRows(results.identity) : []),
    ...results.errors.map((e): Row => ['FAILED', e.section, e.message.slice(0, 200), '—', '—']),
  ];
  const file = join(RESULTS_DIR, `${results.startedAt.replaceAll(':', '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const machine = `${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, load ${results.machine.loadavgAtStart.join(' / ')} at start`;
  process.stdout.write(
    `\n## npm run bench — ${results.startedAt} (${results.commit ?? 'no git'}), ${machine}, ${(results.durationMs / 1000).toFixed(0)} s\n\n` +
      `${markdownTable(rows)}\n${NOTE}\n\n${results.identity ? `${identityTable(results.identity)}\n\n` : ''}JSON: ${file}\n`,
  );
  return results.errors.length ? 1 : 0;
}

process.exit(await main());
