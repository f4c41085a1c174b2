import { removeMember } from '../use-cases/remove-team-member';
import { callerOf, httpHandler, noContent } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * `DELETE /api/teams/{teamId}/members/{sub}` (jwt) → 204: removes a member (owner/admin; an admin only members), or
 * with the caller's own `sub`, leaves. Their shared headshots leave the team; their own stay theirs.
 *
 * Errors: 404 `TEAM_NOT_FOUND` / `TEAM_MEMBER_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 409 `TEAM_OWNER_CANNOT_LEAVE`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  await removeMember(teamIdOf(event), sub, pathParam(event, 'sub'));
  return noContent();
});
