import type Stripe from 'stripe';
import type { CheckoutSessionParams } from '../domain/checkout';
import { stripeCall } from './stripe';

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
