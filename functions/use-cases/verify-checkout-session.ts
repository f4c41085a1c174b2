import { consumeQuota, quotaRules } from '../adapters/quotas';
import { describeStripeError, isStripeNotFound } from '../adapters/stripe/client';
import { logger } from '../common/logger';
import type { CheckoutResult } from '../contracts';
import { sessionOwner } from '../domain/checkout';
import { CheckoutUnavailableError, ItemNotFoundError } from '../domain/errors';
import type { Buyer } from './buy-credit-pack';
import { fulfillSession, fulfillCheckoutAdapters, type FulfillCheckoutPorts } from './fulfill-checkout';

/** What the verification needs: the quota, and everything fulfilment needs (Stripe's session among them). */
export interface VerifyCheckoutSessionPorts extends FulfillCheckoutPorts {
  consumeQuota: typeof consumeQuota;
}

const adapters: VerifyCheckoutSessionPorts = { ...fulfillCheckoutAdapters, consumeQuota };

/**
 * The payment result page's verification of a Checkout Session, `GET /api/checkout/sessions/{id}`
 * (docs/product-spec.md §7 "Checkout verification"): retrieves the session from Stripe, checks it is the buyer's,
 * and fulfils it idempotently — the same code as the webhook, so whichever comes first credits and the other is a
 * no-op.
 *
 * Every call counts against the buyer's hourly `checkout-verifications` quota before Stripe is asked, so no caller
 * can turn this route into unlimited Stripe API calls (Stripe rate-limits the whole account: 100 reads per second
 * in live mode, docs.stripe.com/rate-limits).
 *
 * @returns `{ status, creditsAdded, credits }` (see {@link fulfillSession})
 * @throws {QuotaExceededError} past the hourly quota (Stripe not called); {ItemNotFoundError} when Stripe does not
 *   know the session or it is another user's (never says which); {CheckoutUnavailableError} when Stripe cannot be
 *   reached
 */
export async function verifyCheckoutSession(
  buyer: Buyer,
  sessionId: string,
  ports: VerifyCheckoutSessionPorts = adapters,
): Promise<CheckoutResult> {
  await ports.consumeQuota(buyer, quotaRules().checkoutVerifications);
  const session = await ports.retrieveCheckoutSession(sessionId).catch((error: unknown) => {
    if (isStripeNotFound(error)) throw new ItemNotFoundError('Checkout session not found.');
    logger.error('Retrieving a Checkout Session failed', { stripe: describeStripeError(error) });
    throw new CheckoutUnavailableError();
  });
  if (session.client_reference_id !== buyer.sub || sessionOwner(session) !== buyer.sub) {
    throw new ItemNotFoundError('Checkout session not found.');
  }
  const result = await fulfillSession(session, { email: buyer.email }, ports);
  return { status: result.status, creditsAdded: result.creditsAdded, credits: result.credits };
}
