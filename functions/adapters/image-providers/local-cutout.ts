import { headAndShoulders, type Frame, type FramePoint, type FramingFace } from '../../domain/framing';
import { frameOverflow } from '../support/crop';

/**
 * Who to cut out of a reference photo, and whether a cutout can be trusted (docs/decisions/003-offline-preview-edges.md).
 * The selfie segmentation model marks everything person-like: the customer, but also a bystander's head beside
 * them or a shoulder at the photo's edge. And sometimes it fails: a matte over nearly the whole photo, or none on
 * the face. So:
 *
 * - the matte is limited to where the customer's body can be: a soft envelope from the face's landmarks (the head,
 *   then a neck and shoulders widening downwards), keeping only the part connected to the face;
 * - a matte that misses the face or does not separate person from background is not used for a cutout (the
 *   provider then takes another reference, or a soft vignette around the face);
 * - the frame is zoomed in, within limits, when it would reach far below or above the photo, and moved down a
 *   little when the head still reaches past the photo's top, so the headshot holds the photo's own pixels instead
 *   of long copies of its edge.
 */

/** Face geometry in the photo's px: the eye line's centre, a unit along the eyes, and the face's height. */
export interface FaceAxes {
  pivot: FramePoint;
  /** Unit vector along the eye line (image-left to image-right eye); "down" is (-u.y, u.x). */
  u: FramePoint;
  /** Hairline-to-chin height, px (with a floor from the eye distance for faces seen at an angle). */
  height: number;
}

/** The face's height (hairline to chin, floored by 2.4 eye distances) in the landmarks' px. */
export const faceHeightOf = (face: FramingFace): number => faceAxes(face).height;

/** The face's axes (see {@link FaceAxes}) from its landmarks. */
export function faceAxes(face: FramingFace): FaceAxes {
  const [a, b] = face.eyes;
  const eyes = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  return {
    pivot: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
    u: { x: (b.x - a.x) / eyes, y: (b.y - a.y) / eyes },
    height: Math.max(Math.hypot(face.forehead.x - face.chin.x, face.forehead.y - face.chin.y), eyes * 2.4),
  };
}

const smoothstep = (edge0: number, edge1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};

/*
 * The envelope, in face heights from the eye line's centre (across = along the eyes, down = towards the chin; the
 * chin is about 0.55 below the eyes, the hairline 0.45 above). Head: an ellipse wide enough for ears and full hair.
 * Body: from the neck down, a band whose half-width grows 2.2 face heights per face height of drop, which reaches
 * the shoulders' usual half-width (about 1.4) at the shoulder line.
 */
const HEAD = { down: -0.1, across: 0.62, vertical: 0.8, soft: 0.25 };
const BODY = { from: 0.45, halfWidth: 0.45, spread: 2.2, soft: 0.25 };

/** The envelope's value (0-1) at a point given in face heights (`across`, `down`). */
function envelopeAt(across: number, down: number): number {
  const x = across / HEAD.across;
  const y = (down - HEAD.down) / HEAD.vertical;
  const r2 = x * x + y * y;
  const head = r2 >= (1 + HEAD.soft) ** 2 ? 0 : 1 - smoothstep(1, 1 + HEAD.soft, Math.sqrt(r2));
  const halfWidth = BODY.halfWidth + Math.max(0, down - BODY.from) * BODY.spread;
  const body =
    smoothstep(BODY.from - 0.15, BODY.from + 0.05, down) *
    (1 - smoothstep(halfWidth, halfWidth + BODY.soft, Math.abs(across)));
  return Math.max(head, body);
}

/** Why a matte is not used for a cutout (`no-face`: the face models found no face to place the envelope by). */
export type MatteProblem = 'no-face' | 'face-not-covered' | 'no-separation';

/** A reference's person matte, limited to the customer, and whether it can be used. */
export interface IsolatedPerson {
  /** One byte per pixel of the photo: the matte × the envelope, only the part connected to the face. */
  matte: Buffer;
  /** Set when the matte must not be used for a cutout. */
  problem?: MatteProblem;
}

/** The inner face (eyes to mouth, cheek to cheek) must be at least this much person in the matte (0-1). */
const MIN_FACE_COVERAGE = 0.8;
/** A matte covering more than this share of the photo separates nothing. */
const MAX_COVERAGE = 0.92;
/** ... nor one covering more than this share of where the customer's body cannot be. */
const MAX_SPILL = 0.6;

/**
 * Limits a segmentation matte to the customer (see the module comment) and judges it.
 *
 * @param raw the model's matte, one byte per pixel, `width` × `height`
 * @param face the customer's landmarks in the same pixels
 */
export function isolatePerson(raw: Buffer, width: number, height: number, face: FramingFace): IsolatedPerson {
  const { pivot, u, height: unit } = faceAxes(face);
  const limited = Buffer.alloc(raw.length);
  let covered = 0;
  let outside = 0;
  let spilled = 0;
  let faceArea = 0;
  let faceSum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const dx = x - pivot.x;
      const dy = y - pivot.y;
      const across = (dx * u.x + dy * u.y) / unit;
      const down = (-dx * u.y + dy * u.x) / unit;
      const person = raw[i]!;
      const envelope = envelopeAt(across, down);
      limited[i] = Math.round(person * envelope);
      if (person >= 128) covered++;
      if (envelope < 0.02) {
        outside++;
        if (person >= 128) spilled++;
      }
      if (Math.abs(across) < 0.3 && down > -0.15 && down < 0.35) {
        faceArea++;
        faceSum += person;
      }
    }
  }
  const matte = connectedToFace(limited, width, height, pivot, unit);
  let problem: MatteProblem | undefined;
  if (faceArea > 0 && faceSum / faceArea / 255 < MIN_FACE_COVERAGE) problem = 'face-not-covered';
  else if (covered / raw.length > MAX_COVERAGE || (outside > 0 && spilled / outside > MAX_SPILL))
    problem = 'no-separation';
  return { matte, ...(problem ? { problem } : {}) };
}

/** Matte values (0-255) a region must hold to connect to the face: weaker ones are soft edges, not bridges. */
const CONNECTED = 128;

/**
 * The matte with only the region connected to the face kept: a flood fill from the nose over 4-connected pixels of
 * at least {@link CONNECTED}, widened by a few px so the kept region's soft edge stays. A blob that touches the
 * customer nowhere, or only through a faint haze (a head in the background, a hand from the side), is dropped.
 */
function connectedToFace(
  matte: Buffer,
  width: number,
  height: number,
  pivot: FramePoint,
  unit: number,
): Buffer {
  const seedX = Math.round(pivot.x);
  const seedY = Math.round(pivot.y + unit * 0.2);
  if (seedX < 0 || seedY < 0 || seedX >= width || seedY >= height) return matte;
  const seed = seedY * width + seedX;
  if (matte[seed]! < CONNECTED) return matte;
  const keep = new Uint8Array(matte.length);
  const stack = new Int32Array(matte.length);
  let top = 0;
  stack[top++] = seed;
  keep[seed] = 1;
  while (top > 0) {
    const i = stack[--top]!;
    const x = i % width;
    const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width];
    for (const j of neighbours) {
      if (j < 0 || j >= matte.length || keep[j] || matte[j]! < CONNECTED) continue;
      keep[j] = 1;
      stack[top++] = j;
    }
  }
  const widened = dilate(keep, width, height, Math.max(2, Math.round(unit * 0.03)));
  const out = Buffer.alloc(matte.length);
  for (let i = 0; i < matte.length; i++) if (widened[i]) out[i] = matte[i]!;
  return out;
}

/** A binary mask grown by `radius` px (a square structuring element: a pass along rows, then along columns). */
function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) grow(mask, rows, y * width, 1, width, radius);
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) grow(rows, out, x, width, height, radius);
  return out;
}

/** Marks in `out` every pixel of one line (`count` pixels from `start`, `step` apart) within `radius` of a set one. */
function grow(mask: Uint8Array, out: Uint8Array, start: number, step: number, count: number, radius: number) {
  let last = -Infinity;
  for (let k = 0; k < count; k++) {
    const i = start + k * step;
    if (mask[i]) last = k;
    if (k - last <= radius) out[i] = 1;
  }
  last = Infinity;
  for (let k = count - 1; k >= 0; k--) {
    const i = start + k * step;
    if (mask[i]) last = k;
    if (last - k <= radius) out[i] = 1;
  }
}

/** How far a frame may reach past the photo's bottom and top (share of its side) before it is zoomed in. */
const MAX_OVERFLOW = { bottom: 0.12, top: 0.03 };
/** How far (share of the side) the frame may move down to keep the head's top inside the photo. */
const MAX_LOWERING = 0.1;
/** Zoom in at most this far (1.4: the face fills 56 % of the frame's height). */
const MAX_ZOOM = 1.25;

/**
 * The head-and-shoulders frame (functions/domain/framing.ts) at `zoom`, zoomed in by steps of 4 % while it reaches
 * further past the photo's bottom or top than {@link MAX_OVERFLOW} allows, up to {@link MAX_ZOOM}; then moved down
 * by up to {@link MAX_LOWERING} of its side while its top still reaches past the photo's.
 */
export function fittedFrame(
  face: FramingFace,
  zoom: number,
  shift: number,
  width: number,
  height: number,
): Frame {
  let z = zoom;
  let frame = headAndShoulders(face, z, shift);
  while (z * 1.04 <= Math.max(zoom, MAX_ZOOM)) {
    const over = frameOverflow(frame, width, height);
    if (over.bottom <= MAX_OVERFLOW.bottom * frame.side && over.top <= MAX_OVERFLOW.top * frame.side) break;
    z *= 1.04;
    frame = headAndShoulders(face, z, shift);
  }
  // A head the photo cuts at the top: the frame's top border cuts it instead (eyes up to 0.3 of the side), as a
  // tight portrait crop does, rather than copies of the photo's top row above it.
  const excess = frameOverflow(frame, width, height).top - MAX_OVERFLOW.top * frame.side;
  if (excess > 0) frame = { ...frame, top: frame.top + Math.min(excess, MAX_LOWERING * frame.side) };
  return frame;
}

/**
 * A soft face-centred vignette for references whose matte cannot be trusted: an ellipse around the head and the top
 * of the shoulders, opaque in its middle and fading to nothing over its outer 45 %.
 *
 * @param side the framed square's side, px
 * @param face the face's eye-line centre and face height in the framed square's px
 * @returns one byte per pixel
 */
export function vignetteMatte(side: number, face: { pivot: FramePoint; height: number }): Buffer {
  const out = Buffer.alloc(side * side);
  const cx = face.pivot.x;
  const cy = face.pivot.y + face.height * 0.3;
  const rx = face.height * 1.05;
  const ry = face.height * 1.25;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const r = Math.hypot((x - cx) / rx, (y - cy) / ry);
      out[y * side + x] = Math.round(255 * (1 - smoothstep(0.55, 1, r)));
    }
  }
  return out;
}
