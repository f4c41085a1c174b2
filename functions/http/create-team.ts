import { createTeamBody, type Team } from '../contracts/teams';
import { createTeam } from '../use-cases/teams';
import { callerOf, httpHandler, json, parseBody } from './handler';

/**
 * `POST /api/teams` (jwt) `{ name, allowedDomains? }` → 200 the team (contracts/teams.ts `teamSchema`): a new team
 * whose owner is the caller (docs/teams.md "Routes").
 *
 * Errors: 400 `VALIDATION_ERROR`, 400 `TEAM_DOMAIN_NOT_ALLOWED` (public webmail), 429 `QUOTA_EXCEEDED` (teams per day).
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const body = parseBody(event, createTeamBody);
  return json<Team>(200, await createTeam(caller, body));
});
