import { updateTeamBody, type Team } from '../contracts/teams';
import { updateTeam } from '../use-cases/teams';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { teamIdOf } from './team-path';

/**
 * `PATCH /api/teams/{teamId}` (jwt, owner/admin) `{ name?, allowedDomains?, look? }` → 200 the team.
 *
 * Errors: 404 `TEAM_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 400 `VALIDATION_ERROR` / `TEAM_DOMAIN_NOT_ALLOWED`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  const body = parseBody(event, updateTeamBody);
  return json<Team>(200, await updateTeam(teamId, sub, body));
});
