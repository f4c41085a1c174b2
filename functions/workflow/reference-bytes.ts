import { getObjectBytes } from '../adapters/storage';

/** Thrown when a normalized reference vanished between PrepareReferences and a slot (not retryable). */
export class ReferenceMissingError extends Error {
  override readonly name = 'ReferenceMissingError';
}

/**
 * The normalized reference photos' bytes (upright JPEGs), in the order of `keys`.
 *
 * @param keys `uploads/<sub>/<batchId>/normalized/<n>.jpg` keys, as PrepareReferences chose them
 * @throws {ReferenceMissingError} when one of them is gone (the customer deleted their data meanwhile)
 */
export function loadReferences(keys: readonly string[]): Promise<Buffer[]> {
  return Promise.all(
    keys.map(async (key) => {
      const bytes = await getObjectBytes('uploads', key);
      if (!bytes) throw new ReferenceMissingError(`Reference ${key} is missing`);
      return bytes;
    }),
  );
}
