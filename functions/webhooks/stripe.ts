import Stripe from 'stripe';
import { fulfillCheckout } from '../use-cases/fulfill-checkout';
import { stripeSettings } from '../config/stripe';
import { isCheckoutSessionId } from '../domain/checkout';
import { HttpError } from '../http/errors';
import { httpHandler, json, type HttpEvent } from '../http/handler';
import { logger } from '../common/logger';
import { handleReversalEvent, REVERSAL_EVENTS } from './reversal-events';

/** The events that mean "money may have arrived" (Stripe "Fulfill orders": handle both). */
const FULFILMENT_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * The exact bytes Stripe signed: API Gateway hands a body over as text, or base64 with `isBase64Encoded` (then it
 * is decoded to bytes, never re-encoded as text, so the HMAC sees what Stripe sent).
 */
function signedPayload(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

const invalidSignature = (message: string) => new HttpError(400, 'INVALID_SIGNATURE', message);

/**
 * `POST /api/webhooks/stripe` (public, `Stripe-Signature` checked here) → 200 `{ received: true, … }`.
 *
 * Verifies the raw body with `Stripe.webhooks.constructEvent(body, header, STRIPE_WEBHOOK_SECRET)` (HMAC-SHA256,
 * default tolerance 300 s; Stripe "Check the webhook signatures"). Then:
 * - `checkout.session.completed` with `payment_status: 'paid'`, or `checkout.session.async_payment_succeeded` →
 *   `fulfillCheckout(session.id)` (which re-retrieves the session) → `{ received: true, status, creditsAdded }`;
 * - `checkout.session.completed` not yet paid (a delayed payment method) → `{ received: true, status: 'unpaid' }`,
 *   the later `async_payment_succeeded` fulfils it;
 * - `charge.refunded` / `charge.dispute.created` → that purchase's credits taken back with a `reversal` ledger entry
 *   (never below 0; what the balance cannot cover is owed, `creditsOwed`) → `{ received: true, creditsReversed }`;
 *   `charge.dispute.closed` won (or `warning_closed`) and a failed refund (`charge.refund.updated` / `refund.failed`
 *   with `status: 'failed'`) → the credits given back, what is owed paid first → `{ received: true,
 *   creditsRestored }`; 409
 *   `PURCHASE_NOT_FOUND` while the payment is not fulfilled here yet (Stripe redelivers);
 * - any other event type → `{ received: true, ignored: true }`.
 *
 * Errors: 400 `INVALID_SIGNATURE` for a missing/invalid signature or a timestamp older than 300 s (nothing is
 * credited); 500 when the webhook secret is not configured or fulfilment fails, so Stripe retries the delivery
 * (fulfilment is idempotent, so retries are safe).
 */
export const handler = httpHandler(async (event) => {
  const secret = stripeSettings().STRIPE_WEBHOOK_SECRET;
  if (!secret) {
    logger.error('STRIPE_WEBHOOK_SECRET is not configured: cannot verify Stripe webhooks');
    throw new HttpError(500, 'WEBHOOK_NOT_CONFIGURED', 'Webhook verification is not configured.');
  }
  const header = event.headers?.['stripe-signature'];
  if (!header) throw invalidSignature('Missing Stripe-Signature header.');
  let stripeEvent: Stripe.Event;
  try {
    stripeEvent = Stripe.webhooks.constructEvent(signedPayload(event), header, secret);
  } catch (error) {
    logger.warn('Rejected a webhook with an invalid signature', { reason: (error as Error).message });
    throw invalidSignature('Invalid Stripe signature.');
  }

  // Read defensively: a correctly signed body that is not a well-formed event (no `data`, `null`) is acknowledged
  // and ignored like any event we do not handle — a 500 would only make Stripe redeliver it for days.
  const received = stripeEvent as Partial<Stripe.Event> | null;
  if (typeof received?.type === 'string' && REVERSAL_EVENTS.has(received.type)) {
    return json(
      200,
      await handleReversalEvent({
        id: String(received.id),
        type: received.type,
        ...(typeof received.created === 'number' ? { created: received.created } : {}),
        data: received.data,
      }),
    );
  }
  if (typeof received?.type !== 'string' || !FULFILMENT_EVENTS.has(received.type)) {
    return json(200, { received: true, ignored: true });
  }
  const object: unknown = received.data?.object;
  const session = (typeof object === 'object' && object !== null ? object : {}) as {
    id?: unknown;
    payment_status?: unknown;
  };
  if (typeof session.id !== 'string' || !isCheckoutSessionId(session.id)) {
    logger.warn('Checkout webhook without a session id', { eventId: stripeEvent.id, type: stripeEvent.type });
    return json(200, { received: true, ignored: true });
  }
  if (stripeEvent.type === 'checkout.session.completed' && session.payment_status !== 'paid') {
    return json(200, { received: true, status: 'unpaid' });
  }
  const result = await fulfillCheckout(session.id);
  logger.info('Checkout webhook handled', {
    eventId: stripeEvent.id,
    type: stripeEvent.type,
    checkoutSessionId: session.id,
    status: result.status,
    applied: result.applied,
  });
  return json(200, { received: true, status: result.status, creditsAdded: result.creditsAdded });
});
