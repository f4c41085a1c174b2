import type { CheckoutSessionLike, CheckoutSessionParams } from '../../../../functions/domain/checkout';

/** Stripe's answer for an object it does not know (HTTP 404, `resource_missing`), as the SDK throws it. */
export class FakeStripeNotFound extends Error {
  override readonly name = 'StripeInvalidRequestError';
  readonly statusCode = 404;
  readonly code = 'resource_missing';
  readonly type = 'StripeInvalidRequestError';
}

/**
 * An in-memory Stripe Checkout (adapters/stripe/checkout-sessions.ts): sessions made from the parameters our server
 * sends, the same session again for the same idempotency key, and the buyer's side — pay, pay nothing with a 100 %
 * promotion code, let it expire — as methods the tests call.
 */
export class FakeStripe {
  readonly sessions = new Map<string, CheckoutSessionLike>();
  /** Session ids expired by our server, in order. */
  readonly expired: string[] = [];
  private readonly byKey = new Map<string, string>();

  /** A session as Stripe would hold it, for tests that start from a retrieved session. */
  seedSession(session: Partial<CheckoutSessionLike> & { id: string }): CheckoutSessionLike {
    const full: CheckoutSessionLike = {
      status: 'open',
      payment_status: 'unpaid',
      amount_total: null,
      amount_subtotal: null,
      currency: 'usd',
      client_reference_id: null,
      customer_email: null,
      metadata: {},
      payment_intent: null,
      line_items: { data: [{ quantity: 1 }] },
      ...session,
    };
    this.sessions.set(full.id, full);
    return full;
  }

  /** The buyer pays: `complete` / `paid`, charged `amountTotal` cents (default: the whole price). */
  pay(id: string, paymentIntentId = `pi_${id.slice(3)}`, amountTotal?: number): CheckoutSessionLike {
    const session = this.mustGet(id);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: paymentIntentId,
      amount_total: amountTotal ?? session.amount_subtotal,
    });
    return session;
  }

  readonly createCheckoutSession = async (params: CheckoutSessionParams, idempotencyKey: string) => {
    const known = this.byKey.get(idempotencyKey);
    const id = known ?? `cs_test_${this.sessions.size + 1}`;
    if (!known) {
      const [item] = params.line_items;
      // Stripe's total of a line item: unit amount × quantity (a seat purchase has quantity = seats).
      const price = item.price_data.unit_amount * item.quantity;
      this.byKey.set(idempotencyKey, id);
      this.seedSession({
        id,
        amount_total: price,
        amount_subtotal: price,
        line_items: { data: [{ quantity: item.quantity }] },
        currency: params.line_items[0].price_data.currency,
        client_reference_id: params.client_reference_id,
        customer_email: params.customer_email ?? null,
        metadata: { ...params.metadata },
      });
    }
    return { id, url: `https://checkout.stripe.test/${id}` };
  };

  /** Stripe refuses to expire a session that is not open. */
  readonly expireCheckoutSession = async (id: string) => {
    const session = this.mustGet(id);
    if (session.status !== 'open') throw new Error(`Only an open session can be expired: ${id}`);
    session.status = 'expired';
    this.expired.push(id);
  };

  readonly retrieveCheckoutSession = async (id: string): Promise<CheckoutSessionLike> =>
    structuredClone(this.mustGet(id));

  readonly receiptUrlOf = async (paymentIntentId: string) =>
    `https://pay.stripe.test/receipts/${paymentIntentId}`;

  private mustGet(id: string): CheckoutSessionLike {
    const session = this.sessions.get(id);
    if (!session) throw new FakeStripeNotFound(`No such checkout.session: '${id}'`);
    return session;
  }
}
