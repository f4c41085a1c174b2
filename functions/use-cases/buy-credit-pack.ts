import { getUser } from '../adapters/ledger';
import { siteSettings } from '../config/site';
import type { CheckoutSession } from '../contracts';
import { buildCheckoutSessionParams, checkoutIdempotencyKey, expectedFromPack } from '../domain/checkout';
import type { CreditPack } from '../domain/packs';
import {
  sellCheckoutSession,
  sellCheckoutSessionAdapters,
  type SellCheckoutSessionPorts,
} from './sell-checkout-session';

/** The buyer: the caller's `sub`, and the e-mail of an ID token (access tokens carry none). */
export interface Buyer {
  sub: string;
  email: string | undefined;
}

/** What buying a credit pack needs from the outside world: the user item, and the sale's (quota, Stripe, record). */
export interface BuyCreditPackPorts extends SellCheckoutSessionPorts {
  /** The buyer's e-mail when the token carries none (to prefill Checkout). */
  getUser: typeof getUser;
}

const adapters: BuyCreditPackPorts = { ...sellCheckoutSessionAdapters, getUser };

/**
 * "Buy a credit pack" (docs/product-spec.md §7 "Checkout creation"; docs/architecture.md §8 "Money"): the Stripe
 * Checkout Session of one credit pack, `POST /api/checkout/sessions`. Counts the attempt against the hourly quota,
 * creates the session for `pack` (price, credits and name from the server's pack list only), and records the
 * pending purchase before the URL is handed out, so nobody can pay a session without its record
 * (use-cases/sell-checkout-session.ts). A failure on our side or Stripe's does not count against the buyer.
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
  return sellCheckoutSession(
    buyer,
    {
      params,
      idempotencyKey: checkoutIdempotencyKey(buyer.sub, pack.id, requestKey),
      owner: buyer.sub,
      expected: expectedFromPack(pack),
      context: { packId: pack.id },
    },
    ports,
  );
}
