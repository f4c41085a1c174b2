import type { PhotoProblem } from '../../domain/photos';
import type { StoredFraming } from '../../domain/framing';
import type { PhotoFacts } from '../../domain/photo-checks';
import { normalizedPixels, UnusablePhotoError, type NormalizedPixels } from '../images';
import { analyzeFaces, type FaceAnalysis } from '../support/vision-models/faces';
import { perceptualHash } from './image-hash';
import type { RgbImage } from '../support/pixels';
import { measureFace } from './quality';

/**
 * One uploaded photo through the vision module: decoded the way PrepareReferences decodes it (HEIC included,
 * EXIF-upright, ≤ 1024 px), its faces found and its largest face measured, and the upright picture's perceptual
 * hash taken (the duplicate check's) — the facts the photo checks (functions/domain/photo-checks.ts) judge.
 */

/** An analysed photo: the facts, and for a readable photo the normalized copy's pixels and the faces in them. */
export interface AnalyzedPhoto {
  facts: PhotoFacts;
  /** Why an unreadable photo could not be decoded. */
  problem?: PhotoProblem;
  image?: RgbImage;
  analysis?: FaceAnalysis;
  /** The largest face's framing landmarks in `image` (absent without a face): stored with the photo check. */
  framing?: StoredFraming;
}

/**
 * Analyses one upload's bytes.
 *
 * @returns `facts.readable: false` when the bytes are not a photo we can decode (empty, not an image, too large,
 *   too many pixels, under 256 px)
 */
export async function analyzePhoto(bytes: Buffer): Promise<AnalyzedPhoto> {
  // Pixels straight from the decode: nothing here needs the normalized copy as a JPEG file.
  let normalized: NormalizedPixels;
  try {
    normalized = await normalizedPixels(bytes);
  } catch (error) {
    if (error instanceof UnusablePhotoError) {
      return { facts: { width: 0, height: 0, readable: false, faces: [] }, problem: error.problem };
    }
    throw error;
  }
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
    ...(main ? { face: await measureFace(image, main), descriptor: main.descriptor } : {}),
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
