/**
 * Head-and-shoulders framing from face landmarks (docs/architecture.md §8 (faces)): the portrait photographer's rules
 * as numbers. The eyes sit level at 40% of the frame's height from the top, the face is centred horizontally and
 * its height (hairline to chin) is about 40% of the frame, so the shoulders fit below it. Pure geometry: the
 * reference crops for the image provider and the offline provider's headshots share it.
 */

/** A point, in px. */
export interface FramePoint {
  x: number;
  y: number;
}

/** The landmarks framing needs, in the photo's pixels. */
export interface FramingFace {
  /** Eye centres, image-left first. */
  eyes: [FramePoint, FramePoint];
  /** Top of the forehead and bottom of the chin. */
  forehead: FramePoint;
  chin: FramePoint;
}

/**
 * The largest face's framing landmarks as the photo check stores them with the photo (docs/architecture.md §2, the
 * photo check item): in px of the analysed copy (EXIF-upright, long side ≤ 1024 px), whose size they carry, so
 * PrepareReferences frames its reference crop without running the face models again.
 */
export interface StoredFraming extends FramingFace {
  /** Size of the analysed copy the landmarks are measured in, px. */
  width: number;
  height: number;
}

/** The stored landmarks in px of an image of `width` × `height` (the same photo decoded again, maybe resized). */
export function framingAt(stored: StoredFraming, width: number, height: number): FramingFace {
  const sx = width / stored.width;
  const sy = height / stored.height;
  const at = (p: FramePoint): FramePoint => ({ x: p.x * sx, y: p.y * sy });
  return {
    eyes: [at(stored.eyes[0]), at(stored.eyes[1])],
    forehead: at(stored.forehead),
    chin: at(stored.chin),
  };
}

/** A square frame in the photo's pixels, possibly reaching past its edges; `angle` levels the eyes. */
export interface Frame {
  /** Top-left corner of the square, in px of the photo once rotated by `angle` about `pivot`. */
  left: number;
  top: number;
  side: number;
  /** Degrees to rotate the photo (clockwise positive) about `pivot` so the eyes are level. */
  angle: number;
  pivot: FramePoint;
}

/** Eye line height in the frame, from the top (0-1). */
export const EYE_LINE = 0.4;
/** Face height (hairline to chin) as a share of the frame's side at zoom 1. */
export const FACE_SHARE = 0.4;
/** Rolls under this many degrees are left alone; over {@link MAX_LEVELING} the pose is kept (it is a choice). */
const MIN_LEVELING = 1.5;
const MAX_LEVELING = 25;

const distance = (a: FramePoint, b: FramePoint) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The head-and-shoulders square for a face.
 *
 * @param zoom > 1 frames tighter, < 1 looser (per-slot variety of the offline provider)
 * @param shift horizontal offset of the face from the centre, as a share of the side (-0.1..0.1)
 */
export function headAndShoulders(face: FramingFace, zoom = 1, shift = 0): Frame {
  const [a, b] = face.eyes;
  const pivot = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const roll = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  const angle = Math.abs(roll) < MIN_LEVELING || Math.abs(roll) > MAX_LEVELING ? 0 : -roll;
  // Face height from the landmarks, with a floor from the eye distance for faces seen at an angle.
  const faceHeight = Math.max(distance(face.forehead, face.chin), distance(a, b) * 2.4);
  const side = faceHeight / (FACE_SHARE * zoom);
  return {
    left: pivot.x - side / 2 + shift * side,
    top: pivot.y - EYE_LINE * side,
    side,
    angle,
    pivot,
  };
}

/**
 * Where a point of the photo lands after rotating the photo by `angle` degrees (clockwise) about `pivot`.
 */
export function rotatePoint(p: FramePoint, pivot: FramePoint, angle: number): FramePoint {
  const r = (angle * Math.PI) / 180;
  const dx = p.x - pivot.x;
  const dy = p.y - pivot.y;
  return {
    x: pivot.x + dx * Math.cos(r) - dy * Math.sin(r),
    y: pivot.y + dx * Math.sin(r) + dy * Math.cos(r),
  };
}

/**
 * The same frame moved and shrunk to lie inside a `width` × `height` photo (no rotation): for crops that must not
 * show anything the photo does not contain, such as the references sent to the image provider.
 */
export function clampFrame(frame: Frame, width: number, height: number): Frame {
  const side = Math.min(frame.side, width, height);
  const grow = (side - frame.side) / 2;
  const left = Math.min(Math.max(0, frame.left - grow), width - side);
  const top = Math.min(Math.max(0, frame.top - grow * (EYE_LINE / 0.5)), height - side);
  return { ...frame, left, top, side, angle: 0 };
}
