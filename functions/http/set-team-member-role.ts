import { setMemberRoleBody, type TeamMember } from '../contracts/teams';
import { setMemberRole } from '../use-cases/team-members';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * `PUT /api/teams/{teamId}/members/{sub}` (jwt, owner) `{ role }` → 200 the member: `admin`, `member`, or `owner` to
 * hand the team over (the caller becomes an admin).
 *
 * Errors: 404 `TEAM_NOT_FOUND` / `TEAM_MEMBER_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 409 `TEAM_OWNER_CANNOT_LEAVE`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  const { role } = parseBody(event, setMemberRoleBody);
  return json<TeamMember>(200, await setMemberRole(teamId, sub, pathParam(event, 'sub'), role));
});
