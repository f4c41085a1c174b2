import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/api/get-me';
import { useAuth } from '../../../lib/auth';
import type { GalleryFilter, GallerySort } from '../utils/filters';
import { track } from '../../../lib/analytics';

/**
 * The gallery's calls to the API (docs/architecture.md §3) and the react-query hooks the dashboard uses.
 */

/** One headshot as `GET /api/headshots` returns it. URLs are presigned and valid 15 minutes. */
export interface Headshot {
  id: string;
  generationId: string;
  /** professional | business-casual | creative */
  style: string;
  /** office | studio | outdoor | gradient */
  background: string;
  isFavorite: boolean;
  /** Likeness to the customer's photos, 0-100 (null for headshots made before it was measured). */
  likeness?: number | null;
  /** ISO 8601. */
  createdAt: string;
  /** WebP, ≤ 384 px. */
  thumbnailUrl: string;
  /** 1024×1024 JPEG. */
  imageUrl: string;
}

/** The whole gallery's totals (independent of the filter). */
export interface GalleryStats {
  total: number;
  favorites: number;
}

/** One page of `GET /api/headshots`. */
export interface GalleryPage {
  items: Headshot[];
  nextCursor: string | null;
  stats: GalleryStats;
}

/** What `DELETE /api/me/data` removed. */
export interface DeletedData {
  headshots: number;
  generations: number;
  objects: number;
}

/** The root of every gallery query key; invalidate it after anything that changes headshots. */
export const headshotsQueryKey = ['headshots'] as const;

/** Presigned URLs live 15 minutes: every page is fetched again after 10, so no image link on screen expires. */
const URL_REFRESH_MS = 10 * 60_000;

function isGalleryPage(value: unknown): value is GalleryPage {
  const page = value as GalleryPage | undefined;
  return (
    typeof page === 'object' &&
    page !== null &&
    Array.isArray(page.items) &&
    typeof page.stats?.total === 'number' &&
    (page.nextCursor === null || typeof page.nextCursor === 'string')
  );
}

/**
 * One page of the caller's gallery.
 *
 * @throws {ApiError} from the API, or `INVALID_RESPONSE` when the answer is not a gallery page
 */
export async function fetchGalleryPage(
  filter: GalleryFilter,
  cursor: string | null,
  signal?: AbortSignal,
  sort: GallerySort = 'newest',
): Promise<GalleryPage> {
  const params = new URLSearchParams({ filter });
  if (sort !== 'newest') params.set('sort', sort);
  if (cursor) params.set('cursor', cursor);
  const page = await apiFetch<unknown>(`/headshots?${params}`, { signal });
  if (!isGalleryPage(page)) {
    throw new ApiError(200, 'INVALID_RESPONSE', 'The server sent an unexpected answer. Please try again.');
  }
  return page;
}

/**
 * The caller's headshots for `filter`, newest first (or best match first with `sort`), as an infinite list of 30-item pages (`fetchNextPage` follows
 * `nextCursor`). While another filter's first page loads, the previous filter's data stays as placeholder
 * (`isPlaceholderData`), so the stat cards do not flicker.
 */
export function useGallery(
  filter: GalleryFilter,
  sort: GallerySort = 'newest',
): UseInfiniteQueryResult<InfiniteData<GalleryPage, string | null>, ApiError> {
  const { status, user } = useAuth();
  return useInfiniteQuery({
    queryKey: [...headshotsQueryKey, user?.sub ?? null, filter, sort],
    queryFn: ({ pageParam, signal }) => fetchGalleryPage(filter, pageParam, signal, sort),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: status === 'signedIn',
    placeholderData: (previous) => previous,
    staleTime: 60_000,
    refetchInterval: URL_REFRESH_MS,
  });
}

/** The freshest totals of a gallery query: those of its most recently fetched page. */
export function statsOf(data: InfiniteData<GalleryPage, unknown> | undefined): GalleryStats | undefined {
  return data?.pages.at(-1)?.stats;
}

type GalleryData = InfiniteData<GalleryPage, string | null>;

/** Applies `change` to every cached gallery page of every filter. */
function updateCachedPages(queryClient: QueryClient, change: (page: GalleryPage) => GalleryPage): void {
  queryClient.setQueriesData<GalleryData>({ queryKey: headshotsQueryKey }, (data) =>
    data ? { ...data, pages: data.pages.map(change) } : data,
  );
}

/** The cached copy of a headshot, from any filter's pages. */
function findCached(queryClient: QueryClient, id: string): Headshot | undefined {
  for (const [, data] of queryClient.getQueriesData<GalleryData>({ queryKey: headshotsQueryKey })) {
    for (const page of data?.pages ?? []) {
      const found = page.items.find((h) => h.id === id);
      if (found) return found;
    }
  }
  return undefined;
}

/** Sets a headshot's favorite mark in every cached page, moving the favorites count along. */
function applyFavorite(queryClient: QueryClient, id: string, isFavorite: boolean, delta: number): void {
  updateCachedPages(queryClient, (page) => ({
    ...page,
    items: page.items.map((h) => (h.id === id ? { ...h, isFavorite } : h)),
    stats: { ...page.stats, favorites: Math.max(0, page.stats.favorites + delta) },
  }));
}

const FAVORITE_MUTATION = ['headshots', 'favorite'] as const;

/**
 * Toggles a favorite (`PATCH /api/headshots/{id}`): the heart changes at once (optimistic, with the Favorites count)
 * and goes back, with the toast 'Failed to update favorite status', if the API refuses. The gallery is read again
 * once no toggle is in flight, so a slow answer never undoes a quicker later click.
 */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation<Headshot, ApiError, { id: string; isFavorite: boolean }, { delta: number }>({
    mutationKey: FAVORITE_MUTATION,
    mutationFn: ({ id, isFavorite }) =>
      apiFetch<Headshot>(`/headshots/${encodeURIComponent(id)}`, { method: 'PATCH', body: { isFavorite } }),
    onMutate: async ({ id, isFavorite }) => {
      track('favorite', { from: 'gallery', isFavorite });
      await queryClient.cancelQueries({ queryKey: headshotsQueryKey });
      const cached = findCached(queryClient, id);
      const delta = cached && cached.isFavorite === isFavorite ? 0 : isFavorite ? 1 : -1;
      applyFavorite(queryClient, id, isFavorite, delta);
      return { delta };
    },
    onError: (_error, { id, isFavorite }, context) => {
      applyFavorite(queryClient, id, !isFavorite, -(context?.delta ?? 0));
      toast.error('Failed to update favorite status');
    },
    onSettled: () => {
      // This mutation still counts as running here: 1 means it is the last one.
      if (queryClient.isMutating({ mutationKey: FAVORITE_MUTATION }) <= 1) {
        void queryClient.invalidateQueries({ queryKey: headshotsQueryKey });
      }
    },
  });
}

/**
 * Deletes one headshot (`DELETE /api/headshots/{id}`; a 404 means it is already gone, which counts as done); on
 * success it leaves every cached page and the counts drop at once.
 */
export function useDeleteHeadshot() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Headshot>({
    mutationFn: async (headshot) => {
      try {
        await apiFetch<void>(`/headshots/${encodeURIComponent(headshot.id)}`, { method: 'DELETE' });
      } catch (error) {
        // Already gone (deleted in another tab): the outcome the user asked for.
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
    },
    onSuccess: (_result, headshot) => {
      updateCachedPages(queryClient, (page) => ({
        ...page,
        items: page.items.filter((h) => h.id !== headshot.id),
        stats: {
          total: Math.max(0, page.stats.total - 1),
          favorites: Math.max(0, page.stats.favorites - (headshot.isFavorite ? 1 : 0)),
        },
      }));
      void queryClient.invalidateQueries({ queryKey: headshotsQueryKey });
    },
  });
}

/** Deletes all of the caller's photos, headshots and generations (`DELETE /api/me/data`). */
export function useDeleteAllData() {
  const queryClient = useQueryClient();
  return useMutation<{ deleted: DeletedData }, ApiError, void>({
    mutationFn: () => apiFetch<{ deleted: DeletedData }>('/me/data', { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: headshotsQueryKey });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

/**
 * Downloads a headshot as `headshot-{id}.jpg`: asks the API for a short-lived URL that S3 serves as an attachment,
 * then follows it, so the browser saves the file and the page stays where it is.
 *
 * @throws {ApiError} when the API refuses (e.g. the headshot was deleted)
 */
export async function downloadHeadshot(id: string): Promise<void> {
  track('download', { from: 'gallery' });
  const { url } = await apiFetch<{ url: string; fileName: string }>(
    `/headshots/${encodeURIComponent(id)}/download`,
  );
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
