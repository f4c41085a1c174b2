import { useInfiniteQuery, type InfiniteData, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { type ApiError, apiCall } from '../../../lib/api-client';
import { galleryPageSchema, type GalleryPage, type GalleryStats } from '../../../lib/api/contracts';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import type { GalleryFilter, GallerySort } from '../utils/filters';

export type { GalleryPage, GalleryStats };

/** Presigned URLs live 15 minutes: every page is fetched again after 10, so no image link on screen expires. */
const URL_REFRESH_MS = 10 * 60_000;

/**
 * `GET /api/headshots`: one page (30 headshots) of the caller's gallery for `filter`, newest first or, with
 * `sort: 'best-match'`, highest likeness first.
 * @throws {ApiError} from the API, or `INVALID_RESPONSE` when the answer is not a gallery page
 */
export function fetchGalleryPage(
  filter: GalleryFilter,
  cursor: string | null,
  signal?: AbortSignal,
  sort: GallerySort = 'newest',
): Promise<GalleryPage> {
  const params = new URLSearchParams({ filter });
  if (sort !== 'newest') params.set('sort', sort);
  if (cursor) params.set('cursor', cursor);
  return apiCall(`/headshots?${params}`, galleryPageSchema, { signal });
}

/**
 * The caller's headshots for `filter` as an infinite list of pages ({@link fetchGalleryPage}; `fetchNextPage`
 * follows `nextCursor`). While another filter's first page loads, the previous filter's data stays as placeholder
 * (`isPlaceholderData`), so the stat cards do not flicker.
 */
export function useGallery(
  filter: GalleryFilter,
  sort: GallerySort = 'newest',
): UseInfiniteQueryResult<InfiniteData<GalleryPage, string | null>, ApiError> {
  const { status, user } = useAuth();
  return useInfiniteQuery({
    queryKey: queryKeys.headshots.list(user?.sub ?? null, filter, sort),
    queryFn: ({ pageParam, signal }) => fetchGalleryPage(filter, pageParam, signal, sort),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: status === 'signedIn',
    placeholderData: (previous) => previous,
    staleTime: 60_000,
    refetchInterval: URL_REFRESH_MS,
    // Headshots made in another tab or on another device show when the person comes back (at most once a minute:
    // every refetch signs new URLs, so each thumbnail is fetched again).
    refetchOnWindowFocus: true,
  });
}

/** The freshest totals of a gallery query: those of its most recently fetched page. */
export function statsOf(data: InfiniteData<GalleryPage, unknown> | undefined): GalleryStats | undefined {
  return data?.pages.at(-1)?.stats;
}
