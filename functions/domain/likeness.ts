/**
 * Likeness: how much a face looks like the customer's reference photos (docs/architecture.md §8 (faces)). Pure
 * vector math on face descriptors (unit-length faceres vectors), so the API, the workflow and the tests share it.
 *
 * Calibration (the fixtures of test/fixtures/photos, faceres on the wasm backend): cosine similarity between photos
 * of the same person 0.60-0.99; `biden.jpg` against the obama photos 0.37-0.53. {@link likenessOf} maps cosine
 * 0.25 → 0 and 0.75 → 100 linearly, so the same person scores about 70-100 and another person about 25-55; the
 * default threshold (config LIKENESS_THRESHOLD) is 55.
 */

/** Cosine at which likeness is 0. */
const COSINE_AT_ZERO = 0.25;
/** Cosine at which likeness is 100. */
const COSINE_AT_HUNDRED = 0.75;

/** Default minimum likeness of a delivered headshot, 0-100 (config LIKENESS_THRESHOLD). */
export const DEFAULT_LIKENESS_THRESHOLD = 55;

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalize(vector: readonly number[]): number[] {
  const length = Math.hypot(...vector);
  return length > 0 ? vector.map((v) => v / length) : vector.map(() => 0);
}

/** Cosine similarity of two descriptors, -1..1. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The customer's reference descriptor: the unit-length mean of the references' descriptors.
 *
 * @throws {Error} when no descriptor is given
 */
export function meanDescriptor(descriptors: readonly (readonly number[])[]): number[] {
  const first = descriptors[0];
  if (!first) throw new Error('meanDescriptor needs at least one descriptor');
  const sum = first.map((_, i) => descriptors.reduce((s, d) => s + (d[i] ?? 0), 0));
  return normalize(sum);
}

/** Likeness 0-100 of a cosine similarity (see the module comment for the calibration). */
export function likenessFromCosine(similarity: number): number {
  const t = (similarity - COSINE_AT_ZERO) / (COSINE_AT_HUNDRED - COSINE_AT_ZERO);
  return Math.round(Math.max(0, Math.min(1, t)) * 100);
}

/** Likeness 0-100 of a face descriptor against the reference descriptor. */
export function likenessOf(descriptor: readonly number[], reference: readonly number[]): number {
  return likenessFromCosine(cosine(descriptor, reference));
}

/** Descriptors travel and rest as little-endian float32 bytes (4 KB for 1024 values), base64 in JSON. */
export function encodeDescriptor(descriptor: readonly number[]): string {
  return Buffer.from(new Float32Array(descriptor).buffer).toString('base64');
}

/** The inverse of {@link encodeDescriptor}. */
export function decodeDescriptor(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  const count = Math.floor(bytes.length / 4);
  return Array.from({ length: count }, (_, i) => bytes.readFloatLE(i * 4));
}

/**
 * A headshot that does not look like its customer: no face in it, or likeness under the threshold (config
 * LIKENESS_THRESHOLD). Thrown by the GenerateHeadshot task before anything is stored; the workflow matches its
 * `name`, generates that slot once more, and refunds the slot if the second headshot fails too.
 */
export class LikenessRejectedError extends Error {
  override readonly name = 'LikenessRejected';
  constructor(
    message: string,
    /** The headshot's likeness, 0-100 (`undefined` when it has no face). */
    readonly likeness?: number,
  ) {
    super(message);
  }
}
