import { deleteHeadshot } from '../use-cases/delete-headshot';
import { callerOf, httpHandler, noContent } from './handler';
import { headshotIdOf } from './headshot-view';

/**
 * `DELETE /api/headshots/{id}` (jwt, owner only) → 204, no body.
 *
 * Deletes the headshot's versions (issue 36) with their files, then its own files from the results bucket and its
 * item. The credits they cost are not refunded (they were delivered).
 *
 * Errors: 404 `NOT_FOUND` for an unknown (or already deleted) id and for another user's headshot alike (nothing
 * changes).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const id = headshotIdOf(event);
  await deleteHeadshot(sub, id);
  return noContent();
});
