import sharp from 'sharp';
import type { DetectedFace, RgbImage } from '../support/vision-models/faces';

/**
 * Image measurements of a face region, for the photo checks (functions/domain/photo-checks.ts decides what they
 * mean): how sharp it is and how it is exposed. Measured on the face, not the whole frame, because a blurred or
 * dark background is fine in a portrait while a blurred or dark face is not.
 */

/** What {@link measureFace} returns. */
export interface FaceMeasurements {
  /**
   * Sharpness: the variance of the Laplacian of the face's grey levels, with the face scaled to
   * {@link SHARPNESS_FACE_WIDTH} px wide so the number does not depend on the photo's resolution, and normalised
   * to the face's contrast so a dim face does not read as a blurred one.
   */
  sharpness: number;
  /** Mean luma of the face, 0-255 (Rec. 601). */
  luma: number;
  /** Share of the face's pixels that are clipped to white (luma ≥ 250), 0-1. */
  highlights: number;
}

/** Standard deviation of grey levels the sharpness is normalised to (a well-lit face spreads about this much). */
const REFERENCE_CONTRAST = 50;

/** Width the face is scaled to before measuring sharpness, in px. */
export const SHARPNESS_FACE_WIDTH = 160;

/**
 * Measures one face of an image.
 *
 * @param image the analysed pixels (the same ones {@link DetectedFace} coordinates refer to)
 */
export async function measureFace(image: RgbImage, face: DetectedFace): Promise<FaceMeasurements> {
  // The inner face (eyes to mouth), clipped to the frame: hair and background would dilute both numbers.
  const left = Math.max(0, Math.floor(face.box.x + face.box.width * 0.15));
  const top = Math.max(0, Math.floor(face.box.y + face.box.height * 0.2));
  const right = Math.min(image.width, Math.ceil(face.box.x + face.box.width * 0.85));
  const bottom = Math.min(image.height, Math.ceil(face.box.y + face.box.height * 0.9));
  const width = Math.max(1, right - left);
  const height = Math.max(1, bottom - top);
  const { data, info } = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .extract({ left: Math.min(left, image.width - 1), top: Math.min(top, image.height - 1), width, height })
    .resize({ width: SHARPNESS_FACE_WIDTH })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = info.width;
  const h = info.height;
  const channels = info.channels;
  const grey = (x: number, y: number) => data[(y * w + x) * channels]!;
  let sum = 0;
  let sumSq = 0;
  let clipped = 0;
  for (let i = 0; i < w * h; i++) {
    const v = data[i * channels]!;
    sum += v;
    sumSq += v * v;
    if (v >= 250) clipped++;
  }
  const luma = sum / (w * h);
  const contrast = Math.sqrt(Math.max(1, sumSq / (w * h) - luma * luma));
  let lapSum = 0;
  let lapSq = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const lap = grey(x - 1, y) + grey(x + 1, y) + grey(x, y - 1) + grey(x, y + 1) - 4 * grey(x, y);
      lapSum += lap;
      lapSq += lap * lap;
      n++;
    }
  }
  const mean = n > 0 ? lapSum / n : 0;
  const variance = n > 0 ? lapSq / n - mean * mean : 0;
  return {
    // Scaled to a face of grey-level spread REFERENCE_CONTRAST: a dim or flat face is not a blurred one.
    sharpness: variance * (REFERENCE_CONTRAST / contrast) ** 2,
    luma,
    highlights: clipped / (w * h),
  };
}
