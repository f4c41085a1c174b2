import { deleteHeadshotVersion } from '../use-cases/delete-headshot-version';
import { callerOf, httpHandler, noContent } from './handler';
import { versionIdsOf } from './headshot-view';

/**
 * `DELETE /api/headshots/{id}/versions/{versionId}` (jwt, owner only) → 204, no body.
 *
 * Deletes one version of a headshot (issue 36, 'Delete version'): its files, then its item, and the headshot's
 * `versionCount` goes down; the original and the other versions are kept. The credit it cost is not refunded.
 *
 * Errors: 404 `NOT_FOUND` 'Headshot not found.' for an unknown (or already deleted) version, another headshot's and
 * another user's alike (nothing changes).
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const { headshotId, versionId } = versionIdsOf(event);
  await deleteHeadshotVersion(sub, headshotId, versionId);
  return noContent();
});
