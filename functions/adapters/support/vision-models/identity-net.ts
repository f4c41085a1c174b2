// The package's `exports` lack the './' prefix (as Human's): a file path works for Node, tsx, vitest and esbuild.
import * as faceapi from '../../../../node_modules/@vladmandic/face-api/dist/face-api.node-wasm.js';
import type { Human } from '../../../../node_modules/@vladmandic/human/dist/human.node-wasm.js';
import { chipTransform, type ChipPoint } from './face-chip';

/**
 * The identity descriptor (docs/decisions/002-identity-model.md): `@vladmandic/face-api`'s FaceRecognitionNet —
 * dlib's face recognition ResNet, 128 values — run on a face chip aligned from Human's landmarks (./face-chip.ts).
 * It computes on the same TensorFlow.js engine and wasm backend as Human (face-api's node-wasm build requires the
 * same `@tensorflow/tfjs` packages), so tensors pass between them without a copy. Weights are read from disk:
 * `face_recognition_model-weights_manifest.json` + `face_recognition_model.bin` (./assets.ts).
 */

/** The net's input side, in px (dlib's 150 px face chips). */
const CHIP_SIDE = 150;

/** Indices into MediaPipe's 468-point face mesh: the eyes' corners and the lips' middle. */
const EYE_A = [33, 133] as const;
const EYE_B = [362, 263] as const;
const LIPS = [13, 14] as const;

type Mesh = readonly (readonly [number, number, number?])[];
type Tf = Human['tf'];

/** The loaded net of one execution environment. */
export type IdentityNet = faceapi.FaceRecognitionNet;

/**
 * Loads the net's weights from `modelsDir` (the cold start's share: about 6.4 MB read and uploaded once).
 *
 * @throws {Error} when the weight files are missing or unreadable
 */
export async function loadIdentityNet(modelsDir: string): Promise<IdentityNet> {
  const net = new faceapi.FaceRecognitionNet();
  await net.loadFromDisk(modelsDir);
  return net;
}

const midpoint = (mesh: Mesh, [i, j]: readonly [number, number]): ChipPoint => ({
  x: (mesh[i]![0] + mesh[j]![0]) / 2,
  y: (mesh[i]![1] + mesh[j]![1]) / 2,
});

/**
 * The descriptor of each face, from the image and the face's 468 landmarks.
 *
 * @param image the analysed image, `[1, height, width, 3]`, RGB 0-255
 * @param meshes each face's landmarks, `[x, y, z]` in the image's pixels
 * @returns one descriptor per mesh (128 values, raw: the caller normalises); `undefined` for a mesh under 468 points
 */
export async function describeFaces(
  tf: Tf,
  net: IdentityNet,
  image: ReturnType<Tf['tensor']>,
  meshes: readonly Mesh[],
): Promise<(number[] | undefined)[]> {
  const out: (number[] | undefined)[] = [];
  for (const mesh of meshes) {
    if (mesh.length < 468) {
      out.push(undefined);
      continue;
    }
    const a = midpoint(mesh, EYE_A);
    const b = midpoint(mesh, EYE_B);
    const transform = chipTransform(
      { eyes: a.x <= b.x ? [a, b] : [b, a], mouth: midpoint(mesh, LIPS) },
      CHIP_SIDE,
    );
    const chip = tf.tidy(() =>
      tf.squeeze(
        tf.image.transform(
          tf.cast(image, 'float32') as Parameters<Tf['image']['transform']>[0],
          tf.tensor2d([transform], [1, 8]),
          'bilinear',
          'constant',
          0,
          [CHIP_SIDE, CHIP_SIDE],
        ),
      ),
    );
    try {
      const descriptor = await net.computeFaceDescriptor(chip as unknown as faceapi.TNetInput);
      out.push(Array.from(descriptor as Float32Array));
    } finally {
      tf.dispose(chip);
    }
  }
  return out;
}
