import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { catalogue, functionNameOf } from '../../functions/catalogue';
import { BUNDLE_ALIASES, ESM_REQUIRE_BANNER, NATIVE_MODULES } from '../../infrastructure/constructs/bundling';
import { REPO_ROOT } from '../../infrastructure/local/stack';
import { packageOf, referenceClientsOf, referenceSource } from './bundle-references';
import { median } from './stats';

const run = promisify(execFile);

/** The handler module of the empty reference function (not a real module: written next to the bundles). */
export const EMPTY_HANDLER = '(empty handler)';

/** One function's esbuild bundle. */
export interface BundleFigures {
  /** The handler module under `functions/` (`http/me`), or {@link EMPTY_HANDLER}. */
  handler: string;
  /** The bundle file (under the bench's output directory). */
  file: string;
  /** Minified bytes of the bundle. */
  minifiedBytes: number;
  /** The same, gzip -9 (about what the deployment zip holds). */
  gzipBytes: number;
  /**
   * The service clients and libraries in the bundle that its reference imports and calls once too (AWS SDK clients,
   * Stripe, OpenAI, sharp, Human): test/bench/bundle-references.ts.
   */
  clients?: string[];
  /**
   * The packages (and the project's own code, `functions/`) that weigh more in the bundle than in its reference,
   * biggest first, with the minified bytes beyond the reference's: why a bundle outweighs its reference.
   */
  beyondReference?: { name: string; bytes: number }[];
  /** Filled by {@link measureColdInits}. */
  init?: InitFigures;
  /** The handler's reference: the same clients and libraries, one call each, bundled with the same settings. */
  reference?: BundleFigures;
}

/** A fresh `node` process importing a bundle. */
export interface InitFigures {
  /** Median over the runs of the `import()` of the bundle (module evaluation and its imports), wall clock, ms. */
  importMs: number;
  /**
   * Median over the runs of the CPU time (user + system, all of the process's threads) the `import()` took, ms: what
   * the init costs a core of its own, as a Lambda sandbox has, whatever else the machine runs meanwhile.
   */
  cpuMs: number;
  /** Median over the runs of process start → bundle imported (Node's own boot included), ms. */
  processMs: number;
  runs: number;
  /** Set when the bundle failed to load (the function could not start in Lambda either). */
  error?: string;
}

/**
 * Every Lambda handler module of the function catalogue (`functions/catalogue.ts`): route handlers, workflow tasks
 * and Cognito triggers, including the local-only one.
 */
export function handlerModules(): string[] {
  return catalogue.map((f) => f.handler).sort();
}

/**
 * The esbuild settings of the CDK's NodejsFunction bundles (infrastructure/constructs/app-function.ts, repeated here
 * because that module is not importable without aws-cdk-lib; the shared parts come from
 * infrastructure/constructs/bundling.ts): ESM, node24, minified, `module` before `main`, the AWS SDK bundled,
 * `require`/`__filename`/`__dirname` provided by a banner, the layer's modules `sharp` and `heic-convert` external
 * (they come from a layer in the cloud, from node_modules here), and the same aliases (no node-fetch). Bundles go to
 * `outDir` as `<out>.mjs`; `outDir` must be inside the repository, so the external `sharp` resolves from its
 * node_modules as it would from the layer.
 */
export function lambdaBundleOptions(outDir: string): BuildOptions {
  return {
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    mainFields: ['module', 'main'],
    external: [...NATIVE_MODULES],
    banner: { js: ESM_REQUIRE_BANNER },
    alias: { ...BUNDLE_ALIASES },
    absWorkingDir: REPO_ROOT,
    legalComments: 'none',
    logLevel: 'silent',
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  };
}

const figuresOf = (handler: string, file: string): BundleFigures => ({
  handler,
  file,
  minifiedBytes: statSync(file).size,
  gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length,
});

type Inputs = Record<string, { bytesInOutput: number }>;

/** A bundle's minified bytes by package (the project's own code as `functions/`). */
function bytesByPackage(inputs: Inputs): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const name = packageOf(path) ?? 'functions/';
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return bytes;
}

/**
 * The packages whose bytes in the bundle exceed their bytes in its reference (the project's own code counts whole),
 * biggest first, at least 1 KB: why a bundle outweighs its reference.
 */
function beyond(handler: Inputs, reference: Inputs): { name: string; bytes: number }[] {
  const theirs = bytesByPackage(reference);
  return [...bytesByPackage(handler)]
    .map(([name, n]) => ({ name, bytes: n - (theirs.get(name) ?? 0) }))
    .filter((p) => p.bytes >= 1024)
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3);
}

/**
 * Bundles every handler module (and an empty handler) into `outDir` as `<name>.mjs` in one esbuild run, then, per
 * handler, a reference handler (`<name>.reference.mjs`) that imports the same service clients and libraries (AWS SDK
 * clients, Stripe, OpenAI, sharp, Human: test/bench/bundle-references.ts) and makes one call with each, with the same
 * settings. `outDir` must be inside the repository,
 * so the external `sharp` resolves from its node_modules as it would from the layer.
 */
export async function buildBundles(outDir: string): Promise<BundleFigures[]> {
  mkdirSync(outDir, { recursive: true });
  const emptyEntry = join(outDir, 'empty-handler.entry.mjs');
  writeFileSync(emptyEntry, 'export const handler = async () => ({ statusCode: 200, body: "{}" });\n');
  const entries = [
    ...handlerModules().map((handler) => ({
      handler,
      out: functionNameOf(handler),
      in: join(REPO_ROOT, 'functions', `${handler}.ts`),
    })),
    { handler: EMPTY_HANDLER, out: 'empty-handler', in: emptyEntry },
  ];
  const common = lambdaBundleOptions(outDir);
  const { metafile } = await build({
    ...common,
    entryPoints: entries.map((e) => ({ in: e.in, out: e.out })),
    metafile: true,
  });
  const outputOf = (meta: Metafile, out: string) =>
    Object.entries(meta.outputs).find(([path]) => path.endsWith(`/${out}.mjs`))?.[1];
  const figures = entries.map(({ handler, out }) => {
    const output = outputOf(metafile, out);
    return {
      ...figuresOf(handler, join(outDir, `${out}.mjs`)),
      clients: output ? referenceClientsOf(Object.keys(output.inputs), output.imports) : [],
      inputs: output?.inputs ?? {},
      out,
    };
  });
  const withClients = figures.filter((f) => f.handler !== EMPTY_HANDLER && f.clients.length > 0);
  for (const f of withClients) {
    writeFileSync(join(outDir, `${f.out}.reference.entry.mjs`), referenceSource(f.clients));
  }
  const references = await build({
    ...common,
    entryPoints: withClients.map((f) => ({
      in: join(outDir, `${f.out}.reference.entry.mjs`),
      out: `${f.out}.reference`,
    })),
    metafile: true,
  });
  const emptyFigures = figures.find((f) => f.handler === EMPTY_HANDLER)!;
  const { inputs: _emptyInputs, out: _emptyOut, ...empty } = emptyFigures;
  return figures.map(({ out, inputs, ...f }) => {
    if (f.handler === EMPTY_HANDLER) return f;
    const reference =
      f.clients.length > 0
        ? figuresOf(`reference of ${f.handler}`, join(outDir, `${out}.reference.mjs`))
        : empty;
    const referenceInputs =
      f.clients.length > 0 ? (outputOf(references.metafile, `${out}.reference`)?.inputs ?? {}) : {};
    return { ...f, reference, beyondReference: beyond(inputs, referenceInputs) };
  });
}

// Runs in the child: the time from process start (performance.timeOrigin) to the bundle imported, and the import's
// own share; fails loudly when the bundle does not export a handler function.
const INIT_SCRIPT = `
const cpu = process.cpuUsage();
const before = performance.now();
const mod = await import(process.argv[1]);
const after = performance.now();
const used = process.cpuUsage(cpu);
if (typeof mod.handler !== 'function') throw new Error('no handler export');
process.stdout.write(JSON.stringify({ importMs: after - before, cpuMs: (used.user + used.system) / 1000, processMs: after }));`;

/** One fresh `node` process importing `file`: its timings, or the error that stopped the import. */
async function importOnce(
  file: string,
): Promise<{ importMs: number; cpuMs: number; processMs: number } | { error: string }> {
  try {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', INIT_SCRIPT, pathToFileURL(file).href],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } },
    );
    return JSON.parse(stdout) as { importMs: number; cpuMs: number; processMs: number };
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr ?? String(e);
    // Node prints the failing source line (a whole minified bundle) before the error itself.
    const line = stderr.split('\n').find((l) => /^\w*Error\b/.test(l.trim()));
    return { error: (line ?? stderr.split('\n').filter(Boolean).pop() ?? 'failed').trim().slice(0, 160) };
  }
}

/**
 * Times the cold init of every bundle and reference: `runs` rounds, each importing every handler's bundle in a fresh
 * `node` process (an empty environment apart from PATH and a region, like a new Lambda sandbox) IMMEDIATELY followed
 * by its reference's (or preceded, every other round), so a handler and its reference see the same machine load (other work on a shared machine
 * moves absolute times, not the pair's ratio); records the medians per file.
 */
export async function measureColdInits(bundles: BundleFigures[], runs: number): Promise<void> {
  const figuresByFile = new Map<string, BundleFigures[]>();
  const remember = (b: BundleFigures) => figuresByFile.set(b.file, [...(figuresByFile.get(b.file) ?? []), b]);
  const pairs: string[][] = [];
  for (const b of bundles) {
    remember(b);
    if (b.reference) remember(b.reference);
    pairs.push(b.reference ? [b.file, b.reference.file] : [b.file]);
  }
  const samples = new Map<
    string,
    { importMs: number[]; cpuMs: number[]; processMs: number[]; error?: string }
  >();
  for (const file of figuresByFile.keys()) samples.set(file, { importMs: [], cpuMs: [], processMs: [] });
  for (let round = 0; round < runs; round++) {
    for (const pair of pairs) {
      // Alternate which of the two goes first, so neither always runs right after the other's process.
      for (const file of round % 2 === 0 ? pair : [...pair].reverse()) {
        const s = samples.get(file)!;
        if (s.error) continue;
        const result = await importOnce(file);
        if ('error' in result) s.error = result.error;
        else {
          s.importMs.push(result.importMs);
          s.cpuMs.push(result.cpuMs);
          s.processMs.push(result.processMs);
        }
      }
    }
  }
  for (const [file, s] of samples) {
    const init = {
      importMs: median(s.importMs),
      cpuMs: median(s.cpuMs),
      processMs: median(s.processMs),
      runs: s.importMs.length,
      error: s.error,
    };
    for (const figure of figuresByFile.get(file)!) figure.init = init;
  }
}
