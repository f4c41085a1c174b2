import { readGalleryPage } from '../adapters/headshots/pages';
import type { GalleryPage } from '../contracts/headshot';
import type { GalleryFilter, GallerySort } from '../domain/gallery';
import { headshotViewAdapters, headshotViewer, type HeadshotViewPorts } from './headshot-view';

/** What the gallery needs from the outside world: a page of headshot records with the totals, and their URLs. */
export interface ListHeadshotsPorts extends HeadshotViewPorts {
  readGalleryPage: typeof readGalleryPage;
}

const adapters: ListHeadshotsPorts = { ...headshotViewAdapters, readGalleryPage };

/**
 * The caller's gallery, `GET /api/headshots` (docs/architecture.md §3): one page of their headshots in `sort` order,
 * filtered on the server, with the whole gallery's totals, each as the API's headshot view.
 *
 * @param query.cursor a page's `nextCursor`
 * @throws {InvalidCursorError} for a cursor that was altered, another user's, or the other sort's;
 *   {AccountDeletedError} for a deleted account
 */
export async function listHeadshots(
  sub: string,
  query: { filter: GalleryFilter; sort: GallerySort; cursor?: string | undefined },
  ports: ListHeadshotsPorts = adapters,
): Promise<GalleryPage> {
  const page = await ports.readGalleryPage(sub, query);
  const items = await Promise.all(page.items.map(headshotViewer(ports)));
  return { items, nextCursor: page.nextCursor, stats: page.stats };
}
