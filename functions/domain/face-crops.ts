/**
 * Aligned face crops, compared (docs/decisions/024-near-duplicates.md): the duplicate check's way to see one picture
 * in two uploads when a whole-picture hash cannot (letterboxed, cropped, upscaled with grain). Each photo keeps a small
 * grey crop framed on its largest face's landmarks (functions/adapters/vision/face-crop.ts makes it); two crops of
 * copies of one picture show the same pixels around the face, two photos of a sitting show the same face in another
 * pose, light, hair and background. Pure.
 *
 * The landmarks of one face found in two copies disagree by up to a quarter in scale (the face mesh on a face shrunk
 * by letterboxing: `biden.jpg`), by several px in place, and by up to 9° in roll (`person05-1.jpg` cropped against
 * upscaled), so the comparison searches a range of scales and shifts for the best match, and the crop is not turned
 * by the eye line: a copy of an upright picture is never turned, and the roll measured on it would turn it.
 */

/** The crop's side, in cells (grey bytes, row-major): 32 × 32 = 1,024 bytes, 1,368 characters of base64. */
export const FACE_CROP_SIDE = 32;

/**
 * The byte of a cell outside the picture (a crop framed near an edge, a letterbox's bar is inside). Picture cells are
 * 1-255, so no mask is stored beside the crop.
 */
export const OUTSIDE_PICTURE = 0;

/** Relative scales searched (b's crop against a's), 4 % apart from 0.76 to 1.32: the landmarks' scale jitter. */
const SCALES = Array.from({ length: 15 }, (_, k) => 1.04 ** (k - 7));
/** Shifts searched, in cells each way (±3 of 32: ±9 % of the crop). */
const MAX_SHIFT = 3;
/** Fewest cells inside both pictures for a match to count (40 % of the crop): a sliver correlates by chance. */
const MIN_OVERLAP = Math.round(FACE_CROP_SIDE * FACE_CROP_SIDE * 0.4);

/**
 * Decodes a stored crop.
 *
 * @throws {RangeError} when it is not {@link FACE_CROP_SIDE}² bytes of base64
 */
export function decodeFaceCrop(base64: string): Uint8Array {
  const bytes = Uint8Array.from(Buffer.from(base64, 'base64'));
  if (bytes.length !== FACE_CROP_SIDE * FACE_CROP_SIDE)
    throw new RangeError(`A face crop has ${FACE_CROP_SIDE ** 2} bytes, not ${bytes.length}`);
  return bytes;
}

/** `crop` resampled about its centre at `scale` (bilinear), NaN where it has no picture. */
function rescaled(crop: Uint8Array, scale: number): Float32Array {
  const side = FACE_CROP_SIDE;
  const centre = (side - 1) / 2;
  const out = new Float32Array(side * side).fill(Number.NaN);
  for (let y = 0; y < side; y++) {
    const sy = (y - centre) * scale + centre;
    const y0 = Math.floor(sy);
    if (y0 < 0 || y0 + 1 >= side) continue;
    const fy = sy - y0;
    for (let x = 0; x < side; x++) {
      const sx = (x - centre) * scale + centre;
      const x0 = Math.floor(sx);
      if (x0 < 0 || x0 + 1 >= side) continue;
      const fx = sx - x0;
      const i = y0 * side + x0;
      const p = crop[i]!,
        q = crop[i + 1]!,
        r = crop[i + side]!,
        s = crop[i + side + 1]!;
      // A cell next to the picture's edge would blend in the outside's 0: it is outside too.
      if (p === OUTSIDE_PICTURE || q === OUTSIDE_PICTURE || r === OUTSIDE_PICTURE || s === OUTSIDE_PICTURE)
        continue;
      out[y * side + x] = (p * (1 - fx) + q * fx) * (1 - fy) + (r * (1 - fx) + s * fx) * fy;
    }
  }
  return out;
}

/** Pearson's correlation of `a` and `b` shifted by (dx, dy) over the cells inside both, or -1 with too few. */
function correlationAt(a: Uint8Array, b: Float32Array, dx: number, dy: number): number {
  const side = FACE_CROP_SIDE;
  let n = 0,
    sa = 0,
    sb = 0,
    saa = 0,
    sbb = 0,
    sab = 0;
  for (let y = Math.max(0, -dy); y < Math.min(side, side - dy); y++) {
    for (let x = Math.max(0, -dx); x < Math.min(side, side - dx); x++) {
      const p = a[y * side + x]!;
      const q = b[(y + dy) * side + x + dx]!;
      if (p === OUTSIDE_PICTURE || Number.isNaN(q)) continue;
      n++;
      sa += p;
      sb += q;
      saa += p * p;
      sbb += q * q;
      sab += p * q;
    }
  }
  if (n < MIN_OVERLAP) return -1;
  const variance = (saa - (sa * sa) / n) * (sbb - (sb * sb) / n);
  return variance > 0 ? (sab - (sa * sb) / n) / Math.sqrt(variance) : -1;
}

/**
 * How alike two aligned face crops are: the highest correlation (Pearson's, -1 to 1) of their grey cells over the
 * scales and shifts searched, counting only cells inside both pictures. Copies of one picture measure 0.93-0.99 on
 * the fixtures, two photos of one person at most 0.88 (docs/decisions/024-near-duplicates.md). About 750 correlations
 * of 1,024 cells: a few ms.
 *
 * @param a, b crops as {@link decodeFaceCrop} returns them
 * @returns -1 when no placement overlaps enough or a crop is flat
 */
export function faceCropCorrelation(a: Uint8Array, b: Uint8Array): number {
  let best = -1;
  for (const scale of SCALES) {
    const warped = rescaled(b, scale);
    for (let dy = -MAX_SHIFT; dy <= MAX_SHIFT; dy++)
      for (let dx = -MAX_SHIFT; dx <= MAX_SHIFT; dx++)
        best = Math.max(best, correlationAt(a, warped, dx, dy));
  }
  return best;
}
