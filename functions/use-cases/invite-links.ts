import { ulid } from 'ulid';
import {
  listInviteLinks as readLinks,
  putInviteLink,
  revokeInviteLink as storeRevoke,
} from '../adapters/teams/invites';
import { siteSettings } from '../config/site';
import type { CreatedInviteLink, CreateInviteLinkBody } from '../contracts/teams';
import { TeamNoDomainsError, TooManyInviteLinksError } from '../domain/team-errors';
import { inviteTokenHash, newInviteToken } from '../domain/team-invite-tokens';
import {
  INVITE_LINK_CAP,
  INVITE_LINK_DAYS,
  MAX_OPEN_INVITE_LINKS,
  inviteLinkStatus,
  type InviteLink,
} from '../domain/team-invites';
import { linkView } from './list-invite-links';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';

/**
 * A team's invitation links (docs/teams.md "Invitations"): created by the owner or an admin with an expiry, a cap and
 * optionally the team's domains only; the token is answered once in the URL and never stored.
 */

/** What these use cases need. */
export interface InviteLinksPorts extends TeamAccessPorts {
  putInviteLink: typeof putInviteLink;
  readLinks: typeof readLinks;
  storeRevoke: typeof storeRevoke;
  newToken: () => string;
  newId: () => string;
  now: () => Date;
  /** The SPA's join page for a token: `<SITE_ORIGIN>/join/<token>`. */
  joinUrl: (token: string) => string;
}

/** `<SITE_ORIGIN>/join/<token>`: the SPA's join page. */
export function joinUrl(token: string): string {
  return new URL(`/join/${token}`, siteSettings().SITE_ORIGIN).toString();
}

const adapters: InviteLinksPorts = {
  ...teamAccessAdapters,
  putInviteLink,
  readLinks,
  storeRevoke,
  newToken: newInviteToken,
  newId: ulid,
  now: () => new Date(),
  joinUrl,
};

const DAY_MS = 86_400_000;

/**
 * `POST /api/teams/{teamId}/invite-links` (owner/admin): a new link, its URL answered this once.
 *
 * @throws {TeamNotFoundError} non-member; {TeamForbiddenError} a member
 * @throws {TeamNoDomainsError} `domainsOnly` for a team without allowed domains
 * @throws {TooManyInviteLinksError} the team has {@link MAX_OPEN_INVITE_LINKS} open links
 */
export async function createInviteLink(
  teamId: string,
  sub: string,
  body: CreateInviteLinkBody,
  ports: InviteLinksPorts = adapters,
): Promise<CreatedInviteLink> {
  const { team } = await teamAccess(teamId, sub, 'manage-invites', ports);
  const domainsOnly = body.domainsOnly ?? false;
  if (domainsOnly && team.allowedDomains.length === 0) throw new TeamNoDomainsError();
  const now = ports.now();
  const open = (await ports.readLinks(teamId)).filter(
    (l) => l.email === undefined && inviteLinkStatus(l, now.getTime()) === 'valid',
  );
  if (open.length >= MAX_OPEN_INVITE_LINKS) throw new TooManyInviteLinksError(MAX_OPEN_INVITE_LINKS);
  const link: InviteLink = {
    linkId: ports.newId(),
    createdAt: now.toISOString(),
    expiresAt: new Date(
      now.getTime() + (body.expiresInDays ?? INVITE_LINK_DAYS.default) * DAY_MS,
    ).toISOString(),
    cap: body.cap ?? INVITE_LINK_CAP.default,
    uses: 0,
    domainsOnly,
  };
  const token = ports.newToken();
  await ports.putInviteLink(teamId, link, inviteTokenHash(token), sub);
  return { link: linkView(link, now.getTime()), url: ports.joinUrl(token) };
}

/**
 * `DELETE /api/teams/{teamId}/invite-links/{linkId}` (owner/admin): turns a link off; again is a no-op.
 *
 * @throws {ItemNotFoundError} the team has no such link
 */
export async function revokeInviteLink(
  teamId: string,
  sub: string,
  linkId: string,
  ports: InviteLinksPorts = adapters,
): Promise<void> {
  await teamAccess(teamId, sub, 'manage-invites', ports);
  await ports.storeRevoke(teamId, linkId, ports.now().toISOString());
}
