import sharp, { type Metadata } from 'sharp';
import type { Frame } from '../domain/framing';
import { HEADSHOT_SIDE, THUMBNAIL_SIDE } from '../domain/headshot-images';
import {
  MAX_INPUT_PIXELS,
  MAX_UPLOAD_BYTES,
  MIN_PHOTO_SIDE,
  REFERENCE_MAX_SIDE,
  type PhotoProblem,
} from '../domain/photos';
import { extractFrame } from './support/crop';
import type { RgbImage } from './support/pixels';

/**
 * Image decoding and encoding with sharp (libvips). Never trust an upload's declared type or size: a browser can lie
 * about the type within `image/*`, and objects can arrive past the POST policy, so every photo is proven to be an image by decoding it here.
 */

/** A photo that cannot be used as a reference; `problem` says why (see PHOTO_PROBLEM_TEXT for the wording). */
export class UnusablePhotoError extends Error {
  override readonly name = 'UnusablePhotoError';
  constructor(readonly problem: PhotoProblem) {
    super(`Unusable photo: ${problem}`);
  }
}

/** An upload after {@link normalizePhoto}: upright, metadata-free sRGB JPEG, long edge ≤ 1024 px. */
export interface NormalizedPhoto {
  jpeg: Buffer;
  /** Pixels of the normalized copy. */
  width: number;
  height: number;
  /** The container sharp recognised: `jpeg`, `png`, `webp`, `heif`, … */
  sourceFormat: string;
  /** Pixels of the upload itself, upright (EXIF orientations 5-8 swap width and height). */
  sourceWidth: number;
  sourceHeight: number;
}

/** Photo formats we accept. SVG, PDF and other vector or document formats decode in libvips but are not photos. */
const PHOTO_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif', 'avif', 'tiff', 'gif']);

/**
 * Proves that `bytes` is a usable photo and returns its normalized copy: EXIF orientation applied (`rotate()`),
 * every metadata block stripped (location, camera serials: sharp writes none unless asked), alpha flattened on
 * white, resized to fit 1024×1024 without enlarging, JPEG quality 90. HEVC-coded HEIC (iPhone) is decoded with
 * heic-convert first, because sharp's prebuilt libvips decodes only AV1-coded HEIF.
 *
 * Pixel bombs are refused from the header before anything is decoded (width × height over {@link MAX_INPUT_PIXELS}),
 * and sharp's `limitInputPixels` guards the decode itself.
 *
 * @param bytes the uploaded file, as stored
 * @throws {UnusablePhotoError} `empty` (0 bytes), `too-large` (over 10 MiB), `not-an-image` (not decodable, or not
 *   a photo format), `too-many-pixels`, `too-small` (short side under 256 px).
 */
export async function normalizePhoto(bytes: Buffer): Promise<NormalizedPhoto> {
  const { input, metadata, format, width, height } = await readablePhoto(bytes);
  try {
    const { data, info } = await normalized(input)
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    const swapped = (metadata.orientation ?? 1) >= 5;
    return {
      jpeg: data,
      width: info.width,
      height: info.height,
      sourceFormat: format,
      sourceWidth: swapped ? height : width,
      sourceHeight: swapped ? width : height,
    };
  } catch {
    // Truncated or corrupt data: the header parsed but the pixels do not decode.
    throw new UnusablePhotoError('not-an-image');
  }
}

/** The pixels of an upload's normalized copy (see {@link normalizedPixels}). */
export interface NormalizedPixels {
  /** RGB, 3 channels, row-major. */
  data: Buffer;
  width: number;
  height: number;
  /** Pixels of the upload itself, upright (EXIF orientations 5-8 swap width and height). */
  sourceWidth: number;
  sourceHeight: number;
}

/**
 * The pixels of {@link normalizePhoto}'s copy without its JPEG encode (same checks, same upright, flattened,
 * ≤ 1024 px image): for what needs pixels, not a file — the photo check's face analysis and the crops of a photo
 * already checked.
 *
 * @throws {UnusablePhotoError} as {@link normalizePhoto}
 */
export async function normalizedPixels(bytes: Buffer): Promise<NormalizedPixels> {
  const { input, metadata, width, height } = await readablePhoto(bytes);
  try {
    const { data, info } = await normalized(input)
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const swapped = (metadata.orientation ?? 1) >= 5;
    return {
      data,
      width: info.width,
      height: info.height,
      sourceWidth: swapped ? height : width,
      sourceHeight: swapped ? width : height,
    };
  } catch {
    throw new UnusablePhotoError('not-an-image');
  }
}

/** The normalized copy's pipeline: upright, fitted inside 1024 px without enlarging, alpha flattened on white. */
function normalized(input: Buffer) {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(REFERENCE_MAX_SIDE, REFERENCE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' });
}

/**
 * The checks of {@link normalizePhoto} before any pixel is decoded, and the bytes sharp can decode (an HEVC HEIC
 * converted to JPEG).
 *
 * @throws {UnusablePhotoError} `empty`, `too-large`, `not-an-image`, `too-many-pixels`, `too-small`
 */
async function readablePhoto(
  bytes: Buffer,
): Promise<{ input: Buffer; metadata: Metadata; format: string; width: number; height: number }> {
  if (bytes.length === 0) throw new UnusablePhotoError('empty');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new UnusablePhotoError('too-large');
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnusablePhotoError('not-an-image');
  }
  const { format, width, height } = metadata;
  if (!format || !PHOTO_FORMATS.has(format) || !width || !height)
    throw new UnusablePhotoError('not-an-image');
  if (width * height > MAX_INPUT_PIXELS) throw new UnusablePhotoError('too-many-pixels');
  if (Math.min(width, height) < MIN_PHOTO_SIDE) throw new UnusablePhotoError('too-small');

  let input = bytes;
  if (format === 'heif' && metadata.compression !== 'av1') {
    try {
      // Loaded only when a HEIC arrives: its HEVC decoder (2 MB of WebAssembly in JS) would cost every cold start.
      const { default: convertHeic } = await import('heic-convert');
      input = await convertHeic({ buffer: bytes, format: 'JPEG', quality: 0.95 });
    } catch {
      throw new UnusablePhotoError('not-an-image');
    }
  }
  return { input, metadata, format, width, height };
}

/**
 * A provider's image decoded once and framed as the stored headshot: EXIF-rotated, centre-cropped to a
 * {@link HEADSHOT_SIDE}-px square, alpha flattened on white, 8-bit sRGB. The JPEG, the thumbnail and the pixels the
 * face models see are all made from it, so the provider's image (a 1-2 MB PNG from OpenAI) is decoded once per
 * headshot instead of once per output.
 */
export interface HeadshotRaster {
  /** RGB, 3 bytes per pixel, row-major. */
  data: Buffer;
  /** Side of the square, px ({@link HEADSHOT_SIDE}). */
  side: number;
}

/**
 * Decodes a provider's image into a {@link HeadshotRaster}.
 *
 * @throws {Error} when `bytes` is not a decodable image (or is over {@link MAX_INPUT_PIXELS})
 */
export async function decodeHeadshot(bytes: Buffer): Promise<HeadshotRaster> {
  const { data } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(HEADSHOT_SIDE, HEADSHOT_SIDE, { fit: 'cover', position: 'centre' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data, side: HEADSHOT_SIDE };
}

const rasterInput = (raster: HeadshotRaster) =>
  sharp(raster.data, { raw: { width: raster.side, height: raster.side, channels: 3 } });

/** The stored headshot: the raster as a JPEG, quality 90, no metadata. */
export function encodeHeadshotImage(raster: HeadshotRaster): Promise<Buffer> {
  return rasterInput(raster).jpeg({ quality: 90 }).toBuffer();
}

/** The headshot's thumbnail: the same square as {@link encodeHeadshotImage}, WebP {@link THUMBNAIL_SIDE} px, quality 80. */
export function encodeHeadshotThumbnail(raster: HeadshotRaster): Promise<Buffer> {
  return rasterInput(raster).resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE).webp({ quality: 80 }).toBuffer();
}

/**
 * The headshot's pixels at `side` px instead of {@link HEADSHOT_SIDE}, never encoded: what the face models look at
 * (they work at 128-256 px, so the full size adds conversion time, no detail).
 *
 * @param side square side, px
 * @returns RGB pixels, 3 channels, row-major
 */
export async function headshotPixels(
  raster: HeadshotRaster,
  side: number,
): Promise<{ data: Buffer; width: number; height: number }> {
  const data = await rasterInput(raster).resize(side, side).raw().toBuffer();
  return { data, width: side, height: side };
}

/**
 * A reference photo's crop as the provider gets it: the pixels of `frame` (domain/framing.ts, rotated so the eyes are
 * level) cut from `image` at `side` × `side` px, as an upright, metadata-free JPEG of quality 92.
 *
 * @param image the upload's upright copy ({@link normalizedPixels})
 * @param side the crop's side, px
 */
export async function encodeReferenceCrop(image: RgbImage, frame: Frame, side: number): Promise<Buffer> {
  const { rgb } = await extractFrame(image, frame, side);
  return sharp(rgb, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
