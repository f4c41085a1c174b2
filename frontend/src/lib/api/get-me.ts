import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../api-client';
import { useAuth } from '../auth/auth-context';

/** The signed-in user's record, as `GET /api/me` returns it. */
export interface Me {
  /** Cognito `sub`. */
  id: string;
  email: string;
  /** The part of the e-mail before '@'. */
  displayName: string;
  /** Current balance, in credits (one generation costs 6). */
  credits: number;
  /**
   * `already-claimed` when an earlier account with the same e-mail address already had the free credits, so this
   * account started with 0 (free credits are once per person).
   */
  signupBonus?: 'granted' | 'already-claimed';
  /** "E-mail me when my headshots are ready" (on unless turned off on the dashboard). */
  emailWhenReady?: boolean;
  /** ISO 8601 timestamp. */
  createdAt: string;
}

/** The react-query key of {@link useMe}. Invalidate it after anything that changes the balance. */
export const meQueryKey = ['me'] as const;

/**
 * The signed-in user's record and credit balance (`GET /api/me`; the first call creates the user with 6 credits).
 * Only runs while signed in (`isPending` stays true otherwise); the cache is cleared on sign-out. A 401 means the
 * session is no longer valid at the API, so the user is signed out.
 *
 * Refetched whenever the window regains focus (a purchase or generation in another tab shows at once).
 * After spending or buying credits, call `queryClient.invalidateQueries({ queryKey: meQueryKey })`.
 */
export function useMe(): UseQueryResult<Me, ApiError> {
  const { status, user, signOut } = useAuth();
  return useQuery<Me, ApiError>({
    // The user id in the key keeps two accounts' answers apart even before the cache is cleared.
    queryKey: [...meQueryKey, user?.sub ?? null],
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<Me>('/me', { signal });
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
