import { FACE_CROP_SIDE, OUTSIDE_PICTURE } from '../../domain/face-crops';
import type { RgbImage } from '../support/pixels';
import type { ChipPoint } from '../support/vision-models/face-chip';

/**
 * The aligned face crop the duplicate check compares (functions/domain/face-crops.ts;
 * docs/decisions/024-near-duplicates.md): the photo's largest face framed as the identity net's chip frames it
 * (./support/vision-models/face-chip.ts: the side is the mean eye-to-mouth distance / 0.45, the centroid of the eyes
 * and the mouth at 50 % across and 43 % down), widened {@link FACE_CROP_ZOOM} times so hair, ears and the background
 * beside the face are in it, kept upright, in grey, averaged down to {@link FACE_CROP_SIDE} px. It is taken of the
 * same upright ≤ 1024 px pixels the face models see (adapters/images.ts `normalizedPixels`).
 */

/**
 * How much wider than the identity chip the crop is. The chip alone (zoom 1) is the face from brows to chin, much
 * alike in two photos of one person (correlation up to 0.91 on the fixtures); at 1.5 the hair and background tell
 * them apart (at most 0.88) while a cropped copy still keeps most of it in frame; at 2, a cropped copy loses too much
 * (docs/decisions/024-near-duplicates.md).
 */
export const FACE_CROP_ZOOM = 1.5;

/** Samples per cell along each axis: each cell is the mean of 4 × 4 bilinear samples, so grain averages out. */
const SUPERSAMPLING = 4;

/** The landmarks the crop is framed by, in the image's pixels. */
export interface CropLandmarks {
  /** Eye centres, either order. */
  eyes: readonly [ChipPoint, ChipPoint];
  mouth: ChipPoint;
}

/** Rec. 601 luma of pixel (x, y), bilinear between the four pixels around it. */
function lumaAt(image: RgbImage, x: number, y: number): number {
  const x0 = Math.min(image.width - 2, Math.floor(x));
  const y0 = Math.min(image.height - 2, Math.floor(y));
  const fx = x - x0;
  const fy = y - y0;
  const at = (px: number, py: number) => {
    const i = (py * image.width + px) * 3;
    return 0.299 * image.data[i]! + 0.587 * image.data[i + 1]! + 0.114 * image.data[i + 2]!;
  };
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * The aligned face crop of one face: {@link FACE_CROP_SIDE}² grey bytes, row-major, as base64 (what the photo check
 * stores in `facts.faceCrop`). Cells reaching outside the picture are {@link OUTSIDE_PICTURE}; the others 1-255.
 * About 16 k bilinear samples: a few ms beside the face models' ~0.3-1 s.
 *
 * @param image the upright pixels the landmarks were found in (3 channels, at least 2 × 2 px)
 */
export function faceCrop(image: RgbImage, landmarks: CropLandmarks): string {
  const [a, b] = landmarks.eyes;
  const { mouth } = landmarks;
  const eyeToMouth =
    (Math.hypot(mouth.x - a.x, mouth.y - a.y) + Math.hypot(mouth.x - b.x, mouth.y - b.y)) / 2;
  const side = (eyeToMouth / 0.45) * FACE_CROP_ZOOM;
  // The chip's centroid placement (50 % across, 43 % down), about which the crop is widened.
  const left = (a.x + b.x + mouth.x) / 3 - side / 2;
  const top = (a.y + b.y + mouth.y) / 3 - side / 2 + (0.5 - 0.43) * (side / FACE_CROP_ZOOM);
  const samples = FACE_CROP_SIDE * SUPERSAMPLING;
  const step = side / samples;
  const cells = new Uint8Array(FACE_CROP_SIDE * FACE_CROP_SIDE);
  for (let cy = 0; cy < FACE_CROP_SIDE; cy++) {
    for (let cx = 0; cx < FACE_CROP_SIDE; cx++) {
      let sum = 0;
      let inside = true;
      for (let j = 0; j < SUPERSAMPLING && inside; j++) {
        const y = top + (cy * SUPERSAMPLING + j + 0.5) * step;
        for (let i = 0; i < SUPERSAMPLING; i++) {
          const x = left + (cx * SUPERSAMPLING + i + 0.5) * step;
          if (x < 0 || y < 0 || x > image.width - 1 || y > image.height - 1) {
            inside = false;
            break;
          }
          sum += lumaAt(image, x, y);
        }
      }
      cells[cy * FACE_CROP_SIDE + cx] = inside
        ? Math.max(1, Math.min(255, Math.round(sum / SUPERSAMPLING ** 2)))
        : OUTSIDE_PICTURE;
    }
  }
  return Buffer.from(cells).toString('base64');
}
