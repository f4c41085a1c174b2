import * as headshotChanges from '../adapters/headshots/changes';
import * as versions from '../adapters/headshots/versions';
import { headshotNotFound } from './headshot-view';

/** What deleting a headshot needs from the outside world: the deletion of its versions, its files, then its item. */
export interface DeleteHeadshotPorts {
  /** False when the caller has no headshot of that id (nothing touched). */
  deleteHeadshot: typeof headshotChanges.deleteHeadshot;
  /** Every version of the headshot (files, then items); none for an unknown id or another user's. */
  deleteHeadshotVersions: typeof versions.deleteHeadshotVersions;
}

const adapters: DeleteHeadshotPorts = {
  deleteHeadshot: headshotChanges.deleteHeadshot,
  deleteHeadshotVersions: versions.deleteHeadshotVersions,
};

/**
 * Deletes one of the caller's headshots, `DELETE /api/headshots/{id}`: its versions with their files (issue 36),
 * then its images (the square, the thumbnail, and the portrait and original when it has them) and its item, so a
 * retry finishes a deletion that failed part way (the versions go first: while the headshot exists its id still
 * finds them). Versions once more after the headshot is gone: an edit saved in between (a save needs the headshot,
 * adapters/headshots/versions.ts, so none can follow). The credits they cost are not refunded: they were delivered.
 *
 * @throws {ItemNotFoundError} for an unknown (or already deleted) id and another user's headshot alike
 */
export async function deleteHeadshot(
  sub: string,
  id: string,
  ports: DeleteHeadshotPorts = adapters,
): Promise<void> {
  await ports.deleteHeadshotVersions(sub, id);
  if (!(await ports.deleteHeadshot(sub, id))) throw headshotNotFound();
  await ports.deleteHeadshotVersions(sub, id);
}
