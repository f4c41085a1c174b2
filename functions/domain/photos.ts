import { namedError } from './named-error';

/**
 * The customer's photos (docs/product-spec.md §5, §9): how many and how large an upload may be, which ones make
 * usable references, and how a photo's problem reads when none is usable. Pure: the upload handler, the photo
 * checks and PrepareReferences share these limits.
 */

/** Photos one upload request may presign, and one generation may reference (docs/product-spec.md §5: "capped at 10"). */
export const MAX_UPLOAD_FILES = 10;
/** Largest accepted upload, in bytes: 10 MiB (docs/product-spec.md §5: 10*1024*1024). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Reference photos handed to the image provider: the first 3 usable ones (docs/product-spec.md §9). */
export const MAX_REFERENCE_PHOTOS = 3;
/**
 * Largest decoded photo, in pixels (width × height). 50 MP admits every phone camera (48 MP sensors) and stops
 * "pixel bombs": tiny files that claim gigapixel dimensions and would exhaust the task's memory when decoded.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Shortest accepted side of a photo, in pixels: anything smaller cannot give a 1024 px headshot a usable face. */
export const MIN_PHOTO_SIDE = 256;
/** Long edge of the normalized reference copies, in pixels. */
export const REFERENCE_MAX_SIDE = 1024;

/** Why one photo could not be used, for programs. */
export type PhotoProblem =
  | 'empty'
  | 'too-large'
  | 'not-an-image'
  | 'too-many-pixels'
  | 'too-small'
  | 'missing'
  | 'no-face'
  | 'multiple-faces'
  | 'different-person'
  | 'duplicate';

/** How each {@link PhotoProblem} reads in 'None of your photos could be used: …'. */
export const PHOTO_PROBLEM_TEXT: Record<PhotoProblem, string> = {
  empty: 'is empty',
  'too-large': 'is larger than 10 MB',
  'not-an-image': 'is not an image we can read (use JPG, PNG, WebP or HEIC)',
  'too-many-pixels': 'has more than 50 megapixels',
  'too-small': `is too small (under ${MIN_PHOTO_SIDE} pixels on a side)`,
  missing: 'was not uploaded completely',
  'no-face': 'has no face we could find',
  'multiple-faces': 'shows more than one person',
  'different-person': 'shows a different person from your other photos',
  duplicate: 'is the same picture as another of your photos',
};

/**
 * The reason shown when no photo is usable, e.g. 'None of your photos could be used: photo 1 is empty; photo 2 is
 * not an image we can read (use JPG, PNG, WebP or HEIC).' Photos are numbered from 1, in upload order.
 */
export function noUsablePhotosMessage(problems: readonly { index: number; problem: PhotoProblem }[]): string {
  const parts = problems.map(({ index, problem }) => `photo ${index + 1} ${PHOTO_PROBLEM_TEXT[problem]}`);
  return `None of your photos could be used: ${parts.join('; ')}. Please upload clear photos of yourself.`;
}

/**
 * PrepareReferences found no usable photo; `message` is written for the user (see {@link noUsablePhotosMessage}).
 * Its `name` is set explicitly because the workflow's Catch and the generation's error code match it
 * (./generation-errors.ts, docs/architecture.md §5).
 */
export class NoUsablePhotosError extends namedError('NoUsablePhotosError') {}
