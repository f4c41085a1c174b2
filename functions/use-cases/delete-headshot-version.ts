import * as versions from '../adapters/headshots/versions';
import { headshotNotFound } from './headshot-view';
import { withdrawShares } from './withdraw-shares';

/** What deleting a version needs from the outside world: taking it out of teams, its files, then its item. */
export interface DeleteHeadshotVersionPorts {
  /** Takes the caller's shares of it out of every team (use-cases/withdraw-shares.ts). */
  withdrawShares: typeof withdrawShares;
  /** False when the caller has no such version (nothing touched). */
  deleteHeadshotVersion: typeof versions.deleteHeadshotVersion;
}

const adapters: DeleteHeadshotVersionPorts = {
  withdrawShares,
  deleteHeadshotVersion: versions.deleteHeadshotVersion,
};

/**
 * Deletes one version of one of the caller's headshots, `DELETE /api/headshots/{id}/versions/{versionId}`
 * (docs/product-spec.md §2 "Edit a headshot", 'Delete version'): a team it is shared with loses it first (issue 37),
 * then its files, then its item with the headshot's `versionCount` − 1, then a share made meanwhile (a share needs
 * the version item: adapters/teams/shares.ts); the original and the other versions are kept, and so is a share of
 * them. The credit it cost is not refunded: it was delivered.
 *
 * @throws {ItemNotFoundError} 'Headshot not found.' for an unknown (or already deleted) version, another headshot's
 *   version and another user's alike (never says which)
 */
export async function deleteHeadshotVersion(
  sub: string,
  headshotId: string,
  versionId: string,
  ports: DeleteHeadshotVersionPorts = adapters,
): Promise<void> {
  await ports.withdrawShares(sub, { headshotId, versionId });
  if (!(await ports.deleteHeadshotVersion(sub, headshotId, versionId))) throw headshotNotFound();
  await ports.withdrawShares(sub, { headshotId, versionId });
}
