import { deleteUserData, GenerationInProgressError } from '../adapters/user-data';
import type { DeletedData } from '../contracts';
import { HttpError } from './errors';
import { callerOf, httpHandler, json } from './handler';

/** The 409 message while a generation is running. */
export const GENERATION_RUNNING_MESSAGE =
  'Your headshots are still being generated. Please wait until they are ready (about 2-3 minutes), then delete your photos.';

/**
 * `DELETE /api/me/data` (jwt) → 200 `{ deleted: { headshots, generations, objects } }`.
 *
 * Deletes all of the caller's photos and what was made from them: every upload (and its normalized copy) under
 * `uploads/<sub>/`, every headshot image and thumbnail under `results/<sub>/`, and every headshot and generation
 * item, and the cached photo checks (they hold face descriptors). The account, the credit balance, the purchases
 * and the credit ledger stay (accounting). Counts are of items and S3 objects removed. Calling it again is harmless (`{ deleted: { 0, 0, 0 } }`).
 *
 * Errors: 409 `GENERATION_IN_PROGRESS` while a generation of the caller is still running (nothing is deleted: try
 * again when it has finished).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  try {
    return json<DeletedData>(200, { deleted: await deleteUserData(sub) });
  } catch (error) {
    if (error instanceof GenerationInProgressError) {
      throw new HttpError(409, 'GENERATION_IN_PROGRESS', GENERATION_RUNNING_MESSAGE, {
        generationId: error.generationId,
      });
    }
    throw error;
  }
});
