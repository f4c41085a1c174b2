import type { InviteAccepted } from '../contracts/teams';
import { acceptInvite } from '../use-cases/join-team';
import { callerOf, httpHandler, json } from './handler';
import { pathParam } from './team-path';

/**
 * `POST /api/invites/{token}/accept` (jwt) → 200 `{ teamId, teamName, role, alreadyMember }`: joins the caller to the
 * link's team (idempotent for a current member). Needs the ID token's verified e-mail.
 *
 * Errors: 404 `INVITE_NOT_FOUND`, 410 `INVITE_EXPIRED` / `INVITE_USED_UP` / `INVITE_REVOKED`, 403
 * `EMAIL_NOT_VERIFIED` / `INVITE_WRONG_DOMAIN` / `INVITE_WRONG_ADDRESS`, 429 `QUOTA_EXCEEDED`.
 */
export const handler = httpHandler(async (event) => {
  const caller = callerOf(event);
  return json<InviteAccepted>(200, await acceptInvite(pathParam(event, 'token'), caller));
});
