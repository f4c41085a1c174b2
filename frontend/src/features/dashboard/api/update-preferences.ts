import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type * as z from 'zod';
import { apiCall } from '../../../lib/api-client';
import { preferencesSchema, type Me } from '../../../lib/api/contracts';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /api/me` answer: the stored preference. */
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * `PATCH /api/me { emailWhenReady }`: turns the "headshots ready" e-mail on or off.
 * @throws {ApiError} when the API refuses (400, 404) or cannot be reached
 */
export function updateEmailWhenReady(emailWhenReady: boolean): Promise<Preferences> {
  return apiCall('/me', preferencesSchema, { method: 'PATCH', body: { emailWhenReady } });
}

/**
 * {@link updateEmailWhenReady} as a mutation: the cached user record changes at once and goes back, with the toast
 * `failedMessage`, if the API refuses.
 */
export function useUpdateEmailWhenReady(failedMessage: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmailWhenReady,
    onMutate: async (value: boolean) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.me.all });
      const previous = queryClient.getQueriesData<Me>({ queryKey: queryKeys.me.all });
      queryClient.setQueriesData<Me>({ queryKey: queryKeys.me.all }, (old) =>
        old ? { ...old, emailWhenReady: value } : old,
      );
      return { previous };
    },
    onError: (_error, _value, context) => {
      for (const [key, data] of context?.previous ?? []) queryClient.setQueryData(key, data);
      toast.error(failedMessage);
    },
  });
}
