import { createCheckoutSessionBody, type CheckoutSession } from '../contracts/account';
import { CLIENT_IDEMPOTENCY_KEY_PATTERN } from '../domain/checkout';
import { CREDIT_PACKS, findPack } from '../domain/packs';
import { buyCreditPack } from '../use-cases/buy-credit-pack';
import { badRequest } from './errors';
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
 * (docs/product-spec.md §8; the attempt is not counted); 409 `ACCOUNT_DELETING` / 410 `ACCOUNT_DELETED` for a token
 * still valid while or after its account is deleted.
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
  const session = await buyCreditPack(caller, pack, clientKey ?? event.requestContext.requestId);
  return json<CheckoutSession>(200, session);
});
