import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError, apiCall } from '../api-client';
import { useAuth } from '../auth/auth-context';
import { queryKeys } from '../query-keys';
import type { Me } from './contracts';

export type { Me };

/** The react-query key root of {@link useMe}. Invalidate it after anything that changes the balance. */
export const meQueryKey = queryKeys.me.all;

/**
 * `GET /api/me`: the signed-in user's record (the first call creates the user with the sign-up credits).
 * @throws {ApiError} from the API, or `INVALID_RESPONSE` when the answer is not a user record
 */
export async function getMe(signal?: AbortSignal): Promise<Me> {
  // The top bar of the landing page shows the balance: the contracts (zod) load with this first signed-in call,
  // not with the first page's JavaScript.
  const { meSchema } = await import('./contracts');
  return apiCall('/me', meSchema, { signal });
}

/**
 * The signed-in user's record and credit balance ({@link getMe}). Only runs while signed in (`isPending` stays true
 * otherwise); the cache is cleared on sign-out. A 401 means the session is no longer valid at the API, so the user
 * is signed out.
 *
 * Refetched whenever the window regains focus (a purchase or generation in another tab shows at once).
 * After spending or buying credits, call `queryClient.invalidateQueries({ queryKey: meQueryKey })`.
 */
export function useMe(): UseQueryResult<Me, ApiError> {
  const { status, user, signOut } = useAuth();
  return useQuery<Me, ApiError>({
    queryKey: queryKeys.me.of(user?.sub ?? null),
    queryFn: async ({ signal }) => {
      try {
        return await getMe(signal);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) void signOut();
        throw error;
      }
    },
    enabled: status === 'signedIn',
    staleTime: 30_000,
    // The balance changes in other tabs and on Stripe's page: read it again whenever the person comes back.
    refetchOnWindowFocus: 'always',
  });
}
