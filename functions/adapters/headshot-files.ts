import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../domain/photos';
import { THUMBNAIL_SIDE } from '../domain/headshot-images';
import type { CropRect, Size, VariantPlan } from '../domain/headshot-variants';

/**
 * The files of one headshot from the provider's image (domain/headshot-variants.ts): the image is decoded once into
 * a {@link HeadshotCanvas}, and every file is cut from those pixels with sharp (libvips): the square JPEG, its WebP
 * thumbnail, the 4:5 portrait JPEG and the original PNG.
 */

/** A provider's image decoded once: EXIF-upright, alpha flattened on white, 8-bit sRGB, at its own size. */
export interface HeadshotCanvas extends Size {
  /** RGB, 3 bytes per pixel, row-major. */
  data: Buffer;
}

/**
 * Decodes a provider's image into a {@link HeadshotCanvas}.
 *
 * @throws {Error} when `bytes` is not a decodable image or is over MAX_INPUT_PIXELS (50 MP; the largest canvas we
 *   ask for is 5.24 MP)
 */
export async function decodeCanvas(bytes: Buffer): Promise<HeadshotCanvas> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const canvasInput = (canvas: HeadshotCanvas) =>
  sharp(canvas.data, { raw: { width: canvas.width, height: canvas.height, channels: 3 } });

/**
 * The canvas scaled to `width` px wide (never enlarged), as raw RGB: what the face models look at. `scale` maps its
 * px back to the canvas's (canvas px = analysed px × scale).
 */
export async function canvasPixels(
  canvas: HeadshotCanvas,
  width: number,
): Promise<{ data: Buffer; width: number; height: number; scale: number }> {
  const { data, info } = await canvasInput(canvas)
    .resize({ width: Math.min(width, canvas.width), withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, scale: canvas.width / info.width };
}

/** The pixels of `rect` at `size`, as raw RGB (shrunk with sharp's default Lanczos 3 kernel when smaller). */
async function cut(canvas: HeadshotCanvas, rect: CropRect, size: Size): Promise<Buffer> {
  let image = canvasInput(canvas).extract(rect);
  if (size.width !== rect.width || size.height !== rect.height) {
    image = image.resize(size.width, size.height, { fit: 'fill' });
  }
  return image.raw().toBuffer();
}

const rawInput = (data: Buffer, size: Size) =>
  sharp(data, { raw: { width: size.width, height: size.height, channels: 3 } });

/** The encoded files of one headshot. */
export interface HeadshotFiles {
  /** 1024×1024 JPEG, quality 90. */
  square: Buffer;
  /** WebP of the square, {@link THUMBNAIL_SIDE} px, quality 80. */
  thumbnail: Buffer;
  /** 4:5 JPEG, quality 90, at the plan's portrait size. */
  portrait: Buffer;
  /** The whole canvas, PNG (lossless). */
  original: Buffer;
}

/**
 * The original as PNG: lossless at the canvas's own size. zlib level 6 with adaptive filtering off (sharp's
 * defaults) keeps a 1024×1280 photo's encode near 100 ms; level 9 saves a few per cent for several times the time.
 */
export function encodeOriginal(canvas: HeadshotCanvas): Promise<Buffer> {
  return canvasInput(canvas).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * Encodes the square (and its thumbnail) and the portrait of `plan`; the original is {@link encodeOriginal}'s, which
 * needs no face and can start before the plan exists (pass its promise).
 */
export async function encodeHeadshotFiles(
  canvas: HeadshotCanvas,
  plan: VariantPlan,
  original: Promise<Buffer> = encodeOriginal(canvas),
): Promise<HeadshotFiles> {
  const squarePixels = await cut(canvas, plan.square.rect, plan.square.size);
  const [square, thumbnail, portrait, png] = await Promise.all([
    rawInput(squarePixels, plan.square.size).jpeg({ quality: 90 }).toBuffer(),
    rawInput(squarePixels, plan.square.size)
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE)
      .webp({ quality: 80 })
      .toBuffer(),
    cut(canvas, plan.portrait.rect, plan.portrait.size).then((pixels) =>
      rawInput(pixels, plan.portrait.size).jpeg({ quality: 90 }).toBuffer(),
    ),
    original,
  ]);
  return { square, thumbnail, portrait, original: png };
}
