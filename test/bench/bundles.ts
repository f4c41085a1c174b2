import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { catalogue, functionNameOf } from '../../functions/catalogue';
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
  /** The AWS SDK packages (and layer modules) in the bundle: what its reference handler imports too. */
  clients?: string[];
  /**
   * The largest packages in the bundle that its reference does not have (everything but the AWS SDK, Smithy and the
   * layer's modules), biggest first, with their minified bytes in the bundle: why a bundle outweighs its reference.
   */
  beyondReference?: { name: string; bytes: number }[];
  /** Filled by {@link measureColdInits}. */
  init?: InitFigures;
  /** The handler's reference: the same clients, one call each, bundled with the same settings. */
  reference?: BundleFigures;
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
 * Every Lambda handler module of the function catalogue (`functions/catalogue.ts`): route handlers, workflow tasks
 * and Cognito triggers, including the local-only one.
 */
export function handlerModules(): string[] {
  return catalogue.map((f) => f.handler).sort();
}

/**
 * The esbuild settings of the CDK's NodejsFunction bundles (infrastructure/constructs/app-function.ts, repeated here
 * because that module is not importable without aws-cdk-lib): ESM, node24, minified, `module` before `main`, the AWS
 * SDK bundled, `require`/`__filename`/`__dirname` provided by a banner, and the layer's modules `sharp` and
 * `heic-convert` external (they come from a layer in the cloud, from node_modules here).
 */
const ESBUILD_OPTIONS = {
  bundle: true,
  minify: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  mainFields: ['module', 'main'],
  external: ['sharp', 'heic-convert'],
  banner: {
    js: "import { createRequire as __headshotCreateRequire } from 'node:module'; import { fileURLToPath as __headshotFileURLToPath } from 'node:url'; import { dirname as __headshotDirname } from 'node:path'; const require = __headshotCreateRequire(import.meta.url); const __filename = __headshotFileURLToPath(import.meta.url); const __dirname = __headshotDirname(__filename);",
  },
  legalComments: 'none',
  logLevel: 'silent',
} as const;

/**
 * One call per client, as the reference handlers make it: enough for the bundler to keep what a real call needs
 * (client, command, serializers, endpoint rules, credential chain), nothing else.
 */
const CLIENT_CALLS: Record<string, { imports: string; call: string }> = {
  '@aws-sdk/client-dynamodb': {
    imports: "import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';",
    call: "await new DynamoDBClient({}).send(new GetItemCommand({ TableName: 't', Key: { PK: { S: 'p' } } }));",
  },
  '@aws-sdk/lib-dynamodb': {
    imports:
      "import { DynamoDBClient as DocBase } from '@aws-sdk/client-dynamodb'; import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';",
    call: "await DynamoDBDocumentClient.from(new DocBase({})).send(new GetCommand({ TableName: 't', Key: { PK: 'p' } }));",
  },
  '@aws-sdk/client-s3': {
    imports: "import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';",
    call: "await new S3Client({}).send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));",
  },
  '@aws-sdk/s3-request-presigner': {
    imports:
      "import { S3Client as PresignS3, GetObjectCommand as PresignGet } from '@aws-sdk/client-s3'; import { getSignedUrl } from '@aws-sdk/s3-request-presigner';",
    call: "await getSignedUrl(new PresignS3({}), new PresignGet({ Bucket: 'b', Key: 'k' }));",
  },
  '@aws-sdk/s3-presigned-post': {
    imports:
      "import { S3Client as PostS3 } from '@aws-sdk/client-s3'; import { createPresignedPost } from '@aws-sdk/s3-presigned-post';",
    call: "await createPresignedPost(new PostS3({}), { Bucket: 'b', Key: 'k' });",
  },
  '@aws-sdk/client-sfn': {
    imports: "import { SFNClient, DescribeExecutionCommand } from '@aws-sdk/client-sfn';",
    call: "await new SFNClient({}).send(new DescribeExecutionCommand({ executionArn: 'a' }));",
  },
  '@aws-sdk/client-secrets-manager': {
    imports: "import { SecretsManagerClient, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';",
    call: "await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: 's' }));",
  },
  sharp: {
    imports: "import sharp from 'sharp';",
    call: 'await sharp({ create: { width: 1, height: 1, channels: 3, background: "#fff" } }).png().toBuffer();',
  },
};

/** The packages of {@link CLIENT_CALLS} a bundle's inputs contain (statically imported external `sharp` included). */
function clientsOf(
  inputs: string[],
  imports: { path: string; external?: boolean; kind: string }[],
): string[] {
  const found = new Set<string>();
  for (const input of inputs) {
    const match = /node_modules\/(@aws-sdk\/[^/]+)\//.exec(input);
    if (match && CLIENT_CALLS[match[1]!]) found.add(match[1]!);
  }
  if (imports.some((i) => i.external && i.path === 'sharp' && i.kind === 'import-statement'))
    found.add('sharp');
  return [...found].sort();
}

/** The source of a reference handler that imports `clients` and makes one call with each. */
function referenceSource(clients: readonly string[]): string {
  const parts = clients.map((c) => CLIENT_CALLS[c]!);
  return [
    ...parts.map((p) => p.imports),
    'export const handler = async () => {',
    ...parts.map((p) => `  ${p.call}`),
    '  return { statusCode: 200, body: "{}" };',
    '};',
    '',
  ].join('\n');
}

const figuresOf = (handler: string, file: string): BundleFigures => ({
  handler,
  file,
  minifiedBytes: statSync(file).size,
  gzipBytes: gzipSync(readFileSync(file), { level: 9 }).length,
});

/** The bundle's bytes by package (the project's own code as `functions/`), minus what a reference also bundles. */
function packagesBeyondSdk(
  inputs: Record<string, { bytesInOutput: number }>,
): { name: string; bytes: number }[] {
  const bytes = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? 'functions/';
    if (/^@(aws-sdk|smithy|aws-crypto)\//.test(name) || name === 'tslib') continue;
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes]
    .map(([name, n]) => ({ name, bytes: n }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 3);
}

/**
 * Bundles every handler module (and an empty handler) into `outDir` as `<name>.mjs` in one esbuild run, then, per
 * handler, a reference handler (`<name>.reference.mjs`) that imports the same AWS SDK clients (and `sharp` when the
 * handler imports it) and makes one call with each, with the same settings. `outDir` must be inside the repository,
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
  const common = {
    ...ESBUILD_OPTIONS,
    mainFields: [...ESBUILD_OPTIONS.mainFields],
    external: [...ESBUILD_OPTIONS.external],
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
  };
  const { metafile } = await build({
    ...common,
    entryPoints: entries.map((e) => ({ in: e.in, out: e.out })),
    metafile: true,
  });
  const figures = entries.map(({ handler, out }) => {
    const file = join(outDir, `${out}.mjs`);
    const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith(`/${out}.mjs`))?.[1];
    const clients = output ? clientsOf(Object.keys(output.inputs), output.imports) : [];
    return {
      ...figuresOf(handler, file),
      clients,
      beyondReference: packagesBeyondSdk(output?.inputs ?? {}),
      out,
    };
  });
  const withClients = figures.filter((f) => f.handler !== EMPTY_HANDLER && f.clients.length > 0);
  for (const f of withClients) {
    writeFileSync(join(outDir, `${f.out}.reference.entry.mjs`), referenceSource(f.clients));
  }
  await build({
    ...common,
    entryPoints: withClients.map((f) => ({
      in: join(outDir, `${f.out}.reference.entry.mjs`),
      out: `${f.out}.reference`,
    })),
  });
  const result: BundleFigures[] = figures.map(({ out: _out, ...f }) => f);
  const empty = result.find((f) => f.handler === EMPTY_HANDLER);
  figures.forEach((f, i) => {
    if (f.handler === EMPTY_HANDLER) return;
    result[i]!.reference =
      f.clients.length > 0
        ? figuresOf(`reference of ${f.handler}`, join(outDir, `${f.out}.reference.mjs`))
        : empty;
  });
  return result;
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
  const all = new Set<BundleFigures>();
  for (const b of bundles) {
    all.add(b);
    if (b.reference && !bundles.some((x) => x.file === b.reference!.file)) all.add(b.reference);
  }
  for (const bundle of all) {
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
