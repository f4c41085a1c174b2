/**
 * The aligned face chip an identity network reads: the face turned so its eyes are level, scaled by the
 * eye-to-mouth distance and placed where dlib's face chips put it, resampled to a small square. Alignment matters:
 * the descriptor nets were trained on chips framed this way, and a loose or tilted crop moves the descriptor by more
 * than a different face does.
 *
 * Framing (face-api's `FaceLandmarks.alignDlib`, which reproduces dlib's `get_face_chip_details`): the chip's side is
 * the mean eye-to-mouth distance / 0.45; the centroid of the two eye centres and the mouth sits at 50 % across and
 * 43 % down (https://github.com/vladmandic/face-api/blob/master/src/classes/FaceLandmarks.ts).
 */

/** A point in image pixels. */
export interface ChipPoint {
  x: number;
  y: number;
}

/** The landmarks a chip is framed by, in the image's pixels. */
export interface ChipLandmarks {
  /** Eye centres, the one on the image's left first. */
  eyes: readonly [ChipPoint, ChipPoint];
  mouth: ChipPoint;
}

/** Chip side / mean eye-to-mouth distance (face-api `relScale` = 0.45). */
const SIDE_PER_EYE_TO_MOUTH = 1 / 0.45;
/** Where the landmarks' centroid sits in the chip, as shares of its side (face-api `relX`, `relY`). */
const CENTROID_AT = { x: 0.5, y: 0.43 } as const;

/**
 * The projective transform (tfjs `image.transform`'s 8 values, `[a0, a1, a2, b0, b1, b2, c0, c1]`) that maps each
 * pixel (u, v) of a `size`-px chip to the image point it samples: x = a0·u + a1·v + a2, y = b0·u + b1·v + b2 — a
 * rotation by the eye line's angle, a scale and a shift (c0 = c1 = 0).
 *
 * @param size the chip's side, in px
 */
export function chipTransform(landmarks: ChipLandmarks, size: number): number[] {
  const [a, b] = landmarks.eyes;
  const { mouth } = landmarks;
  const eyeToMouth =
    (Math.hypot(mouth.x - a.x, mouth.y - a.y) + Math.hypot(mouth.x - b.x, mouth.y - b.y)) / 2;
  const side = eyeToMouth * SIDE_PER_EYE_TO_MOUTH;
  const cx = (a.x + b.x + mouth.x) / 3;
  const cy = (a.y + b.y + mouth.y) / 3;
  const angle = Math.atan2(b.y - a.y, b.x - a.x);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const k = side / size;
  // Chip offset (du, dv) from the centroid's place, in image pixels, turned by the eye line's angle.
  const du = -CENTROID_AT.x * side;
  const dv = -CENTROID_AT.y * side;
  return [k * cos, -k * sin, cx + du * cos - dv * sin, k * sin, k * cos, cy + du * sin + dv * cos, 0, 0];
}
