import type Stripe from 'stripe';
import type { CheckoutSessionParams } from '../../domain/checkout';
import { stripeCall } from './client';

/**
 * Stripe Checkout sessions: create, expire and retrieve one (fulfilment is the use case
 * functions/use-cases/fulfil-checkout.ts).
 */

/**
 * Creates a Checkout Session (`POST /v1/checkout/sessions`, form-encoded by the SDK).
 *
 * @param idempotencyKey sent as `Idempotency-Key`: a replay within 24 h returns the same session
 * @returns `{ id, url }` of the hosted payment page
 * @throws the SDK's `StripeError` subclasses on any provider failure (the route answers 502)
 */
export async function createCheckoutSession(
  params: CheckoutSessionParams,
  idempotencyKey: string,
): Promise<{ id: string; url: string }> {
  const session = await stripeCall('checkout.sessions.create', (stripe) =>
    stripe.checkout.sessions.create(params, { idempotencyKey }),
  );
  if (!session.url) throw new Error(`Checkout Session ${session.id} has no url`);
  return { id: session.id, url: session.url };
}

/** Expires an open Checkout Session (`POST /v1/checkout/sessions/:id/expire`): nobody can pay it any more. */
export async function expireCheckoutSession(sessionId: string): Promise<void> {
  await stripeCall('checkout.sessions.expire', (stripe) => stripe.checkout.sessions.expire(sessionId));
}

/**
 * Retrieves a Checkout Session with its line items (`GET /v1/checkout/sessions/:id?expand[]=line_items`), the
 * fresh copy fulfilment relies on (never the browser's word, nor only the webhook's copy).
 *
 * @throws the SDK's `StripeInvalidRequestError` (404, `resource_missing`) for an unknown id; other `StripeError`s
 */
export function retrieveCheckoutSession(sessionId: string): Promise<Stripe.Checkout.Session> {
  return stripeCall('checkout.sessions.retrieve', (stripe) =>
    stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] }),
  );
}

/**
 * Stripe's receipt of the charge behind a payment intent: `receipt_url` of the first (only) charge that
 * `GET /v1/charges?payment_intent=<pi>` lists (https://docs.stripe.com/api/charges/list,
 * https://docs.stripe.com/api/charges/object#charge_object-receipt_url). Stripe keeps the page current with
 * refunds, so the URL is stored once, at fulfilment.
 *
 * @returns the URL, or `null` when the payment intent has no charge (yet) or the charge has no receipt
 * @throws the SDK's `StripeError`s (the caller decides whether a missing receipt may stop it)
 */
export async function receiptUrlOf(paymentIntentId: string): Promise<string | null> {
  const charges = await stripeCall('charges.list', (stripe) =>
    stripe.charges.list({ payment_intent: paymentIntentId, limit: 1 }),
  );
  return charges.data[0]?.receipt_url ?? null;
}
