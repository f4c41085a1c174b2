import { GENERATION_COST } from './credits';
import { CREDIT_PACKS, type CreditPack } from './packs';
import { HEADSHOTS_PER_GENERATION } from './slots';
import { TeamAllowanceUsedError, TeamNoSeatsError } from './team-errors';

/**
 * Seats (issue 37 §2, docs/teams.md "Money", docs/decisions/029-team-seats.md): what a seat buys, what it costs, and a
 * member's allowance. A seat is credits in the team's own ledger (`TEAM#<teamId>`), bought only through Stripe; a
 * member's team generation and edits spend from it, each member at most {@link MEMBER_GENERATIONS} generation and
 * {@link SEAT_EDIT_CREDITS} edits. Pure: no I/O, safe in the browser bundle.
 */

/** Team generations a member may start: one, at {@link GENERATION_COST} credits (standard resolution only). */
export const MEMBER_GENERATIONS = 1;
/**
 * Edits (or regenerations) a member may make of their team headshots, 1 credit each (decision 028: a one-slot
 * generation). 2: enough to retouch the headshot they share and then reframe or upscale it (the look-keeping kinds,
 * domain/team-look.ts); a product choice, not a measurement (decision 029).
 */
export const SEAT_EDIT_CREDITS = 2;
/** Credits one seat puts in the team's ledger: one generation and the edits. */
export const SEAT_CREDITS = GENERATION_COST + SEAT_EDIT_CREDITS;
/** Seats one Checkout Session may buy (Stripe's line-item quantity); a team buys more in several purchases. */
export const MAX_SEATS_PER_PURCHASE = 200;

/**
 * The price of one seat in USD cents for a purchase of `seats` (decision 029): its {@link SEAT_CREDITS} at the
 * per-credit price of the credit packs a customer buying as many credits would reach — the cheapest rate among the
 * packs of at most `seats × SEAT_CREDITS` credits, else the smallest pack's. With the packs of docs/product-spec.md
 * §9: 1-7 seats at 8 × 87.5 ¢ = 700 ¢, 8 or more (≥ 60 credits, the Popular Pack's) at 8 × 75 ¢ = 600 ¢.
 *
 * @throws {RangeError} for a seat count that is not a whole number from 1 to {@link MAX_SEATS_PER_PURCHASE}, or packs
 *   whose rate would not give a whole number of cents per seat.
 */
export function seatPriceCents(seats: number, packs: readonly CreditPack[] = CREDIT_PACKS): number {
  if (!Number.isSafeInteger(seats) || seats < 1 || seats > MAX_SEATS_PER_PURCHASE) {
    throw new RangeError(`Invalid seat count: ${seats}`);
  }
  const reached = packs.filter((p) => p.credits <= seats * SEAT_CREDITS);
  const smallest = packs.reduce((a, b) => (b.credits < a.credits ? b : a));
  const rated = reached.length > 0 ? reached : [smallest];
  const cents = Math.min(...rated.map((p) => (p.priceCents * SEAT_CREDITS) / p.credits));
  if (!Number.isSafeInteger(cents)) throw new RangeError(`A seat would cost ${cents} cents`);
  return cents;
}

/** What a purchase of `seats` costs and puts in the team's ledger: cents per seat and in all, credits. */
export function seatPurchase(seats: number): { unitCents: number; totalCents: number; credits: number } {
  const unitCents = seatPriceCents(seats);
  return { unitCents, totalCents: unitCents * seats, credits: seats * SEAT_CREDITS };
}

/** A member's use of their seat: the counters on the member item (`TEAM#<teamId>` / `MEMBER#<sub>`). */
export interface MemberAllowance {
  generationsUsed: number;
  editsUsed: number;
}

/**
 * Refuses a member's team generation when they have used theirs or the team's ledger cannot pay it. The adapter
 * applies the same two conditions in the spend's transaction (`generationsUsed < 1`, `balance >= 6`), so parallel
 * starts cannot pass together; this check gives the customer the right sentence first.
 *
 * @throws {TeamAllowanceUsedError} `generation`.
 * @throws {TeamNoSeatsError} when the team's balance is below {@link GENERATION_COST}.
 */
export function assertMayGenerate(member: MemberAllowance, teamBalance: number): void {
  if (member.generationsUsed >= MEMBER_GENERATIONS) {
    throw new TeamAllowanceUsedError('generation', SEAT_EDIT_CREDITS);
  }
  if (teamBalance < GENERATION_COST) throw new TeamNoSeatsError(teamBalance, GENERATION_COST);
}

/**
 * Refuses a member's team edit (or regeneration, 1 credit) when their edits are used or the team cannot pay it.
 *
 * @throws {TeamAllowanceUsedError} `edits`.
 * @throws {TeamNoSeatsError} when the team's balance is below 1.
 */
export function assertMayEdit(member: MemberAllowance, teamBalance: number): void {
  if (member.editsUsed >= SEAT_EDIT_CREDITS) throw new TeamAllowanceUsedError('edits', SEAT_EDIT_CREDITS);
  if (teamBalance < 1) throw new TeamNoSeatsError(teamBalance, 1);
}

/**
 * Who pays for a generation (on the generation item as `payer`; docs/teams.md "Money"): absent or `'user'`, the
 * caller's own ledger; `{ team }`, that team's ledger — every refund of undelivered headshots goes back to it.
 */
export type GenerationPayer = 'user' | { team: string };

/** The team paying for a generation, or `undefined` when the customer pays (an item without `payer` included). */
export function payingTeam(payer: GenerationPayer | undefined): string | undefined {
  return typeof payer === 'object' ? payer.team : undefined;
}

/** The member-item counter a team-paid generation moves: its one generation, or one of its edits (1 slot). */
export type AllowanceCounter = 'generationsUsed' | 'editsUsed';

/** Each counter's limit per member per team, for ever (decision 029 §3). */
export const ALLOWANCE_LIMITS: Readonly<Record<AllowanceCounter, number>> = {
  generationsUsed: MEMBER_GENERATIONS,
  editsUsed: SEAT_EDIT_CREDITS,
};

/** The counter a generation of `slotCount` slots moves: a one-slot generation (an edit, a regeneration) is an edit. */
export function allowanceCounter(slotCount: number): AllowanceCounter {
  return slotCount === 1 ? 'editsUsed' : 'generationsUsed';
}

/**
 * Refuses a team-paid start the member's allowance or the team's balance cannot pay ({@link assertMayGenerate} for
 * a generation, {@link assertMayEdit} for an edit or a regeneration).
 *
 * @throws {TeamAllowanceUsedError}; {TeamNoSeatsError}
 */
export function assertMaySpend(
  member: MemberAllowance,
  teamBalance: number,
  counter: AllowanceCounter,
): void {
  if (counter === 'generationsUsed') assertMayGenerate(member, teamBalance);
  else assertMayEdit(member, teamBalance);
}

/** A team member's seat a team-paid generation used: which team's, whose, and which counter it moved. */
export interface SeatUse {
  teamId: string;
  sub: string;
  counter: AllowanceCounter;
}

/**
 * The seat a generation used: for a team-paid one (`payer: { team }`), its team, its member (the generation's owner)
 * and the counter of its size; `undefined` when the customer paid. Refunds give the counter back when the generation
 * delivered nothing (docs/teams.md "Money").
 */
export function seatUseOf(generation: {
  userId: string;
  payer?: GenerationPayer | undefined;
  slotCount?: number | undefined;
}): SeatUse | undefined {
  const teamId = payingTeam(generation.payer);
  if (teamId === undefined) return undefined;
  return {
    teamId,
    sub: generation.userId,
    counter: allowanceCounter(generation.slotCount ?? HEADSHOTS_PER_GENERATION),
  };
}
