import type { CheckoutSession } from '../contracts/account';
import { createSeatCheckoutBody } from '../contracts/teams';
import { CLIENT_IDEMPOTENCY_KEY_PATTERN } from '../domain/checkout';
import { buyTeamSeats } from '../use-cases/buy-team-seats';
import { badRequest } from './errors';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { teamIdOf } from './team-path';

/**
 * `POST /api/teams/{teamId}/checkout/sessions` (jwt, owner/admin) `{ seats }` → 200 `{ id, url }`: a Stripe Checkout
 * Session of `seats` seats (one line item, quantity = seats, the seat price decided on the server: docs/teams.md
 * "Money"), whose payment fills the team's ledger with `seats × 8` credits. Send the browser to `url`; Stripe returns
 * it to `/success?session_id=…&redirect=team&team=<teamId>` (the payment result page verifies it with `GET
 * /api/checkout/sessions/{id}`, whose `credits` is then the team's balance) or, cancelled, to
 * `/teams/<teamId>?checkout=cancelled`. The optional `Idempotency-Key` header (8-128 of `[A-Za-z0-9_-]`, one per
 * click) makes a double-submitted click return the same session.
 *
 * Errors: 400 `VALIDATION_ERROR` (seats not a whole number from 1 to 200, unknown fields, malformed
 * `Idempotency-Key`); 404 `TEAM_NOT_FOUND` for a non-member; 403 `TEAM_FORBIDDEN` for a plain member; 429
 * `QUOTA_EXCEEDED` past the buyer's hourly `checkout-sessions` quota; 502 `CHECKOUT_FAILED` when Stripe fails.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const teamId = teamIdOf(event);
  const { seats } = parseBody(event, createSeatCheckoutBody);
  const clientKey = event.headers?.['idempotency-key'];
  if (clientKey !== undefined && !CLIENT_IDEMPOTENCY_KEY_PATTERN.test(clientKey)) {
    throw badRequest('The Idempotency-Key header must be 8-128 letters, digits, "-" or "_".');
  }
  const session = await buyTeamSeats(caller, teamId, seats, clientKey ?? event.requestContext.requestId);
  return json<CheckoutSession>(200, session);
});
