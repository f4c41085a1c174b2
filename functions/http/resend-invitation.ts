import type { Invitation } from '../contracts/teams';
import { resendInvitation } from '../use-cases/send-invitations';
import { callerOf, httpHandler, json } from './handler';
import { pathParam, teamIdOf } from './team-path';

/**
 * `POST /api/teams/{teamId}/invitations/{email}/resend` (jwt, owner/admin) → 200 the invitation: a new personal link
 * by e-mail, the old one turned off.
 *
 * Errors: 404 `TEAM_NOT_FOUND` / `INVITATION_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 409 `INVITATION_SEND_LIMIT`,
 * 429 `QUOTA_EXCEEDED`, 502 `INVITATION_NOT_SENT`.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const teamId = teamIdOf(event);
  return json<Invitation>(200, await resendInvitation(teamId, caller, pathParam(event, 'email')));
});
