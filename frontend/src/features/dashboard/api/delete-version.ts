import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';
import { versionsQueryKey, type HeadshotVersion } from './get-versions';

/**
 * `DELETE /api/headshots/{id}/versions/{versionId}` (204): one version's item and files; the headshot and its other
 * versions stay (docs/product-spec.md §2 "Edit a headshot"). A 404 means it is already gone (deleted in another
 * tab), which counts as done.
 * @throws {ApiError} any other refusal
 */
export async function deleteVersion(version: Pick<HeadshotVersion, 'id' | 'headshotId'>): Promise<void> {
  const path = `/headshots/${encodeURIComponent(version.headshotId)}/versions/${encodeURIComponent(version.id)}`;
  try {
    await apiFetch<void>(path, { method: 'DELETE' });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/**
 * Deletes one version ({@link deleteVersion}); on success it leaves the cached list at once, and the gallery is read
 * again (its card's versions count drops).
 */
export function useDeleteVersion() {
  const queryClient = useQueryClient();
  const sub = useAuth().user?.sub ?? null;
  return useMutation<void, ApiError, HeadshotVersion>({
    mutationFn: deleteVersion,
    onSuccess: (_result, version) => {
      queryClient.setQueryData<HeadshotVersion[]>(versionsQueryKey(sub, version.headshotId), (list) =>
        list?.filter((v) => v.id !== version.id),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
    },
  });
}
