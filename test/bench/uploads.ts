import { readdirSync, readFileSync } from 'node:fs';
import convertHeic from 'heic-convert';
import sharp from 'sharp';
import { FIXTURE_PHOTOS_DIR } from './http';

/** The browser's downscale (frontend/src/features/generator/utils/image-prep.ts): long edge and JPEG quality. */
const MAX_EDGE = 2048;
const JPEG_QUALITY = 90;

/** One fixture photo before and after the (emulated) browser downscale. */
export interface UploadFigures {
  file: string;
  originalBytes: number;
  originalWidth: number;
  originalHeight: number;
  sentBytes: number;
  sentWidth: number;
  sentHeight: number;
}

/**
 * An EMULATION of what the browser sends for each fixture photo: the SPA decodes the photo (HEIC with heic-to),
 * applies its EXIF orientation, draws it on a canvas of at most 2048 px on the long edge over white, and encodes a
 * JPEG at quality 0.9. Here sharp does the same steps (HEIC decoded with heic-convert first, as the server does), so
 * the byte counts are close to, not identical with, a given browser's encoder.
 */
export async function benchUploads(): Promise<UploadFigures[]> {
  const names = readdirSync(FIXTURE_PHOTOS_DIR)
    .filter((f) => /\.(jpe?g|png|webp|heic|heif)$/i.test(f))
    .sort();
  const figures: UploadFigures[] = [];
  for (const file of names) {
    const original = readFileSync(`${FIXTURE_PHOTOS_DIR}${file}`);
    const heic = /\.hei[cf]$/i.test(file);
    const decodable = heic ? await convertHeic({ buffer: original, format: 'PNG' }) : original;
    const meta = await sharp(decodable).metadata();
    // Orientations 5-8 turn the picture a quarter: the upright photo's width is the stored height.
    const quarterTurn = (meta.orientation ?? 1) >= 5;
    const { data, info } = await sharp(decodable)
      .rotate()
      .resize(MAX_EDGE, MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer({ resolveWithObject: true });
    figures.push({
      file,
      originalBytes: original.length,
      originalWidth: (quarterTurn ? meta.height : meta.width) ?? 0,
      originalHeight: (quarterTurn ? meta.width : meta.height) ?? 0,
      sentBytes: data.length,
      sentWidth: info.width,
      sentHeight: info.height,
    });
  }
  return figures;
}
