import * as headshotChanges from '../adapters/headshots/changes';
import { headshotNotFound } from './headshot-view';

/** What deleting a headshot needs from the outside world: the deletion of its files, then its item. */
export interface DeleteHeadshotPorts {
  /** False when the caller has no headshot of that id (nothing touched). */
  deleteHeadshot: typeof headshotChanges.deleteHeadshot;
}

const adapters: DeleteHeadshotPorts = { deleteHeadshot: headshotChanges.deleteHeadshot };

/**
 * Deletes one of the caller's headshots, `DELETE /api/headshots/{id}`: its images (the square, the thumbnail, and
 * the portrait and original when it has them), then its item, so a retry finishes a deletion that failed part way.
 * The credit it cost is not refunded: it was delivered.
 *
 * @throws {ItemNotFoundError} for an unknown (or already deleted) id and another user's headshot alike
 */
export async function deleteHeadshot(
  sub: string,
  id: string,
  ports: DeleteHeadshotPorts = adapters,
): Promise<void> {
  if (!(await ports.deleteHeadshot(sub, id))) throw headshotNotFound();
}
