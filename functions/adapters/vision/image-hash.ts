import phash from 'sharp-phash';
import type { RgbImage } from '../support/pixels';

/**
 * The perceptual hash the duplicate check compares (functions/domain/photo-checks.ts, `duplicate`;
 * docs/decisions/006-duplicate-photos.md): sharp-phash 2.2.0 (MIT), the DCT hash of pHash — the picture in grey,
 * squeezed to 32×32, its 8×8 lowest frequencies (without the DC term) each compared with their mean, 64 bits.
 * Re-encoding, resizing and format changes move a few of them; another photo, even of the same person in the
 * same pose, moves many.
 *
 * It is taken of the photo's normalized copy (EXIF-upright, long side ≤ 1024 px: functions/adapters/images.ts),
 * the pixels the face models see, so a copy stored rotated with an EXIF Orientation tag, or as HEIC, hashes like
 * the original.
 */

/**
 * The 64-bit perceptual hash of decoded pixels, as 16 lower-case hex digits (most significant bit first).
 *
 * @param image upright RGB pixels (3 channels)
 * @throws {Error} sharp's, when the pixel buffer does not match its dimensions
 */
export async function perceptualHash(image: RgbImage): Promise<string> {
  const bits = await phash(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
  let hex = '';
  for (let i = 0; i < bits.length; i += 4) hex += parseInt(bits.slice(i, i + 4), 2).toString(16);
  return hex;
}
