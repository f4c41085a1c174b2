import { getMember } from '../adapters/teams/records';
import {
  deleteOwnShare,
  deleteShare,
  getShare,
  listOwnShares,
  ShareRefusedError,
  type OwnShare,
} from '../adapters/teams/shares';
import { isCurrentShare } from '../domain/team-shares';

/**
 * Taking a member's headshots out of teams (docs/teams.md "Sharing and the team gallery"): unsharing one, and what
 * every deletion of the member's own files does first — deleting a headshot or a version, "Delete my data",
 * deleting the account, the end of retention — so a team never links to a deleted file.
 */

/** What taking shares out needs: the member's records of their shares, the shares, their member items. */
export interface WithdrawSharesPorts {
  listOwnShares: typeof listOwnShares;
  getShare: typeof getShare;
  getMember: typeof getMember;
  deleteShare: typeof deleteShare;
  deleteOwnShare: typeof deleteOwnShare;
}

export const withdrawSharesAdapters: WithdrawSharesPorts = {
  listOwnShares,
  getShare,
  getMember,
  deleteShare,
  deleteOwnShare,
};

/** Tries of a removal that lost a race with another write of the same share. */
const ATTEMPTS = 5;

/**
 * Removes `sub`'s share of `headshotId` from the team, with `sharedCount − 1` on their member item when it counted
 * (they are in the team and shared it since they joined: domain/team-shares.ts `isCurrentShare`). With `versionId`,
 * only a share of that version (issue 36) goes; a share of the headshot's own files or another version stays.
 * Idempotent. `own` is the member's record of the share when it was read (a deletion's): when the team's item is
 * gone already, that record goes too.
 *
 * @returns whether a share was removed
 * @throws {ShareRefusedError} after {@link ATTEMPTS} races lost in a row
 */
export async function removeShare(
  teamId: string,
  sub: string,
  headshotId: string,
  options: { versionId?: string | undefined; own?: OwnShare | undefined },
  ports: WithdrawSharesPorts = withdrawSharesAdapters,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const share = await ports.getShare(teamId, sub, headshotId);
    if (!share) {
      // The team's item went with a removal that stopped before the member's own record of it.
      if (options.own) await ports.deleteOwnShare(sub, options.own);
      return false;
    }
    if (options.versionId !== undefined && share.versionId !== options.versionId) return false;
    const member = await ports.getMember(teamId, sub);
    const count = member && isCurrentShare(share, member) ? { joinedAt: member.joinedAt } : undefined;
    try {
      await ports.deleteShare(share, count);
      return true;
    } catch (error) {
      if (!(error instanceof ShareRefusedError) || attempt >= ATTEMPTS) throw error;
    }
  }
}

/**
 * Takes `sub`'s headshots out of every team that holds them (teams they are in and teams they have left): one
 * headshot's shares (`which.headshotId`), only those of one of its versions (`which.versionId` too), or all of
 * them (`which` omitted). Call it before deleting the files, and again once the headshot (or version) item is gone:
 * a share needs that item (adapters/teams/shares.ts `putShare`), so none can be made after.
 *
 * @returns how many shares were removed
 */
export async function withdrawShares(
  sub: string,
  which: { headshotId: string; versionId?: string | undefined } | undefined = undefined,
  ports: WithdrawSharesPorts = withdrawSharesAdapters,
): Promise<number> {
  let removed = 0;
  for (const own of await ports.listOwnShares(sub, which?.headshotId)) {
    const options = { versionId: which?.versionId, own };
    if (await removeShare(own.teamId, sub, own.headshotId, options, ports)) removed++;
  }
  return removed;
}
