import sharp from 'sharp';
import { rotatePoint, type Frame } from '../../domain/framing';
import type { RgbImage } from './pixels';

/**
 * Cuts a framed square (functions/domain/framing.ts) out of decoded pixels and scales it, rotating first when the
 * frame levels the eyes. Parts of the frame beyond the photo repeat its edge pixels (`extendWith: 'copy'`), so a
 * suit continues to the bottom of the frame instead of stopping in a hard line. A matte is copied only downwards:
 * past the photo's left, right and top edges it fades out over a few percent of the frame, so a shoulder the photo
 * cut off ends softly instead of as a shelf of repeated pixels.
 */

/** A framed square: RGB and, when a matte was given, its alpha (one byte per pixel). */
export interface FramedPixels {
  rgb: Buffer;
  alpha?: Buffer;
  side: number;
}

async function transform(
  data: Buffer,
  width: number,
  height: number,
  channels: 1 | 3,
  frame: Frame,
  side: number,
): Promise<{ data: Buffer; inside: { left: number; top: number; right: number } }> {
  let image = sharp(data, { raw: { width, height, channels } });
  let w = width;
  let h = height;
  let pivot = frame.pivot;
  if (frame.angle !== 0) {
    const rotated = await image
      .rotate(frame.angle, { background: { r: 0, g: 0, b: 0, alpha: 1 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const centre = { x: width / 2, y: height / 2 };
    const moved = rotatePoint(pivot, centre, frame.angle);
    pivot = {
      x: moved.x - centre.x + rotated.info.width / 2,
      y: moved.y - centre.y + rotated.info.height / 2,
    };
    w = rotated.info.width;
    h = rotated.info.height;
    image = sharp(rotated.data, { raw: { width: w, height: h, channels: rotated.info.channels } });
    if (rotated.info.channels !== channels)
      image = channels === 1 ? image.extractChannel(0) : image.removeAlpha();
  }
  let left = Math.round(frame.left + (pivot.x - frame.pivot.x));
  let top = Math.round(frame.top + (pivot.y - frame.pivot.y));
  const size = Math.max(2, Math.round(frame.side));
  const pad = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    right: Math.max(0, left + size - w),
    bottom: Math.max(0, top + size - h),
  };
  if (pad.left || pad.top || pad.right || pad.bottom) {
    // extend() turns one channel into three: keep the first (all three are equal).
    let extended = image.extend({ ...pad, extendWith: 'copy' });
    if (channels === 1) extended = extended.extractChannel(0);
    const { data: padded, info } = await extended.raw().toBuffer({ resolveWithObject: true });
    image = sharp(padded, { raw: { width: info.width, height: info.height, channels: info.channels } });
    left += pad.left;
    top += pad.top;
  }
  let out = image
    .extract({ left, top, width: size, height: size })
    .resize(side, side, { kernel: channels === 1 ? 'cubic' : 'lanczos3' });
  if (channels === 1) out = out.extractChannel(0);
  // Where the photo's own pixels are in the output (beyond: copies of its edge).
  const scale = side / size;
  const inside = {
    left: (pad.left - left) * scale,
    top: (pad.top - top) * scale,
    right: (pad.left + w - left) * scale,
  };
  return { data: await out.raw().toBuffer(), inside };
}

/** Fades a matte past the photo's left, right and top edges (see the module comment). */
function fadeOutside(
  alpha: Buffer,
  side: number,
  inside: { left: number; top: number; right: number },
): Buffer {
  const reach = side * 0.04;
  for (let y = 0; y < side; y++) {
    const dy = Math.max(0, inside.top - y);
    for (let x = 0; x < side; x++) {
      const dx = Math.max(0, inside.left - x, x - (inside.right - 1));
      const d = Math.hypot(dx, dy);
      if (d > 0) alpha[y * side + x] = Math.round(alpha[y * side + x]! * Math.exp(-d / reach));
    }
  }
  return alpha;
}

/**
 * The frame's pixels at `side` × `side`.
 *
 * @param alpha optional matte of `image` (one byte per pixel), transformed the same way
 */
export async function extractFrame(
  image: RgbImage,
  frame: Frame,
  side: number,
  alpha?: Buffer,
): Promise<FramedPixels> {
  const [rgb, matte] = await Promise.all([
    transform(image.data, image.width, image.height, 3, frame, side),
    alpha ? transform(alpha, image.width, image.height, 1, frame, side) : undefined,
  ]);
  return { rgb: rgb.data, alpha: matte && fadeOutside(matte.data, side, matte.inside), side };
}
