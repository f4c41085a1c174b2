import { generationItemPut } from '../adapters/generations';
import { userGuardItem, type GenerationStartGuard } from '../adapters/generation-guard';
import { CreditChangeGuardError, getUser, type CreditChange } from '../adapters/ledger';
import type { TransactItem } from '../adapters/support/ledger-items';
import { seatUseItem } from '../adapters/teams/allowance';
import { InsufficientCreditsError, UserNotFoundError } from '../domain/credits';
import { AccountDeletingError } from '../domain/errors';
import { teamAccount } from '../domain/ledger-account';
import { generationInFlight } from '../domain/quotas';
import { TeamAllowanceUsedError, TeamNoSeatsError, TeamNotFoundError } from '../domain/team-errors';
import { SEAT_EDIT_CREDITS, type SeatUse } from '../domain/team-seats';
import { teamAccessAdapters, type TeamAccessPorts } from './team-access';

/**
 * Who pays for a new generation, as one credit change (docs/architecture.md §2; docs/teams.md "Money"): the customer's
 * own ledger, or — for a team-paid generation — the team's, with the member's allowance counter in the same
 * transaction. The generation's start (use-cases/start-generation.ts) builds the spend here and reads a refusal here,
 * so nothing else branches on who pays.
 */

/** What a team-paid spend adds to the ledger's transaction, and reads to explain a refusal. */
export interface GenerationPaymentPorts extends TeamAccessPorts {
  /** The user item's guard (one generation in flight, no deletion) as an item of another ledger's transaction. */
  userGuardItem: typeof userGuardItem;
  /** The member's allowance counter, +1 on a start (adapters/teams/allowance.ts). */
  seatUseItem: typeof seatUseItem;
  /** The generation item as an item of another ledger's transaction. */
  generationItemPut: typeof generationItemPut;
  getUser: typeof getUser;
}

export const generationPaymentAdapters: GenerationPaymentPorts = {
  ...teamAccessAdapters,
  userGuardItem,
  seatUseItem,
  generationItemPut,
  getUser,
};

/** What a new generation's spend is made of. */
export interface SpendPlan {
  sub: string;
  /** The generation's id: the spend's idempotency reference. */
  id: string;
  /** Credits. */
  cost: number;
  /** The seat a team-paid generation uses (domain/team-seats.ts `seatUseOf`); absent: the customer pays. */
  seat: SeatUse | undefined;
  /** The one-in-flight and no-deletion guard of the caller's user item (adapters/generation-guard.ts). */
  guard: GenerationStartGuard;
  /** Items that commit with the spend whoever pays (the sweeper's marker). */
  extraItems: TransactItem[];
  /** The new generation item. */
  generationItem: Record<string, unknown>;
}

/**
 * The credit change that pays for a new generation: from the customer's own ledger with the guard on their user item
 * and the generation as its related item, or from the team's ledger with, in the same transaction, the user item's
 * guard, the member's counter (`+1` under its limit, only while they are a member) and the generation item.
 */
export function generationSpend(
  plan: SpendPlan,
  ports: Pick<GenerationPaymentPorts, 'userGuardItem' | 'seatUseItem' | 'generationItemPut'>,
): CreditChange {
  const { sub, id, cost, seat, guard, extraItems, generationItem } = plan;
  if (!seat) {
    return {
      sub,
      amount: cost,
      ref: id,
      profileGuard: guard.profileGuard,
      extraItems: [...guard.extraItems, ...extraItems],
      related: { item: generationItem },
    };
  }
  return {
    account: teamAccount(seat.teamId),
    amount: cost,
    ref: id,
    extraItems: [
      ports.userGuardItem(sub, guard.profileGuard),
      ...guard.extraItems,
      ...extraItems,
      ports.seatUseItem(seat, 1),
      ports.generationItemPut(generationItem),
    ],
  };
}

/**
 * What a refused spend means for the customer (the ledger only says which condition failed): a balance under the
 * cost (402: their own `INSUFFICIENT_CREDITS`, or the team's `TEAM_NO_SEATS`), an account being deleted, a
 * generation still in flight (429), or — team-paid — an allowance used meanwhile (409 `TEAM_ALLOWANCE_USED`) or a
 * membership ended meanwhile (404 `TEAM_NOT_FOUND`). Anything else is returned as it was.
 */
export async function spendRefusal(
  error: unknown,
  plan: SpendPlan,
  ports: Pick<GenerationPaymentPorts, 'getUser' | 'getMember'>,
): Promise<unknown> {
  const { seat, cost } = plan;
  if (!seat) {
    if (error instanceof UserNotFoundError) return new InsufficientCreditsError(0, cost);
    if (error instanceof CreditChangeGuardError)
      return error.user?.deletingAt ? new AccountDeletingError() : generationInFlight();
    return error;
  }
  if (error instanceof InsufficientCreditsError) return new TeamNoSeatsError(error.balance, error.required);
  if (!(error instanceof CreditChangeGuardError)) return error;
  const seatIndex = 1 + plan.guard.extraItems.length + plan.extraItems.length;
  if (error.failed === seatIndex) {
    const member = await ports.getMember(seat.teamId, seat.sub);
    if (member?.membership !== 'joined') return new TeamNotFoundError();
    return new TeamAllowanceUsedError(
      seat.counter === 'generationsUsed' ? 'generation' : 'edits',
      SEAT_EDIT_CREDITS,
    );
  }
  if (error.failed === 0) {
    const user = await ports.getUser(plan.sub);
    if (!user) return new UserNotFoundError();
    if (user.deletingAt) return new AccountDeletingError();
  }
  return generationInFlight();
}

/**
 * The balance `POST /api/generations` reports (`credits`): the customer's own after their spend; after a team-paid
 * one, their own as it was (no personal credit moved), never the team's, which only its owner and admins see.
 */
export function reportedCredits(plan: SpendPlan, spendBalance: number, ownCredits: number): number {
  return plan.seat ? ownCredits : spendBalance;
}
