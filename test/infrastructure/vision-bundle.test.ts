import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infrastructure/constructs/bundling';
import {
  ESM_REQUIRE_BANNER,
  VISION_ASSETS_DIR,
  visionCopyCommands,
} from '../../infrastructure/constructs/app-function';
import { usesVision } from '../../infrastructure/constructs/module-graph';
import { REPO_ROOT } from '../../infrastructure/constructs/naming';
import { DEFAULT_LIKENESS_THRESHOLD } from '../../functions/domain/likeness';

/**
 * The vision module survives bundling: esbuild (the settings NodejsFunction uses, node-fetch aliased to Node's own
 * fetch) bundles Human, face-api and TensorFlow.js, the afterBundling hook copies only the models and wasm it loads, and the
 * bundle finds a face and a person matte with nothing but its own folder (VISION_ASSETS_DIR) — no node_modules
 * models, no network.
 */
const OUT = join(REPO_ROOT, 'cdk.out', 'test-vision-bundle');
const fixture = (name: string) => join(REPO_ROOT, 'test', 'fixtures', 'photos', name);
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
    expect(usesVision(handler('workflow/finish-headshot'))).toBe(true);
    // The offline provider composites with the models: the call function carries them (used only with it).
    expect(usesVision(handler('workflow/call-provider'))).toBe(true);
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
import { analyzeFaces, decodeRgb, personMatte } from ${JSON.stringify(join(REPO_ROOT, 'functions/adapters/support/vision-models/faces.ts'))};
import { likenessOf } from ${JSON.stringify(join(REPO_ROOT, 'functions/domain/likeness.ts'))};
const image = await decodeRgb(readFileSync(process.argv[2]));
const { faces } = await analyzeFaces(image);
const matte = await personMatte(image);
const person = matte.reduce((n, v) => n + (v > 128 ? 1 : 0), 0) / matte.length;
const other = async (path) => (await analyzeFaces(await decodeRgb(readFileSync(path)))).faces[0].descriptor;
const [same, different] = [await other(process.argv[3]), await other(process.argv[4])];
console.log(JSON.stringify({
  faces: faces.length,
  descriptor: faces[0]?.descriptor.length,
  person,
  samePerson: likenessOf(same, faces[0].descriptor),
  otherPerson: likenessOf(different, faces[0].descriptor),
}));
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
    const bundled = Object.keys(metafile.inputs);
    expect(bundled.filter((path) => path.includes('node_modules/node-fetch/'))).toEqual([]);
    expect(
      bundled.filter((path) => /node_modules\/@tensorflow\/tfjs-(backend-webgl|layers|data)\//.test(path)),
    ).toEqual([]);
    for (const command of visionCopyCommands(REPO_ROOT, join(OUT, 'bundle'))) execSync(command);

    const models = readdirSync(join(OUT, 'bundle', 'vision', 'models')).sort();
    // The identity descriptor is face-api's ResNet, not Human's faceres (docs/decisions/002-identity-model.md).
    expect(models).toEqual(
      [
        ...['blazeface', 'facemesh'].flatMap((m) => [`${m}.bin`, `${m}.json`]),
        'face_recognition_model-weights_manifest.json',
        'face_recognition_model.bin',
        'selfie.bin',
        'selfie.json',
      ].sort(),
    );
    expect(folderBytes(join(OUT, 'bundle'))).toBeLessThan(LAMBDA_UNZIPPED_LIMIT / 10);

    // Run it as Lambda would: its own folder as VISION_ASSETS_DIR (the CDK sets /var/task/vision).
    expect(VISION_ASSETS_DIR).toBe('/var/task/vision');
    const output = execFileSync(
      process.execPath,
      [join(OUT, 'bundle', 'index.mjs'), ...['obama.jpg', 'obama2.jpg', 'biden.jpg'].map(fixture)],
      { env: { ...process.env, VISION_ASSETS_DIR: join(OUT, 'bundle', 'vision') }, encoding: 'utf8' },
    );
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as {
      faces: number;
      descriptor: number;
      person: number;
      samePerson: number;
      otherPerson: number;
    };
    expect(result.faces).toBe(1);
    expect(result.descriptor).toBe(128);
    expect(result.person).toBeGreaterThan(0.3);
    // The identity net tells people apart in the bundle too (its tfjs is tfjs-core alone there).
    expect(result.samePerson).toBeGreaterThanOrEqual(DEFAULT_LIKENESS_THRESHOLD);
    expect(result.otherPerson).toBeLessThan(DEFAULT_LIKENESS_THRESHOLD);
  });
});
