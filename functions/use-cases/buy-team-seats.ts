import { siteSettings } from '../config/site';
import type { CheckoutSession } from '../contracts';
import { teamAccount } from '../domain/ledger-account';
import {
  buildSeatCheckoutParams,
  expectedSeatPurchase,
  seatCheckoutIdempotencyKey,
} from '../domain/team-checkout';
import type { Buyer } from './buy-credit-pack';
import {
  sellCheckoutSession,
  sellCheckoutSessionAdapters,
  type SellCheckoutSessionPorts,
} from './sell-checkout-session';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';

/** What buying seats needs: the caller's membership, and the sale's (quota, Stripe, the pending purchase). */
export interface BuyTeamSeatsPorts extends TeamAccessPorts, SellCheckoutSessionPorts {}

const adapters: BuyTeamSeatsPorts = { ...teamAccessAdapters, ...sellCheckoutSessionAdapters };

/**
 * "Buy seats" (issue 37 §2, docs/teams.md "Money"), `POST /api/teams/{teamId}/checkout/sessions` `{seats}`: the owner
 * or an admin opens a Stripe Checkout Session of one line item, quantity = seats, at the seat price the server
 * decides (domain/team-checkout.ts, decision 029), whose pending purchase is recorded under the team
 * (`TEAM#<teamId>` / `PENDING_PURCHASE#<cs_…>`: the price, `seats × 8` credits, the quantity and the buyer), so the
 * same fulfilment as a pack credits the team's ledger and nobody else's. The buyer's hourly `checkout-sessions`
 * quota counts it.
 *
 * @param seats 1-200 (the contract's range; domain/team-seats.ts `MAX_SEATS_PER_PURCHASE`)
 * @param requestKey the client's `Idempotency-Key` (or the request id): the same key returns the same session
 * @throws {TeamNotFoundError} for a non-member; {TeamForbiddenError} for a plain member; {QuotaExceededError} past
 *   the hourly quota; {CheckoutFailedError} when Stripe or the pending purchase's write fails (nothing to pay)
 */
export async function buyTeamSeats(
  buyer: Buyer,
  teamId: string,
  seats: number,
  requestKey: string,
  ports: BuyTeamSeatsPorts = adapters,
): Promise<CheckoutSession> {
  const { team, member } = await teamAccess(teamId, buyer.sub, 'buy-seats', ports);
  const params = buildSeatCheckoutParams({
    teamId,
    teamName: team.name,
    seats,
    sub: buyer.sub,
    email: buyer.email ?? (member.email || undefined),
    siteOrigin: siteSettings().SITE_ORIGIN,
  });
  return sellCheckoutSession(
    buyer,
    {
      params,
      idempotencyKey: seatCheckoutIdempotencyKey(teamId, buyer.sub, seats, requestKey),
      owner: teamAccount(teamId),
      expected: expectedSeatPurchase(seats, buyer.sub),
      context: { teamId, seats },
    },
    ports,
  );
}
