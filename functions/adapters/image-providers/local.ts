import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import type { Background, Style } from '../../domain/generation';
import { HEADSHOT_SIDE } from '../../domain/generation';
import { locateFace, type FaceBox } from './face';
import { ProviderInvalidOutputError, type HeadshotRequest, type ImageProvider } from './types';

/**
 * The offline `local` provider (docs/architecture.md §4): a headshot-like image made with sharp from the user's own photo, so
 * the whole product runs with no API key. It frames head and shoulders around the face, grades the person by style
 * and replaces the surround by background, all deterministic per generation and slot:
 *
 * - style: professional = neutral-cool, crisp, lightly desaturated; business-casual = warm, bright, soft;
 *   creative = saturated, contrasty, teal/magenta split toning and a deeper vignette;
 * - background (outside a feathered head-and-shoulders mask): office = the photo's own surround thrown out of focus,
 *   warm light and lamp bokeh; studio = a seamless grey backdrop lit from behind the subject; outdoor = the
 *   surround out of focus, greener, with sky light and sun flecks; gradient = a two-colour diagonal gradient;
 * - per slot: another reference photo (slot mod references), zoom, horizontal offset, palette and light positions.
 *
 * Intermediate images stay raw pixels (no PNG/JPEG round trips) and smooth layers are drawn at 256 px and
 * upscaled, so one headshot costs a few hundred ms of CPU.
 */

const SIDE = HEADSHOT_SIDE;
/** Side at which smooth layers (gradients, masks, light, bokeh) are drawn before upscaling. */
const LAYER_SIDE = 256;

type Matrix3 = [[number, number, number], [number, number, number], [number, number, number]];

/** Decoded pixels: what sharp's `raw()` gives and `{ raw }` inputs take. */
interface Raster {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

async function toRaster(image: Sharp): Promise<Raster> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

const fromRaster = (r: Raster) => sharp(r.data, { raw: r.info });
const overlay = (r: Raster, blend?: OverlayOptions['blend']): OverlayOptions => ({
  input: r.data,
  raw: r.info,
  ...(blend ? { blend } : {}),
});

/** A deterministic pseudo-random stream (mulberry32) seeded from text: the same slot always looks the same. */
function randomFrom(seedText: string): () => number {
  let seed = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ZOOMS = [1, 0.9, 1.1, 0.95, 1.05, 0.86];

// The six slots of a generation share three references: locate each face once per warm environment.
const faces = new Map<string, Promise<FaceBox>>();
function cachedFace(reference: Buffer): Promise<FaceBox> {
  const key = createHash('sha256').update(reference).digest('hex');
  let face = faces.get(key);
  if (!face) {
    face = locateFace(reference);
    faces.set(key, face);
    face.catch(() => faces.delete(key));
    if (faces.size > 32) faces.delete(faces.keys().next().value!);
  }
  return face;
}

/**
 * The square crop of the reference, in its pixels: head and shoulders (about 3 face widths), face centre at 42% from
 * the top, shifted by `shift` × side and zoomed per slot, kept inside the photo.
 */
export function headshotCrop(
  face: FaceBox,
  imageWidth: number,
  imageHeight: number,
  slot: number,
  shift: number,
): { left: number; top: number; side: number } {
  const zoom = ZOOMS[slot % ZOOMS.length]!;
  const side = Math.round(Math.min(imageWidth, imageHeight, Math.max(64, face.width * 3.1 * zoom)));
  const cx = face.cx + shift * side;
  const left = Math.round(Math.min(Math.max(0, cx - side / 2), imageWidth - side));
  const top = Math.round(Math.min(Math.max(0, face.cy - side * 0.42), imageHeight - side));
  return { left, top, side };
}

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

const GRADES: Record<Style, Grade> = {
  professional: {
    saturation: 0.88,
    brightness: 1.02,
    contrast: [1.1, -10],
    balance: [
      [0.96, 0.03, 0.01],
      [0.01, 0.98, 0.01],
      [0, 0.02, 1.05],
    ],
    vignette: 0.35,
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
    vignette: 0.18,
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
    vignette: 0.55,
  },
};

/** Luma-preserving saturation as a colour matrix (Rec. 709 weights): one `recomb` instead of an LCh round trip. */
function saturationMatrix(s: number): Matrix3 {
  const [r, g, b] = [0.2126, 0.7152, 0.0722].map((w) => w * (1 - s)) as [number, number, number];
  return [
    [r + s, g, b],
    [r, g + s, b],
    [r, g, b + s],
  ];
}

function multiply(a: Matrix3, b: Matrix3): Matrix3 {
  return a.map((row) => [0, 1, 2].map((j) => row.reduce((sum, v, k) => sum + v * b[k]![j]!, 0))) as Matrix3;
}

const GRADIENT_PALETTES: [string, string][] = [
  ['#312e81', '#db2777'],
  ['#0c4a6e', '#6366f1'],
  ['#7c2d12', '#f59e0b'],
  ['#134e4a', '#38bdf8'],
  ['#4c1d95', '#ec4899'],
  ['#1e3a8a', '#22d3ee'],
];

/**
 * Rasterizes SVG shapes given in 1024-px coordinates as a 1024×1024 layer. Gradients, soft masks and blurred
 * lights have no fine detail, so they are drawn at 256 px and upscaled.
 *
 * @param blurSigma optional Gaussian blur, in 1024-px units
 */
async function layer(body: string, blurSigma = 0): Promise<Raster> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${LAYER_SIDE}" height="${LAYER_SIDE}" viewBox="0 0 ${SIDE} ${SIDE}">${body}</svg>`;
  let small = sharp(Buffer.from(svg)).ensureAlpha();
  const sigma = (blurSigma * LAYER_SIDE) / SIDE;
  if (sigma >= 0.3) small = small.blur(sigma);
  return toRaster(fromRaster(await toRaster(small)).resize(SIDE, SIDE));
}

/** Soft out-of-focus light discs (office lamps, sun through leaves). */
function bokeh(random: () => number, color: string, count: number, maxOpacity: number): Promise<Raster> {
  const discs = Array.from({ length: count }, () => {
    const cx = Math.round(random() * SIDE);
    const cy = Math.round(random() * SIDE * 0.7);
    const r = Math.round(40 + random() * 90);
    const opacity = (0.3 + random() * 0.7) * maxOpacity;
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="url(#b)" opacity="${opacity.toFixed(2)}"/>`;
  }).join('');
  return layer(
    `<defs><radialGradient id="b"><stop offset="0" stop-color="${color}" stop-opacity="1"/><stop offset="0.7" stop-color="${color}" stop-opacity="0.6"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient></defs>${discs}`,
  );
}

/**
 * The framed photo thrown far out of focus (a long lens' bokeh), blurred at 256 px and upscaled.
 *
 * @param sigma blur in 1024-px units
 * @param color colour matrix applied to the blurred surround (brightness and saturation folded in)
 */
async function softened(framed: Raster, sigma: number, color: Matrix3): Promise<Raster> {
  const small = await toRaster(
    fromRaster(framed)
      .resize(LAYER_SIDE, LAYER_SIDE)
      .blur((sigma * LAYER_SIDE) / SIDE)
      .recomb(color),
  );
  return toRaster(fromRaster(small).resize(SIDE, SIDE));
}

const scaled = (m: Matrix3, k: number) => m.map((row) => row.map((v) => v * k)) as Matrix3;

/** The 1024×1024 surround for a background, from the framed photo (office, outdoor) or drawn (studio, gradient). */
async function backgroundLayer(
  kind: Background,
  framed: Raster,
  face: { x: number; y: number },
  slot: number,
  random: () => number,
): Promise<Raster> {
  switch (kind) {
    case 'office': {
      const [blurred, warm, lights] = await Promise.all([
        softened(framed, 36, scaled(saturationMatrix(0.7), 0.92)),
        layer(`<rect width="100%" height="100%" fill="#f59e0b" opacity="0.16"/>`),
        bokeh(random, '#ffe7b3', 7, 0.55),
      ]);
      return toRaster(
        fromRaster(blurred).composite([overlay(warm, 'soft-light'), overlay(lights, 'screen')]),
      );
    }
    case 'outdoor': {
      const greener: Matrix3 = [
        [0.85, 0.1, 0.05],
        [0.1, 1.05, 0.05],
        [0.05, 0.1, 0.85],
      ];
      const [blurred, daylight, sun] = await Promise.all([
        softened(framed, 32, scaled(multiply(saturationMatrix(1.15), greener), 1.12)),
        layer(
          `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#cfeaff" stop-opacity="0.75"/><stop offset="0.45" stop-color="#9ed59a" stop-opacity="0.35"/><stop offset="1" stop-color="#3f7a35" stop-opacity="0.6"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`,
        ),
        bokeh(random, '#fffbe6', 9, 0.5),
      ]);
      return toRaster(fromRaster(blurred).composite([overlay(daylight), overlay(sun, 'screen')]));
    }
    case 'studio': {
      const light = ['#a3a8b0', '#b6b1a8', '#9aa6b5'][slot % 3]!;
      return toRaster(
        fromRaster(
          await layer(
            `<defs><radialGradient id="s" cx="${face.x / SIDE}" cy="${(face.y / SIDE) * 0.9}" r="0.85"><stop offset="0" stop-color="${light}"/><stop offset="0.55" stop-color="#5b616b"/><stop offset="1" stop-color="#1c1f24"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#s)"/>`,
          ),
        ).removeAlpha(),
      );
    }
    case 'gradient': {
      const [from, to] = GRADIENT_PALETTES[slot % GRADIENT_PALETTES.length]!;
      const angle = random() * Math.PI;
      const x = Math.cos(angle) / 2;
      const y = Math.sin(angle) / 2;
      return toRaster(
        fromRaster(
          await layer(
            `<defs><linearGradient id="g" x1="${0.5 - x}" y1="${0.5 - y}" x2="${0.5 + x}" y2="${0.5 + y}"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient><radialGradient id="h" cx="${face.x / SIDE}" cy="${face.y / SIDE}" r="0.6"><stop offset="0" stop-color="#ffffff" stop-opacity="0.28"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#h)"/>`,
          ),
        ).removeAlpha(),
      );
    }
  }
}

/**
 * A feathered mask of the head and shoulders (255 = subject) for a face of width `f` px centred at (`x`, `y`):
 * an oval for the head and hair, one for the neck and a wide one for the shoulders, blurred so the subject melts
 * into the new background.
 */
async function subjectMask(x: number, y: number, f: number): Promise<Raster> {
  const ellipse = (cx: number, cy: number, rx: number, ry: number) =>
    `<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="#fff"/>`;
  const shapes = [
    ellipse(x, y - 0.14 * f, 0.6 * f, 0.86 * f),
    ellipse(x, y + 0.75 * f, 0.36 * f, 0.55 * f),
    ellipse(x, y + 2.3 * f, 1.65 * f, 1.3 * f),
  ].join('');
  const mask = await layer(`<rect width="100%" height="100%" fill="#000"/>${shapes}`, Math.max(4, 0.07 * f));
  return toRaster(fromRaster(mask).extractChannel(0));
}

/** The style's colour grade of the framed photo: one colour matrix and one linear contrast/brightness step. */
function graded(framed: Raster, style: Style, brightnessJitter: number): Promise<Raster> {
  const g = GRADES[style];
  const brightness = g.brightness * brightnessJitter;
  return toRaster(
    fromRaster(framed)
      .recomb(multiply(saturationMatrix(g.saturation), g.balance))
      .linear(g.contrast[0] * brightness, g.contrast[1] * brightness),
  );
}

/** Options of {@link createLocalProvider}. */
export interface LocalProviderOptions {
  /** Fixed extra latency per image, in ms (config LOCAL_PROVIDER_LATENCY_MS; demos and benchmarks). Default 0. */
  latencyMs?: number;
}

/**
 * Renders one local headshot (exported for tests and previews).
 *
 * @returns a 1024×1024 JPEG (quality 90)
 * @throws {ProviderInvalidOutputError} when no reference photo was given
 */
export async function renderLocalHeadshot(request: HeadshotRequest): Promise<Buffer> {
  const reference = request.references[request.slot % Math.max(1, request.references.length)];
  if (!reference)
    throw new ProviderInvalidOutputError('The local provider needs at least one reference photo');
  const random = randomFrom(`${request.generationId}:${request.slot}`);
  const { width = SIDE, height = SIDE } = await sharp(reference).metadata();
  const face = await cachedFace(reference);
  const crop = headshotCrop(face, width, height, request.slot, (random() - 0.5) * 0.08);
  const framed = await toRaster(
    sharp(reference)
      .extract({ left: crop.left, top: crop.top, width: crop.side, height: crop.side })
      .resize(SIDE, SIDE, { kernel: 'lanczos3' })
      .removeAlpha(),
  );

  const scale = SIDE / crop.side;
  const faceOut = { x: (face.cx - crop.left) * scale, y: (face.cy - crop.top) * scale };
  const style = GRADES[request.style];
  const [person, surround, mask, vignette, toning] = await Promise.all([
    graded(framed, request.style, 0.97 + random() * 0.06),
    backgroundLayer(request.background, framed, faceOut, request.slot, random),
    subjectMask(faceOut.x, faceOut.y, face.width * scale),
    layer(
      `<defs><radialGradient id="v" cx="0.5" cy="0.45" r="0.75"><stop offset="0.55" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${style.vignette}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#v)"/>`,
    ),
    // Split toning for creative: cool teal in the shadows, warm magenta in the highlights.
    request.style === 'creative'
      ? layer(
          `<defs><linearGradient id="t" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#0f766e"/><stop offset="1" stop-color="#db2777"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#t)" opacity="0.22"/>`,
        )
      : undefined,
  ]);
  const cutout = await toRaster(fromRaster(person).joinChannel(mask.data, { raw: mask.info }));
  const layers = [overlay(cutout), overlay(vignette)];
  if (toning) layers.push(overlay(toning, 'soft-light'));
  return fromRaster(surround).composite(layers).jpeg({ quality: 90 }).toBuffer();
}

/** Creates the offline provider. */
export function createLocalProvider(options: LocalProviderOptions = {}): ImageProvider {
  const latencyMs = options.latencyMs ?? 0;
  return {
    name: 'local',
    async generate(request: HeadshotRequest): Promise<Buffer> {
      if (latencyMs > 0) await sleep(latencyMs);
      return renderLocalHeadshot(request);
    },
  };
}
