/**
 * The changes an edit or the image model makes to a face, applied to genuine photos for the likeness gate's
 * retouching evaluation (test/bench/likeness-retouch.ts, docs/decisions/026-likeness-under-retouching.md). Each works
 * on a headshot-like square (the face a third of the frame or more, {@link HEADSHOT_CROP_SIDE} px: what FinishHeadshot
 * measures, functions/adapters/vision/likeness.ts `LIKENESS_SIDE`) and is deterministic: the same pixels in, the same
 * pixels out, with sharp only (no committed images).
 */
import sharp, { type Sharp } from 'sharp';
import { composite } from '../../functions/adapters/image-providers/local-matte';
import type { RgbImage } from '../../functions/adapters/support/pixels';

/** Side of the square a face is measured in, px: the gate's `LIKENESS_SIDE` (functions/adapters/vision/likeness.ts). */
export const HEADSHOT_CROP_SIDE = 512;

/**
 * The single changes: `crop` (the square itself, nothing changed: the baseline), `smooth` (skin smoothing: a median
 * filter over the face, as a "polished" retouch evens skin), `relight` (a directional light: brightness from ×1.35 on
 * one side to ×0.7 on the other, and a gamma of 1.3), `grade` (a colour grade: warm tint, saturation ×1.4, contrast
 * ×1.25), `background` (the person cut out with the product's matte and put on a plain studio colour, as a
 * background edit), `transparent` (the person cut out the same way on white: a transparent edit as the gate sees it,
 * flattened on white by functions/adapters/headshot-files.ts `canvasPixels`), `upscale` (the square shrunk to a quarter and enlarged back with Lanczos, then sharpened, as an
 * upscale of a small image).
 */
export const SINGLE_RETOUCHES = [
  'crop',
  'smooth',
  'relight',
  'grade',
  'background',
  'transparent',
  'upscale',
] as const;
/**
 * Harder versions of two single changes, beyond what a "natural" or "polished" edit asks for, to see where the gate
 * gives way: `smooth-heavy` (a median twice as wide, about 1/20 of the face: a beauty filter's plastic skin) and
 * `relight-hard` (×1.5 to ×0.55 and a gamma of 1.5: one side of the face in shadow).
 */
export const HARD_RETOUCHES = ['smooth-heavy', 'relight-hard'] as const;
/**
 * The combinations: `polished` (smooth + relight + grade), `edited` (polished + background), `all` (edited +
 * upscale), `heavy` (smooth-heavy + relight-hard + grade + background + upscale).
 */
export const COMBINED_RETOUCHES = ['polished', 'edited', 'all', 'heavy'] as const;
/** Every change the evaluation makes. */
export const RETOUCHES = [...SINGLE_RETOUCHES, ...HARD_RETOUCHES, ...COMBINED_RETOUCHES] as const;
/** One of {@link RETOUCHES}. */
export type Retouch = (typeof RETOUCHES)[number];
type SingleRetouch = (typeof SINGLE_RETOUCHES)[number] | (typeof HARD_RETOUCHES)[number];

/** Which single changes each retouch applies, in order. */
const STEPS: Record<Retouch, readonly SingleRetouch[]> = {
  crop: [],
  smooth: ['smooth'],
  relight: ['relight'],
  grade: ['grade'],
  background: ['background'],
  transparent: ['transparent'],
  upscale: ['upscale'],
  'smooth-heavy': ['smooth-heavy'],
  'relight-hard': ['relight-hard'],
  polished: ['smooth', 'relight', 'grade'],
  edited: ['smooth', 'relight', 'grade', 'background'],
  all: ['smooth', 'relight', 'grade', 'background', 'upscale'],
  heavy: ['smooth-heavy', 'relight-hard', 'grade', 'background', 'upscale'],
};

/** A face's extent in the square, px. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a retouch needs besides the pixels: the face, and the person matte (one byte per pixel, 255 = person). */
export interface RetouchContext {
  face: FaceBox;
  matte: () => Promise<Buffer>;
}

const raw = (image: RgbImage) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
const toImage = async (pipeline: Sharp): Promise<RgbImage> => {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/**
 * The head-and-shoulders square of a photo (a headshot's framing): centred on the face, a little below its middle, of
 * side 2.6 face heights (at most the photo's short side), resized to {@link HEADSHOT_CROP_SIDE}.
 *
 * @param photo the photo's upright pixels
 * @param face the face's box in the photo, px
 * @returns the square and the face's box in it
 */
export async function headshotCrop(
  photo: RgbImage,
  face: FaceBox,
): Promise<{ image: RgbImage; face: FaceBox }> {
  const side = Math.round(Math.min(photo.width, photo.height, face.height * 2.6));
  const cx = face.x + face.width / 2;
  const cy = face.y + face.height * 0.6;
  const left = Math.round(Math.max(0, Math.min(photo.width - side, cx - side / 2)));
  const top = Math.round(Math.max(0, Math.min(photo.height - side, cy - side / 2)));
  const image = await toImage(
    raw(photo)
      .extract({ left, top, width: side, height: side })
      .resize(HEADSHOT_CROP_SIDE, HEADSHOT_CROP_SIDE, { kernel: 'lanczos3' }),
  );
  const k = HEADSHOT_CROP_SIDE / side;
  return {
    image,
    face: { x: (face.x - left) * k, y: (face.y - top) * k, width: face.width * k, height: face.height * k },
  };
}

/**
 * Skin smoothing: the face's box (padded by 10 %) through a median filter of about 1/`per` of the face's width (an
 * odd size, at least 3 px).
 */
async function smooth(image: RgbImage, face: FaceBox, per: number): Promise<RgbImage> {
  const pad = face.width * 0.1;
  const left = Math.max(0, Math.floor(face.x - pad));
  const top = Math.max(0, Math.floor(face.y - pad));
  const width = Math.min(image.width - left, Math.ceil(face.width + 2 * pad));
  const height = Math.min(image.height - top, Math.ceil(face.height + 2 * pad));
  const size = Math.max(3, 2 * Math.round(face.width / (2 * per)) + 1);
  const patch = await raw(image).extract({ left, top, width, height }).median(size).raw().toBuffer();
  return toImage(raw(image).composite([{ input: patch, raw: { width, height, channels: 3 }, left, top }]));
}

/** A directional light: brightness falling linearly from ×`from` (left) to ×`to` (right), then a `gamma`. */
function relight(image: RgbImage, from: number, to: number, gamma: number): RgbImage {
  const out = Buffer.alloc(image.data.length);
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++) {
      const gain = from - ((from - to) * x) / (image.width - 1);
      for (let c = 0; c < 3; c++) {
        const i = (y * image.width + x) * 3 + c;
        const lit = Math.min(1, (image.data[i]! / 255) * gain);
        out[i] = Math.round(255 * lit ** gamma);
      }
    }
  return { ...image, data: out };
}

/** A colour grade: warm tint (red up, blue down), saturation ×1.4, contrast ×1.25 about mid-grey. */
function grade(image: RgbImage): Promise<RgbImage> {
  return toImage(
    raw(image)
      .recomb([
        [1.08, 0.02, 0],
        [0, 1, 0],
        [0, 0.02, 0.85],
      ])
      .modulate({ saturation: 1.4 })
      .linear(1.25, -0.125 * 255),
  );
}

/** The person on a plain colour (RGB) through the product's matte and compositing. */
function background(image: RgbImage, matte: Buffer, colour: readonly [number, number, number]): RgbImage {
  const backdrop = Buffer.alloc(image.data.length);
  for (let i = 0; i < backdrop.length; i += 3) backdrop.set(colour, i);
  return { ...image, data: composite(image.data, matte, backdrop) };
}

/** Shrunk to a quarter, enlarged back with Lanczos and sharpened (sigma 1): an upscale's invented detail. */
async function upscale(image: RgbImage): Promise<RgbImage> {
  const small = await raw(image)
    .resize(Math.round(image.width / 4), Math.round(image.height / 4), { kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return toImage(
    sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: 3 } })
      .resize(image.width, image.height, { kernel: 'lanczos3' })
      .sharpen({ sigma: 1 }),
  );
}

/**
 * The square changed by `retouch` (its single changes in order; the matte is asked for at most once, on the
 * unchanged square, as the product cuts a person out of the picture it has).
 */
export async function retouch(image: RgbImage, how: Retouch, context: RetouchContext): Promise<RgbImage> {
  let out = image;
  for (const step of STEPS[how]) {
    if (step === 'smooth') out = await smooth(out, context.face, 40);
    else if (step === 'smooth-heavy') out = await smooth(out, context.face, 20);
    else if (step === 'relight') out = relight(out, 1.35, 0.7, 1.3);
    else if (step === 'relight-hard') out = relight(out, 1.5, 0.55, 1.5);
    else if (step === 'grade') out = await grade(out);
    // A studio blue-grey (#46566e); white for a transparent edit.
    else if (step === 'background') out = background(out, await context.matte(), [0x46, 0x56, 0x6e]);
    else if (step === 'transparent') out = background(out, await context.matte(), [255, 255, 255]);
    else out = await upscale(out);
  }
  return out;
}
