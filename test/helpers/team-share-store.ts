import type { MemberRecord } from '../../functions/adapters/teams/records';
import { ShareRefusedError, type OwnShare } from '../../functions/adapters/teams/shares';
import type { SharedPage } from '../../functions/adapters/teams/gallery';
import { encodeCursor } from '../../functions/domain/gallery';
import {
  decodeSharedCursor,
  TEAM_GALLERY_PAGE_SIZE,
  type SharedHeadshot,
} from '../../functions/domain/team-shares';

/**
 * An in-memory stand-in for the share adapters (functions/adapters/teams/shares.ts, gallery.ts) with the conditions
 * their transactions hold — the share read, the member still `joined` since the join read, the headshot or version
 * still there — for the use cases' unit tests. `files` holds the headshots (`<sub>/<headshotId>`) and versions
 * (`<sub>/<headshotId>/<versionId>`) that exist; part of test/helpers/team-store.ts.
 */
export function shareStore(
  shared: Map<string, SharedHeadshot>,
  memberOf: (teamId: string, sub: string) => MemberRecord | undefined,
) {
  /** The members' own records of their shares, keyed `<sub>/<headshotId>/<teamId>`. */
  const ownShares = new Map<string, OwnShare & { sub: string }>();
  const files = new Set<string>();
  const teamKey = (s: Pick<SharedHeadshot, 'teamId' | 'sub' | 'headshotId'>) =>
    `${s.teamId}/${s.sub}/${s.headshotId}`;
  const ownKey = (s: Pick<SharedHeadshot, 'teamId' | 'sub' | 'headshotId'>) =>
    `${s.sub}/${s.headshotId}/${s.teamId}`;
  const sk = (s: SharedHeadshot) => `SHARED#${s.sub}#${s.headshotId}`;

  return {
    ownShares,
    files,
    getShare: async (teamId: string, sub: string, headshotId: string) =>
      structuredClone(shared.get(teamKey({ teamId, sub, headshotId }))),
    putShare: async (
      share: SharedHeadshot,
      options: { joinedAt: string; replaces: string | undefined; count: boolean },
    ) => {
      const current = shared.get(teamKey(share));
      if (options.replaces === undefined ? current : current?.sharedAt !== options.replaces) {
        throw new ShareRefusedError('share');
      }
      const member = memberOf(share.teamId, share.sub);
      if (member?.membership !== 'joined' || member.joinedAt !== options.joinedAt) {
        throw new ShareRefusedError('member');
      }
      const file = `${share.sub}/${share.headshotId}`;
      if (!files.has(file) || (share.versionId && !files.has(`${file}/${share.versionId}`))) {
        throw new ShareRefusedError('file');
      }
      shared.set(teamKey(share), structuredClone(share));
      ownShares.set(ownKey(share), {
        sub: share.sub,
        teamId: share.teamId,
        headshotId: share.headshotId,
        ...(share.versionId === undefined ? {} : { versionId: share.versionId }),
        sharedAt: share.sharedAt,
      });
      if (options.count) member.sharedCount += 1;
    },
    deleteShare: async (
      share: Pick<SharedHeadshot, 'teamId' | 'sub' | 'headshotId' | 'sharedAt'>,
      count?: { joinedAt: string },
    ) => {
      if (shared.get(teamKey(share))?.sharedAt !== share.sharedAt) throw new ShareRefusedError('share');
      const member = memberOf(share.teamId, share.sub);
      if (
        count &&
        (member?.membership !== 'joined' || member.joinedAt !== count.joinedAt || member.sharedCount <= 0)
      ) {
        throw new ShareRefusedError('member');
      }
      shared.delete(teamKey(share));
      ownShares.delete(ownKey(share));
      if (count) member!.sharedCount -= 1;
    },
    listOwnShares: async (sub: string, headshotId?: string): Promise<OwnShare[]> =>
      [...ownShares.values()]
        .filter((own) => own.sub === sub && (headshotId === undefined || own.headshotId === headshotId))
        .map(({ sub: _sub, ...own }) => own),
    deleteOwnShare: async (sub: string, own: OwnShare) => {
      if (ownShares.get(ownKey({ ...own, sub }))?.sharedAt === own.sharedAt)
        ownShares.delete(ownKey({ ...own, sub }));
    },
    deleteSharedOf: async (teamId: string, sub: string) => {
      for (const share of [...shared.values()]) {
        if (share.teamId !== teamId || share.sub !== sub) continue;
        shared.delete(teamKey(share));
        ownShares.delete(ownKey(share));
      }
    },
    readSharedPage: async (
      teamId: string,
      query: { member?: string | undefined; cursor?: string | undefined },
      keep: (share: SharedHeadshot) => boolean,
    ): Promise<SharedPage> => {
      const pk = `TEAM#${teamId}`;
      const skPrefix = query.member === undefined ? 'SHARED#' : `SHARED#${query.member}#`;
      const after = query.cursor ? decodeSharedCursor(query.cursor, { pk, skPrefix }).SK : undefined;
      const kept = [...shared.values()]
        .filter((s) => s.teamId === teamId && sk(s).startsWith(skPrefix))
        .sort((a, b) => (sk(a) < sk(b) ? 1 : -1))
        .filter((s) => (after === undefined || sk(s) < after) && keep(s));
      const items = kept.slice(0, TEAM_GALLERY_PAGE_SIZE);
      const more = kept.length > TEAM_GALLERY_PAGE_SIZE;
      return {
        items: structuredClone(items),
        nextCursor: more ? encodeCursor({ PK: pk, SK: sk(items.at(-1)!) }) : null,
      };
    },
  };
}
