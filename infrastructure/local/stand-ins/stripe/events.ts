import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../../../../functions/adapters/stripe/client';

/*
 * Ids, events and webhook delivery of the local Checkout provider, in Stripe's shapes (docs/architecture.md §5): an
 * event is `{ id: 'evt_…', object: 'event', api_version, created, data: { object }, type, … }`, delivered as a POST
 * signed exactly like Stripe's (`Stripe-Signature: t=…,v1=…`).
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A Stripe-looking id: `prefix` + `length` random base62 characters. */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += BASE62[byte % 62];
  return `${prefix}${id}`;
}

/** A fresh webhook signing secret in Stripe's format (`whsec_…`), for one run of the local stack. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** The webhook event Stripe would send for an object (`object: 'event'`, snapshot payload). */
export function checkoutEvent(
  type:
    | 'checkout.session.completed'
    | 'checkout.session.async_payment_succeeded'
    | 'checkout.session.expired'
    | 'charge.refunded'
    | 'charge.refund.updated'
    | 'refund.failed'
    | 'charge.dispute.created'
    | 'charge.dispute.closed',
  object: Record<string, unknown>,
): Record<string, unknown> {
  return {
    id: stripeId('evt_'),
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/**
 * Signs and POSTs an event body like Stripe does: `Content-Type: application/json; charset=utf-8` and
 * `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.body">` from the SDK's `generateTestHeaderString`.
 *
 * @returns the HTTP status, or the network error's message
 */
export async function deliverWebhook(
  webhookUrl: string,
  payload: string,
  secret: string,
): Promise<{ status: number } | { error: string }> {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  try {
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
      signal: AbortSignal.timeout(20_000),
    });
    await response.arrayBuffer();
    return { status: response.status };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
