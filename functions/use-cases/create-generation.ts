import type { CreateGenerationBody, GenerationStarted } from '../contracts';
import { ForeignUploadError } from '../domain/errors';
import { isOwnUploadKey } from '../domain/object-keys';
import { assertReferencesStored, startGeneration, type Starter } from './start-generation';

/**
 * "Create generation" (docs/architecture.md §4): checks every key is one of the caller's uploads and exists (nothing
 * is spent otherwise), then starts a 6-slot generation.
 *
 * @throws {ForeignUploadError} for a key that is not the caller's upload (the same answer for any foreign or
 *   malformed key, so nothing about other users is revealed); {UploadMissingError}; {InvalidUploadError}; and what
 *   {@link startGeneration} throws
 */
export async function createGeneration(
  starter: Starter,
  body: CreateGenerationBody,
): Promise<GenerationStarted> {
  body.referenceKeys.forEach((key, i) => {
    if (!isOwnUploadKey(starter.sub, key)) throw new ForeignUploadError(i);
  });
  const referenceSetHash = await assertReferencesStored(body.referenceKeys);
  return startGeneration(starter, { ...body, referenceSetHash });
}
