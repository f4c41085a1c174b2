import sharp from 'sharp';
import { rotatePoint, type Frame, type FramePoint } from '../../domain/framing';
import type { RgbImage } from './pixels';

/**
 * Cuts a framed square (functions/domain/framing.ts) out of decoded pixels and scales it, rotating first when the
 * frame levels the eyes. Parts of the frame beyond the photo repeat its edge pixels (`extendWith: 'copy'`), so a
 * frame holds pixels wherever it reaches. Those copies are not the photo: a caller compositing the crop (the offline
 * image provider) finds where each pixel came from with {@link framePixelSource} and fades its matte out before the
 * photo's edges, so no copy (a streak of repeated edge pixels) is shown.
 *
 * A rotated frame is padded BEFORE the rotation: rotating fills the new corners with black (and a matte with 0),
 * and padding after it would copy that fill into the frame, so a tilted photo's edges used to land in the frame as
 * hard straight lines (a pasted rectangle in the offline headshots). Padded first, the frame only ever holds the
 * photo's own pixels or copies of its edge.
 */

/** A framed square: RGB and, when a matte was given, its alpha (one byte per pixel). */
export interface FramedPixels {
  rgb: Buffer;
  alpha?: Buffer;
  side: number;
}

/** Pixels of margin kept between the frame and any fill, so resampling never reads a filled pixel. */
const MARGIN = 3;

/** The frame's corners in the photo's own (unrotated) pixels. */
function frameCorners(frame: Frame): FramePoint[] {
  const { left, top, side } = frame;
  return [
    { x: left, y: top },
    { x: left + side, y: top },
    { x: left + side, y: top + side },
    { x: left, y: top + side },
  ].map((corner) => rotatePoint(corner, frame.pivot, -frame.angle));
}

/** How far the frame reaches past each edge of a `width` × `height` photo, in px of the photo (0 when inside). */
export function frameOverflow(
  frame: Frame,
  width: number,
  height: number,
): { left: number; top: number; right: number; bottom: number } {
  const corners = frameCorners(frame);
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  return {
    left: Math.max(0, -Math.min(...xs)),
    top: Math.max(0, -Math.min(...ys)),
    right: Math.max(0, Math.max(...xs) - width),
    bottom: Math.max(0, Math.max(...ys) - height),
  };
}

async function transform(
  data: Buffer,
  width: number,
  height: number,
  channels: 1 | 3,
  frame: Frame,
  side: number,
): Promise<Buffer> {
  let image = sharp(data, { raw: { width, height, channels } });
  let w = width;
  let h = height;
  let pivot = frame.pivot;
  const size = Math.max(2, Math.round(frame.side));
  const rotated = frame.angle !== 0;
  // Unrotated: pad around the rounded square. Rotated: pad the photo so the tilted square (plus a margin) lies in it.
  const reach = frameOverflow(frame, width, height);
  let pad = {
    left: Math.max(0, -Math.round(frame.left)),
    top: Math.max(0, -Math.round(frame.top)),
    right: Math.max(0, Math.round(frame.left) + size - width),
    bottom: Math.max(0, Math.round(frame.top) + size - height),
  };
  if (rotated) {
    // Always a margin: the rotation's resampling near the photo's edge would blend in the fill.
    const grow = (v: number) => Math.ceil(v) + MARGIN;
    pad = {
      left: grow(reach.left),
      top: grow(reach.top),
      right: grow(reach.right),
      bottom: grow(reach.bottom),
    };
  }
  const extend = async () => {
    // extend() turns one channel into three: keep the first (all three are equal).
    let extended = image.extend({ ...pad, extendWith: 'copy' });
    if (channels === 1) extended = extended.extractChannel(0);
    const { data: padded, info } = await extended.raw().toBuffer({ resolveWithObject: true });
    image = sharp(padded, { raw: { width: info.width, height: info.height, channels: info.channels } });
    w = info.width;
    h = info.height;
  };
  const padded = pad.left || pad.top || pad.right || pad.bottom;
  let left: number;
  let top: number;
  if (rotated) {
    if (padded) await extend();
    const centre = { x: w / 2, y: h / 2 };
    const result = await image
      .rotate(frame.angle, { background: { r: 0, g: 0, b: 0, alpha: 1 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const moved = rotatePoint({ x: pivot.x + pad.left, y: pivot.y + pad.top }, centre, frame.angle);
    pivot = {
      x: moved.x - centre.x + result.info.width / 2,
      y: moved.y - centre.y + result.info.height / 2,
    };
    image = sharp(result.data, {
      raw: { width: result.info.width, height: result.info.height, channels: result.info.channels },
    });
    if (result.info.channels !== channels)
      image = channels === 1 ? image.extractChannel(0) : image.removeAlpha();
    left = Math.round(frame.left + (pivot.x - frame.pivot.x));
    top = Math.round(frame.top + (pivot.y - frame.pivot.y));
  } else {
    if (padded) await extend();
    left = Math.round(frame.left) + pad.left;
    top = Math.round(frame.top) + pad.top;
  }
  let out = image
    .extract({ left, top, width: size, height: size })
    .resize(side, side, { kernel: channels === 1 ? 'cubic' : 'lanczos3' });
  if (channels === 1) out = out.extractChannel(0);
  return out.raw().toBuffer();
}

/**
 * The coefficients of {@link framePixelSource}'s map, for loops over every pixel that must not allocate a point per
 * pixel: the photo's point of the square's pixel (x, y) is `pivot + R(rx, ry)` with `rx = ox + (x + 0.5) × scale`,
 * `ry = oy + (y + 0.5) × scale` and R the rotation by (`cos`, `sin`): `(rx·cos − ry·sin, rx·sin + ry·cos)`.
 *
 * @param frame the frame given to {@link extractFrame}
 * @param side the framed square's side, px
 */
export function frameMapping(frame: Frame, side: number) {
  const r = (-frame.angle * Math.PI) / 180;
  return {
    scale: frame.side / side,
    cos: Math.cos(r),
    sin: Math.sin(r),
    ox: frame.left - frame.pivot.x,
    oy: frame.top - frame.pivot.y,
    pivot: frame.pivot,
  };
}

/**
 * Where each pixel of a framed square came from: a map from the square's px (`x`, `y`, 0 to `side`, at the pixel's
 * centre) to the photo's own, unrotated px, the inverse of {@link extractFrame}'s rotation and scaling. A point
 * outside 0…width × 0…height of the photo is a copy of its edge.
 *
 * @param frame the frame given to {@link extractFrame}
 * @param side the framed square's side, px
 */
export function framePixelSource(frame: Frame, side: number): (x: number, y: number) => FramePoint {
  const { scale, cos, sin, ox, oy } = frameMapping(frame, side);
  return (x, y) => {
    const rx = ox + (x + 0.5) * scale;
    const ry = oy + (y + 0.5) * scale;
    return { x: frame.pivot.x + rx * cos - ry * sin, y: frame.pivot.y + rx * sin + ry * cos };
  };
}

/**
 * The frame's pixels at `side` × `side`.
 *
 * @param alpha optional matte of `image` (one byte per pixel), transformed the same way (copied, not faded, past
 *   the photo's edges: see {@link framePixelSource})
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
  return { rgb, ...(matte ? { alpha: matte } : {}), side };
}
