import type { StoredFraming } from '../../domain/framing';
import type { PhotoFacts } from '../../domain/photo-checks';
import { analyzeFaces, type FaceAnalysis } from '../support/vision-models/faces';
import { faceCrop } from './face-crop';
import { perceptualHash } from './image-hash';
import type { RgbImage } from '../support/pixels';
import { measureFace } from './quality';

/**
 * One uploaded photo through the vision models: its faces found in the upright copy PrepareReferences decodes
 * (adapters/images.ts `normalizedPixels`: HEIC included, EXIF-upright, ≤ 1024 px), its largest face measured, and
 * the upright picture's perceptual hash and the largest face's aligned crop taken (the duplicate check's) — the facts the photo checks
 * (functions/domain/photo-checks.ts) judge. Decoding the upload is the images adapter's job; the use case
 * (use-cases/check-photos.ts) hands the pixels over.
 */

/** An upload's upright copy, decoded: its pixels, and the size of the upload itself (upright, px). */
export interface PhotoPixels extends RgbImage {
  sourceWidth: number;
  sourceHeight: number;
}

/** An analysed readable photo: the facts, the pixels they were found in and the faces in them. */
export interface AnalyzedPixels {
  facts: PhotoFacts;
  image: RgbImage;
  analysis: FaceAnalysis;
  /** The largest face's framing landmarks in `image` (absent without a face): stored with the photo check. */
  framing?: StoredFraming;
}

/**
 * Analyses one readable upload's upright pixels.
 *
 * @returns its facts (`readable: true`, the upload's own size), with the framing of its largest face
 */
export async function analyzePhotoPixels(normalized: PhotoPixels): Promise<AnalyzedPixels> {
  const image: RgbImage = { data: normalized.data, width: normalized.width, height: normalized.height };
  const [analysis, imageHash] = await Promise.all([analyzeFaces(image), perceptualHash(image)]);
  const main = analysis.faces[0];
  const facts: PhotoFacts = {
    width: normalized.sourceWidth,
    height: normalized.sourceHeight,
    readable: true,
    imageHash,
    faces: analysis.faces.map(({ box }) => ({
      left: box.x / image.width,
      top: box.y / image.height,
      right: (box.x + box.width) / image.width,
      bottom: (box.y + box.height) / image.height,
    })),
    ...(main
      ? { face: await measureFace(image, main), descriptor: main.descriptor, faceCrop: faceCrop(image, main) }
      : {}),
  };
  const framing: StoredFraming | undefined = main && {
    width: image.width,
    height: image.height,
    eyes: main.eyes,
    forehead: main.forehead,
    chin: main.chin,
  };
  return { facts, image, analysis, ...(framing ? { framing } : {}) };
}
