import sharp from 'sharp';

/**
 * Decoded pixels, with sharp only: the common currency of the vision models (./vision-models/), the crops
 * (./crop.ts), the vision adapter and the offline image provider. Kept apart from the models so code that only crops
 * (PrepareReferences on its normal path) does not load the face models' code.
 */

/** Decoded RGB pixels (3 channels, row-major). */
export interface RgbImage {
  data: Buffer;
  width: number;
  height: number;
}

/** Long side at which photos are analysed, in px: faces of 5% of the frame still span 50 px here. */
export const ANALYSIS_SIDE = 1024;

/**
 * Decodes an image for analysis: EXIF orientation applied, alpha dropped, fitted inside `maxSide` without enlarging.
 *
 * @throws {Error} when the bytes are not a decodable image
 */
export async function decodeRgb(bytes: Buffer, maxSide = ANALYSIS_SIDE): Promise<RgbImage> {
  const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
