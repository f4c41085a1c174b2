import { createCheckoutSession, expireCheckoutSession, retrieveCheckoutSession } from '../adapters/stripe/checkout-sessions';
import { getUser } from '../adapters/ledger';
import { putPendingPurchase } from '../adapters/purchases';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { describeStripeError, isStripeNotFound } from '../adapters/stripe/client';
import { logger } from '../common/logger';
import { siteSettings } from '../config/site';
import type { CheckoutResult, CheckoutSession } from '../contracts';
import {
  buildCheckoutSessionParams,
  checkoutIdempotencyKey,
  expectedFromPack,
  sessionOwner,
} from '../domain/checkout';
import { CheckoutFailedError, CheckoutUnavailableError, ItemNotFoundError } from '../domain/errors';
import type { CreditPack } from '../domain/packs';
import { fulfillSession } from './fulfil-checkout';

/** The buyer: the caller's `sub`, and the e-mail of an ID token (access tokens carry none). */
export interface Buyer {
  sub: string;
  email: string | undefined;
}

/**
 * "Buy a credit pack" (docs/product-spec.md §7 "Checkout creation"; docs/architecture.md §8 "Money"): counts the
 * attempt against the hourly quota, creates a Stripe Checkout Session for `pack` (price, credits and name from the
 * server's pack list only), and records the pending purchase before the URL is handed out, so nobody can pay a
 * session without its record. A failure on our side or Stripe's does not count against the buyer.
 *
 * @param requestKey the client's `Idempotency-Key` (or the request id): the same key returns the same session
 * @throws {QuotaExceededError} past the hourly quota (nothing created); {CheckoutFailedError} when Stripe or the
 *   pending purchase's write fails (the session, if any, is expired)
 */
export async function buyCreditPack(
  buyer: Buyer,
  pack: CreditPack,
  requestKey: string,
): Promise<CheckoutSession> {
  const email = buyer.email ?? (await getUser(buyer.sub))?.email ?? undefined;
  const params = buildCheckoutSessionParams({
    pack,
    sub: buyer.sub,
    email: email || undefined,
    siteOrigin: siteSettings().SITE_ORIGIN,
  });
  const key = checkoutIdempotencyKey(buyer.sub, pack.id, requestKey);
  const quota = await consumeQuota(buyer, quotaRules().checkoutSessions);
  let session: CheckoutSession;
  try {
    session = await createCheckoutSession(params, key);
  } catch (error) {
    await quota.release();
    logger.error('Creating a Checkout Session failed', {
      packId: pack.id,
      stripe: describeStripeError(error),
    });
    throw new CheckoutFailedError();
  }
  try {
    await putPendingPurchase(buyer.sub, session.id, expectedFromPack(pack));
  } catch (error) {
    await quota.release();
    await expireCheckoutSession(session.id).catch(() => undefined);
    logger.error('Recording the pending purchase failed; the session was expired', {
      checkoutSessionId: session.id,
      error: error as Error,
    });
    throw new CheckoutFailedError();
  }
  return session;
}

/**
 * The payment result page's verification (docs/product-spec.md §7 "Checkout verification"): retrieves the session
 * from Stripe, checks it is the buyer's, and fulfils it idempotently — the same code as the webhook, so whichever
 * comes first credits and the other is a no-op.
 *
 * Every call counts against the buyer's hourly `checkout-verifications` quota before Stripe is asked, so no caller
 * can turn this route into unlimited Stripe API calls (Stripe rate-limits the whole account: 100 reads per second
 * in live mode, docs.stripe.com/rate-limits).
 *
 * @throws {QuotaExceededError} past the hourly quota (Stripe not called); {ItemNotFoundError} when Stripe does not
 *   know the session or it is another user's (never says which); {CheckoutUnavailableError} when Stripe cannot be
 *   reached
 */
export async function verifyCheckoutSession(buyer: Buyer, sessionId: string): Promise<CheckoutResult> {
  await consumeQuota(buyer, quotaRules().checkoutVerifications);
  const session = await retrieveCheckoutSession(sessionId).catch((error: unknown) => {
    if (isStripeNotFound(error)) throw new ItemNotFoundError('Checkout session not found.');
    logger.error('Retrieving a Checkout Session failed', { stripe: describeStripeError(error) });
    throw new CheckoutUnavailableError();
  });
  if (session.client_reference_id !== buyer.sub || sessionOwner(session) !== buyer.sub) {
    throw new ItemNotFoundError('Checkout session not found.');
  }
  const result = await fulfillSession(session, { email: buyer.email });
  return { status: result.status, creditsAdded: result.creditsAdded, credits: result.credits };
}
