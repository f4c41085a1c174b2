import { findInvite } from '../adapters/teams/invites';
import { getTeam } from '../adapters/teams/records';
import type { InvitePreview } from '../contracts/teams';
import { InviteUnusableError } from '../domain/team-errors';
import { INVITE_TOKEN_PATTERN, inviteTokenHash } from '../domain/team-invite-tokens';
import { inviteLinkStatus } from '../domain/team-invites';

/** The join page's preview of a link (docs/teams.md "Invitations"): public, only reads. */

/** What the preview needs. */
export interface PreviewInvitePorts {
  findInvite: typeof findInvite;
  getTeam: typeof getTeam;
  now: () => Date;
}

const adapters: PreviewInvitePorts = { findInvite, getTeam, now: () => new Date() };

/**
 * The link and team of a token.
 *
 * @throws {InviteUnusableError} `INVITE_NOT_FOUND`: malformed, unknown, or its team gone
 */
export async function invite(token: string, ports: Pick<PreviewInvitePorts, 'findInvite' | 'getTeam'>) {
  const found = INVITE_TOKEN_PATTERN.test(token) ? await ports.findInvite(inviteTokenHash(token)) : undefined;
  const team = found && (await ports.getTeam(found.teamId));
  if (!found || !team) throw new InviteUnusableError('INVITE_NOT_FOUND');
  return { link: found.link, team };
}

/**
 * `GET /api/invites/{token}` (public): the team's name and whether the link can still be used — nothing about its
 * members.
 *
 * @throws {InviteUnusableError} `INVITE_NOT_FOUND`
 */
export async function previewInvite(
  token: string,
  ports: PreviewInvitePorts = adapters,
): Promise<InvitePreview> {
  const { link, team } = await invite(token, ports);
  return {
    teamName: team.name,
    status: inviteLinkStatus(link, ports.now().getTime()),
    requiredDomains: link.domainsOnly ? team.allowedDomains : [],
    personal: link.email !== undefined,
  };
}
