import { decodeFaceCrop, faceCropCorrelation } from './face-crops';
import { cosine } from './likeness';

/**
 * Duplicate photos (docs/decisions/006-duplicate-photos.md, docs/decisions/024-near-duplicates.md): two uploads of
 * the same picture — re-encoded, resized, rotated by an EXIF tag, saved as HEIC, letterboxed, cropped, upscaled with
 * grain — give the image provider nothing new, and two copies among three reference photos would weigh one pose and
 * one light twice. Two tests, either suffices: the upright pictures' 64-bit perceptual hashes
 * (functions/adapters/vision/image-hash.ts) close in Hamming distance (copies of the whole frame), or the largest
 * faces' identity descriptors close AND their aligned face crops (functions/adapters/vision/face-crop.ts,
 * ./face-crops.ts) alike (copies in another frame). Pure: the photo checks (functions/domain/photo-checks.ts) apply it
 * to one check request's photos and to one generation's.
 */

/**
 * Two photos whose perceptual hashes differ in at most this many of 64 bits are the same picture. Measured on the
 * fixtures (test/fixtures/photos, test/fixtures/faces; the decision record has every figure): re-encoded (JPEG
 * quality 60 and 30), halved, EXIF-rotated and HEIC copies lie 0-1 bits from their original; the closest two
 * different photos, including the same person in near-identical poses, 18 bits apart.
 */
export const DUPLICATE_MAX_DISTANCE = 8;

/**
 * Two faces whose aligned crops correlate at least this much ({@link faceCropCorrelation}) are the same picture, when
 * their descriptors also agree ({@link SAME_PICTURE_MIN_COSINE}). Measured on the fixtures
 * (test/unit/duplicate-photos.test.ts; docs/decisions/024-near-duplicates.md): copies resized, recompressed,
 * letterboxed, cropped and upscaled with grain 0.934 or more; two different photos of one person at most 0.877.
 */
export const FACE_CROP_MIN_CORRELATION = 0.91;

/**
 * The descriptors' cosine two faces need before their crops are compared: copies of one picture measure 0.966 or
 * more on the fixtures, while different photos of one person reach 0.987 too, so the descriptor alone cannot tell a
 * copy from a photo of the same sitting; it keeps two people's look-alike crops apart (docs/decisions/024).
 */
export const SAME_PICTURE_MIN_COSINE = 0.94;

const POPCOUNT = Array.from({ length: 16 }, (_, n) => (n & 1) + ((n >> 1) & 1) + ((n >> 2) & 1) + (n >> 3));

/**
 * The Hamming distance of two hashes of equal length written in hex: the number of bits that differ.
 *
 * @throws {RangeError} when the lengths differ or a character is not a hex digit
 */
export function hashDistance(a: string, b: string): number {
  if (a.length !== b.length) throw new RangeError(`Hashes of different lengths: ${a.length}, ${b.length}`);
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    const x = parseInt(a[i]!, 16);
    const y = parseInt(b[i]!, 16);
    if (Number.isNaN(x) || Number.isNaN(y)) throw new RangeError(`Not a hex hash: ${a}, ${b}`);
    bits += POPCOUNT[x ^ y]!;
  }
  return bits;
}

/** What the duplicate check compares of one photo (a photo check's facts have these fields). */
export interface PictureSignature {
  /** The upright picture's perceptual hash, 16 hex digits. */
  imageHash?: string;
  /** The largest face's aligned crop, base64 (./face-crops.ts). */
  faceCrop?: string;
  /** The largest face's identity descriptor (unit length). */
  descriptor?: readonly number[];
}

/**
 * Whether two photos are the same picture: hashes within {@link DUPLICATE_MAX_DISTANCE}, or descriptors at
 * {@link SAME_PICTURE_MIN_COSINE} or more with face crops correlating at {@link FACE_CROP_MIN_CORRELATION} or more.
 * A part missing on either side (a check stored before it was kept, no face) is not compared.
 *
 * @throws {RangeError} for a malformed hash or crop
 */
export function samePicture(a: PictureSignature, b: PictureSignature): boolean {
  if (a.imageHash && b.imageHash && hashDistance(a.imageHash, b.imageHash) <= DUPLICATE_MAX_DISTANCE)
    return true;
  if (!a.faceCrop || !b.faceCrop || !a.descriptor || !b.descriptor) return false;
  if (cosine(a.descriptor, b.descriptor) < SAME_PICTURE_MIN_COSINE) return false;
  return (
    faceCropCorrelation(decodeFaceCrop(a.faceCrop), decodeFaceCrop(b.faceCrop)) >= FACE_CROP_MIN_CORRELATION
  );
}

/**
 * Which photos of a set are copies of another one. The photos are taken best score first (the earlier one on a
 * tie); each is the original of its picture unless it is the same picture ({@link samePicture}) as an original
 * already taken (the best-scoring such one), so of every group of copies the best one is kept, whatever the upload
 * order.
 *
 * @param photos each photo's signature; `undefined` for photos that take no part (rejected)
 * @param scores each photo's score (0-100), same order
 * @returns for each photo, the index of the photo it copies, or `undefined` for an original or a photo not taking part
 */
export function duplicatesOf(
  photos: readonly (PictureSignature | undefined)[],
  scores: readonly number[],
): (number | undefined)[] {
  const order = photos
    .flatMap((photo, i) => (photo ? [{ photo, i }] : []))
    .sort((a, b) => (scores[b.i] ?? 0) - (scores[a.i] ?? 0) || a.i - b.i);
  const originals: typeof order = [];
  const copies: (number | undefined)[] = photos.map(() => undefined);
  for (const entry of order) {
    const original = originals.find((o) => samePicture(entry.photo, o.photo));
    if (original) copies[entry.i] = original.i;
    else originals.push(entry);
  }
  return copies;
}
