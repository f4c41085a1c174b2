import sharp from 'sharp';

/**
 * A small, dependency-free face locator for the offline `local` provider: skin-tone segmentation on a thumbnail,
 * a morphological opening, hole filling and a distance transform. The face is the thickest solid skin region —
 * curtains, wood and walls of similar colour come in thin folds, hands are smaller — weighted towards the upper
 * centre where portraits and selfies put it. Good enough to frame a headshot from an ordinary portrait or selfie;
 * no identity, landmarks or guarantees (the `openai` provider does the real work in production). Fixed skin-colour
 * rules are a known weak spot for very dark or very pale skin and for coloured light: when no region qualifies, the
 * caller gets the upper-centre fallback, which still frames an ordinary selfie.
 */

/** A face's box in the pixels of the analysed image. */
export interface FaceBox {
  /** Centre, in px. */
  cx: number;
  cy: number;
  /** Size, in px. */
  width: number;
  height: number;
  /** True when found by skin segmentation; false for the fallback guess (upper centre). */
  detected: boolean;
}

/** Width of the analysis thumbnail, in px: faces of 4% of the width still span 8 px. */
const ANALYSIS_WIDTH = 200;

/** Skin test on one RGB pixel: the YCbCr skin cluster intersected with Kovač's RGB rule (daylight). */
function isSkin(r: number, g: number, b: number): boolean {
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  const ycbcr = y > 45 && cb >= 77 && cb <= 127 && cr >= 135 && cr <= 173;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const rgb = r > 95 && g > 40 && b > 20 && max - min > 15 && Math.abs(r - g) > 15 && r > g && r > b;
  return ycbcr && rgb;
}

/**
 * Morphological erosion or dilation with a 3×3 cross. An opening (erode, then dilate) cuts the one- or two-pixel
 * bridges that join a face to skin-coloured curtains or walls, and drops speckle.
 */
function morph(mask: Uint8Array, width: number, height: number, erode: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  const at = (x: number, y: number) =>
    x < 0 || y < 0 || x >= width || y >= height ? 0 : mask[y * width + x]!;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = at(x, y) + at(x + 1, y) + at(x - 1, y) + at(x, y + 1) + at(x, y - 1);
      out[y * width + x] = erode ? (sum === 5 ? 1 : 0) : sum > 0 ? 1 : 0;
    }
  }
  return out;
}

/** Sets the non-skin pixels no path of non-skin connects to the border (eyes, mouth, glasses): a face is solid. */
function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const outside = new Uint8Array(mask.length);
  const stack: number[] = [];
  const push = (i: number) => {
    if (!mask[i] && !outside[i]) {
      outside[i] = 1;
      stack.push(i);
    }
  };
  for (let x = 0; x < width; x++) {
    push(x);
    push((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    push(y * width);
    push(y * width + width - 1);
  }
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % width;
    if (x > 0) push(i - 1);
    if (x < width - 1) push(i + 1);
    if (i >= width) push(i - width);
    if (i < (height - 1) * width) push(i + width);
  }
  return outside.map((o) => (o ? 0 : 1));
}

/** Chamfer (3-4) distance of every mask pixel to the nearest non-mask pixel or border, in px. */
function distanceTransform(mask: Uint8Array, width: number, height: number): Float32Array {
  const big = 1e6;
  const d = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) d[i] = mask[i] ? big : 0;
  const get = (x: number, y: number) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : d[y * width + x]!);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!d[i]) continue;
      d[i] = Math.min(
        d[i]!,
        get(x - 1, y) + 3,
        get(x, y - 1) + 3,
        get(x - 1, y - 1) + 4,
        get(x + 1, y - 1) + 4,
      );
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!d[i]) continue;
      d[i] = Math.min(
        d[i]!,
        get(x + 1, y) + 3,
        get(x, y + 1) + 3,
        get(x + 1, y + 1) + 4,
        get(x - 1, y + 1) + 4,
      );
    }
  }
  return d.map((v) => v / 3);
}

/**
 * Finds the most face-like region of an upright image.
 *
 * @param image encoded image bytes (the normalized reference JPEG)
 * @returns the face box in the image's own pixels; `detected: false` with a guess (upper centre, a fifth of the
 *   short side) when nothing skin-like is thick enough to be a face.
 */
export async function locateFace(image: Buffer): Promise<FaceBox> {
  const { width: fullWidth = 1, height: fullHeight = 1 } = await sharp(image).metadata();
  const { data, info } = await sharp(image)
    .resize({ width: ANALYSIS_WIDTH })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const skin = new Uint8Array(width * height);
  for (let i = 0; i < skin.length; i++) {
    skin[i] = isSkin(data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!) ? 1 : 0;
  }
  const solid = fillHoles(morph(morph(skin, width, height, true), width, height, false), width, height);
  const distance = distanceTransform(solid, width, height);

  // The best centre: thick skin, weighted towards the horizontal centre and the upper part of the frame.
  let best = -1;
  let bestScore = 0;
  for (let i = 0; i < distance.length; i++) {
    const r = distance[i]!;
    if (r < 2) continue;
    const x = (i % width) / width;
    const y = Math.floor(i / width) / height;
    const central = 1 - Math.min(0.7, Math.abs(x - 0.5) * 1.2);
    const high = 1.15 - 0.6 * y;
    const s = r * central * high;
    if (s > bestScore) {
      bestScore = s;
      best = i;
    }
  }
  const scale = fullWidth / width;
  if (best < 0) {
    const side = Math.min(fullWidth, fullHeight) / 5;
    return { cx: fullWidth / 2, cy: fullHeight * 0.3, width: side, height: side * 1.3, detected: false };
  }
  // The inscribed circle of a face spans its cheeks: the face is about 2 radii wide and 1.3 widths tall.
  const radius = distance[best]!;
  const faceWidth = Math.min(2 * radius, width * 0.9) * scale;
  return {
    cx: ((best % width) + 0.5) * scale,
    cy: (Math.floor(best / width) + 0.5) * scale,
    width: faceWidth,
    height: faceWidth * 1.3,
    detected: true,
  };
}
