import { teamHeadshotsQuerySchema, type Team, type TeamHeadshotsPage } from '../contracts/teams';
import { getTeam } from '../use-cases/read-teams';
import { listTeamHeadshots } from '../use-cases/team-gallery';
import { callerOf, httpHandler, json, parseQuery } from './handler';
import { teamIdOf } from './team-path';

/**
 * A team's reads, two routes in one read-only function (each function costs CloudFormation resources of the stack's
 * 500: docs/teams.md "Building on it").
 *
 * `GET /api/teams/{teamId}` (jwt, members) → 200 the team: name, look and the caller's own seat; the `admin` section
 * (domains, ledger, members, invitations) for the owner and admins only (docs/teams.md "Roles"). Errors: 404
 * `TEAM_NOT_FOUND` for anyone not a current member.
 *
 * `GET /api/teams/{teamId}/headshots?cursor=&member=` (jwt) → 200 `{ items, nextCursor }`: the team gallery — for the
 * owner and admins every current member's shared headshots (one member's with `member=<sub>`), for a plain member
 * their own — member by member, 30 a page, each with the member's e-mail and its files as presigned GETs valid 15
 * minutes, named `<member e-mail>/<file name>` for the team's ZIP (docs/teams.md "Sharing and the team gallery").
 * Errors: 404 `TEAM_NOT_FOUND`, 403 `TEAM_FORBIDDEN` (a plain member asking for someone else's), 400
 * `INVALID_CURSOR`, 400 `VALIDATION_ERROR`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  if (event.routeKey === 'GET /api/teams/{teamId}/headshots') {
    const { cursor, member } = parseQuery(event, teamHeadshotsQuerySchema);
    return json<TeamHeadshotsPage>(200, await listTeamHeadshots(teamId, sub, { cursor, member }));
  }
  return json<Team>(200, await getTeam(teamId, sub));
});
