import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infrastructure/constructs/bundling';
import {
  ESM_REQUIRE_BANNER,
  usesVision,
  VISION_ASSETS_DIR,
  visionCopyCommands,
} from '../../infrastructure/constructs/app-function';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';

/**
 * The vision module survives bundling: esbuild (the settings NodejsFunction uses, node-fetch aliased to Node's own
 * fetch) bundles Human and TensorFlow.js, the afterBundling hook copies only the models and wasm it loads, and the
 * bundle finds a face and a person matte with nothing but its own folder (VISION_ASSETS_DIR) — no node_modules
 * models, no network.
 */
const OUT = join(REPO_ROOT, 'cdk.out', 'test-vision-bundle');
/** Lambda's limit for a function's unzipped code and layers, in bytes. */
const LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024;

function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? folderBytes(path) : statSync(path).size);
  }, 0);
}

describe('the vision bundle', () => {
  it('is reached by exactly the handlers that run the models', () => {
    const handler = (name: string) => join(REPO_ROOT, 'functions', `${name}.ts`);
    expect(usesVision(handler('workflow/generate-headshot'))).toBe(true);
    expect(usesVision(handler('http/me'))).toBe(false);
    expect(usesVision(handler('workflow/build-prompt'))).toBe(false);
  });

  it('bundles, carries only the files it loads, and finds a face and a matte from its own folder', async () => {
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    const entry = join(OUT, 'entry.ts');
    writeFileSync(
      entry,
      `import { readFileSync } from 'node:fs';
import { analyzeFaces, decodeRgb, personMatte } from ${JSON.stringify(join(REPO_ROOT, 'functions/adapters/vision/faces.ts'))};
const image = await decodeRgb(readFileSync(process.argv[2]));
const { faces } = await analyzeFaces(image);
const matte = await personMatte(image);
const person = matte.reduce((n, v) => n + (v > 128 ? 1 : 0), 0) / matte.length;
console.log(JSON.stringify({ faces: faces.length, descriptor: faces[0]?.descriptor.length, person }));
`,
    );
    const { metafile } = await build({
      entryPoints: [entry],
      absWorkingDir: REPO_ROOT,
      alias: { ...BUNDLE_ALIASES },
      metafile: true,
      outfile: join(OUT, 'bundle', 'index.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      banner: { js: ESM_REQUIRE_BANNER },
      minify: true,
      external: ['sharp'],
      logLevel: 'silent',
    });
    expect(Object.keys(metafile.inputs).filter((path) => path.includes('node_modules/node-fetch/'))).toEqual(
      [],
    );
    for (const command of visionCopyCommands(REPO_ROOT, join(OUT, 'bundle'))) execSync(command);

    const models = readdirSync(join(OUT, 'bundle', 'vision', 'models')).sort();
    expect(models).toEqual(
      ['blazeface', 'facemesh', 'faceres', 'selfie'].flatMap((m) => [`${m}.bin`, `${m}.json`]),
    );
    expect(folderBytes(join(OUT, 'bundle'))).toBeLessThan(LAMBDA_UNZIPPED_LIMIT / 10);

    // Run it as Lambda would: its own folder as VISION_ASSETS_DIR (the CDK sets /var/task/vision).
    expect(VISION_ASSETS_DIR).toBe('/var/task/vision');
    const output = execFileSync(
      process.execPath,
      [join(OUT, 'bundle', 'index.mjs'), join(REPO_ROOT, 'test', 'fixtures', 'photos', 'obama.jpg')],
      { env: { ...process.env, VISION_ASSETS_DIR: join(OUT, 'bundle', 'vision') }, encoding: 'utf8' },
    );
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
      faces: number;
      descriptor: number;
      person: number;
    };
    expect(result.faces).toBe(1);
    expect(result.descriptor).toBe(1024);
    expect(result.person).toBeGreaterThan(0.3);
  });
});
