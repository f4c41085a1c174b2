import { storageSettings } from '../config/storage';
import { resultsPrefix, uploadPrefix } from '../domain/object-keys';
import { deletePrefix } from './support/objects';

/**
 * Deletes every S3 object of one user: their uploads (and normalized copies) under `uploads/<sub>/` and their
 * headshot images and thumbnails under `results/<sub>/` ("delete my data", docs/product-spec.md §6).
 *
 * @returns how many objects were deleted
 * @throws the last S3 error when objects are still left after the retries (calling again finishes the job)
 */
export async function deleteUserObjects(sub: string): Promise<number> {
  const { UPLOADS_BUCKET, RESULTS_BUCKET } = storageSettings();
  const [uploads, results] = await Promise.all([
    deletePrefix(UPLOADS_BUCKET, uploadPrefix(sub)),
    deletePrefix(RESULTS_BUCKET, resultsPrefix(sub)),
  ]);
  return uploads + results;
}
