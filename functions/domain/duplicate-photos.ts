/**
 * Duplicate photos (docs/decisions/006-duplicate-photos.md): two uploads of the same picture — re-encoded, resized,
 * rotated by an EXIF tag, saved as HEIC — give the image provider nothing new, and two copies among three reference
 * photos would weigh one pose and one light twice. Each photo's upright pixels have a 64-bit perceptual hash
 * (functions/adapters/vision/image-hash.ts); two hashes close in Hamming distance are the same picture. Pure: the
 * photo checks (functions/domain/photo-checks.ts) apply it to one check request's photos and to one generation's.
 */

/**
 * Two photos whose perceptual hashes differ in at most this many of 64 bits are the same picture. Measured on the
 * fixtures (test/fixtures/photos, test/fixtures/faces; the decision record has every figure): re-encoded (JPEG
 * quality 60 and 30), halved, EXIF-rotated and HEIC copies lie 0-1 bits from their original; the closest two
 * different photos, including the same person in near-identical poses, 18 bits apart.
 */
export const DUPLICATE_MAX_DISTANCE = 8;

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

/**
 * Which photos of a set are copies of another one. The photos are taken best score first (the earlier one on a
 * tie); each is the original of its picture unless it lies within {@link DUPLICATE_MAX_DISTANCE} of an original
 * already taken (the nearest), so of every group of copies the best one is kept, whatever the upload order.
 *
 * @param hashes each photo's perceptual hash; `undefined` for photos that take no part (rejected, or no hash)
 * @param scores each photo's score (0-100), same order
 * @returns for each photo, the index of the photo it copies, or `undefined` for an original or a photo without a hash
 */
export function duplicatesOf(
  hashes: readonly (string | undefined)[],
  scores: readonly number[],
): (number | undefined)[] {
  const order = hashes
    .flatMap((hash, i) => (hash ? [{ hash, i }] : []))
    .sort((a, b) => (scores[b.i] ?? 0) - (scores[a.i] ?? 0) || a.i - b.i);
  const originals: { hash: string; i: number }[] = [];
  const copies: (number | undefined)[] = hashes.map(() => undefined);
  for (const photo of order) {
    let nearest: { i: number; distance: number } | undefined;
    for (const original of originals) {
      const distance = hashDistance(photo.hash, original.hash);
      if (distance <= DUPLICATE_MAX_DISTANCE && (!nearest || distance < nearest.distance))
        nearest = { i: original.i, distance };
    }
    if (nearest) copies[photo.i] = nearest.i;
    else originals.push(photo);
  }
  return copies;
}
