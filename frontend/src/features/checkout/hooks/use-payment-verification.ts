import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { toast } from 'sonner';
import { meQueryKey, type Me } from '../../../lib/api/get-me';
import { useAuth } from '../../../lib/auth';
import {
  checkoutVerificationQueryKey,
  isTransientError,
  verifyCheckoutSession,
} from '../api/verify-checkout-session';

/** Where the payment result page stands. */
export type PaymentOutcome =
  | { state: 'signingIn' }
  | { state: 'verifying' }
  | { state: 'success'; credits: number; creditsAdded: number }
  /** Stripe says the session is not paid (still open after a decline, or expired): nothing was charged. */
  | { state: 'notPaid' }
  /** The verification itself failed (Stripe or our API unreachable, an unknown session). */
  | { state: 'failed' };

/** What {@link usePaymentVerification} returns: the outcome, and asking again about the same session. */
export interface PaymentVerification {
  outcome: PaymentOutcome;
  /** 'Check again': verifies the same Checkout Session once more (never starts a new purchase). */
  recheck: () => void;
  /** A 'Check again' is under way. */
  rechecking: boolean;
}

/** The toast shown when a payment could not be verified (docs/product-spec.md §8), verbatim. */
export const VERIFICATION_FAILED_TOAST = 'Payment verification failed. Please contact support.';

/** Transient failures (network, 5xx) are retried this many times, with exponential backoff. */
const MAX_RETRIES = 3;

/** Sessions whose outcome this page load has already acted on (toast, balance update). Survives remounts. */
const handled = new Set<string>();

/**
 * Verifies the Checkout Session `sessionId` the payment provider returned with, once:
 * - signed out: starts sign-in (replacing this history entry) coming back to this very URL, then verifies;
 * - signed in: `GET /api/checkout/sessions/{id}` through react-query, cached for the page's lifetime (StrictMode's
 *   double mount and remounts reuse the one answer), retried only for network and server errors;
 * - `paid` is success (`credits` is the new balance); `unpaid` and `expired` are "not paid" (nothing was charged);
 *   any other status or an error is a failed verification, which `recheck` asks about again.
 *
 * On success the cached `GET /api/me` answer gets the new balance and is invalidated, so every credits badge
 * updates; on a failed verification the spec's error toast shows. Each happens once per session id.
 */
export function usePaymentVerification(sessionId: string): PaymentVerification {
  const { status, user, signIn } = useAuth();
  const { pathname, search } = useLocation();
  const queryClient = useQueryClient();

  useEffect(() => {
    // Back from Stripe, so the customer has an account: the Sign In tab, whatever this browser remembers.
    if (status === 'signedOut') signIn(`${pathname}${search}`, { replace: true, mode: 'signIn' });
  }, [status, signIn, pathname, search]);

  const query = useQuery({
    queryKey: checkoutVerificationQueryKey(user?.sub, sessionId),
    // No abort signal on purpose: StrictMode's unmount/remount must not cancel and resend the verification.
    queryFn: () => verifyCheckoutSession(sessionId),
    enabled: status === 'signedIn',
    staleTime: Infinity,
    gcTime: Infinity,
    retry: (failureCount, error) => isTransientError(error) && failureCount < MAX_RETRIES,
    retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 8000),
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  let outcome: PaymentOutcome;
  if (status === 'signedOut') outcome = { state: 'signingIn' };
  else if (status === 'loading' || query.isPending) outcome = { state: 'verifying' };
  else if (query.isSuccess && query.data.status === 'paid') {
    outcome = { state: 'success', credits: query.data.credits, creditsAdded: query.data.creditsAdded };
  } else if (query.isSuccess && (query.data.status === 'unpaid' || query.data.status === 'expired')) {
    outcome = { state: 'notPaid' };
  } else outcome = { state: 'failed' };

  const newBalance = outcome.state === 'success' ? outcome.credits : null;
  const userId = user?.sub ?? null;
  useEffect(() => {
    if (outcome.state !== 'success' && outcome.state !== 'failed') return;
    // A failure seen again after 'Check again' is not toasted twice; a success after it still updates the balance.
    const key = `${userId}:${sessionId}${newBalance === null ? '' : ':paid'}`;
    if (handled.has(key)) return;
    handled.add(key);
    if (newBalance !== null) {
      queryClient.setQueriesData<Me>({ queryKey: meQueryKey }, (me) =>
        me ? { ...me, credits: newBalance } : me,
      );
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    } else {
      if (query.error) console.error('Payment verification failed:', query.error);
      toast.error(VERIFICATION_FAILED_TOAST, { id: `payment-verification-${sessionId}` });
    }
  }, [outcome.state, newBalance, userId, sessionId, queryClient, query.error]);

  const { refetch } = query;
  const recheck = useCallback(() => void refetch(), [refetch]);
  return { outcome, recheck, rechecking: query.isFetching && !query.isPending };
}
