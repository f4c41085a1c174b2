import type { Team } from '../contracts/teams';
import { getTeam } from '../use-cases/read-teams';
import { callerOf, httpHandler, json } from './handler';
import { teamIdOf } from './team-path';

/**
 * `GET /api/teams/{teamId}` (jwt, members) → 200 the team: name, look and the caller's own seat; the `admin` section
 * (domains, ledger, members, invitations) for the owner and admins only (docs/teams.md "Roles").
 *
 * Errors: 404 `TEAM_NOT_FOUND` for anyone not a current member.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<Team>(200, await getTeam(teamIdOf(event), sub));
});
