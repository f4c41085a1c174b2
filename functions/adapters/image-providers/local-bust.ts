import { EYE_LINE, FACE_SHARE, type Frame, type FramingFace } from '../../domain/framing';
import { frameOverflow, frameMapping } from '../support/crop';
import type { RgbImage } from '../support/pixels';
import { faceAxes } from './local-cutout';

/**
 * How much of the customer an offline headshot shows (docs/decisions/003-offline-preview-edges.md, round 2): only
 * the photo's own pixels, and nothing from an object held in front of the chest down.
 *
 * - Inside the photo: where the frame reaches past the photo's edges, the crop holds copies of the edge row or
 *   column (support/crop.ts), which showed as streaks smeared along the suit's bottom edge. {@link bustCoverage}
 *   fades the person out over a band just inside each edge the frame crosses, so the backdrop fills the rest: no
 *   copied pixel is composited.
 * - Above an occluder: the segmentation model marks whatever stands in front of the person as person (a podium
 *   microphone), and no model here knows objects. {@link findOccluder} finds the common case, a dark neutral object
 *   under the chin wider than a tie, flanked by the white shirt; the matte is then cut above it ({@link cutBelow},
 *   before the part connected to the face is kept, so a bystander's fragment beside the shoulder goes too), the bust
 *   fades out above it in an oval, framed closer ({@link bustZoom}), and the provider prefers the customer's other
 *   photos.
 */

const smoothstep = (edge0: number, edge1: number, x: number) => {
  const t = Math.max(0, Math.min(1, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
};

/** Width of the fade inside the photo's edges, as a share of the headshot's side. */
const FADE = { side: 0.04, top: 0.03, bottom: 0.08 };

/** The bust ends this far (fh) above an occluder's top, fading over {@link BUST_FADE} fh before that. */
const BUST_GAP = 0.02;
const BUST_FADE = 0.12;
/** The bust's lower edge curves up towards the shoulders by this many fh per fh² across: an oval, not a shelf. */
const BUST_CURVE = 1;

/** Where a bust above an occluder at `down` (fh below the eyes) ends, at `across` fh beside the face's axis. */
const bustEnd = (down: number, across: number) => down - BUST_GAP - BUST_CURVE * across * across;

/**
 * The share of each headshot pixel the person may keep, one byte per pixel (255 = all): 0 on pixels the frame takes
 * from outside the photo, rising to 255 over {@link FADE} inside each edge the frame reaches past; and with an
 * occluder, 0 from the bust's oval lower edge ({@link BUST_GAP} fh above the occluder in the middle, higher towards
 * the shoulders) rising to 255 over {@link BUST_FADE} fh above it. Multiply the matte by it after refining the matte
 * (refined after, the fades would be sharpened back into hard lines).
 *
 * @param frame the frame the headshot was cut with, in the photo's px
 * @param photo the photo's size, px
 * @param side the headshot square's side, px
 * @param bust the face's landmarks and the occluder's top (fh below the eyes, from {@link findOccluder})
 */
export function bustCoverage(
  frame: Frame,
  photo: { width: number; height: number },
  side: number,
  bust?: { face: FramingFace; occluder: number },
): Buffer {
  const out = Buffer.alloc(side * side, 255);
  const { width, height } = photo;
  const over = frameOverflow(frame, width, height);
  if (!bust && over.left === 0 && over.top === 0 && over.right === 0 && over.bottom === 0) return out;
  // Fade widths in the photo's px; an edge the frame stays inside gets no fade.
  const reach = {
    left: over.left > 0 ? FADE.side * frame.side : 0,
    right: over.right > 0 ? FADE.side * frame.side : 0,
    top: over.top > 0 ? FADE.top * frame.side : 0,
    bottom: over.bottom > 0 ? FADE.bottom * frame.side : 0,
  };
  const edge = (distance: number, width: number) => (width === 0 ? 1 : smoothstep(0, width, distance));
  const axes = bust ? faceAxes(bust.face) : undefined;
  // framePixelSource's map, unrolled: the same arithmetic without an object per pixel (1.6 M per render).
  const { scale, cos, sin, ox, oy, pivot } = frameMapping(frame, side);
  for (let y = 0; y < side; y++) {
    const ry = oy + (y + 0.5) * scale;
    for (let x = 0; x < side; x++) {
      const rx = ox + (x + 0.5) * scale;
      const px = pivot.x + rx * cos - ry * sin;
      const py = pivot.y + rx * sin + ry * cos;
      let keep =
        edge(px, reach.left) *
        edge(width - px, reach.right) *
        edge(py, reach.top) *
        edge(height - py, reach.bottom);
      if (axes && bust) {
        const dx = px - axes.pivot.x;
        const dy = py - axes.pivot.y;
        const across = (dx * axes.u.x + dy * axes.u.y) / axes.height;
        const down = (-dx * axes.u.y + dy * axes.u.x) / axes.height;
        const end = bustEnd(bust.occluder, across);
        keep *= 1 - smoothstep(end - BUST_FADE, end, down);
      }
      out[y * side + x] = Math.round(255 * keep);
    }
  }
  return out;
}

/*
 * The occluder test, in face heights (fh, hairline to chin) from the eye line's centre. Rows from just under the
 * chin to 0.65 fh below it (collar, shirt front, knot of the tie) are read across ±0.45 fh. A pixel is dark and
 * neutral (a microphone's foam, a black glass, a phone) at luma < 90 and max − min channel < 24 of 255; light (a
 * shirt) at luma ≥ 150. A row is blocked when a dark neutral run that reaches the middle third (±0.15 fh) is at
 * least 0.2 fh wide and has light pixels within 0.06 fh of both ends: a tie's knot is narrower or coloured, a dark
 * sweater or a suit buttoned high has no shirt beside it, a shadow under the chin is brown, not neutral. Measured on
 * the fixture photos (decision 003, round 2): obama2's microphone blocks rows from 0.16 fh below the chin; no other
 * photo has a blocked row.
 */
const SCAN = { from: 0.05, to: 0.65, across: 0.45, middle: 0.15 };
const DARK = { luma: 90, chroma: 24 };
const LIGHT_LUMA = 150;
const MIN_WIDTH = 0.2;
const BOUND = 0.06;
/** Rows over this height (fh) must be blocked, at 70 % or more, before an occluder is believed. */
const MIN_HEIGHT = 0.06;

type Tone = 'dark' | 'light' | 'other';

function toneAt(image: RgbImage, x: number, y: number): Tone | undefined {
  const xi = Math.round(x);
  const yi = Math.round(y);
  if (xi < 0 || yi < 0 || xi >= image.width || yi >= image.height) return undefined;
  const i = (yi * image.width + xi) * 3;
  const [r, g, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
  const luma = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  if (luma < DARK.luma && Math.max(r, g, b) - Math.min(r, g, b) < DARK.chroma) return 'dark';
  return luma >= LIGHT_LUMA ? 'light' : 'other';
}

/** Whether one row of tones (index = px across, `mid` = the face's axis) holds a blocking dark run. */
function blocked(tones: (Tone | undefined)[], mid: number, unit: number): boolean {
  const light = (from: number, to: number) =>
    tones.slice(Math.max(0, from), Math.max(0, to)).some((t) => t === 'light');
  let start = -1;
  for (let i = 0; i <= tones.length; i++) {
    if (i < tones.length && tones[i] === 'dark') {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      const end = i; // exclusive
      const reachesMiddle = start <= mid + SCAN.middle * unit && end > mid - SCAN.middle * unit;
      const bound = Math.ceil(BOUND * unit);
      if (
        reachesMiddle &&
        end - start >= MIN_WIDTH * unit &&
        light(start - bound, start) &&
        light(end, end + bound)
      )
        return true;
      start = -1;
    }
  }
  return false;
}

/**
 * Where an object held in front of the customer's chest begins (see the comment above {@link SCAN}).
 *
 * @param image the reference photo
 * @param face its face's landmarks, in the same px
 * @returns the occluder's top, in face heights below the eye line's centre; `undefined` when there is none
 */
export function findOccluder(image: RgbImage, face: FramingFace): number | undefined {
  const { pivot, u, height: unit } = faceAxes(face);
  const chinDown = ((face.chin.x - pivot.x) * -u.y + (face.chin.y - pivot.y) * u.x) / unit;
  const half = Math.round(SCAN.across * unit);
  const rows: { down: number; blocked: boolean }[] = [];
  for (let k = Math.round(SCAN.from * unit); k <= Math.round(SCAN.to * unit); k++) {
    const down = chinDown + k / unit;
    const tones: (Tone | undefined)[] = [];
    for (let a = -half; a <= half; a++) {
      const across = a / unit;
      tones.push(
        toneAt(
          image,
          pivot.x + (across * u.x - down * u.y) * unit,
          pivot.y + (across * u.y + down * u.x) * unit,
        ),
      );
    }
    if (tones.every((t) => t === undefined)) break;
    rows.push({ down, blocked: blocked(tones, half, unit) });
  }
  const window = Math.max(2, Math.round(MIN_HEIGHT * unit));
  for (let i = 0; i + window <= rows.length; i++) {
    if (!rows[i]!.blocked) continue;
    const share = rows.slice(i, i + window).filter((row) => row.blocked).length / window;
    if (share >= 0.7) return rows[i]!.down;
  }
  return undefined;
}

/**
 * The matte cut at the bust's lower edge above an occluder (all of it below set to 0), in the photo's px: cut before
 * the matte is limited to the part connected to the face (./local-cutout.ts), so a fragment the cut separates from
 * the customer (a bystander's shoulder touching theirs) goes too. The soft fade comes later, with
 * {@link bustCoverage}.
 *
 * @param matte one byte per pixel of the photo, `width` × `height`
 * @param occluder the occluder's top from {@link findOccluder}
 */
export function cutBelow(
  matte: Buffer,
  width: number,
  height: number,
  face: FramingFace,
  occluder: number,
): Buffer {
  const { pivot, u, height: unit } = faceAxes(face);
  const out = Buffer.from(matte);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - pivot.x;
      const dy = y - pivot.y;
      const across = (dx * u.x + dy * u.y) / unit;
      if ((-dx * u.y + dy * u.x) / unit >= bustEnd(occluder, across)) out[y * width + x] = 0;
    }
  }
  return out;
}

/** The eyes sit at 40 % of the frame (domain/framing.ts); a bust's lower edge should land at 88 % of it. */
const BUST_BOTTOM = 0.88;

/**
 * The zoom that frames a bust ending above an occluder so its lower edge is near the frame's bottom instead of a
 * head floating over empty backdrop: at least `zoom`, at most the frame's own limit (./local-cutout.ts).
 *
 * @param occluder the occluder's top from {@link findOccluder}, fh below the eyes
 */
export const bustZoom = (zoom: number, occluder: number): number =>
  Math.max(zoom, (BUST_BOTTOM - EYE_LINE) / (FACE_SHARE * occluder));
