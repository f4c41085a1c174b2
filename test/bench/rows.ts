import type { ApiFigures } from './api';
import { EMPTY_HANDLER, type BundleFigures } from './bundles';
import type { FrontendFigures } from './frontend';
import type { GenerationFigures, GenerationSample, RendererFigures } from './generation';
import type { LighthouseMedian } from './lighthouse';
import type { ProviderLimitFigures } from './provider-limits';
import { bytes, ms, rate, ratio } from './stats';
import type { UploadFigures } from './uploads';
import { UPLOAD_BITS_PER_SECOND, type BrowserUploadFigures } from './browser-uploads';

/** The rows of `npm run bench`'s table, built from the figures of one run (test/bench/run.ts). */

// --- the table ------------------------------------------------------------------------------------------------

export type Row = [area: string, figure: string, measured: string, reference: string, ratio: string];

export function generationRows(figures: GenerationFigures[]): Row[] {
  const rows: Row[] = [];
  for (const g of figures) {
    const L = g.latencyMs;
    const inL = (value: number) => `${ms(value)} = ${(value / L).toFixed(2)} L`;
    const fixed = g.provider === 'fixed';
    const area = `generation, ${fixed ? 'fixed-latency provider (no CPU)' : 'local renderer'}, L = ${ms(L)}`;
    const ok = g.status === 'succeeded' ? '' : ` (${g.status}, ${g.headshots}/6)`;
    // With several runs: the median (the goal's verdict) and every run's overhead beyond L.
    const spread = (pick: (s: GenerationSample) => number) =>
      g.samples
        ? ` · median of ${g.samples.length}: L + ${g.samples.map((s) => ms(pick(s) - L)).join(', ')}`
        : '';
    rows.push([
      area,
      `MaxConcurrency ${g.maxConcurrency}: first of 6 headshots saved${ok}`,
      fixed
        ? `${inL(g.firstSavedMs)} = L + ${ms(g.firstSavedMs - L)}${spread((s) => s.firstSavedMs)}`
        : inL(g.firstSavedMs),
      fixed ? `goal ≤ L + 500 ms (${g.firstSavedMs - L <= 500 ? 'met' : 'NOT met'})` : 'ideal 1.00 L',
      ratio(g.firstSavedMs / L, 1),
    ]);
    if (fixed) {
      // Where the overhead is: before the provider is called, and after it answered (the first headshot).
      rows.push([
        area,
        'overhead before the provider: reference crops, prompt, admission (createdAt → admittedAt)',
        ms(g.admittedMs),
        'ideal 0 (the provider called at once)',
        '—',
      ]);
      rows.push([
        area,
        'overhead after the provider, first headshot: encode, likeness, S3 + DynamoDB writes',
        ms(g.firstSavedMs - g.admittedMs - L),
        'ideal 0',
        '—',
      ]);
    }
    const ideal = g.maxConcurrency >= 6 ? 1 : Math.ceil(6 / g.maxConcurrency);
    const allGoal = fixed && g.maxConcurrency >= 6;
    rows.push([
      area,
      `MaxConcurrency ${g.maxConcurrency}: all 6 saved`,
      allGoal
        ? `${inL(g.allSavedMs)} = L + ${ms(g.allSavedMs - L)}${spread((s) => s.allSavedMs)}`
        : inL(g.allSavedMs),
      allGoal
        ? `goal ≤ L + 1,000 ms (${g.allSavedMs - L <= 1000 ? 'met' : 'NOT met'})`
        : `ideal ${ideal.toFixed(2)} L`,
      ratio(g.allSavedMs / L, ideal),
    ]);
  }
  return rows;
}

export function rendererRows(r: RendererFigures): Row[] {
  return [
    [
      'generation, local renderer alone',
      `one headshot rendered by the offline provider (${r.runs} in a row, no latency added)`,
      `median ${ms(r.medianMs)} · max ${ms(r.maxMs)}`,
      'its CPU is the gap between the two generation rows above',
      '—',
    ],
  ];
}

export function providerLimitRows(figures: readonly ProviderLimitFigures[]): Row[] {
  return figures.flatMap((f): Row[] => {
    const area = `generation under provider limits: ${f.generations} × 6 at ${f.imagesPerMinute} images/min`;
    const setup =
      `${f.generations} generations started together, ${f.photos} photo(s) each` +
      `${f.checked ? ' (checked first)' : ''}; stand-in ${f.imagesPerMinute} images/min, ${f.maxConcurrency} in ` +
      `flight, ${ms(f.latencyMs)} per image`;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const allDelivered = f.delivered === f.total && f.refunds === 0;
    const makespan = f.makespanMs / f.idealMs;
    const rows: Row[] = [
      [
        area,
        `${setup}: delivered, refunds, makespan`,
        `delivered ${f.delivered}/${f.total} · refunds ${f.refunds} · 429s ${f.throttled} · makespan ` +
          `${ms(f.makespanMs)} (from the first admission ${ms(f.admittedMakespanMs)})`,
        `ideal N·6/C + latency = ${ms(f.idealMs)}` +
          (f.goal
            ? ` · goal ${f.total}/${f.total}, no refund (${verdict(allDelivered)}), makespan ≤ ` +
              `${f.goal.makespanRatio}× ideal (${verdict(makespan <= f.goal.makespanRatio)})`
            : ''),
        `${ratio(f.makespanMs, f.idealMs)} (from the first admission ${ratio(f.admittedMakespanMs, f.idealMs)})`,
      ],
      [
        area,
        'completion of each generation (first POST → completedAt): mean, first, last',
        `mean ${ms(f.meanCompletionMs)} · first ${ms(f.firstCompletionMs)} · last ${ms(f.lastCompletionMs)}`,
        f.goal?.meanCompletionRatio
          ? `goal mean ≤ ${f.goal.meanCompletionRatio}× makespan (${verdict(
              f.meanCompletionMs <= f.goal.meanCompletionRatio * f.makespanMs,
            )})`
          : 'first come, first served by generation: about half the makespan',
        `${(f.meanCompletionMs / f.makespanMs).toFixed(2)}× makespan`,
      ],
      [
        area,
        "CPU of the stack's Node process while the slots wait (handlers, Step Functions, gateway)",
        `mean ${f.cpuMeanPercent.toFixed(0)} % · busiest 5 s ${f.cpuPeakPercent.toFixed(0)} % of one core`,
        'not pegged (before issue 25: 100 % running the waiting slots’ polls)',
        '—',
      ],
      [
        area,
        'calls the stand-in accepted: rate, longest gap; the dispatcher; how long a slot held its permit',
        `${f.calls.perSecond.toFixed(2)}/s over ${ms(f.calls.spanMs)} · longest gap ${ms(f.calls.longestGapMs)} · ` +
          `dispatcher ${f.dispatcher.invocations} invocations (mean ${ms(f.dispatcher.meanMs)}, longest ` +
          `${ms(f.dispatcher.longestMs)}, ${f.dispatcher.lostRaces} lost races) · permit held ${ms(f.meanHoldMs)}`,
        `limit ${(f.imagesPerMinute / 60).toFixed(2)}/s (one every ${ms(60_000 / f.imagesPerMinute)}); ` +
          `${f.maxConcurrency} permits ÷ ${(f.imagesPerMinute / 60).toFixed(2)}/s = ${ms(
            (f.maxConcurrency * 60_000) / f.imagesPerMinute,
          )} of hold before permits bind`,
        `${ratio(f.calls.perSecond, f.imagesPerMinute / 60)} of the limit`,
      ],
      [
        area,
        "CPU of the whole stack (this process and DynamoDB Local, s3rver, cognito-local) per image delivered; the makespan it allows on this machine's cores",
        `${ms(f.stackCpu.perImageMs)} CPU per image (own ${ms(f.stackCpu.ownMs)}, children ` +
          `${ms(f.stackCpu.childrenMs)}) · floor ${ms(f.stackCpu.floorMs)} on ${f.stackCpu.cores} cores`,
        f.goal
          ? `goal makespan ${ms(f.goal.makespanRatio * f.idealMs)}: ${
              f.stackCpu.floorMs > f.goal.makespanRatio * f.idealMs
                ? 'CPU-bound on this machine'
                : 'the CPU allows it'
            }`
          : '—',
        `floor ${ratio(f.stackCpu.floorMs, f.idealMs)} ideal`,
      ],
    ];
    return rows;
  });
}

export function apiRows(figures: ApiFigures[]): Row[] {
  return figures.flatMap((f): Row[] => {
    const failures = f.api.failures ? ` · ${f.api.failures} failed` : '';
    const p50Ratio = f.api.p50Ms / f.reference.p50Ms;
    const gallery = f.route.startsWith('GET /api/headshots');
    const goal = gallery ? ` (goal ≤ ×2: ${p50Ratio <= 2 ? 'met' : 'NOT met'})` : '';
    const rows: Row[] = [
      [
        'API (autocannon)',
        `${f.route}, ${f.api.connections} conn.`,
        `p50 ${ms(f.api.p50Ms)} · p99 ${ms(f.api.p99Ms)} · ${rate(f.api.perSecond)}${failures}`,
        `raw ${f.raw}: p50 ${ms(f.reference.p50Ms)} · p99 ${ms(f.reference.p99Ms)} · ${rate(f.reference.perSecond)}`,
        `p50 ${ratio(f.api.p50Ms, f.reference.p50Ms)}${goal} · rate ${ratio(f.api.perSecond, f.reference.perSecond)}`,
      ],
    ];
    const floor = f.gatewayFloor;
    if (gallery && floor) {
      rows.push([
        'API (autocannon)',
        `${f.route}, ${f.api.connections} conn., beside raw + the local gateway's floor`,
        `p50 ${ms(f.api.p50Ms)}`,
        `raw p50 ${ms(f.reference.p50Ms)} + GET /api/health p50 ${ms(floor.p50Ms)} (no database call) = ${ms(f.reference.p50Ms + floor.p50Ms)}`,
        `p50 ${ratio(f.api.p50Ms, f.reference.p50Ms + floor.p50Ms)}`,
      ]);
    }
    return rows;
  });
}

export function bundleRows(figures: BundleFigures[]): Row[] {
  return figures
    .filter((b) => b.handler !== EMPTY_HANDLER)
    .map((b) => {
      const ref = b.reference;
      const init = b.init?.error
        ? `init FAILED: ${b.init.error}`
        : `init ${ms(b.init?.cpuMs ?? Number.NaN)} CPU (${ms(b.init?.importMs ?? Number.NaN)} wall)`;
      const refName =
        ref?.handler === EMPTY_HANDLER ? 'empty handler' : `reference (${(b.clients ?? []).join(', ')})`;
      const sizeRatio = ref ? b.minifiedBytes / ref.minifiedBytes : Number.NaN;
      const initRatio = (b.init?.cpuMs ?? Number.NaN) / (ref?.init?.cpuMs ?? Number.NaN);
      const met = sizeRatio <= 1.3 && initRatio <= 1.3 ? 'goal met' : 'goal NOT met';
      return [
        'Lambda bundle',
        b.handler,
        `${bytes(b.minifiedBytes)} min (${bytes(b.gzipBytes)} gz) · ${init}`,
        `${refName}: ${bytes(ref?.minifiedBytes ?? Number.NaN)} · init ${ms(ref?.init?.cpuMs ?? Number.NaN)} CPU (${ms(ref?.init?.importMs ?? Number.NaN)} wall)`,
        b.init?.error
          ? 'n/a'
          : `size ×${sizeRatio.toFixed(2)} · init ×${initRatio.toFixed(2)} (${met}: ≤ ×1.30)` +
            (met === 'goal met' || !b.beyondReference?.length
              ? ''
              : `; beyond the reference: ${b.beyondReference.map((p) => `${p.name} ${bytes(p.bytes)}`).join(', ')}`),
      ];
    });
}

export function frontendRows(f: FrontendFigures): Row[] {
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
  rows[0]![4] += ` (goal ≤ 120 KB: ${f.initial.jsGzipBytes <= 120_000 ? 'met' : 'NOT met'})`;
  return rows;
}

export function lighthouseRows(figures: LighthouseMedian[]): Row[] {
  return figures.map((l) => {
    const mobile = l.formFactor === 'mobile';
    const goal = mobile
      ? l.performance >= 95 &&
        l.tbtMs < 200 &&
        l.accessibility === 100 &&
        l.bestPractices === 100 &&
        l.seo === 100
      : undefined;
    const runs =
      l.runs.length > 1
        ? ` · median of ${l.runs.length}: ${l.runs.map((r) => `${r.performance} (TBT ${ms(r.tbtMs)}, benchmarkIndex ${r.benchmarkIndex}, load ${r.loadAverage})`).join(', ')}`
        : '';
    return [
      `Lighthouse ${l.formFactor}`,
      `${l.path}: performance / accessibility / best practices / SEO`,
      `${l.performance} / ${l.accessibility} / ${l.bestPractices} / ${l.seo} (FCP ${ms(l.fcpMs)}, LCP ${ms(l.lcpMs)}, TBT ${ms(l.tbtMs)}, CLS ${l.cls.toFixed(3)}; benchmarkIndex ${l.benchmarkIndex}, load ${l.loadAverage})${runs}${l.failed.length ? `; failing: ${l.failed.join('; ')}` : ''}`,
      mobile ? 'goal ≥ 95 (TBT < 200 ms) / 100 / 100 / 100' : 'reported',
      goal === undefined ? '—' : goal ? 'goal met' : 'goal NOT met',
    ];
  });
}

export function uploadRows(figures: UploadFigures[]): Row[] {
  return figures.map((u) => [
    'upload (emulated downscale)',
    `${u.file} (${u.originalWidth}×${u.originalHeight})`,
    `${bytes(u.sentBytes)} sent (${u.sentWidth}×${u.sentHeight} JPEG q90)`,
    `original ${bytes(u.originalBytes)}`,
    ratio(u.sentBytes, u.originalBytes),
  ]);
}

export function browserUploadRows(f: BrowserUploadFigures): Row[] {
  const area = `upload in Chromium (wizard, ${UPLOAD_BITS_PER_SECOND / 1e6} Mbit/s up)`;
  const rows: Row[] = f.photos
    .filter((p) => /^phone-1|\.hei[cf]$/i.test(p.file))
    .map((p) => {
      const share = p.sentBytes / p.originalBytes;
      const goal = p.file.startsWith('phone') ? ` (goal ≤ 30 %: ${share <= 0.3 ? 'met' : 'NOT met'})` : '';
      return [
        area,
        `${p.file === 'iphone.heic' ? 'HEIC (obama2.heic)' : '12 MP JPEG (obama-12mp.jpg, 4032×3024)'}: bytes sent`,
        bytes(p.sentBytes),
        `original ${bytes(p.originalBytes)}`,
        `${(share * 100).toFixed(1)} %${goal}`,
      ];
    });
  const totalOriginal = f.photos.reduce((a, p) => a + p.originalBytes, 0);
  const wire = (f.totalSentBytes * 8) / UPLOAD_BITS_PER_SECOND;
  rows.push([
    area,
    `10 photos picked → all uploaded (at most ${f.maxParallel} POSTs in flight; goal ≥ 3)`,
    `${ms(f.allUploadedMs)} for ${bytes(f.totalSentBytes)} sent`,
    `the sent bytes alone at 10 Mbit/s: ${ms(wire * 1000)} (originals: ${bytes(totalOriginal)})`,
    ratio(f.allUploadedMs, wire * 1000),
  ]);
  return rows;
}

export function markdownTable(rows: Row[]): string {
  const header: Row = ['area', 'figure', 'measured', 'reference', 'ratio'];
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  const line = (cells: readonly string[]) => `| ${cells.map(escape).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const NOTE = `
How to read it: every figure was measured in this run, on this machine, beside the reference it should be judged
against; "ratio" is measured ÷ reference.
- Generation: from the generation's createdAt to the headshots' createdAt in DynamoDB, in units of the provider's
  fixed latency L, after an unreported warm-up generation. Ideal: 1 L to the first headshot; 1 L (six at once) or
  6 L (one at a time) to all six. With the fixed-latency provider (waits L, answers a 1024 px JPEG of the best
  reference, as OpenAI answers, framed once: no CPU; the medians of several generations, each run listed) the excess is the workflow's own overhead alone (photo checks and preparation, admission, encoding, likeness,
  DynamoDB/S3 writes, state transitions); the local renderer's rows add its image CPU (six renders share the
  cores), whose own time per headshot is the "local renderer alone" row. The two "overhead" rows split the fixed
  provider's excess at admittedAt (the first provider call admitted): before it, PrepareReferences judges the photos
  by the photo checks stored when they were checked (the bench checks them after uploading, as the wizard does,
  before it starts the generation) and crops the references with sharp; after it, each slot decodes the image
  once, then its likeness check runs the vision models on a 512 px copy while sharp encodes the files. Locally every
  Lambda handler shares ONE Node process; the face models run beside it on threads of their own (one per core: TWO
  on a 2-core machine), so six likeness checks (about 120 ms of CPU each) take three rounds here; in the cloud each
  slot's Lambda has its own CPU, so "all 6" there is close to "first" plus the spread of the provider's answers.
- Generation under provider limits: N generations started at once against the rate-limited OpenAI stand-in
  (infrastructure/local/stand-ins/openai/server.ts: a token bucket quantized per second, 429 with retry-after beyond it), with
  PROVIDER_IMAGES_PER_MINUTE set to the same limit. Makespan = first POST → last completedAt (it includes the photo
  checks of all N generations before they reach the line), and from the first admission → last completedAt; ideal =
  every image sent the moment the limit allows (N·6/C minutes) plus one image's latency.
- API: autocannon (its own process, keep-alive) through the local gateway (JWT check, payload-v2 event, handler),
  beside the bare DynamoDB Local call the handler is built on, made from the handlers' process at the same
  concurrency; both sides' percentiles are nearest-rank over every call's own time in fractions of a ms. GET /api/headshots reads its first page and the gallery's counters with ONE Query (the stats item sorts
  at the head of the headshots' key range, newest first) and presigns 90 URLs per page (thumbnail, image, download; signed locally, reused within
  a 5-minute window); the raw call is that same Query. Goal: p50 ≤ ×2 the raw call. The raw call has no HTTP hop, no
  JWT check and no JSON event: the second gallery row adds the local gateway's own floor at the same concurrency
  (GET /api/health, a handler without database work) to the raw Query (test/bench/profile-gallery.ts splits a
  request into these parts).
- Lambda bundles: the CDK's esbuild settings (ESM, node24, minified, AWS SDK bundled, sharp and heic-convert
  external: they come from the layer; node-fetch aliased to Node's own fetch); init is the import() of the bundle in
  a fresh node process, median of the runs, Node's own boot excluded, each run of a handler next to one of its
  reference; the ratio is of CPU time (user + system of the process), what the init costs a core of its own as in a
  Lambda sandbox — wall time, shown beside it, swells with whatever else this shared machine runs. Each handler's reference (its row lists what it holds) imports the same
  service clients and libraries the handler calls — AWS SDK clients, Stripe, OpenAI, sharp, the face models (Human
  on TensorFlow.js: load + detect on a 64×64 tensor) — and makes one call with each, bundled with the same settings
  (test/bench/bundle-references.ts); "beyond the reference" is what the handler adds: its own code (functions/), its
  validation (zod/mini, ~30-40 KB) and its logger (Powertools, ~18 KB). Handlers with no client (http/health,
  http/packs, the local pre-sign-up trigger) are compared with an empty handler (~0.4 KB, ~1-5 ms): any handler with
  logic — the CloudFront origin check, the JSON error answers, a structured logger — is tens of KB, so ×1.3 of an
  empty handler is out of reach for them; their figure is the floor every HTTP handler pays. Goal: size and init
  ≤ ×1.3 the reference.
- Frontend: gzip -9 of the production build; "initial" is what / loads before it hydrates (the boot entry, the app
  it starts and their static imports). Lighthouse 13 (the
  devDependency) against that build served by vite preview with /api proxied to the local gateway and config.json
  beside it, in Debian's headless Chromium; mobile = Lighthouse's default emulation (slow 4G, 4× CPU slowdown),
  desktop = --preset=desktop. Mobile is the median of BENCH_LIGHTHOUSE_RUNS runs (default 3, each listed), desktop one
  run. benchmarkIndex is Lighthouse's own measure of the host's CPU speed and load the 1-minute load average before
  each run: scores on a loaded 2-core machine are lower than on a laptop, so compare runs by them.
- Vision: a fresh Node process (test/bench/vision-probe.ts) after the stack stopped: the models' cold start, the
  first photo check (init included), every fixture JPEG checked again warm, one offline headshot per background.
- Uploads: sharp EMULATES the browser's canvas downscale (≤ 2048 px, JPEG q 0.9); the bytes approximate a browser's.
Absolute times move with the machine's load; the ratios within one run are the comparable figures.`;
