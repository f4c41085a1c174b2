import { putPendingPurchase } from '../adapters/purchases';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { describeStripeError } from '../adapters/stripe/client';
import { createCheckoutSession, expireCheckoutSession } from '../adapters/stripe/checkout-sessions';
import { logger } from '../common/logger';
import type { CheckoutSession } from '../contracts';
import type { CheckoutSessionParams, ExpectedPurchase } from '../domain/checkout';
import { CheckoutFailedError } from '../domain/errors';
import type { AccountRef } from '../domain/ledger-account';

/**
 * The steps every sale through Stripe Checkout shares (docs/architecture.md §8 "Money"), a credit pack's
 * (use-cases/buy-credit-pack.ts) and a team's seats' (use-cases/buy-team-seats.ts): the buyer's quota, the session,
 * and the pending purchase recorded before the URL is handed out, so nobody can pay a session without its record.
 */

/** What a sale needs from the outside world: the quota, Stripe, and the pending purchase. */
export interface SellCheckoutSessionPorts {
  consumeQuota: typeof consumeQuota;
  createCheckoutSession: typeof createCheckoutSession;
  /** Expires a session nobody may pay (its pending purchase could not be recorded). */
  expireCheckoutSession: typeof expireCheckoutSession;
  putPendingPurchase: typeof putPendingPurchase;
}

export const sellCheckoutSessionAdapters: SellCheckoutSessionPorts = {
  consumeQuota,
  createCheckoutSession,
  expireCheckoutSession,
  putPendingPurchase,
};

/** One sale: what the session sells, and under which ledger its pending purchase is recorded. */
export interface Sale {
  /** The Checkout Session's parameters, price and quantity decided on the server (domain/checkout.ts). */
  params: CheckoutSessionParams;
  /** Stripe's `Idempotency-Key` of the creation. */
  idempotencyKey: string;
  /** The ledger the purchase will fill: the buyer's `sub`, or a team's account. */
  owner: AccountRef;
  /** What the pending purchase records (fulfilment checks the paid session against it). */
  expected: ExpectedPurchase;
  /** Logged when something fails (e.g. `{ packId }`, `{ teamId, seats }`). */
  context: Record<string, unknown>;
}

/**
 * Counts the attempt against the buyer's hourly `checkout-sessions` quota, creates the session and records its pending
 * purchase. A failure on our side or Stripe's does not count against the buyer; a session whose pending purchase could
 * not be written is expired.
 *
 * @returns the session's id and the URL of its hosted payment page
 * @throws {QuotaExceededError} past the hourly quota (nothing created); {CheckoutFailedError} when Stripe or the
 *   pending purchase's write fails (the session, if any, is expired, and the quota unit given back)
 */
export async function sellCheckoutSession(
  buyer: { sub: string },
  sale: Sale,
  ports: SellCheckoutSessionPorts = sellCheckoutSessionAdapters,
): Promise<CheckoutSession> {
  const quota = await ports.consumeQuota(buyer, quotaRules().checkoutSessions);
  let session: CheckoutSession;
  try {
    session = await ports.createCheckoutSession(sale.params, sale.idempotencyKey);
  } catch (error) {
    await quota.release();
    logger.error('Creating a Checkout Session failed', {
      ...sale.context,
      stripe: describeStripeError(error),
    });
    throw new CheckoutFailedError();
  }
  try {
    await ports.putPendingPurchase(sale.owner, session.id, sale.expected);
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
