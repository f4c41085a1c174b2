import * as versions from '../adapters/headshots/versions';
import { headshotNotFound } from './headshot-view';

/** What deleting a version needs from the outside world: the deletion of its files, then its item. */
export interface DeleteHeadshotVersionPorts {
  /** False when the caller has no such version (nothing touched). */
  deleteHeadshotVersion: typeof versions.deleteHeadshotVersion;
}

const adapters: DeleteHeadshotVersionPorts = { deleteHeadshotVersion: versions.deleteHeadshotVersion };

/**
 * Deletes one version of one of the caller's headshots, `DELETE /api/headshots/{id}/versions/{versionId}`
 * (docs/product-spec.md §2 "Edit a headshot", 'Delete version'): its files, then its item with the headshot's
 * `versionCount` − 1; the original and the other versions are kept. The credit it cost is not refunded: it was
 * delivered.
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
  if (!(await ports.deleteHeadshotVersion(sub, headshotId, versionId))) throw headshotNotFound();
}
