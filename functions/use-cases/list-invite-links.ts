import { listInviteLinks as readLinks } from '../adapters/teams/invites';
import type { InviteLinkView } from '../contracts/teams';
import { inviteLinkStatus, type InviteLink } from '../domain/team-invites';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';

/** Listing a team's invitation links (docs/teams.md "Invitations"): only reads. */

/** What listing needs. */
export interface ListInviteLinksPorts extends TeamAccessPorts {
  readLinks: typeof readLinks;
  now: () => Date;
}

const adapters: ListInviteLinksPorts = { ...teamAccessAdapters, readLinks, now: () => new Date() };

/** A link as the admins see it at `nowMs`. */
export function linkView(link: InviteLink, nowMs: number): InviteLinkView {
  return {
    linkId: link.linkId,
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    cap: link.cap,
    uses: link.uses,
    domainsOnly: link.domainsOnly,
    status: inviteLinkStatus(link, nowMs),
  };
}

/**
 * `GET /api/teams/{teamId}/invite-links` (owner/admin): the team's links (not the personal links of e-mail
 * invitations), newest first.
 */
export async function listInviteLinks(
  teamId: string,
  sub: string,
  ports: ListInviteLinksPorts = adapters,
): Promise<{ items: InviteLinkView[] }> {
  await teamAccess(teamId, sub, 'manage-invites', ports);
  const nowMs = ports.now().getTime();
  const links = (await ports.readLinks(teamId)).filter((l) => l.email === undefined);
  return {
    items: links.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((l) => linkView(l, nowMs)),
  };
}
