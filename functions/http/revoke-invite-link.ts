import { revokeInviteLink } from '../use-cases/invite-links';
import { callerOf, httpHandler, noContent } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * `DELETE /api/teams/{teamId}/invite-links/{linkId}` (jwt, owner/admin) → 204: the link stops admitting anyone.
 *
 * Errors: 404 `TEAM_NOT_FOUND` / `NOT_FOUND` (no such link), 403 `TEAM_FORBIDDEN`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  await revokeInviteLink(teamIdOf(event), sub, pathParam(event, 'linkId'));
  return noContent();
});
