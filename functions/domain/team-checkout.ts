import type { CheckoutSessionLike, CheckoutSessionParams, ExpectedPurchase } from './checkout';
import { oneLineSession, sessionOwner } from './checkout';
import { teamAccount, userAccount, type LedgerAccount } from './ledger-account';
import { seatPurchase } from './team-seats';

/**
 * A team's seat purchase through Stripe Checkout (issue 37 §2, docs/teams.md "Money", docs/decisions/029-team-seats.md):
 * one line item whose quantity is the seats and whose unit amount is one seat's price, both decided here on the
 * server. The same fulfilment as a credit pack credits it (use-cases/fulfill-checkout.ts), into the team's ledger,
 * because its metadata and pending purchase say so. Pure: no I/O.
 */

/** The `pack_id` of a seat purchase (metadata, pending purchase and purchase item), never a credit pack's id. */
export const SEAT_PACK_ID = 'team-seats';
/** The name the purchase history shows for a seat purchase (docs/product-spec.md §2 "Teams": 'Seats'). */
export const SEAT_PACK_NAME = 'Seats';

/**
 * The most a Checkout Session may charge, in cents: Stripe's amounts have at most eight digits, 99,999,999 for USD's
 * $999,999.99 (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts); Stripe answers a larger one
 * 400 `amount_too_large` (https://docs.stripe.com/error-codes#amount-too-large). The local stand-in refuses it the
 * same way (infrastructure/local/stand-ins/stripe/wire.ts).
 */
export const MAX_CHARGE_CENTS = 99_999_999;

/** A team's id as it may appear in metadata and paths: a ULID-like id of letters and digits. */
const TEAM_ID = /^[0-9A-Za-z]{1,64}$/;

/** The line item's name on the hosted page: 'Team seat for {team}'. */
export function seatLineItemName(teamName: string): string {
  return `Team seat for ${teamName}`;
}

/** The line item's description: what one seat holds. */
export const SEAT_LINE_ITEM_DESCRIPTION =
  "One person's team headshots: a generation of 6 headshots and 2 edits (8 credits in the team's account).";

/**
 * The parameters of `POST /v1/checkout/sessions` for `seats` seats of a team, bought by `sub` (an owner or admin):
 * quantity = seats, unit amount = `seatPriceCents(seats)`, no adjustable quantity (the buyer cannot change it in
 * Checkout, so the amount paid is the amount recorded) and no promotion codes (seats come only from payments: issue
 * 37 §7). Returns to `/success?…&redirect=team&team=<teamId>`; a cancel to the team's page
 * (`/teams/<teamId>?checkout=cancelled`).
 *
 * @throws {RangeError} for a seat count outside 1..200 (domain/team-seats.ts `MAX_SEATS_PER_PURCHASE`), a team id
 *   that is not one, or a total above {@link MAX_CHARGE_CENTS}
 */
export function buildSeatCheckoutParams(input: {
  teamId: string;
  teamName: string;
  seats: number;
  sub: string;
  email: string | undefined;
  siteOrigin: string;
}): CheckoutSessionParams {
  const { teamId, seats, sub, email } = input;
  if (!TEAM_ID.test(teamId)) throw new RangeError(`Invalid team id: ${teamId}`);
  const { unitCents, totalCents, credits } = seatPurchase(seats);
  if (totalCents > MAX_CHARGE_CENTS)
    throw new RangeError(`A purchase of ${totalCents} cents is above Stripe's limit`);
  const origin = input.siteOrigin.replace(/\/+$/, '');
  return oneLineSession({
    sub,
    email,
    currency: 'usd',
    unitCents,
    quantity: seats,
    product: { name: seatLineItemName(input.teamName), description: SEAT_LINE_ITEM_DESCRIPTION },
    successUrl: `${origin}/success?session_id={CHECKOUT_SESSION_ID}&redirect=team&team=${teamId}`,
    cancelUrl: `${origin}/teams/${teamId}?checkout=cancelled`,
    metadata: {
      user_id: sub,
      pack_id: SEAT_PACK_ID,
      team_id: teamId,
      seats: String(seats),
      credits: String(credits),
      amount: String(totalCents),
      package_name: SEAT_PACK_NAME,
      ...(email ? { user_email: email } : {}),
    },
  });
}

/** What the seat purchase's pending purchase records: the total price, the credits, the quantity and the buyer. */
export function expectedSeatPurchase(seats: number, buyerSub: string): ExpectedPurchase {
  const { totalCents, credits } = seatPurchase(seats);
  return {
    packId: SEAT_PACK_ID,
    credits,
    priceCents: totalCents,
    currency: 'usd',
    quantity: seats,
    buyerSub,
  };
}

/**
 * The idempotency key of a seat session's creation: scoped to the team, the buyer and the seats, so a replay returns
 * the same session and another count never trips Stripe's "same key, different parameters" error.
 *
 * @param requestKey the client's `Idempotency-Key` (one per click) or the API request id
 */
export function seatCheckoutIdempotencyKey(
  teamId: string,
  sub: string,
  seats: number,
  requestKey: string,
): string {
  return `team-checkout:${teamId}:${sub}:${seats}:${requestKey}`.slice(0, 255);
}

/**
 * The ledger a paid session fills (docs/teams.md "Money"): a team's when its metadata names one (`team_id`), else its
 * buyer's; `undefined` when the session has no consistent owner. The pending purchase is then read under that account,
 * so a session whose metadata names a team it was not created for finds none and is never credited.
 */
export function checkoutAccount(session: CheckoutSessionLike): LedgerAccount | undefined {
  const owner = sessionOwner(session);
  if (!owner) return undefined;
  const teamId = session.metadata?.team_id;
  if (teamId === undefined) return userAccount(owner);
  return TEAM_ID.test(teamId) ? teamAccount(teamId) : undefined;
}

/** What a seat purchase's item records besides a pack's fields (docs/teams.md "Items"). */
export interface SeatPurchaseFields {
  seats: number;
  buyerSub: string;
  /** The buyer's e-mail at purchase (the team's receipts say who paid); '' when unknown. */
  buyerEmail: string;
}

/**
 * The seat fields of a fulfilled session's purchase item: for a team's ledger, its seats (the recorded quantity) and
 * who paid; `undefined` for a customer's own purchase.
 */
export function seatPurchaseFields(
  account: LedgerAccount,
  expected: ExpectedPurchase | undefined,
  buyer: { sub: string; email: string | undefined },
): SeatPurchaseFields | undefined {
  if (account.kind !== 'team') return undefined;
  return { seats: expected?.quantity ?? 0, buyerSub: buyer.sub, buyerEmail: buyer.email ?? '' };
}
