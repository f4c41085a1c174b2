import sharp from 'sharp';
import type { Style } from '../../domain/styles';

/**
 * The offline provider's colour grade per style, applied to the person:
 * professional = neutral-cool, crisp, lightly desaturated; business-casual = warm, bright, soft; creative =
 * saturated, contrasty (plus split toning and a deeper vignette in ./local.ts).
 */

export type Matrix3 = [[number, number, number], [number, number, number], [number, number, number]];

interface Grade {
  saturation: number;
  brightness: number;
  /** `linear(a, b)`: contrast slope and offset (0-255 scale). */
  contrast: [number, number];
  /** Colour balance (rows = output R, G, B). */
  balance: Matrix3;
  /** Opacity of the black vignette at the corners. */
  vignette: number;
}

export const GRADES: Record<Style, Grade> = {
  professional: {
    saturation: 0.88,
    brightness: 1.02,
    contrast: [1.1, -10],
    balance: [
      [0.96, 0.03, 0.01],
      [0.01, 0.98, 0.01],
      [0, 0.02, 1.05],
    ],
    vignette: 0.3,
  },
  'business-casual': {
    saturation: 1.05,
    brightness: 1.07,
    contrast: [0.94, 10],
    balance: [
      [1.07, 0.02, 0],
      [0.01, 1.01, 0],
      [0, 0, 0.9],
    ],
    vignette: 0.15,
  },
  creative: {
    saturation: 1.2,
    brightness: 1.02,
    contrast: [1.16, -18],
    balance: [
      [1.08, -0.02, 0.02],
      [-0.02, 1.0, 0.04],
      [0.02, 0.06, 1.06],
    ],
    vignette: 0.45,
  },
};

/** Luma-preserving saturation as a colour matrix (Rec. 709 weights): one `recomb` instead of an LCh round trip. */
export function saturationMatrix(s: number): Matrix3 {
  const [r, g, b] = [0.2126, 0.7152, 0.0722].map((w) => w * (1 - s)) as [number, number, number];
  return [
    [r + s, g, b],
    [r, g + s, b],
    [r, g, b + s],
  ];
}

export function multiply(a: Matrix3, b: Matrix3): Matrix3 {
  return a.map((row) => [0, 1, 2].map((j) => row.reduce((sum, v, k) => sum + v * b[k]![j]!, 0))) as Matrix3;
}

/**
 * The style's grade of RGB pixels: one colour matrix and one linear contrast/brightness step.
 *
 * @param brightnessJitter per-slot factor around 1
 */
export function grade(
  rgb: Buffer,
  side: number,
  style: Style,
  brightnessJitter: number,
  strength = 1,
): Promise<Buffer> {
  const g = GRADES[style];
  const mix = (v: number, neutral: number) => neutral + (v - neutral) * strength;
  const brightness = mix(g.brightness, 1) * brightnessJitter;
  const identity: Matrix3 = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  const matrix = multiply(saturationMatrix(mix(g.saturation, 1)), g.balance).map((row, i) =>
    row.map((v, j) => mix(v, identity[i]![j]!)),
  ) as Matrix3;
  return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .recomb(matrix)
    .linear(mix(g.contrast[0], 1) * brightness, mix(g.contrast[1], 0) * brightness)
    .raw()
    .toBuffer();
}
