import sharp, { type Sharp } from 'sharp';
import { MAX_INPUT_PIXELS } from '../domain/photos';
import { THUMBNAIL_SIDE } from '../domain/headshot-images';
import type { CropRect, Size, VariantPlan } from '../domain/headshot-variants';

/**
 * The files of one headshot from the provider's image (domain/headshot-variants.ts): the image is decoded once into
 * a {@link HeadshotCanvas}, and every file is cut from those pixels with sharp (libvips): the square JPEG, its WebP
 * thumbnail, the 4:5 portrait JPEG and the original PNG.
 */

/**
 * A provider's image decoded once: EXIF-upright, 8-bit sRGB, at its own size, its alpha flattened on white — except
 * for a transparent edit's image (issue 36, domain/headshot-versions.ts `isTransparentEdit`), which keeps it.
 */
export interface HeadshotCanvas extends Size {
  /** RGB, 3 bytes per pixel, row-major; RGBA (4 bytes) when {@link alpha}. */
  data: Buffer;
  /** True when the canvas kept the image's alpha channel (its files are PNG, its thumbnail a WebP with alpha). */
  alpha?: boolean;
}

/**
 * Decodes a provider's image into a {@link HeadshotCanvas}; `keepAlpha` keeps its alpha channel (RGBA; an image
 * without one gets an opaque one), else it is flattened on white.
 *
 * @throws {Error} when `bytes` is not a decodable image or is over MAX_INPUT_PIXELS (50 MP; the largest canvas we
 *   ask for is an upscale's, at most 2560×3200 = 8.19 MP: issue 36)
 */
export async function decodeCanvas(bytes: Buffer, keepAlpha = false): Promise<HeadshotCanvas> {
  const upright = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
  const { data, info } = await (
    keepAlpha ? upright.ensureAlpha() : upright.flatten({ background: '#ffffff' })
  )
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, ...(keepAlpha ? { alpha: true } : {}) };
}

const channelsOf = (canvas: { alpha?: boolean }) => (canvas.alpha ? 4 : 3);

const canvasInput = (canvas: HeadshotCanvas) =>
  sharp(canvas.data, { raw: { width: canvas.width, height: canvas.height, channels: channelsOf(canvas) } });

/**
 * The canvas scaled to `width` px wide (never enlarged), as raw RGB: what the face models look at. `scale` maps its
 * px back to the canvas's (canvas px = analysed px × scale).
 */
export async function canvasPixels(
  canvas: HeadshotCanvas,
  width: number,
): Promise<{ data: Buffer; width: number; height: number; scale: number }> {
  // The face models take RGB: a transparent canvas is looked at on white, as every other one.
  const { data, info } = await canvasInput(canvas)
    .flatten({ background: '#ffffff' })
    .resize({ width: Math.min(width, canvas.width), withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, scale: canvas.width / info.width };
}

/** The pixels of `rect` at `size`, as raw RGB or RGBA as the canvas (shrunk with sharp's default Lanczos 3 kernel when smaller). */
async function cut(canvas: HeadshotCanvas, rect: CropRect, size: Size): Promise<Buffer> {
  let image = canvasInput(canvas).extract(rect);
  if (size.width !== rect.width || size.height !== rect.height) {
    image = image.resize(size.width, size.height, { fit: 'fill' });
  }
  return image.raw().toBuffer();
}

const rawInput = (data: Buffer, size: Size, canvas: HeadshotCanvas) =>
  sharp(data, { raw: { width: size.width, height: size.height, channels: channelsOf(canvas) } });

/** A cut encoded as JPEG quality 90, or as PNG when the canvas kept its alpha (JPEG has none). */
const encodeCut = (image: Sharp, canvas: HeadshotCanvas) =>
  (canvas.alpha ? image.png({ compressionLevel: 6 }) : image.jpeg({ quality: 90 })).toBuffer();

/** The encoded files of one headshot (a canvas with {@link HeadshotCanvas.alpha}: PNG square and portrait). */
export interface HeadshotFiles {
  /** 1024×1024 JPEG, quality 90 (PNG with alpha). */
  square: Buffer;
  /** WebP of the square, {@link THUMBNAIL_SIDE} px, quality 80 (WebP keeps alpha). */
  thumbnail: Buffer;
  /** 4:5 JPEG, quality 90, at the plan's portrait size (PNG with alpha). */
  portrait: Buffer;
  /** The whole canvas, PNG (lossless, with its alpha when kept). */
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
    encodeCut(rawInput(squarePixels, plan.square.size, canvas), canvas),
    rawInput(squarePixels, plan.square.size, canvas)
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE)
      .webp({ quality: 80 })
      .toBuffer(),
    cut(canvas, plan.portrait.rect, plan.portrait.size).then((pixels) =>
      encodeCut(rawInput(pixels, plan.portrait.size, canvas), canvas),
    ),
    original,
  ]);
  return { square, thumbnail, portrait, original: png };
}
