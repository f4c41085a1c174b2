import { InvalidUploadError, PhotosExpiredError, UploadMissingError } from '../domain/errors';
import { assertReferencesStored, type StartGenerationPorts } from './start-generation';

/**
 * What a regeneration and an edit of a finished headshot share before they start their one-slot generation
 * (docs/architecture.md §4): the 404 that never says which item is gone, and the photos the headshot was made from,
 * which must still be stored (the new image is likeness-checked against them).
 */

/** The message of a headshot (or version) that is not the caller's or is gone: never says which. */
export const HEADSHOT_NOT_FOUND = 'Headshot not found.';

/**
 * The content hash of the reference photos a headshot was made from ({@link assertReferencesStored}), for a new
 * one-slot generation from that headshot.
 *
 * @param sub the caller
 * @param referenceKeys the headshot's generation's reference photo keys (uploads bucket)
 * @returns domain/likeness-cap.ts `referenceSetHash` of the photos
 * @throws {PhotosExpiredError} a photo is no longer stored, or is no longer an image of at most 10 MB (nothing spent);
 *   {MixedPeopleError} for photos the photo check calls `mixed_people`
 */
export async function storedPhotoSetHash(
  sub: string,
  referenceKeys: readonly string[],
  ports: Pick<StartGenerationPorts, 'headObject' | 'objectSha256' | 'cachedPhotoChecks'>,
): Promise<string> {
  try {
    return await assertReferencesStored(sub, referenceKeys, ports);
  } catch (error) {
    if (error instanceof UploadMissingError || error instanceof InvalidUploadError)
      throw new PhotosExpiredError();
    throw error;
  }
}
