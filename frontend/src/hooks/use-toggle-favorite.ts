import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { ApiError } from '../lib/api-client';
import { track } from '../lib/analytics';
import type { Headshot } from '../lib/api/contracts';
import { findCachedHeadshot, setCachedFavorite } from '../lib/api/headshot-cache';
import { updateHeadshot } from '../lib/api/update-headshot';
import { queryKeys } from '../lib/query-keys';

/** The toast when the API refuses a favorite (docs/product-spec.md §8), verbatim. */
export const FAVORITE_FAILED = 'Failed to update favorite status';

const FAVORITE_MUTATION = ['headshots', 'favorite'] as const;

/** Where a favorite was toggled, for the `favorite` analytics event. */
export type FavoriteSource = 'gallery' | 'results';

/**
 * The favorite toggle of every headshot card (`PATCH /api/headshots/{id}`, {@link updateHeadshot}): the heart changes at once wherever the
 * headshot is cached (gallery pages with their Favorites count, a generation's results) and goes back, with the
 * toast 'Failed to update favorite status', if the API refuses. The gallery is read again once no toggle is in
 * flight, so a slow answer never undoes a quicker later click.
 */
export function useToggleFavorite(from: FavoriteSource) {
  const queryClient = useQueryClient();
  return useMutation<Headshot, ApiError, { id: string; isFavorite: boolean }, { delta: number }>({
    mutationKey: FAVORITE_MUTATION,
    mutationFn: ({ id, isFavorite }) => updateHeadshot(id, { isFavorite }),
    onMutate: async ({ id, isFavorite }) => {
      track('favorite', { from, isFavorite });
      await queryClient.cancelQueries({ queryKey: queryKeys.headshots.all });
      const cached = findCachedHeadshot(queryClient, id);
      const delta = cached && cached.isFavorite === isFavorite ? 0 : isFavorite ? 1 : -1;
      setCachedFavorite(queryClient, id, isFavorite, delta);
      return { delta };
    },
    onError: (_error, { id, isFavorite }, context) => {
      setCachedFavorite(queryClient, id, !isFavorite, -(context?.delta ?? 0));
      toast.error(FAVORITE_FAILED);
    },
    onSettled: async () => {
      // This mutation still counts as running here: 1 means it is the last one.
      if (queryClient.isMutating({ mutationKey: FAVORITE_MUTATION }) <= 1) {
        // Cancelled first: an invalidation does not restart a list's first read already on its way (it has no data
        // to go back to), so Favorites Only picked while the PATCH travelled would keep the answer from before it.
        await queryClient.cancelQueries({ queryKey: queryKeys.headshots.all });
        void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
      }
    },
  });
}
