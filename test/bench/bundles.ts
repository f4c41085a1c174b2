import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { routes } from '../../functions/http/routes';
import { localFunctions } from '../../infrastructure/local/functions';
import { REPO_ROOT } from '../../infrastructure/local/stack';
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
  /** Filled by {@link measureColdInits}. */
  init?: InitFigures;
}

/** A fresh `node` process importing a bundle. */
export interface InitFigures {
  /** Median over the runs of the `import()` of the bundle (module evaluation and its imports), ms. */
  importMs: number;
  /** Median over the runs of process start → bundle imported (Node's own boot included), ms. */
  processMs: number;
  runs: number;
  /** Set when the bundle failed to load (the function could not start in Lambda either). */
  error?: string;
}

/**
 * Every Lambda handler module the project deploys: each distinct handler of the route table plus every function of
 * the catalogue `localFunctions` (the workflow tasks and Cognito triggers, including the local-only one).
 */
export function handlerModules(): string[] {
  return [...new Set([...routes.map((r) => r.handler), ...localFunctions.map((f) => f.handler)])].sort();
}

/**
 * The esbuild settings of the CDK's NodejsFunction bundles (infrastructure/constructs/app-function.ts, repeated here
 * because that module is not importable without aws-cdk-lib): ESM, node24, minified, `module` before `main`, the AWS
 * SDK bundled, `require`/`__filename`/`__dirname` provided by a banner, and the native module `sharp` external (it
 * comes from a layer in the cloud, from node_modules here).
 */
const ESBUILD_OPTIONS = {
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  mainFields: ['module', 'main'],
  external: ['sharp'],
  banner: {
    js: "import { createRequire as __headshotCreateRequire } from 'node:module'; import { fileURLToPath as __headshotFileURLToPath } from 'node:url'; import { dirname as __headshotDirname } from 'node:path'; const require = __headshotCreateRequire(import.meta.url); const __filename = __headshotFileURLToPath(import.meta.url); const __dirname = __headshotDirname(__filename);",
  },
  legalComments: 'none',
  logLevel: 'silent',
} as const;

/**
 * Bundles every handler module (and an empty handler for reference) into `outDir` as `<name>.mjs`, in one esbuild
 * run. `outDir` must be inside the repository, so the external `sharp` resolves from its node_modules as it would
 * from the layer.
 */
export async function buildBundles(outDir: string): Promise<BundleFigures[]> {
  mkdirSync(outDir, { recursive: true });
  const emptyEntry = join(outDir, 'empty-handler.entry.mjs');
  writeFileSync(emptyEntry, 'export const handler = async () => ({ statusCode: 200, body: "{}" });\n');
  const entries = [
    ...handlerModules().map((handler) => ({
      handler,
      out: handler.replaceAll('/', '-'),
      in: join(REPO_ROOT, 'functions', `${handler}.ts`),
    })),
    { handler: EMPTY_HANDLER, out: 'empty-handler', in: emptyEntry },
  ];
  await build({
    ...ESBUILD_OPTIONS,
    mainFields: [...ESBUILD_OPTIONS.mainFields],
    external: [...ESBUILD_OPTIONS.external],
    entryPoints: entries.map((e) => ({ in: e.in, out: e.out })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  });
  return entries.map(({ handler, out }) => {
    const file = join(outDir, `${out}.mjs`);
    return {
      handler,
      file,
      minifiedBytes: statSync(file).size,
      gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length,
    };
  });
}

// Runs in the child: the time from process start (performance.timeOrigin) to the bundle imported, and the import's
// own share; fails loudly when the bundle does not export a handler function.
const INIT_SCRIPT = `
const before = performance.now();
const mod = await import(process.argv[1]);
const after = performance.now();
if (typeof mod.handler !== 'function') throw new Error('no handler export');
process.stdout.write(JSON.stringify({ importMs: after - before, processMs: after }));`;

/**
 * Times the cold init of every bundle: `runs` fresh `node` processes per bundle (each with an empty environment
 * apart from PATH and a region, like a new Lambda sandbox), one after the other; records the medians.
 */
export async function measureColdInits(bundles: BundleFigures[], runs: number): Promise<void> {
  for (const bundle of bundles) {
    const importMs: number[] = [];
    const processMs: number[] = [];
    let error: string | undefined;
    for (let i = 0; i < runs && !error; i++) {
      try {
        const { stdout } = await run(
          process.execPath,
          ['--input-type=module', '-e', INIT_SCRIPT, pathToFileURL(bundle.file).href],
          {
            cwd: REPO_ROOT,
            env: {
              PATH: process.env.PATH ?? '',
              AWS_REGION: 'us-east-1',
            },
          },
        );
        const sample = JSON.parse(stdout) as { importMs: number; processMs: number };
        importMs.push(sample.importMs);
        processMs.push(sample.processMs);
      } catch (e) {
        const stderr = (e as { stderr?: string }).stderr ?? String(e);
        // Node prints the failing source line (a whole minified bundle) before the error itself.
        const line = stderr.split('\n').find((l) => /^\w*Error\b/.test(l.trim()));
        error = (line ?? stderr.split('\n').filter(Boolean).pop() ?? 'failed').trim().slice(0, 160);
      }
    }
    bundle.init = { importMs: median(importMs), processMs: median(processMs), runs: importMs.length, error };
  }
}
