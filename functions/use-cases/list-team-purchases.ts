import { readAllPurchases } from '../adapters/purchases';
import { PURCHASES_PAGE_SIZE } from '../contracts/purchase';
import type { TeamPurchasesPage } from '../contracts/teams';
import { teamAccount } from '../domain/ledger-account';
import { purchasePage, purchaseRow } from '../domain/purchase-history';
import { SEAT_PACK_NAME } from '../domain/team-checkout';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';

/** What the team's purchase history needs: the caller's membership and the team's purchases. Reads only. */
export interface ListTeamPurchasesPorts extends TeamAccessPorts {
  readAllPurchases: typeof readAllPurchases;
}

const adapters: ListTeamPurchasesPorts = { ...teamAccessAdapters, readAllPurchases };

/**
 * The team's purchase history, `GET /api/teams/{teamId}/purchases` (owner/admin; docs/teams.md "Money"): its seat
 * purchases (only its own partition, `TEAM#<teamId>`, is read) newest first, {@link PURCHASES_PAGE_SIZE} a page, each
 * as the personal history shows a purchase (amount in cents, status, credits reversed, Stripe's receipt) with its
 * seats and the buyer's e-mail.
 *
 * @param cursor the previous page's `nextCursor`
 * @throws {TeamNotFoundError} for a non-member; {TeamForbiddenError} for a plain member; {InvalidCursorError} for a
 *   cursor that names no purchase of the team
 */
export async function listTeamPurchases(
  teamId: string,
  sub: string,
  cursor: string | undefined,
  ports: ListTeamPurchasesPorts = adapters,
): Promise<TeamPurchasesPage> {
  await teamAccess(teamId, sub, 'view-purchases', ports);
  const page = purchasePage(await ports.readAllPurchases(teamAccount(teamId)), cursor, PURCHASES_PAGE_SIZE);
  return {
    items: page.items.map((p) => ({
      ...purchaseRow(p, SEAT_PACK_NAME),
      seats: p.team?.seats ?? 0,
      buyerEmail: p.team?.buyerEmail ?? '',
    })),
    nextCursor: page.nextCursor,
  };
}
