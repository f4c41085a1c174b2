import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The package's `exports` lack the './' prefix, so Node refuses '@vladmandic/human/dist/human.node-wasm'; a file path
// works for Node, tsx, vitest and esbuild alike (esbuild then bundles it and the @tensorflow packages it requires).
import { Human, type Config } from '../../../../node_modules/@vladmandic/human/dist/human.node-wasm.js';
import { segmentationModel, visionAssets, type VisionAssets } from './assets';
import { loadIdentityNet, type IdentityNet } from './identity-net';

/**
 * The one Human instance of this execution environment (docs/architecture.md §8 (faces)): face detection
 * (blazeface), 468 landmarks (facemesh) and a person matte (selfie segmentation), and beside it the identity net
 * (./identity-net.ts: face-api's 128-d ResNet, docs/decisions/002-identity-model.md), all on the WebAssembly backend
 * of TensorFlow.js. The models and the `.wasm` files are read from disk — never the
 * network — and loaded once per cold start.
 * Where the files are: ./assets.ts.
 */

let fetchPatched = false;

/**
 * Node's fetch has no `file://`, and Human loads models and wasm through fetch: answer `file://` URLs from disk and
 * pass everything else to the real fetch (the AWS SDK does not use fetch; the OpenAI SDK's https calls go through).
 */
export function allowFileFetch(): void {
  if (fetchPatched) return;
  fetchPatched = true;
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith('file://')) return realFetch(input, init);
    try {
      const bytes = await readFile(fileURLToPath(url));
      const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
      return new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': type } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  };
}

const dirUrl = (dir: string) => `${pathToFileURL(dir).href}/`;

/** Human's configuration: the face pipeline for still photos, nothing for bodies, hands, video or emotions. */
export function humanConfig(assets: VisionAssets): Partial<Config> {
  return {
    backend: 'wasm',
    modelBasePath: dirUrl(assets.modelsDir),
    wasmPath: dirUrl(assets.wasmDir),
    debug: false,
    warmup: 'none',
    // Still photos: never reuse a previous frame's result.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        rotation: true,
        maxDetected: 5,
        // Checked on the fixtures: 0.5 keeps every real face and drops the loose boxes lower scores let in.
        minConfidence: 0.5,
        iouThreshold: 0.3,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true },
      iris: { enabled: false },
      emotion: { enabled: false },
      // Human's faceres descriptor is replaced by ./identity-net.ts (docs/decisions/002-identity-model.md).
      description: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: true, modelPath: pathToFileURL(segmentationModel(assets)).href },
  } as Partial<Config>;
}

let instance: Promise<Human> | undefined;
let net: IdentityNet | undefined;
let initMs = 0;

/**
 * The loaded Human instance: created and its models loaded on first use (the cold start), shared afterwards.
 * A failed load is forgotten so the next call tries again.
 */
export function vision(): Promise<Human> {
  if (!instance) {
    const started = performance.now();
    instance = (async () => {
      allowFileFetch();
      const assets = visionAssets();
      const human = new Human(humanConfig(assets));
      // The backend first: the identity net's weights become tensors of the backend Human chose.
      await human.init();
      [, net] = await Promise.all([human.load(), loadIdentityNet(assets.identityDir)]);
      initMs = performance.now() - started;
      return human;
    })();
    instance.catch(() => {
      instance = undefined;
    });
  }
  return instance;
}

/**
 * The identity net, loaded by {@link vision} (call it first).
 *
 * @throws {Error} before {@link vision} resolved
 */
export function identityNet(): IdentityNet {
  if (!net) throw new Error('The identity net is not loaded: await vision() first');
  return net;
}

/** How long the cold start's model load took, in ms (0 before it finished). For logs and `npm run bench`. */
export function visionInitMs(): number {
  return initMs;
}
