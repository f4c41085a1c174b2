import type { RgbImage } from '../pixels';

/**
 * Where the face models run. In a Lambda execution environment they run on its own thread (./faces.ts
 * `detectFacesHere`): the environment serves one invocation at a time, so nothing else waits for them. The local
 * stack serves every function of the product from ONE Node thread; it hands the model runs to threads of their own
 * (infrastructure/local/stand-ins/lambda/face-model-threads.ts), as every cloud environment has its own CPU, so one
 * function's model run does not hold up another one's S3 and DynamoDB calls. Kept apart from ./faces.ts so setting it
 * does not load the models' code.
 */

/** The fields of one face of the models' result (Human's `FaceResult`) that ./faces.ts reads. */
export interface ModelFace {
  /** The 468 landmarks, `[x, y, z]` in the analysed image's pixels (empty when the mesh did not fit). */
  mesh: [number, number, number?][];
  /** The identity descriptor (./identity-net.ts, 128 values, raw), absent when the mesh did not fit. */
  embedding?: number[];
  /** The detector's and the mesh's confidence combined, 0-1. */
  score: number;
  /** The mesh's own confidence, 0-1. */
  faceScore?: number;
}

/** Runs the face models on one image and answers the faces they found, in the models' order. */
export type FaceModelRunner = (image: RgbImage) => Promise<ModelFace[]>;

let runner: FaceModelRunner | undefined;

/** The runner set by {@link useFaceModelRunner}, or `undefined`: run the models on this thread. */
export function faceModelRunner(): FaceModelRunner | undefined {
  return runner;
}

/**
 * Sends every later model run to `next` (`undefined`: back to this thread).
 *
 * @returns the runner it replaces, to restore it
 */
export function useFaceModelRunner(next: FaceModelRunner | undefined): FaceModelRunner | undefined {
  const previous = runner;
  runner = next;
  return previous;
}
