import { getGeneration } from '../adapters/generations';
import { getHeadshot, type HeadshotRecord } from '../adapters/headshots/records';
import { listHeadshotVersions } from '../adapters/headshots/versions';
import { getShare, putShare, ShareRefusedError } from '../adapters/teams/shares';
import type { TeamHeadshot } from '../contracts/teams';
import { isUlid } from '../domain/object-keys';
import { DEFAULT_OUTFIT } from '../domain/outfits';
import { TeamNotFoundError } from '../domain/team-errors';
import type { GenerationPayer } from '../domain/team-seats';
import { assertTeamHeadshot, isCurrentShare, type SharedHeadshot } from '../domain/team-shares';
import { headshotNotFound } from './headshot-view';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { teamHeadshotView, teamHeadshotViewAdapters, type TeamHeadshotViewPorts } from './team-headshot-view';

/**
 * Sharing with a team (issue 37 §5, docs/teams.md "Sharing and the team gallery"): a member shares their own team
 * headshots, one by one (taking one back: ./unshare-team-headshot.ts). The team sees only what is shared; the
 * member's gallery stays theirs.
 */

/** What sharing needs: the team and the caller, the caller's headshot and its versions, who paid, the share. */
export interface ShareHeadshotPorts extends TeamAccessPorts, TeamHeadshotViewPorts {
  getHeadshot: typeof getHeadshot;
  listHeadshotVersions: typeof listHeadshotVersions;
  /** The `payer` of one of the caller's generations (docs/teams.md "Money"), `undefined` for the caller's own. */
  generationPayer: (sub: string, generationId: string) => Promise<GenerationPayer | undefined>;
  getShare: typeof getShare;
  putShare: typeof putShare;
  now: () => Date;
}

const shareAdapters: ShareHeadshotPorts = {
  ...teamAccessAdapters,
  ...teamHeadshotViewAdapters,
  getHeadshot,
  listHeadshotVersions,
  generationPayer: async (sub, generationId) => (await getGeneration(sub, generationId))?.payer,
  getShare,
  putShare,
  now: () => new Date(),
};

/** Tries of a share that lost a race with another write of the same share. */
const ATTEMPTS = 5;

type SharedPicture = Omit<SharedHeadshot, 'teamId' | 'sub' | 'headshotId' | 'sharedAt'>;

/** What the team's item copies of the headshot, and of the version shared (its files and place) when there is one. */
async function pictureOf(
  sub: string,
  headshot: HeadshotRecord,
  versionId: string | undefined,
  ports: Pick<ShareHeadshotPorts, 'listHeadshotVersions'>,
): Promise<SharedPicture> {
  const look = {
    style: headshot.style,
    background: headshot.background,
    outfit: headshot.outfit ?? DEFAULT_OUTFIT,
    slot: headshot.slot,
  };
  const files = (f: Pick<HeadshotRecord, 'imageKey' | 'thumbnailKey' | 'variants'>) => ({
    imageKey: f.imageKey,
    thumbnailKey: f.thumbnailKey,
    ...(f.variants === undefined ? {} : { variants: f.variants }),
  });
  if (versionId === undefined) return { ...look, ...files(headshot), transparent: false };
  const versions = await ports.listHeadshotVersions(sub, headshot.id);
  const k = versions.findIndex((v) => v.id === versionId) + 1;
  const version = versions[k - 1];
  if (!version) throw headshotNotFound();
  return { ...look, ...files(version), versionId, versionNumber: k, transparent: version.transparent };
}

/**
 * `PUT /api/teams/{teamId}/shared/{headshotId}` `{versionId?}`: shares one of the caller's own team headshots (made
 * with this team's seats) with the team — its own files, or one of its versions. Idempotent: sharing what is
 * shared answers it again; sharing another version of it replaces the one shared. The first share makes the
 * member `shared` (`sharedCount` + 1, in the share's transaction).
 *
 * @throws {TeamNotFoundError} non-member (also one removed meanwhile)
 * @throws {ItemNotFoundError} 'Headshot not found.' for an id (or version) that is not the caller's: another
 *   person's headshot is never read
 * @throws {NotATeamHeadshotError} the caller's headshot, but not one this team paid for
 */
export async function shareHeadshot(
  teamId: string,
  sub: string,
  headshotId: string,
  versionId: string | undefined,
  ports: ShareHeadshotPorts = shareAdapters,
): Promise<TeamHeadshot> {
  const { team, member } = await teamAccess(teamId, sub, 'share', ports);
  const headshot = isUlid(headshotId) ? await ports.getHeadshot(sub, headshotId) : undefined;
  if (!headshot) throw headshotNotFound();
  assertTeamHeadshot(await ports.generationPayer(sub, headshot.generationId), team);
  const picture = await pictureOf(sub, headshot, versionId, ports);
  for (let attempt = 1; ; attempt++) {
    const existing = await ports.getShare(teamId, sub, headshotId);
    const current = existing !== undefined && isCurrentShare(existing, member);
    if (current && existing.versionId === versionId) return teamHeadshotView(existing, member.email, ports);
    // Never before the join: a share older than it would be a removal's leftover (domain/team-shares.ts).
    const now = ports.now().toISOString();
    const share: SharedHeadshot = {
      teamId,
      sub,
      headshotId,
      ...picture,
      sharedAt: now > member.joinedAt ? now : member.joinedAt,
    };
    try {
      await ports.putShare(share, {
        joinedAt: member.joinedAt,
        replaces: existing?.sharedAt,
        count: !current,
      });
      return teamHeadshotView(share, member.email, ports);
    } catch (error) {
      if (!(error instanceof ShareRefusedError)) throw error;
      if (error.refusal === 'member') throw new TeamNotFoundError();
      if (error.refusal === 'file') throw headshotNotFound();
      if (attempt >= ATTEMPTS) throw error;
    }
  }
}
