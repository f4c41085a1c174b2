import sharp, { type OutputInfo } from 'sharp';
import type { EditBackground, EditRequest, Reframing, RetouchStrength } from '../../domain/edits';
import { CANVAS_SIZES, squareRect, type Size } from '../../domain/headshot-variants';
import { HEADSHOT_SIDE } from '../../domain/headshot-images';
import type { Outfit } from '../../domain/outfits';
import { analyzeFaces, decodeRgb, personMatte } from '../support/vision-models/faces';
import { backdrop } from './local-backdrops';
import { composite, decontaminate, refineMatte } from './local-matte';
import { previewMark } from './local-mark';
import { ProviderInvalidOutputError } from './types';

/**
 * The offline `local` provider's edits of a finished headshot (issue 36): honest, marked previews made from the
 * headshot's own pixels, never an AI edit. Each is what the edit asks for as far as pixels alone can show it:
 *
 * - background: the person cut out with the segmentation matte, tightened and decontaminated as the offline
 *   headshots are (./local-matte.ts), on a preset's plate (./local-backdrops.ts), a flat custom colour, or nothing
 *   (a PNG whose alpha channel is the matte);
 * - outfit: clothes cannot be changed by pixels alone, so the image is kept as it is and labelled with the outfit
 *   asked for (a pill above the PREVIEW mark), so nobody takes it for a changed outfit;
 * - retouch: the skin (a YCbCr skin-colour range) blended with a blurred copy, gently (`natural`) or more
 *   (`polished`);
 * - reframe: the canvas padded (more headroom: above; wider: all round) with a heavily blurred copy of the image and
 *   scaled back, or cropped tighter around the eyes;
 * - upscale: a Lanczos resize to the width of the largest 4:5 canvas (domain/headshot-variants.ts
 *   `CANVAS_SIZES.flexible.high`), the aspect kept.
 *
 * Every preview carries the PREVIEW mark (./local-mark.ts) in the corner of the square FinishHeadshot cuts around
 * the eyes, as the offline headshots do.
 */

/** The canvas an upscale answers: the largest 4:5 canvas the product makes. */
const UPSCALE_CANVAS: Size = CANVAS_SIZES.flexible.high;

/**
 * Skin colours in YCbCr (Chai and Ngan, "Face segmentation using skin-color map in videophone applications", IEEE
 * Trans. Circuits Syst. Video Technol. 9(4), 1999: Cb 77-127, Cr 133-173).
 */
const SKIN = { cb: [77, 127], cr: [133, 173] } as const;

/** How much of the blurred copy a retouch blends into the skin, and the blur's sigma as a share of the width. */
const RETOUCH: Record<RetouchStrength, { amount: number; sigma: number }> = {
  natural: { amount: 0.4, sigma: 1 / 400 },
  polished: { amount: 0.75, sigma: 1 / 220 },
};

/** What a reframe pads (as shares of the canvas's height and width) or, below 1, the share of it a crop keeps. */
const REFRAME: Record<Reframing, { top: number; sides: number; bottom: number } | { keep: number }> = {
  'more-headroom': { top: 0.18, sides: 0.09, bottom: 0 },
  wider: { top: 0.08, sides: 0.16, bottom: 0.12 },
  tighter: { keep: 0.82 },
};

/** The outfit labels, in the capitals the mark can draw. */
const OUTFIT_LABELS: Record<Outfit, string> = {
  'own-clothing': 'OUTFIT OWN CLOTHING',
  'suit-and-tie': 'OUTFIT SUIT AND TIE',
  blazer: 'OUTFIT BLAZER',
  shirt: 'OUTFIT SHIRT',
  knitwear: 'OUTFIT KNITWEAR',
};

/** Decoded pixels of one image: RGB (3) or RGBA (4) channels. */
interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

type Point = { x: number; y: number };

/** The headshot's pixels (EXIF orientation applied, alpha dropped) and where its eyes are (the middle if no face). */
async function readHeadshot(image: Buffer): Promise<{ pixels: Pixels; eyes: Point }> {
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await sharp(image)
      .rotate()
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new ProviderInvalidOutputError('The local provider cannot decode the headshot to edit');
  }
  const { width, height } = decoded.info;
  const small = await decodeRgb(image);
  const face = (await analyzeFaces(small)).faces[0];
  const scale = width / small.width;
  const eyes = face
    ? {
        x: ((face.eyes[0].x + face.eyes[1].x) / 2) * scale,
        y: ((face.eyes[0].y + face.eyes[1].y) / 2) * scale,
      }
    : { x: width / 2, y: height * 0.4 };
  return { pixels: { data: decoded.data, width, height, channels: 3 }, eyes };
}

/** The person on the new background (or on none: RGBA with the matte as alpha). */
async function replaceBackground(pixels: Pixels, eyes: Point, background: EditBackground): Promise<Pixels> {
  const { width, height } = pixels;
  const raw = await personMatte({ data: pixels.data, width, height });
  const alpha = await refineMatte(raw, width, height);
  const person = await decontaminate(pixels.data, alpha, width, height);
  if (background.type === 'transparent') {
    const rgba = Buffer.alloc(width * height * 4);
    for (let i = 0; i < alpha.length; i++) {
      person.copy(rgba, i * 4, i * 3, i * 3 + 3);
      rgba[i * 4 + 3] = alpha[i]!;
    }
    return { data: rgba, width, height, channels: 4 };
  }
  let plate: Buffer;
  if (background.type === 'colour') {
    plate = await sharp({ create: { width, height, channels: 3, background: background.colour } })
      .raw()
      .toBuffer();
  } else {
    // The plates are squares: one as tall as the canvas, cut around the eyes' column as the offline headshots are.
    const side = Math.max(width, height);
    const left = Math.round((side - width) / 2);
    const square = await backdrop(background.background, side, { x: eyes.x + left, y: eyes.y }, 0, () => 0.5);
    plate = await sharp(square, { raw: { width: side, height: side, channels: 3 } })
      .extract({ left, top: 0, width, height })
      .raw()
      .toBuffer();
  }
  return { data: composite(person, alpha, plate), width, height, channels: 3 };
}

/** The skin blended with a blurred copy of itself (see the module comment). */
async function retouch(pixels: Pixels, strength: RetouchStrength): Promise<Pixels> {
  const { width, height, data } = pixels;
  const { amount, sigma } = RETOUCH[strength];
  const blurred = await sharp(data, { raw: { width, height, channels: 3 } })
    .blur(Math.max(0.5, width * sigma))
    .raw()
    .toBuffer();
  const out = Buffer.from(data);
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!];
    // ITU-R BT.601 chroma, as JPEG's YCbCr (the skin range above is given in it).
    const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
    const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
    if (cb < SKIN.cb[0] || cb > SKIN.cb[1] || cr < SKIN.cr[0] || cr > SKIN.cr[1]) continue;
    for (let c = 0; c < 3; c++)
      out[i * 3 + c] = Math.round(data[i * 3 + c]! * (1 - amount) + blurred[i * 3 + c]! * amount);
  }
  return { ...pixels, data: out };
}

/** An edit's pixels and where the eyes are in them. */
interface Edited {
  pixels: Pixels;
  eyes: Point;
}

/** The canvas padded or cropped, then scaled back to its size (see the module comment). */
async function reframe(pixels: Pixels, eyes: Point, framing: Reframing): Promise<Edited> {
  const { width, height, data } = pixels;
  const raw = { raw: { width, height, channels: 3 as const } };
  const plan = REFRAME[framing];
  let framed: Buffer;
  // Where the framed image's (0, 0) was in the headshot, and the framed image's size.
  let origin: Point;
  let framedSize: Size;
  if ('keep' in plan) {
    const w = Math.round(width * plan.keep);
    const h = Math.round(height * plan.keep);
    const left = Math.round(Math.min(Math.max(eyes.x - w / 2, 0), width - w));
    // The eyes keep their height in the frame: the crop shrinks towards them.
    const top = Math.round(Math.min(Math.max(eyes.y * (1 - plan.keep), 0), height - h));
    framed = await sharp(data, raw).extract({ left, top, width: w, height: h }).png().toBuffer();
    origin = { x: left, y: top };
    framedSize = { width: w, height: h };
  } else {
    const top = Math.round(height * plan.top);
    const side = Math.round(width * plan.sides);
    const bottom = Math.round(height * plan.bottom);
    const padded = { width: width + 2 * side, height: height + top + bottom };
    // The pad is the image itself, enlarged and blurred far past recognition: no copied edge streaks.
    const fill = await sharp(data, raw)
      .resize(padded.width, padded.height, { fit: 'cover' })
      .blur(Math.max(padded.width, padded.height) / 12)
      .raw()
      .toBuffer();
    const image = await sharp(data, raw).png().toBuffer();
    framed = await sharp(fill, { raw: { ...padded, channels: 3 } })
      .composite([{ input: image, left: side, top }])
      .png()
      .toBuffer();
    origin = { x: -side, y: -top };
    framedSize = padded;
  }
  const resized = await sharp(framed).resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const moved = {
    x: ((eyes.x - origin.x) * width) / framedSize.width,
    y: ((eyes.y - origin.y) * height) / framedSize.height,
  };
  return { pixels: { ...pixels, data: resized }, eyes: moved };
}

/**
 * The whole image as wide as the largest 4:5 canvas (Lanczos 3), its aspect kept: a 4:5 headshot becomes that canvas.
 */
async function upscale(pixels: Pixels): Promise<Pixels> {
  const { width, height, data, channels } = pixels;
  const size = { width: UPSCALE_CANVAS.width, height: Math.round((height * UPSCALE_CANVAS.width) / width) };
  const resized = await sharp(data, { raw: { width, height, channels } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data: resized, ...size, channels };
}

/** The edit's pixels, before the mark, and where the eyes are in them (a reframe or an upscale moves them). */
async function applyEdit(pixels: Pixels, eyes: Point, request: EditRequest): Promise<Edited> {
  switch (request.kind) {
    case 'background':
      return { pixels: await replaceBackground(pixels, eyes, request.background), eyes };
    case 'outfit':
      return { pixels, eyes };
    case 'retouch':
      return { pixels: await retouch(pixels, request.strength), eyes };
    case 'reframe':
      return reframe(pixels, eyes, request.framing);
    case 'upscale': {
      const scale = UPSCALE_CANVAS.width / pixels.width;
      return { pixels: await upscale(pixels), eyes: { x: eyes.x * scale, y: eyes.y * scale } };
    }
  }
}

/**
 * A marked offline preview of an edit of a headshot (see the module comment).
 *
 * @param image the headshot to edit (its stored original: PNG or JPEG, a portrait canvas)
 * @returns PNG with an alpha channel for a transparent background; otherwise JPEG quality 90 — the edited canvas
 *   (the upscale's: 1664×2080), with the PREVIEW mark (and, for an outfit, its label)
 * @throws {ProviderInvalidOutputError} when the headshot cannot be decoded
 */
export async function renderLocalEdit(image: Buffer, request: EditRequest): Promise<Buffer> {
  const headshot = await readHeadshot(image);
  const { pixels: edited, eyes } = await applyEdit(headshot.pixels, headshot.eyes, request);
  const square = squareRect(edited, eyes);
  const label = request.kind === 'outfit' ? OUTFIT_LABELS[request.outfit] : undefined;
  const mark = await sharp(previewMark(HEADSHOT_SIDE, label))
    .resize(square.width, square.height)
    .png()
    .toBuffer();
  const marked = sharp(edited.data, {
    raw: { width: edited.width, height: edited.height, channels: edited.channels },
  }).composite([{ input: mark, left: square.left, top: square.top }]);
  return edited.channels === 4
    ? marked.png().toBuffer()
    : marked.jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer();
}
