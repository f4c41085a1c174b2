import { isUlid } from '../domain/object-keys';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { removeShare, withdrawSharesAdapters, type WithdrawSharesPorts } from './withdraw-shares';

/**
 * Taking a headshot back from a team (issue 37 §5, docs/teams.md "Sharing and the team gallery"); sharing is
 * ./team-shares.ts. It reuses the deletions' removal of a share (./withdraw-shares.ts), counter and all.
 */

/** What unsharing needs. */
export interface UnshareHeadshotPorts extends TeamAccessPorts, WithdrawSharesPorts {}

const unshareAdapters: UnshareHeadshotPorts = { ...teamAccessAdapters, ...withdrawSharesAdapters };

/**
 * `DELETE /api/teams/{teamId}/shared/{headshotId}`: takes one of the caller's headshots out of the team's gallery;
 * it stays theirs. Idempotent (nothing shared: nothing to do). The last one may go too: the member is then no longer
 * `shared` (docs/teams.md "Sharing and the team gallery": sharing is the member's choice, and so is taking it back).
 *
 * @throws {TeamNotFoundError} non-member
 */
export async function unshareHeadshot(
  teamId: string,
  sub: string,
  headshotId: string,
  ports: UnshareHeadshotPorts = unshareAdapters,
): Promise<void> {
  await teamAccess(teamId, sub, 'share', ports);
  if (isUlid(headshotId)) await removeShare(teamId, sub, headshotId, {}, ports);
}
