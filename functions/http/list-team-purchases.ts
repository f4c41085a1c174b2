import { teamPurchasesQuerySchema, type TeamPurchasesPage } from '../contracts/teams';
import { listTeamPurchases } from '../use-cases/list-team-purchases';
import { callerOf, httpHandler, json, parseQuery } from './handler';
import { teamIdOf } from './team-path';

/**
 * `GET /api/teams/{teamId}/purchases?cursor=` (jwt, owner/admin) → 200 `{ items: [{ id, packId: 'team-seats',
 * packName: 'Seats', credits, amountCents, currency, status, creditsReversed, receiptUrl, createdAt, seats,
 * buyerEmail }], nextCursor }`: the team's seat purchases, newest first, 20 a page (docs/teams.md "Money").
 *
 * Errors: 404 `TEAM_NOT_FOUND` for a non-member; 403 `TEAM_FORBIDDEN` for a plain member; 400 `VALIDATION_ERROR` for
 * a malformed cursor, 400 `INVALID_CURSOR` for one that names no purchase of the team.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  const { cursor } = parseQuery(event, teamPurchasesQuerySchema);
  return json<TeamPurchasesPage>(200, await listTeamPurchases(teamId, sub, cursor));
});
