/**
 * `npm run bench`: the product's performance claims as figures measured in ONE run on the local stack, each beside
 * its reference. Not part of `npm test`. Prints a Markdown table and writes every raw figure to
 * `test-results/bench/<timestamp>.json` (git-ignored).
 *
 * Sections: generation of 6 headshots with the `local` provider at a fixed latency L; API latency and throughput
 * beside raw DynamoDB Local; the esbuild bundle and cold init of every Lambda function beside an empty handler's;
 * the SPA's production build (gzip bytes of `/` and of each lazy chunk); and the bytes the browser's photo downscale
 * saves (emulated with sharp); the vision module (cold init, photo check per photo cold and warm, offline render).
 *
 * Environment: BENCH_LATENCY_MS (L, default 2000), BENCH_API_SECONDS (per autocannon run, default 4),
 * BENCH_RAW_SECONDS (per raw DynamoDB run, default 3), BENCH_INIT_RUNS (fresh processes per bundle, default 3),
 * BENCH_PROVIDER_IPM (the stand-in's images per minute for "generation under provider limits", default 60),
 * BENCH_PROVIDER_LATENCY_MS (its latency per image, default 3000), BENCH_ONLY=provider-limits (that row alone).
 */
import './env';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, REPO_ROOT, type LocalStack } from '../../infrastructure/local/stack';
import { benchApi, type ApiFigures } from './api';
import { buildBundles, EMPTY_HANDLER, measureColdInits, type BundleFigures } from './bundles';
import { benchFrontend, type FrontendFigures } from './frontend';
import { benchGeneration, type GenerationFigures } from './generation';
import { benchProviderLimits, type ProviderLimitFigures } from './provider-limits';
import { bytes, ms, rate, ratio } from './stats';
import { benchUploads, type UploadFigures } from './uploads';
import { benchVision, visionRows, type VisionFigures } from './vision';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 2000);
const API_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 4);
/** The raw DynamoDB loops settle faster than HTTP runs: a shorter window gives the same percentiles. */
const RAW_SECONDS = Number(process.env.BENCH_RAW_SECONDS ?? 3);
const INIT_RUNS = Number(process.env.BENCH_INIT_RUNS ?? 3);
const CONNECTIONS = [1, 10, 50] as const;
const PROVIDER_IPM = Number(process.env.BENCH_PROVIDER_IPM ?? 60);
const PROVIDER_LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 3000);
const ONLY_PROVIDER_LIMITS = process.env.BENCH_ONLY === 'provider-limits';
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
  providerLimits?: ProviderLimitFigures;
  api?: ApiFigures[];
  bundles?: BundleFigures[];
  frontend?: FrontendFigures;
  uploads?: UploadFigures[];
  vision?: VisionFigures;
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
    const message = error instanceof Error ? error.message : String(error);
    results.errors.push({ section: name, message });
    log(`${name} FAILED: ${message}`);
    return undefined;
  }
}

// --- the table ------------------------------------------------------------------------------------------------

type Row = [area: string, figure: string, measured: string, reference: string, ratio: string];

function generationRows(figures: GenerationFigures[]): Row[] {
  const rows: Row[] = [];
  for (const g of figures) {
    const L = g.latencyMs;
    const inL = (value: number) => `${ms(value)} = ${(value / L).toFixed(2)} L`;
    const area = `generation, L = ${ms(L)}`;
    const ok = g.status === 'succeeded' ? '' : ` (${g.status}, ${g.headshots}/6)`;
    rows.push([
      area,
      `MaxConcurrency ${g.maxConcurrency}: first of 6 headshots saved${ok}`,
      inL(g.firstSavedMs),
      'ideal 1.00 L',
      ratio(g.firstSavedMs / L, 1),
    ]);
    const ideal = g.maxConcurrency >= 6 ? 1 : Math.ceil(6 / g.maxConcurrency);
    rows.push([
      area,
      `MaxConcurrency ${g.maxConcurrency}: all 6 saved`,
      inL(g.allSavedMs),
      `ideal ${ideal.toFixed(2)} L`,
      ratio(g.allSavedMs / L, ideal),
    ]);
  }
  return rows;
}

function providerLimitRows(f: ProviderLimitFigures): Row[] {
  return [
    [
      'generation under provider limits',
      `${f.generations} generations × 6 started together; stand-in ${f.imagesPerMinute} images/min, ` +
        `${f.maxConcurrency} in flight, ${ms(f.latencyMs)} per image`,
      `delivered ${f.delivered}/${f.total} (${((100 * f.delivered) / f.total).toFixed(0)} %) · refunds ${f.refunds} · ` +
        `429s ${f.throttled} · makespan ${ms(f.makespanMs)}`,
      `ideal N·6/C + latency = ${ms(f.idealMs)}`,
      ratio(f.makespanMs, f.idealMs),
    ],
  ];
}

function apiRows(figures: ApiFigures[]): Row[] {
  return figures.map((f) => {
    const failures = f.api.failures ? ` · ${f.api.failures} failed` : '';
    return [
      'API (autocannon)',
      `${f.route}, ${f.api.connections} conn.`,
      `p50 ${ms(f.api.p50Ms)} · p99 ${ms(f.api.p99Ms)} · ${rate(f.api.perSecond)}${failures}`,
      `raw ${f.raw}: p50 ${ms(f.reference.p50Ms)} · p99 ${ms(f.reference.p99Ms)} · ${rate(f.reference.perSecond)}`,
      `p50 ${ratio(f.api.p50Ms, f.reference.p50Ms)} · rate ${ratio(f.api.perSecond, f.reference.perSecond)}`,
    ];
  });
}

function bundleRows(figures: BundleFigures[]): Row[] {
  const empty = figures.find((b) => b.handler === EMPTY_HANDLER);
  const emptyInit = empty?.init?.importMs ?? Number.NaN;
  const reference = `empty handler: ${bytes(empty?.minifiedBytes ?? Number.NaN)} · init ${ms(emptyInit)}`;
  return figures
    .filter((b) => b.handler !== EMPTY_HANDLER)
    .map((b) => {
      const init = b.init?.error
        ? `init FAILED: ${b.init.error}`
        : `init ${ms(b.init?.importMs ?? Number.NaN)}`;
      return [
        'Lambda bundle',
        b.handler,
        `${bytes(b.minifiedBytes)} min (${bytes(b.gzipBytes)} gz) · ${init}`,
        reference,
        b.init?.error ? 'n/a' : `init ${ratio(b.init?.importMs ?? Number.NaN, emptyInit)}`,
      ];
    });
}

function frontendRows(f: FrontendFigures): Row[] {
  const rows: Row[] = [
    [
      'frontend (vite build)',
      `initial JS of / (${f.initial.files.filter((x) => !x.endsWith('.css')).length} files)`,
      `${bytes(f.initial.jsGzipBytes)} gz`,
      `all JS of the build: ${bytes(f.allJsGzipBytes)} gz`,
      ratio(f.initial.jsGzipBytes, f.allJsGzipBytes),
    ],
    [
      'frontend (vite build)',
      'initial CSS of /',
      `${bytes(f.initial.cssGzipBytes)} gz`,
      `initial JS: ${bytes(f.initial.jsGzipBytes)} gz`,
      ratio(f.initial.cssGzipBytes, f.initial.jsGzipBytes),
    ],
  ];
  for (const chunk of f.lazy) {
    rows.push([
      'frontend (vite build)',
      `lazy chunk ${chunk.name.replace(/^\.\.\/node_modules\//, '')}`,
      `JS ${bytes(chunk.jsGzipBytes)} gz${chunk.cssGzipBytes ? ` · CSS ${bytes(chunk.cssGzipBytes)} gz` : ''}`,
      `initial JS: ${bytes(f.initial.jsGzipBytes)} gz`,
      ratio(chunk.jsGzipBytes + chunk.cssGzipBytes, f.initial.jsGzipBytes),
    ]);
  }
  rows.push([
    'frontend',
    'Lighthouse performance / accessibility / best practices',
    'not measured: lighthouse is not installed',
    '—',
    '—',
  ]);
  return rows;
}

function uploadRows(figures: UploadFigures[]): Row[] {
  return figures.map((u) => [
    'upload (emulated downscale)',
    `${u.file} (${u.originalWidth}×${u.originalHeight})`,
    `${bytes(u.sentBytes)} sent (${u.sentWidth}×${u.sentHeight} JPEG q90)`,
    `original ${bytes(u.originalBytes)}`,
    ratio(u.sentBytes, u.originalBytes),
  ]);
}

function markdownTable(rows: Row[]): string {
  const header: Row = ['area', 'figure', 'measured', 'reference', 'ratio'];
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(escape).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const NOTE = `
How to read it: every figure was measured in this run, on this machine, beside the reference it should be judged
against; "ratio" is measured ÷ reference.
- Generation: from the generation's createdAt to the headshots' createdAt in DynamoDB, in units of the local
  provider's fixed latency L, after an unreported warm-up generation. Ideal: 1 L to the first headshot; 1 L (six at
  once) or 6 L (one at a time) to all six. The excess is the workflow's own work: photo preparation, the local
  provider's image CPU (six renders share the cores), encoding, DynamoDB/S3 writes and state transitions.
- Generation under provider limits: N generations started at once against the rate-limited OpenAI stand-in
  (test/helpers/openai-stand-in.ts: a token bucket quantized per second, 429 with retry-after beyond it), with
  PROVIDER_IMAGES_PER_MINUTE set to the same limit. Makespan = first POST → last completedAt; ideal = every image
  sent the moment the limit allows (N·6/C minutes) plus one image's latency.
- API: autocannon (its own process, keep-alive) through the local gateway (JWT check, payload-v2 event, handler),
  beside the bare DynamoDB Local call the handler is built on, made from the handlers' process at the same
  concurrency. GET /api/headshots also counts the gallery and presigns 60 URLs per page.
- Lambda bundles: the CDK's esbuild settings (ESM, node24, minified, AWS SDK bundled, sharp external); init is the
  import() of the bundle in a fresh node process, median of the runs, Node's own boot excluded.
- Frontend: gzip -9 of the production build; "initial" is what index.html loads for /. Lighthouse was not run: it
  is not installed.
- Vision: a fresh Node process (test/bench/vision-probe.ts) after the stack stopped: the models' cold start, the
  first photo check (init included), every fixture JPEG checked again warm, one offline headshot per background.
- Uploads: sharp EMULATES the browser's canvas downscale (≤ 2048 px, JPEG q 0.9); the bytes approximate a browser's.
Absolute times move with the machine's load; the ratios within one run are the comparable figures.`;

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
    const starting = section(results, 'local stack start', () =>
      startLocalStack({
        ports: {
          site: 0,
          gateway: 0,
          lambda: 0,
          stepfunctions: 0,
          dynamodb: 0,
          s3: 0,
          cognito: 0,
          checkout: 0,
        },
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
      if (ONLY_PROVIDER_LIMITS) return;
      results.bundles = await section(results, 'Lambda bundles (esbuild)', () =>
        buildBundles(join(RESULTS_DIR, 'bundles')),
      );
      results.frontend = await section(results, 'frontend (vite build)', () => benchFrontend(siteDir));
      results.uploads = await section(results, 'uploads (sharp emulation)', () => benchUploads());
    })();
    [stack] = await Promise.all([starting, sizes]);

    if (stack) {
      const target = {
        gatewayUrl: stack.gatewayUrl,
        userPoolId: stack.runtimeConfig.userPoolId,
        clientId: stack.runtimeConfig.userPoolClientId,
      };
      // Both measured runs then find the handler modules loaded and the same caches warm (the `local` provider
      // locates each reference's face once per process), as a warm Lambda environment would.
      results.warmUp = await section(results, 'generation warm-up (L = 0, not reported)', () =>
        benchGeneration(target, { latencyMs: 0, maxConcurrency: 6 }),
      );
      if (!ONLY_PROVIDER_LIMITS) {
        const generation: GenerationFigures[] = [];
        for (const maxConcurrency of [6, 1]) {
          const figures = await section(results, `generation, MaxConcurrency ${maxConcurrency}`, () =>
            benchGeneration(target, { latencyMs: LATENCY_MS, maxConcurrency }),
          );
          if (figures) generation.push(figures);
        }
        results.generation = generation;
      }
      results.providerLimits = await section(results, 'generation under provider limits', () =>
        benchProviderLimits(target, {
          generations: 10,
          imagesPerMinute: PROVIDER_IPM,
          maxConcurrency: 10,
          latencyMs: PROVIDER_LATENCY_MS,
        }),
      );
      if (!ONLY_PROVIDER_LIMITS) {
        results.api = await section(results, 'API (autocannon + raw DynamoDB)', () =>
          benchApi(target, { connections: CONNECTIONS, seconds: API_SECONDS, rawSeconds: RAW_SECONDS }),
        );
      }
    }
    await section(results, 'local stack stop', stopStack);
    const bundles = results.bundles;
    if (bundles && !ONLY_PROVIDER_LIMITS)
      await section(results, 'cold inits', () => measureColdInits(bundles, INIT_RUNS));
    if (!ONLY_PROVIDER_LIMITS) results.vision = await section(results, 'vision', async () => benchVision());
  } finally {
    await stopStack().catch(() => undefined);
    rmSync(siteDir, { recursive: true, force: true });
  }

  results.durationMs = Date.now() - started;
  const rows: Row[] = [
    ...generationRows(results.generation ?? []),
    ...(results.providerLimits ? providerLimitRows(results.providerLimits) : []),
    ...apiRows(results.api ?? []),
    ...bundleRows(results.bundles ?? []),
    ...(results.frontend ? frontendRows(results.frontend) : []),
    ...uploadRows(results.uploads ?? []),
    ...(results.vision ? visionRows(results.vision) : []),
    ...results.errors.map((e): Row => ['FAILED', e.section, e.message.slice(0, 200), '—', '—']),
  ];
  const file = join(RESULTS_DIR, `${results.startedAt.replaceAll(':', '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const machine = `${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, load ${results.machine.loadavgAtStart.join(' / ')} at start`;
  process.stdout.write(
    `\n## npm run bench — ${results.startedAt} (${results.commit ?? 'no git'}), ${machine}, ${(results.durationMs / 1000).toFixed(0)} s\n\n` +
      `${markdownTable(rows)}\n${NOTE}\n\nJSON: ${file}\n`,
  );
  return results.errors.length ? 1 : 0;
}

process.exit(await main());
