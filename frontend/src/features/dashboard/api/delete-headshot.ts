import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';
import type { Headshot } from '../../../lib/api/contracts';
import { updateGalleryPages } from '../../../lib/api/headshot-cache';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `DELETE /api/headshots/{id}` (204). A 404 means it is already gone (deleted in another tab), which counts as
 * done.
 * @throws {ApiError} any other refusal
 */
export async function deleteHeadshot(id: string): Promise<void> {
  try {
    await apiFetch<void>(`/headshots/${encodeURIComponent(id)}`, { method: 'DELETE' });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/** Deletes one headshot ({@link deleteHeadshot}); on success it leaves every cached page and the counts drop at once. */
export function useDeleteHeadshot() {
  const queryClient = useQueryClient();
  return useMutation<void, ApiError, Headshot>({
    mutationFn: (headshot) => deleteHeadshot(headshot.id),
    onSuccess: (_result, headshot) => {
      updateGalleryPages(queryClient, (page) => ({
        ...page,
        items: page.items.filter((h) => h.id !== headshot.id),
        stats: {
          total: Math.max(0, page.stats.total - 1),
          favorites: Math.max(0, page.stats.favorites - (headshot.isFavorite ? 1 : 0)),
        },
      }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    },
  });
}
