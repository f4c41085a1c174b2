import { sendInvitationsBody, type InvitationsSent } from '../contracts/teams';
import { sendInvitations } from '../use-cases/send-invitations';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { teamIdOf } from './team-path';

/**
 * `POST /api/teams/{teamId}/invitations` (jwt, owner/admin) `{ emails?, text? }` → 200 what happened to each address
 * (`sent`, `failed`, `alreadyMembers`, `alreadyInvited`, `wrongDomain`, `invalid`).
 *
 * Errors: 404 `TEAM_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 400 `TOO_MANY_INVITEES`, 429 `QUOTA_EXCEEDED`.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  const teamId = teamIdOf(event);
  const body = parseBody(event, sendInvitationsBody);
  return json<InvitationsSent>(200, await sendInvitations(teamId, caller, body));
});
