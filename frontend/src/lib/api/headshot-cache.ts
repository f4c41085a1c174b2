import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../query-keys';
import type { GalleryPage, Generation, Headshot } from './contracts';

/** A cached gallery list: the pages of one filter and order. */
export type GalleryData = InfiniteData<GalleryPage, string | null>;

/** Applies `change` to every cached gallery page of every filter and order. */
export function updateGalleryPages(
  queryClient: QueryClient,
  change: (page: GalleryPage) => GalleryPage,
): void {
  queryClient.setQueriesData<GalleryData>({ queryKey: queryKeys.headshots.all }, (data) =>
    data ? { ...data, pages: data.pages.map(change) } : data,
  );
}

/** The cached copy of a headshot, from any gallery page or any generation's results. */
export function findCachedHeadshot(queryClient: QueryClient, id: string): Headshot | undefined {
  for (const [, data] of queryClient.getQueriesData<GalleryData>({ queryKey: queryKeys.headshots.all })) {
    for (const page of data?.pages ?? []) {
      const found = page.items.find((h) => h.id === id);
      if (found) return found;
    }
  }
  for (const [, data] of queryClient.getQueriesData<Generation>({ queryKey: queryKeys.generations })) {
    const found = data?.headshots.find((h) => h.id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Sets a headshot's favorite mark wherever it is cached: every gallery page (moving the Favorites count by `delta`)
 * and every generation's results.
 */
export function setCachedFavorite(
  queryClient: QueryClient,
  id: string,
  isFavorite: boolean,
  delta: number,
): void {
  updateGalleryPages(queryClient, (page) => ({
    ...page,
    items: page.items.map((h) => (h.id === id ? { ...h, isFavorite } : h)),
    stats: { ...page.stats, favorites: Math.max(0, page.stats.favorites + delta) },
  }));
  queryClient.setQueriesData<Generation>({ queryKey: queryKeys.generations }, (data) =>
    data?.headshots.some((h) => h.id === id)
      ? { ...data, headshots: data.headshots.map((h) => (h.id === id ? { ...h, isFavorite } : h)) }
      : data,
  );
}
