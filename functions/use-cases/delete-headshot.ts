import * as headshotChanges from '../adapters/headshots/changes';
import * as versions from '../adapters/headshots/versions';
import { headshotNotFound } from './headshot-view';
import { withdrawShares } from './withdraw-shares';

/**
 * What deleting a headshot needs from the outside world: taking it out of teams, the deletion of its versions, its
 * files, then its item.
 */
export interface DeleteHeadshotPorts {
  /** Takes the caller's shares of it out of every team (use-cases/withdraw-shares.ts). */
  withdrawShares: typeof withdrawShares;
  /** False when the caller has no headshot of that id (nothing touched). */
  deleteHeadshot: typeof headshotChanges.deleteHeadshot;
  /** Every version of the headshot (files, then items); none for an unknown id or another user's. */
  deleteHeadshotVersions: typeof versions.deleteHeadshotVersions;
}

const adapters: DeleteHeadshotPorts = {
  withdrawShares,
  deleteHeadshot: headshotChanges.deleteHeadshot,
  deleteHeadshotVersions: versions.deleteHeadshotVersions,
};

/**
 * Deletes one of the caller's headshots, `DELETE /api/headshots/{id}`: first its shares with teams (issue 37: a team
 * never links to a deleted file), then its versions with their files (issue 36),
 * then its images (the square, the thumbnail, and the portrait and original when it has them) and its item, so a
 * retry finishes a deletion that failed part way (the versions go first: while the headshot exists its id still
 * finds them). Versions once more after the headshot is gone: an edit saved in between (a save needs the headshot,
 * adapters/headshots/versions.ts, so none can follow), and shares once more for the same reason (a share needs the
 * headshot: adapters/teams/shares.ts). The credits they cost are not refunded: they were delivered.
 *
 * @throws {ItemNotFoundError} for an unknown (or already deleted) id and another user's headshot alike
 */
export async function deleteHeadshot(
  sub: string,
  id: string,
  ports: DeleteHeadshotPorts = adapters,
): Promise<void> {
  await ports.withdrawShares(sub, { headshotId: id });
  await ports.deleteHeadshotVersions(sub, id);
  if (!(await ports.deleteHeadshot(sub, id))) throw headshotNotFound();
  await ports.withdrawShares(sub, { headshotId: id });
  await ports.deleteHeadshotVersions(sub, id);
}
