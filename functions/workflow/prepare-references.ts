import { recordStep } from '../adapters/generations';
import { normalizePhoto, UnusablePhotoError } from '../adapters/images';
import { getObjectBytes, ObjectTooLargeError, putObject } from '../adapters/storage';
import {
  MAX_REFERENCE_PHOTOS,
  MAX_UPLOAD_BYTES,
  noUsablePhotosMessage,
  NoUsablePhotosError,
  PROGRESS,
  type PhotoProblem,
} from '../domain/generation';
import { isOwnUploadKey, normalizedKey } from '../domain/object-keys';
import { logger } from '../common/logger';
import { prepareReferencesInput } from './inputs';

/** Photos decoded at once: HEIC decoding is CPU-bound, and two keep both vCPUs of a 1.5 GB function busy. */
const CONCURRENCY = 2;

type PhotoResult =
  { index: number; key: string; normalized: string } | { index: number; problem: PhotoProblem };

async function preparePhoto(userId: string, key: string, index: number): Promise<PhotoResult> {
  // The API checked ownership already; checking again keeps this task safe on its own.
  if (!isOwnUploadKey(userId, key)) return { index, problem: 'missing' };
  try {
    const bytes = await getObjectBytes('uploads', key, MAX_UPLOAD_BYTES);
    if (!bytes) return { index, problem: 'missing' };
    const photo = await normalizePhoto(bytes);
    const normalized = normalizedKey(key);
    await putObject('uploads', normalized, photo.jpeg, 'image/jpeg');
    return { index, key, normalized };
  } catch (error) {
    if (error instanceof UnusablePhotoError) return { index, problem: error.problem };
    if (error instanceof ObjectTooLargeError) return { index, problem: 'too-large' };
    throw error;
  }
}

/**
 * Workflow task PrepareReferences (function `generation-prepare-references`).
 *
 * Reads each upload, proves it is an image by decoding it (HEIC included), and stores an upright, metadata-free
 * JPEG copy (≤ 1024 px) next to it; the first 3 usable photos, in the user's order, are the references.
 * Progress 10 → 30, stage `preparing`, status `running`.
 *
 * Input `{ generationId, userId, referenceKeys }` → output `{ references: string[] (normalized keys, 1-3),
 * usable: number, rejected: number }`.
 *
 * @throws {NoUsablePhotosError} when no photo is usable; its message is shown to the user as is
 * @throws {GenerationClosedError} when the generation was already compensated
 */
export const handler = async (event: unknown) => {
  const { generationId, userId, referenceKeys } = prepareReferencesInput.parse(event);
  await recordStep(userId, generationId, {
    status: 'running',
    stage: 'preparing',
    progress: PROGRESS.preparing,
  });

  const results: PhotoResult[] = [];
  for (let i = 0; i < referenceKeys.length; i += CONCURRENCY) {
    const batch = referenceKeys.slice(i, i + CONCURRENCY);
    results.push(...(await Promise.all(batch.map((key, j) => preparePhoto(userId, key, i + j)))));
  }
  const usable = results.filter((r): r is Extract<PhotoResult, { normalized: string }> => 'normalized' in r);
  const rejected = results.filter(
    (r): r is Extract<PhotoResult, { problem: PhotoProblem }> => 'problem' in r,
  );
  logger.info('Photos prepared', { generationId, usable: usable.length, rejected });
  if (usable.length === 0) throw new NoUsablePhotosError(noUsablePhotosMessage(rejected));

  const references = usable.slice(0, MAX_REFERENCE_PHOTOS).map((r) => r.normalized);
  await recordStep(userId, generationId, {
    stage: 'preparing',
    progress: PROGRESS.prepared,
    references,
    rejectedPhotos: rejected.map(({ index, problem }) => ({ index, problem })),
  });
  return { references, usable: usable.length, rejected: rejected.length };
};
