import { isHeic } from './file-rules';

/**
 * Readies a photo for upload in the browser: HEIC/HEIF decoded with `heic-to` (loaded only when such a photo
 * arrives, so its WebAssembly decoder is never part of the initial bundle), EXIF orientation applied, downscaled to
 * at most {@link MAX_EDGE} px on the long edge and re-encoded as JPEG. The result is upright in every browser, shows
 * as a thumbnail everywhere (Chrome cannot display HEIC), carries no EXIF metadata (no GPS position leaves the
 * device) and is a fraction of the original's size.
 */

/** Longest edge of an uploaded photo, in pixels. */
export const MAX_EDGE = 2048;
/** JPEG quality of the re-encoded photo. */
export const JPEG_QUALITY = 0.9;

/** A photo ready to upload. */
export interface PreparedPhoto {
  blob: Blob;
  /** Always `image/jpeg` when the photo was re-encoded; the original type when it was sent as is. */
  contentType: string;
  width?: number;
  height?: number;
}

/** The size that fits `width`×`height` within `maxEdge` on the long edge, never enlarging. */
export function fitWithin(width: number, height: number, maxEdge: number = MAX_EDGE) {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

async function decode(file: File): Promise<ImageBitmap> {
  if (isHeic(file)) {
    // The CSP build: the site's Content-Security-Policy allows WebAssembly ('wasm-unsafe-eval') but not eval.
    const { heicTo } = await import('heic-to/csp');
    // libheif applies the HEIF rotation/mirror transforms itself while decoding.
    return heicTo({ blob: file, type: 'bitmap' });
  }
  return createImageBitmap(file, { imageOrientation: 'from-image' });
}

async function encodeJpeg(bitmap: ImageBitmap, width: number, height: number): Promise<Blob> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D canvas context');
    draw(ctx, bitmap, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas context');
  draw(ctx, bitmap, width, height);
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be encoded'))),
      'image/jpeg',
      JPEG_QUALITY,
    ),
  );
}

function draw(
  ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D,
  bitmap: ImageBitmap,
  width: number,
  height: number,
) {
  // JPEG has no transparency: a transparent PNG gets white, not black, behind it.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, width, height);
}

/**
 * Decodes, orients, downscales and re-encodes one photo (see the module comment).
 *
 * @throws when the browser cannot decode the photo (a damaged file, or a format it does not read); the caller may
 *   then send the original, which the server checks itself.
 */
export async function preparePhoto(file: File): Promise<PreparedPhoto> {
  const bitmap = await decode(file);
  try {
    const { width, height } = fitWithin(bitmap.width, bitmap.height);
    const blob = await encodeJpeg(bitmap, width, height);
    return { blob, contentType: 'image/jpeg', width, height };
  } finally {
    bitmap.close();
  }
}
