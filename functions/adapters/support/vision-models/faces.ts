import sharp from 'sharp';
import { normalize } from '../../../domain/likeness';
import type { RgbImage } from '../pixels';
import { faceModelRunner, type ModelFace } from './model-runner';
import { describeFaces } from './identity-net';
import { identityNet, vision } from './runtime';

/**
 * Faces in a photo, with the models of ./runtime.ts: where each face is (a box from its 468 landmarks, not the
 * detector's looser box), where its eyes, nose, mouth, chin and forehead are, how far it is rolled, and its identity
 * descriptor (unit length, so the cosine of two descriptors is their dot product).
 */

/** A point in the analysed image's pixels. */
export interface Point {
  x: number;
  y: number;
}

/** One face found in a photo; coordinates in the analysed image's pixels. */
export interface DetectedFace {
  /** The face's extent (forehead to chin, cheek to cheek) from its landmarks, in px. */
  box: { x: number; y: number; width: number; height: number };
  /** The detector's and the mesh's confidence combined, 0-1. */
  confidence: number;
  /** Eye centres, the one on the image's left first. */
  eyes: [Point, Point];
  nose: Point;
  mouth: Point;
  chin: Point;
  /** The top of the forehead (the hairline's middle, roughly). */
  forehead: Point;
  /** Head roll, in degrees: the angle of the line through the eyes (positive = clockwise in the image). */
  rollDegrees: number;
  /** The identity descriptor (./identity-net.ts, 128 values; model `DESCRIPTOR_MODEL`), scaled to unit length. */
  descriptor: number[];
}

/** Every face of one image, the largest first. */
export interface FaceAnalysis {
  /** Size of the analysed image, in px. */
  width: number;
  height: number;
  faces: DetectedFace[];
}

export { ANALYSIS_SIDE, decodeRgb, type RgbImage } from '../pixels';

// Indices into MediaPipe's 468-point face mesh.
const MESH = {
  eyeA: [33, 133],
  eyeB: [362, 263],
  noseTip: 1,
  lipTop: 13,
  lipBottom: 14,
  chin: 152,
  forehead: 10,
} as const;

/** Faces whose landmark fit scores under this are dropped: loose boxes on shirts and curtains score far lower. */
const MIN_FACE_CONFIDENCE = 0.5;

type Mesh = [number, number, number?][];

const at = (mesh: Mesh, i: number): Point => ({ x: mesh[i]![0], y: mesh[i]![1] });
const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

let modelsBusy: Promise<unknown> = Promise.resolve();

/**
 * Resolves on the event loop's next turn. A model run finishes in promise callbacks, so the next queued run would
 * start before any I/O callback: sharp's finished encodes and the answers of S3 and DynamoDB would wait for the whole
 * queue. Between two runs, the work they unblock goes first.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` on the one Human instance when the previous run finished: calls queue up in order instead of
 * interleaving. Human keeps per-call state on its instance, and the wasm backend computes on this one thread anyway,
 * so interleaved calls gain nothing and all finish late; queued, the first caller (a photo, a headshot's likeness)
 * has its answer after one run.
 */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = modelsBusy.then(nextTurn, nextTurn).then(work);
  modelsBusy = run.catch(() => undefined);
  return run;
}

/**
 * Runs the face models on this thread, queued on the one Human instance of the execution environment.
 *
 * @param image decoded RGB pixels (see {@link decodeRgb})
 * @returns every face the detector found, with its landmarks and descriptor, in the models' order
 */
export async function detectFacesHere(image: RgbImage): Promise<ModelFace[]> {
  const human = await vision();
  const { result, embeddings } = await oneAtATime(async () => {
    const tensor = human.tf.tensor(new Int32Array(image.data), [1, image.height, image.width, 3], 'int32');
    try {
      const detected = await human.detect(tensor);
      const meshes = detected.face.map((face) => face.mesh as Mesh);
      return { result: detected, embeddings: await describeFaces(human.tf, identityNet(), tensor, meshes) };
    } finally {
      human.tf.dispose(tensor);
    }
  });
  return result.face.map((face, i) => ({
    mesh: face.mesh as Mesh,
    ...(embeddings[i] ? { embedding: embeddings[i] } : {}),
    score: face.score,
    ...(face.faceScore === undefined ? {} : { faceScore: face.faceScore }),
  }));
}

/**
 * Finds the faces of an image, with the models wherever ./model-runner.ts says (this thread unless set).
 *
 * @param image decoded RGB pixels (see {@link decodeRgb})
 * @returns the faces with a full landmark fit and a descriptor, largest first (empty when there is none)
 */
export async function analyzeFaces(image: RgbImage): Promise<FaceAnalysis> {
  const modelFaces = await (faceModelRunner() ?? detectFacesHere)(image);
  const faces: DetectedFace[] = [];
  for (const face of modelFaces) {
    const mesh = face.mesh;
    if (mesh.length < 468 || !face.embedding || face.embedding.length === 0) continue;
    if ((face.faceScore ?? face.score) < MIN_FACE_CONFIDENCE) continue;
    const xs = mesh.map((p) => p[0]);
    const ys = mesh.map((p) => p[1]);
    const x = Math.min(...xs);
    const y = Math.min(...ys);
    const eyeA = mid(at(mesh, MESH.eyeA[0]), at(mesh, MESH.eyeA[1]));
    const eyeB = mid(at(mesh, MESH.eyeB[0]), at(mesh, MESH.eyeB[1]));
    const eyes: [Point, Point] = eyeA.x <= eyeB.x ? [eyeA, eyeB] : [eyeB, eyeA];
    faces.push({
      box: { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y },
      confidence: Math.min(1, face.score),
      eyes,
      nose: at(mesh, MESH.noseTip),
      mouth: mid(at(mesh, MESH.lipTop), at(mesh, MESH.lipBottom)),
      chin: at(mesh, MESH.chin),
      forehead: at(mesh, MESH.forehead),
      rollDegrees: (Math.atan2(eyes[1].y - eyes[0].y, eyes[1].x - eyes[0].x) * 180) / Math.PI,
      descriptor: normalize(face.embedding),
    });
  }
  faces.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height);
  return { width: image.width, height: image.height, faces };
}

/** Side at which the person matte is computed, in px: the selfie model works at 256 px, finer input is wasted. */
const MATTE_SIDE = 512;

/**
 * The person matte of an image: 0 = background, 255 = person, one byte per pixel at the image's own size (the
 * model's output at ≤ 512 px, upscaled smoothly; edges are refined by the caller, see adapters/image-providers/local-matte.ts).
 *
 * @throws {Error} when the segmentation model produced nothing
 */
export async function personMatte(image: RgbImage): Promise<Buffer> {
  const human = await vision();
  const scale = Math.min(1, MATTE_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const small =
    scale < 1
      ? await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
          .resize(width, height)
          .raw()
          .toBuffer()
      : image.data;
  const { values, outWidth, outHeight } = await oneAtATime(async () => {
    const tensor = human.tf.tensor(new Int32Array(small), [1, height, width, 3], 'int32');
    let rgba: Awaited<ReturnType<typeof human.segmentation>>;
    try {
      rgba = await human.segmentation(tensor);
    } finally {
      human.tf.dispose(tensor);
    }
    if (!rgba) throw new Error('The segmentation model returned no matte');
    const data = (await rgba.data()) as Float32Array | Int32Array | Uint8Array;
    const [h, w] = rgba.shape.slice(-3, -1) as [number, number];
    human.tf.dispose(rgba);
    return { values: data, outWidth: w, outHeight: h };
  });
  const alpha = Buffer.alloc(outWidth * outHeight);
  for (let i = 0; i < alpha.length; i++)
    alpha[i] = Math.max(0, Math.min(255, Math.round(values[i * 4 + 3]!)));
  if (outWidth === image.width && outHeight === image.height) return alpha;
  return sharp(alpha, { raw: { width: outWidth, height: outHeight, channels: 1 } })
    .resize(image.width, image.height, { kernel: 'cubic' })
    .extractChannel(0)
    .raw()
    .toBuffer();
}
