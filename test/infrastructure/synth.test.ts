import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedFunctions } from '../../functions/catalogue';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';
import { fakeSharpLayer, FIXTURES } from './helpers';

/**
 * The real app, as `npx cdk synth` runs it: every function bundled by esbuild (no stubs), cdk-nag's AwsSolutions
 * plugin on, offline. The output directory is kept between runs: bundles whose inputs did not change are reused
 * (content-hashed assets), so only the first run pays for esbuild.
 */
const OUT = join(REPO_ROOT, 'cdk.out', 'test-synth');

describe('cdk synth of the real app', () => {
  let result: ReturnType<typeof spawnSync>;
  const layerDir = mkdtempSync(join(tmpdir(), 'sharp-layer-'));
  afterAll(() => rmSync(layerDir, { recursive: true, force: true }));
  beforeAll(() => {
    // A real synth refuses to run without the built SPA and the sharp layer: stand-ins of both (an index.html, and
    // the layer's package manifests) are enough for the template and the bundles checked here.
    const context = [
      '-c',
      `siteDir=${join(FIXTURES, 'site')}`,
      '-c',
      `sharpLayerDir=${fakeSharpLayer(layerDir)}`,
    ];
    result = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', OUT, ...context], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      // aws-cdk-lib's built-in CloudFormation validation stays off here too (CDK_VALIDATION=false, from the project's
      // env): it only warns (its errors are downgraded unless a feature flag asks otherwise) and took 12 of this
      // synth's 48 s of CPU; cfn-lint checks every deployed template and fails on an error (cloud-validators.test.ts).
      env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' },
    });
    // A cold run bundles every function (about a minute on 2 busy cores); later runs reuse unchanged bundles.
  }, 300_000);

  it('exits 0 offline with the cdk-nag checks on', () => {
    expect(result.stderr).not.toMatch(/AwsSolutions-\w+/);
    expect(result.status, String(result.stderr)).toBe(0);
  });

  it('bundles every function into an ESM index.mjs with a source map', () => {
    const template = JSON.parse(readFileSync(join(OUT, 'HeadshotStudio-dev.template.json'), 'utf8')) as {
      Resources: Record<
        string,
        { Type: string; Properties: Record<string, unknown>; Metadata?: Record<string, string> }
      >;
    };
    const functions = Object.values(template.Resources).filter((r) => r.Metadata?.SamResourceId);
    expect(functions).toHaveLength(deployedFunctions.length);
    for (const fn of functions) {
      expect(fn.Properties.Handler).toBe('index.handler');
      const asset = join(OUT, fn.Metadata!['aws:asset:path']!);
      expect(existsSync(join(asset, 'index.mjs')), fn.Metadata!.SamResourceId).toBe(true);
      expect(existsSync(join(asset, 'index.mjs.map')), fn.Metadata!.SamResourceId).toBe(true);
    }
  });

  it('produces handlers that load and answer (GET /api/health from its bundle)', async () => {
    const template = JSON.parse(readFileSync(join(OUT, 'HeadshotStudio-dev.template.json'), 'utf8')) as {
      Resources: Record<string, { Metadata?: Record<string, string> }>;
    };
    const health = Object.values(template.Resources).find((r) => r.Metadata?.SamResourceId === 'HttpHealth')!;
    const mod = (await import(join(OUT, health.Metadata!['aws:asset:path']!, 'index.mjs'))) as {
      handler: (event: unknown) => Promise<{ statusCode: number; body: string }>;
    };
    const event = JSON.parse(
      readFileSync(join(REPO_ROOT, 'test', 'events', 'http', 'health.json'), 'utf8'),
    ) as unknown;
    const response = await mod.handler(event);
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'ok' });
  });
});

/** `npx cdk synth` of the real app with `context`, as an operator runs it. */
function cdkSynth(context: Record<string, string>, output: string) {
  const args = Object.entries(context).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  return spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', output, ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' },
  });
}

/** What the app itself wrote to stderr: without the CLI's own "Subprocess exited with error 1" line. */
const appErrorLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.trim() !== '' && !/Subprocess exited with error \d+$/.test(line));

describe('cdk synth refusals', () => {
  const out = mkdtempSync(join(tmpdir(), 'synth-refusal-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it.each<{ why: string; context: Record<string, string>; line: RegExp }>([
    {
      why: 'no build',
      context: { siteDir: join(FIXTURES, 'does-not-exist'), sharpLayerDir: join(FIXTURES, 'does-not-exist') },
      line: /^Error: Build first: run `npm run build` \(.*\), then run `npm run build:layers` \(.*\); see docs\/deploy\.md/,
    },
    {
      why: 'invalid context',
      context: { generationMaxConcurrency: '9', mailFrom: 'headshots' },
      line: /^Error: Invalid context: generationMaxConcurrency "9": an integer from 1 to 6; mailFrom "headshots": an e-mail address/,
    },
    {
      why: 'prod without its required context',
      context: { stage: 'prod' },
      line: /^Error: Invalid context: prod needs mailFrom \(or cognitoMailFrom\): pass -c mailFrom=/,
    },
  ])(
    'refuses $why with one line that says what to do, and exit code 1',
    ({ context, line }) => {
      const result = cdkSynth(context, out);
      expect(result.status).toBe(1);
      const lines = appErrorLines(result.stderr);
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(line);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
    180_000,
  );
});

/*
 * The prod stage's template is checked in-process, where a synthesis costs a fraction of the CLI's: the verified domain in
 * Cognito's SourceArn in mail.test.ts, the data buckets' RetainExceptOnCreate / Retain in stack-options.test.ts, and
 * the whole prod deployment (its edge stack too) by cfn-lint in cloud-validators.test.ts. The CLI's own path with prod
 * context is the refusal above.
 */
