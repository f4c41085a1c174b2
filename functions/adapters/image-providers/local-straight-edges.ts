/**
 * Long straight hard edges in a matte: the mark of a pasted rectangle. A person cut out by segmentation has a crisp
 * but curved outline (head, neck, shoulders), and a feathered vignette has no crisp edge at all; the border of a
 * photo pasted as a whole is a crisp STRAIGHT line across much of the frame. So: the pixels where the matte changes
 * sharply vote, by their gradient's direction, for the line through them (a Hough transform that votes only along
 * each pixel's own normal), and the best-supported lines are walked to find the longest unbroken run of such pixels
 * lying on them with the matching orientation.
 */

/** The longest straight hard edge found, in px of the matte. */
export interface StraightEdge {
  /** Length of the unbroken run, in px (0 when the matte has no hard edge). */
  length: number;
  /** Direction of the line's normal, degrees in [0, 180). */
  normalDegrees: number;
  /** The run's ends. */
  from: { x: number; y: number };
  to: { x: number; y: number };
}

/** A change of at least this many levels per px (a full 0→255 step within ~10 px) is a hard edge. */
const HARD_GRADIENT = 24;
/** Orientation bins of the Hough space, per 180°. */
const ANGLES = 180;
/** Lines examined after voting (the best supported). */
const CANDIDATES = 24;
/** A pixel on a line counts when its normal is within this many degrees of the line's. */
const ORIENTATION_TOLERANCE = 12;
/** Gaps up to this many px do not break a run (JPEG noise, a hair crossing the edge). */
const MAX_GAP = 4;
/** How far beside the line (px) a pixel may lie and still be on it. */
const BAND = 2;

const NONE: StraightEdge = { length: 0, normalDegrees: 0, from: { x: 0, y: 0 }, to: { x: 0, y: 0 } };

/**
 * The longest straight hard edge of a matte (see the module comment). The outermost pixel rows and columns are
 * ignored: the matte meeting the frame's own border is not an edge inside the picture.
 *
 * @param alpha one byte per pixel, `width` × `height`, row-major (0 = backdrop, 255 = person)
 * @returns the longest run, in px; compare it with the frame's side
 */
export function longestStraightEdge(alpha: Buffer, width: number, height: number): StraightEdge {
  // Hard-edge pixels: their orientation bin (the gradient's direction mod 180°), or -1.
  const bins = new Int16Array(width * height).fill(-1);
  const rhoMax = Math.ceil(Math.hypot(width, height));
  const votes = new Uint32Array(ANGLES * (2 * rhoMax + 1));
  const cos = Float64Array.from({ length: ANGLES }, (_, i) => Math.cos((i * Math.PI) / ANGLES));
  const sin = Float64Array.from({ length: ANGLES }, (_, i) => Math.sin((i * Math.PI) / ANGLES));
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const gx = (alpha[i + 1]! - alpha[i - 1]!) / 2;
      const gy = (alpha[i + width]! - alpha[i - width]!) / 2;
      if (gx * gx + gy * gy < HARD_GRADIENT * HARD_GRADIENT) continue;
      let degrees = (Math.atan2(gy, gx) * 180) / Math.PI;
      if (degrees < 0) degrees += 180;
      const bin = Math.round(degrees) % ANGLES;
      bins[i] = bin;
      // One vote for the line through this pixel along its own normal, and one each for the neighbouring angles.
      for (let b = bin - 1; b <= bin + 1; b++) {
        const a = (b + ANGLES) % ANGLES;
        const rho = Math.round(x * cos[a]! + y * sin[a]!);
        votes[a * (2 * rhoMax + 1) + rho + rhoMax]!++;
      }
    }
  }
  // The best-supported lines, one per (angle, rho) bin.
  const best: { votes: number; index: number }[] = [];
  for (let index = 0; index < votes.length; index++) {
    const v = votes[index]!;
    if (v < 16 || (best.length === CANDIDATES && v <= best[best.length - 1]!.votes)) continue;
    best.push({ votes: v, index });
    best.sort((a, b) => b.votes - a.votes);
    if (best.length > CANDIDATES) best.pop();
  }
  let longest = NONE;
  for (const { index } of best) {
    const a = Math.floor(index / (2 * rhoMax + 1));
    const rho = (index % (2 * rhoMax + 1)) - rhoMax;
    const run = longestRun(bins, width, height, a, rho, cos[a]!, sin[a]!);
    if (run.length > longest.length) longest = run;
  }
  return longest;
}

const angularDistance = (a: number, b: number) => {
  const d = Math.abs(a - b) % ANGLES;
  return Math.min(d, ANGLES - d);
};

/** Walks the line `x cos + y sin = rho` across the matte and returns its longest unbroken run of matching pixels. */
function longestRun(
  bins: Int16Array,
  width: number,
  height: number,
  angle: number,
  rho: number,
  cos: number,
  sin: number,
): StraightEdge {
  const base = { x: rho * cos, y: rho * sin };
  const along = { x: -sin, y: cos };
  const reach = Math.hypot(width, height);
  let best = NONE;
  let start: number | null = null;
  let last = 0;
  const close = (t: number) => {
    if (start === null) return;
    const length = t - start;
    if (length > best.length) {
      best = {
        length,
        normalDegrees: angle,
        from: { x: base.x + along.x * start, y: base.y + along.y * start },
        to: { x: base.x + along.x * t, y: base.y + along.y * t },
      };
    }
    start = null;
  };
  for (let t = -reach; t <= reach; t++) {
    let hit = false;
    for (let k = -BAND; k <= BAND && !hit; k++) {
      const x = Math.round(base.x + along.x * t + cos * k);
      const y = Math.round(base.y + along.y * t + sin * k);
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const bin = bins[y * width + x]!;
      hit = bin >= 0 && angularDistance(bin, angle) <= ORIENTATION_TOLERANCE;
    }
    if (hit) {
      if (start === null) start = t;
      last = t;
    } else if (start !== null && t - last > MAX_GAP) {
      close(last);
    }
  }
  close(last);
  return best;
}
