import { fulfillSession, retrieveCheckoutSession } from '../adapters/checkout';
import { describeStripeError, isStripeNotFound } from '../adapters/stripe';
import { isCheckoutSessionId, sessionOwner } from '../domain/checkout';
import { logger } from '../common/logger';
import type { CheckoutResult } from '../contracts';
import { badRequest, HttpError, notFound } from './errors';
import { callerOf, httpHandler, json } from './handler';

/**
 * `GET /api/checkout/sessions/{id}` (jwt) → 200 `{ status, creditsAdded, credits }`: the payment result page's
 * verification (docs/product-spec.md §2 "Payment result page", §7 "Checkout verification"). Retrieves the session from Stripe,
 * checks it is the caller's, and fulfils it idempotently — the same code as the webhook, so whichever comes first
 * credits and the other is a no-op (Stripe "Fulfill orders").
 *
 * - `status`: `paid` (credited) | `unpaid` | `expired` | `no_payment_required` | `invalid`; only `paid` is success;
 * - `creditsAdded`: the pack's credits when `paid` (also when the webhook credited first), else 0;
 * - `credits`: the caller's balance afterwards.
 *
 * Errors: 400 `VALIDATION_ERROR` for an id that is not `cs_…`; 404 `NOT_FOUND` when Stripe does not know the
 * session or it is another user's (never say which); 502 `CHECKOUT_UNAVAILABLE` when Stripe cannot be reached.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const id = event.pathParameters?.id;
  if (!isCheckoutSessionId(id)) throw badRequest('That is not a checkout session id.');
  let session;
  try {
    session = await retrieveCheckoutSession(id);
  } catch (error) {
    if (isStripeNotFound(error)) throw notFound('Checkout session not found.');
    logger.error('Retrieving a Checkout Session failed', { stripe: describeStripeError(error) });
    throw new HttpError(
      502,
      'CHECKOUT_UNAVAILABLE',
      "We couldn't check your payment right now. Please try again in a moment.",
    );
  }
  if (session.client_reference_id !== caller.sub || sessionOwner(session) !== caller.sub) {
    throw notFound('Checkout session not found.');
  }
  const result = await fulfillSession(session, { email: caller.email });
  return json<CheckoutResult>(200, {
    status: result.status,
    creditsAdded: result.creditsAdded,
    credits: result.credits,
  });
});
