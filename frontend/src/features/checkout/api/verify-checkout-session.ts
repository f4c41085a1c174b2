import { checkoutResultSchema, type CheckoutResult } from '../../../../../functions/contracts/account';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The verification of a Checkout Session by the API (which also fulfils it, idempotently, when paid): the API's
 * contract — only `paid` means the credits were added.
 */
export type CheckoutVerification = CheckoutResult;

/**
 * Asks the API whether a Checkout Session was paid (`GET /api/checkout/sessions/{id}`, signed in); a paid session
 * is fulfilled on the way (the webhook may have done it first; either way the credits are added once).
 * @throws {ApiError} 400 for a malformed id, 404 for an unknown or another user's session, 5xx/0 when transient.
 */
export async function verifyCheckoutSession(sessionId: string): Promise<CheckoutVerification> {
  const body = await apiFetch<unknown>(`/checkout/sessions/${encodeURIComponent(sessionId)}`);
  const parsed = checkoutResultSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'INVALID_RESPONSE', 'The server sent an unexpected answer. Please try again.');
  }
  return parsed.data;
}

/** react-query key of one session's verification; the user id keeps two accounts' answers apart. */
export const checkoutVerificationQueryKey = queryKeys.checkoutSession;

/**
 * Whether asking again may help: the server could not be reached (status 0) or answered with a gateway/server
 * error (5xx, e.g. 502 when Stripe is briefly unreachable). A 4xx or a definite status never changes on retry.
 */
export function isTransientError(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}
