import type { InviteLinkView } from '../contracts/teams';
import { listInviteLinks } from '../use-cases/list-invite-links';
import { callerOf, httpHandler, json } from './handler';
import { teamIdOf } from './team-path';

/**
 * `GET /api/teams/{teamId}/invite-links` (jwt, owner/admin) → 200 `{ items }`: the team's links, newest first, each
 * with its status (never its token).
 *
 * Errors: 404 `TEAM_NOT_FOUND`, 403 `TEAM_FORBIDDEN`.
 */
export const handler = httpHandler(async (event) => {
  const { sub } = callerOf(event);
  return json<{ items: InviteLinkView[] }>(200, await listInviteLinks(teamIdOf(event), sub));
});
