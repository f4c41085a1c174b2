import { readSharedPage } from '../adapters/teams/gallery';
import { listMembers, type MemberRecord } from '../adapters/teams/records';
import type { TeamHeadshotsPage } from '../contracts/teams';
import { TeamForbiddenError } from '../domain/team-errors';
import { isCurrentShare } from '../domain/team-shares';
import { may } from '../domain/teams';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { teamHeadshotView, teamHeadshotViewAdapters, type TeamHeadshotViewPorts } from './team-headshot-view';

/**
 * The team gallery (issue 37 §6, docs/teams.md "Sharing and the team gallery"): the headshots the team's current
 * members shared, with who shared each and short-lived links to its files, from which the browser builds the team's
 * ZIP. Only reads: the route's function is granted no write (functions/catalogue.ts).
 */

/** What the gallery needs: the team and the caller, its members (for their e-mails), its shares, the URL signer. */
export interface TeamGalleryPorts extends TeamAccessPorts, TeamHeadshotViewPorts {
  listMembers: typeof listMembers;
  readSharedPage: typeof readSharedPage;
}

const adapters: TeamGalleryPorts = {
  ...teamAccessAdapters,
  ...teamHeadshotViewAdapters,
  listMembers,
  readSharedPage,
};

/**
 * `GET /api/teams/{teamId}/headshots?cursor=&member=`: one page of the team gallery. The owner and admins see every
 * current member's shares (or one member's: `member`); a plain member sees only their own. Never an unshared
 * headshot, and never the shares of someone who left or was removed (domain/team-shares.ts `isCurrentShare`).
 *
 * @param query.cursor a page's `nextCursor`; `query.member` a member's `sub`
 * @throws {TeamNotFoundError} non-member
 * @throws {TeamForbiddenError} a plain member asking for someone else's shares
 * @throws {InvalidCursorError} for a cursor that was altered, another team's or another member's
 */
export async function listTeamHeadshots(
  teamId: string,
  sub: string,
  query: { cursor?: string | undefined; member?: string | undefined },
  ports: TeamGalleryPorts = adapters,
): Promise<TeamHeadshotsPage> {
  const { member: caller } = await teamAccess(teamId, sub, 'share', ports);
  const admin = may(caller.role, 'view-gallery');
  if (!admin && query.member !== undefined && query.member !== sub) throw new TeamForbiddenError('admin');
  const members: MemberRecord[] = admin ? await ports.listMembers(teamId) : [caller];
  const bySub = new Map(members.map((m) => [m.sub, m]));
  const page = await ports.readSharedPage(
    teamId,
    { member: admin ? query.member : sub, cursor: query.cursor },
    (share) => isCurrentShare(share, bySub.get(share.sub)),
  );
  return {
    items: await Promise.all(
      page.items.map((share) => teamHeadshotView(share, bySub.get(share.sub)!.email, ports)),
    ),
    nextCursor: page.nextCursor,
  };
}
