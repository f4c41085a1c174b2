import { createCheckoutSessionBody, type CheckoutSession } from '../contracts';
import { createCheckoutSession, expireCheckoutSession } from '../adapters/checkout';
import { putPendingPurchase } from '../adapters/purchases';
import { getUser } from '../adapters/ledger';
import { consumeQuota, quotaRules } from '../adapters/quotas';
import { describeStripeError } from '../adapters/stripe';
import { loadConfig } from '../config';
import {
  buildCheckoutSessionParams,
  checkoutIdempotencyKey,
  expectedFromPack,
  CLIENT_IDEMPOTENCY_KEY_PATTERN,
} from '../domain/checkout';
import { CREDIT_PACKS, findPack } from '../domain/packs';
import { logger } from '../common/logger';
import { badRequest, HttpError } from './errors';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `POST /api/checkout/sessions` (jwt) `{ packId }` → 200 `{ id, url }`: creates a Stripe Checkout Session for one
 * credit pack and returns the hosted page to send the browser to (docs/product-spec.md §7 "Checkout creation"; docs/architecture.md §3).
 *
 * Price, credits and name come only from the server's pack list; the pending purchase (pack, price, credits,
 * currency at this moment) is recorded before the URL is returned, and fulfilment checks the paid session against
 * it (docs/architecture.md §8 "Money"). The optional `Idempotency-Key` request header
 * (8-128 of `[A-Za-z0-9_-]`, one per purchase click) makes a double-submitted click return the same session.
 *
 * Errors: 400 `VALIDATION_ERROR` (no/invalid body, unknown `packId`, malformed `Idempotency-Key`); 401 without a
 * token; 429 `QUOTA_EXCEEDED` with `Retry-After` past the caller's hourly quota (`QUOTA_CHECKOUT_SESSIONS_PER_HOUR`,
 * default 10; nothing is created then); 502 `CHECKOUT_FAILED` 'Failed to create checkout session' when Stripe fails
 * (docs/product-spec.md §8; the attempt is not counted).
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const { packId } = parseBody(event, createCheckoutSessionBody);
  const pack = findPack(packId);
  if (!pack) {
    throw badRequest(`Unknown credit pack. Choose one of: ${CREDIT_PACKS.map((p) => p.id).join(', ')}.`);
  }
  const clientKey = event.headers?.['idempotency-key'];
  if (clientKey !== undefined && !CLIENT_IDEMPOTENCY_KEY_PATTERN.test(clientKey)) {
    throw badRequest('The Idempotency-Key header must be 8-128 letters, digits, "-" or "_".');
  }
  // Access tokens carry no e-mail claim: fall back to the user item's e-mail.
  const email = caller.email ?? (await getUser(caller.sub))?.email ?? undefined;
  const params = buildCheckoutSessionParams({
    pack,
    sub: caller.sub,
    email: email || undefined,
    siteOrigin: loadConfig().SITE_ORIGIN,
  });
  const key = checkoutIdempotencyKey(caller.sub, pack.id, clientKey ?? event.requestContext.requestId);
  const quota = await consumeQuota(caller, quotaRules().checkoutSessions);
  let session: CheckoutSession;
  try {
    session = await createCheckoutSession(params, key);
  } catch (error) {
    // Our side (or Stripe's) failed: the attempt does not count against the caller.
    await quota.release();
    logger.error('Creating a Checkout Session failed', {
      packId: pack.id,
      stripe: describeStripeError(error),
    });
    throw new HttpError(502, 'CHECKOUT_FAILED', 'Failed to create checkout session');
  }
  // What this session sells, at today's price: fulfilment checks the paid session against it. The URL is only
  // handed out once it is written, so nobody can pay a session without its record.
  try {
    await putPendingPurchase(caller.sub, session.id, expectedFromPack(pack));
  } catch (error) {
    await quota.release();
    await expireCheckoutSession(session.id).catch(() => undefined);
    logger.error('Recording the pending purchase failed; the session was expired', {
      checkoutSessionId: session.id,
      error: error as Error,
    });
    throw new HttpError(502, 'CHECKOUT_FAILED', 'Failed to create checkout session');
  }
  return json<CheckoutSession>(200, session);
});
