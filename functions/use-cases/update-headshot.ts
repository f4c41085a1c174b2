import { setFavorite } from '../adapters/headshots/changes';
import type { Headshot } from '../contracts';
import {
  headshotNotFound,
  headshotViewAdapters,
  headshotViewer,
  type HeadshotViewPorts,
} from './headshot-view';

/** What a headshot's change needs from the outside world: the favorite's write, and the images' URLs. */
export interface UpdateHeadshotPorts extends HeadshotViewPorts {
  setFavorite: typeof setFavorite;
}

const adapters: UpdateHeadshotPorts = { ...headshotViewAdapters, setFavorite };

/**
 * Changes one of the caller's headshots, `PATCH /api/headshots/{id}`: marks it a favorite or not (the gallery's
 * favorites counter moves with it; setting the value it already has changes nothing).
 *
 * @returns the headshot as it is now, as the API shows it
 * @throws {ItemNotFoundError} for an unknown id and another user's headshot alike (nothing changes)
 */
export async function updateHeadshot(
  sub: string,
  id: string,
  changes: { isFavorite: boolean },
  ports: UpdateHeadshotPorts = adapters,
): Promise<Headshot> {
  const updated = await ports.setFavorite(sub, id, changes.isFavorite);
  if (!updated) throw headshotNotFound();
  return headshotViewer(ports)(updated);
}
