import { createInviteLinkBody, type CreatedInviteLink } from '../contracts/teams';
import { createInviteLink } from '../use-cases/invite-links';
import { callerOf, httpHandler, json, parseBody } from './handler';
import { teamIdOf } from './team-path';

/**
 * `POST /api/teams/{teamId}/invite-links` (jwt, owner/admin) `{ expiresInDays?, cap?, domainsOnly? }` → 200
 * `{ link, url }`: the URL holds the token and is answered only this once.
 *
 * Errors: 404 `TEAM_NOT_FOUND`, 403 `TEAM_FORBIDDEN`, 400 `TEAM_NO_DOMAINS`, 409 `TOO_MANY_INVITE_LINKS`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  const teamId = teamIdOf(event);
  const body = parseBody(event, createInviteLinkBody);
  return json<CreatedInviteLink>(200, await createInviteLink(teamId, sub, body));
});
