import type { CheckoutResult } from '../contracts';
import { isCheckoutSessionId } from '../domain/checkout';
import { verifyCheckoutSession } from '../use-cases/verify-checkout-session';
import { badRequest } from './errors';
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
 * Errors: 400 `VALIDATION_ERROR` for an id that is not `cs_…`; 429 `QUOTA_EXCEEDED` with `Retry-After` past the
 * caller's hourly quota (`QUOTA_CHECKOUT_VERIFICATIONS_PER_HOUR`, default 60; Stripe is not asked then); 404 `NOT_FOUND` when Stripe does not know the
 * session or it is another user's (never say which); 502 `CHECKOUT_UNAVAILABLE` when Stripe cannot be reached.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const id = event.pathParameters?.id;
  if (!isCheckoutSessionId(id)) throw badRequest('That is not a checkout session id.');
  return json<CheckoutResult>(200, await verifyCheckoutSession(caller, id));
});
