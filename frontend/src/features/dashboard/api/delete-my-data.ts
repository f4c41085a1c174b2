import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiError, apiCall } from '../../../lib/api-client';
import { deletedDataSchema, type DeletedData } from '../../../lib/api/contracts';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `DELETE /api/me/data`: deletes all of the caller's photos, headshots and generations (credits and purchase
 * history stay).
 * @throws {ApiError} 409 while a generation is running (its message says so)
 */
export function deleteMyData(): Promise<DeletedData> {
  return apiCall('/me/data', deletedDataSchema, { method: 'DELETE' });
}

/** {@link deleteMyData} as a mutation that refreshes the gallery and the balance afterwards. */
export function useDeleteAllData() {
  const queryClient = useQueryClient();
  return useMutation<DeletedData, ApiError, void>({
    mutationFn: deleteMyData,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.headshots.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.me.all });
    },
  });
}
