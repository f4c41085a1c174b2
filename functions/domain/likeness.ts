/**
 * Likeness: how much a face looks like the customer's reference photos (docs/architecture.md §8 (faces)). Pure
 * vector math on face descriptors (unit-length vectors of {@link DESCRIPTOR_MODEL}), so the API, the workflow and the
 * tests share it.
 *
 * Calibration (docs/decisions/002-identity-model.md; `BENCH_ONLY=identity npm run bench`, 9 people, 37 photos, the
 * wasm backend): cosine similarity of one face to a customer's mean of 3 references — same person 0.959-0.990
 * (median 0.982), different people 0.751-0.924. The gate's threshold with at most 1 % false accepts at the fewest
 * false rejects is cosine {@link GATE_COSINE} (0 % and 0 % on that set); a photo against the mean of the rest of its
 * set (the `different_person` flag) separates the same way, at cosine {@link DIFFERENT_PERSON_COSINE}.
 *
 * The gate holds for retouched faces too (docs/decisions/026-likeness-under-retouching.md; `npm run
 * eval:likeness-retouch`): the same photos smoothed, relit, colour-graded, on a new background or transparent, upscaled and all of
 * these at once, each in a 512 px headshot square, pass 1,782 of 1,788 times (the retouches an edit asks for: every
 * time) and no impostor changed the same way passes (0 of 12,408; highest cosine 0.928). Lost detail (smoothing, an
 * upscale) is what lowers a genuine face's cosine; test/unit/likeness-retouch.test.ts replays the measurement.
 *
 * The 0-100 likeness customers see is linear in cosine through two calibration points: the gate's threshold maps to
 * the default LIKENESS_THRESHOLD ({@link DEFAULT_LIKENESS_THRESHOLD}, 55), the same person's median to 90. So cosine
 * 0.879 → 0 and 0.993 → 100 (clamped): the same person scores about 70-100, the closest other person of the set 39,
 * a typical other person 0.
 */

/** The model that makes every descriptor the product stores or compares: stored with each one (issue 24, point 3). */
export const DESCRIPTOR_MODEL = 'faceapi-resnet128@1';

/** Cosine at which a headshot passes the likeness gate (calibrated: at most 1 % false accepts, fewest rejects). */
export const GATE_COSINE = 0.942;
/** The same person's median cosine to a mean of 3 references (the calibration's second point). */
const GENUINE_MEDIAN_COSINE = 0.982;
/** Under this cosine to the mean of the rest of the set, a photo shows someone else (calibrated as the gate). */
export const DIFFERENT_PERSON_COSINE = 0.941;
/**
 * Under this cosine, two single photos show different people: the "pairs" decision of
 * docs/decisions/002-identity-model.md (every two photos of the set, 80 genuine and 586 impostor: same person
 * 0.942-0.987, different people 0.737-0.919; at most 1 % false accepts at the fewest false rejects, 0 % and 0 %).
 * The identity check of a set uses it where only two photos are left to compare (docs/decisions/012-small-set-identity.md).
 */
export const SAME_PERSON_PAIR_COSINE = 0.931;

/** Default minimum likeness of a delivered headshot, 0-100 (config LIKENESS_THRESHOLD): {@link GATE_COSINE}. */
export const DEFAULT_LIKENESS_THRESHOLD = 55;
/** The likeness of the same person's median cosine. */
const GENUINE_MEDIAN_LIKENESS = 90;

/** Likeness points per unit of cosine, and the cosine at which likeness is 0. */
const SLOPE = (GENUINE_MEDIAN_LIKENESS - DEFAULT_LIKENESS_THRESHOLD) / (GENUINE_MEDIAN_COSINE - GATE_COSINE);
const COSINE_AT_ZERO = GATE_COSINE - DEFAULT_LIKENESS_THRESHOLD / SLOPE;

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
  return Math.round(Math.max(0, Math.min(100, (similarity - COSINE_AT_ZERO) * SLOPE)));
}

/** Likeness 0-100 of a face descriptor against the reference descriptor. */
export function likenessOf(descriptor: readonly number[], reference: readonly number[]): number {
  return likenessFromCosine(cosine(descriptor, reference));
}

/** Descriptors travel and rest as little-endian float32 bytes (512 B for 128 values), base64 in JSON. */
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
 * LIKENESS_THRESHOLD). Thrown by the FinishHeadshot task before anything is stored; the workflow matches its
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
