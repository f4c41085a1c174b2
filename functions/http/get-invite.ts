import type { InvitePreview } from '../contracts/teams';
import { previewInvite } from '../use-cases/preview-invite';
import { httpHandler, json } from './handler';
import { pathParam } from './team-path';

/**
 * `GET /api/invites/{token}` (public) → 200 `{ teamName, status, requiredDomains, personal }`: what the join page
 * shows before sign-in; nothing about the team's members.
 *
 * Errors: 404 `INVITE_NOT_FOUND` (malformed or unknown token).
 */
export const handler = httpHandler(async (event) => {
  return json<InvitePreview>(200, await previewInvite(pathParam(event, 'token')));
});
