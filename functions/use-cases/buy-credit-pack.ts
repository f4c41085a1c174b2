import { getUser } from '../adapters/ledger';
import { putPendingPurchase } from '../adapters/purchases';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { describeStripeError } from '../adapters/stripe/client';
import { createCheckoutSession, expireCheckoutSession } from '../adapters/stripe/checkout-sessions';
import { logger } from '../common/logger';
import { siteSettings } from '../config/site';
import type { CheckoutSession } from '../contracts';
import { buildCheckoutSessionParams, checkoutIdempotencyKey, expectedFromPack } from '../domain/checkout';
import { CheckoutFailedError } from '../domain/errors';
import type { CreditPack } from '../domain/packs';

/** The buyer: the caller's `sub`, and the e-mail of an ID token (access tokens carry none). */
export interface Buyer {
  sub: string;
  email: string | undefined;
}

/** What buying a credit pack needs from the outside world: the quota, Stripe, the pending purchase, the user item. */
export interface BuyCreditPackPorts {
  /** The buyer's e-mail when the token carries none (to prefill Checkout). */
  getUser: typeof getUser;
  consumeQuota: typeof consumeQuota;
  createCheckoutSession: typeof createCheckoutSession;
  /** Expires a session nobody may pay (its pending purchase could not be recorded). */
  expireCheckoutSession: typeof expireCheckoutSession;
  putPendingPurchase: typeof putPendingPurchase;
}

const adapters: BuyCreditPackPorts = {
  getUser,
  consumeQuota,
  createCheckoutSession,
  expireCheckoutSession,
  putPendingPurchase,
};

/**
 * "Buy a credit pack" (docs/product-spec.md §7 "Checkout creation"; docs/architecture.md §8 "Money"): the Stripe
 * Checkout Session of one credit pack, `POST /api/checkout/sessions`. Counts the attempt against the hourly quota,
 * creates the session for `pack` (price, credits and name from the server's pack list only), and records the
 * pending purchase before the URL is handed out, so nobody can pay a session without its record. A failure on our
 * side or Stripe's does not count against the buyer.
 *
 * @param requestKey the client's `Idempotency-Key` (or the request id): the same key returns the same session
 * @returns the session's id and the URL of its hosted payment page
 * @throws {QuotaExceededError} past the hourly quota (nothing created); {CheckoutFailedError} when Stripe or the
 *   pending purchase's write fails (the session, if any, is expired, and the quota unit given back)
 */
export async function buyCreditPack(
  buyer: Buyer,
  pack: CreditPack,
  requestKey: string,
  ports: BuyCreditPackPorts = adapters,
): Promise<CheckoutSession> {
  const email = buyer.email ?? (await ports.getUser(buyer.sub))?.email ?? undefined;
  const params = buildCheckoutSessionParams({
    pack,
    sub: buyer.sub,
    email: email || undefined,
    siteOrigin: siteSettings().SITE_ORIGIN,
  });
  const key = checkoutIdempotencyKey(buyer.sub, pack.id, requestKey);
  const quota = await ports.consumeQuota(buyer, quotaRules().checkoutSessions);
  let session: CheckoutSession;
  try {
    session = await ports.createCheckoutSession(params, key);
  } catch (error) {
    await quota.release();
    logger.error('Creating a Checkout Session failed', {
      packId: pack.id,
      stripe: describeStripeError(error),
    });
    throw new CheckoutFailedError();
  }
  try {
    await ports.putPendingPurchase(buyer.sub, session.id, expectedFromPack(pack));
  } catch (error) {
    await quota.release();
    await ports.expireCheckoutSession(session.id).catch(() => undefined);
    logger.error('Recording the pending purchase failed; the session was expired', {
      checkoutSessionId: session.id,
      error: error as Error,
    });
    throw new CheckoutFailedError();
  }
  return session;
}
