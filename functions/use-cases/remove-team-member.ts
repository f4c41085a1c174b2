import { deleteSharedOf, endMembership } from '../adapters/teams/changes';
import { TeamMemberNotFoundError } from '../domain/team-errors';
import { assertMayRemove, authorize } from '../domain/teams';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';

/**
 * Leaving and removal (docs/teams.md "Roles", "Members: lifecycle"): the owner and admins remove members, an admin
 * only members; anyone but the owner leaves.
 */

/** What removal needs. */
export interface RemoveMemberPorts extends TeamAccessPorts {
  endMembership: typeof endMembership;
  deleteSharedOf: typeof deleteSharedOf;
  now: () => Date;
}

const adapters: RemoveMemberPorts = {
  ...teamAccessAdapters,
  endMembership,
  deleteSharedOf,
  now: () => new Date(),
};

/**
 * `DELETE /api/teams/{teamId}/members/{sub}`: removes a member (owner/admin; an admin only members), or, for the
 * caller's own `sub`, leaves. The member item is kept with its counters; their shared headshots leave the team.
 * Removing someone already gone answers 404 but first finishes taking their shares out (a removal that stopped
 * after its transaction: adapters/teams/changes.ts `endMembership`), so a repeated removal leaves nothing behind.
 *
 * @throws {TeamNotFoundError} non-member; {TeamForbiddenError} role too low; {TeamMemberNotFoundError} no such
 *   member; {TeamOwnerCannotLeaveError} the target is the owner
 */
export async function removeMember(
  teamId: string,
  sub: string,
  targetSub: string,
  ports: RemoveMemberPorts = adapters,
): Promise<void> {
  const { member: actor } = await teamAccess(teamId, sub, 'leave', ports);
  // A plain member learns nothing of others: refused before the target is read.
  if (targetSub !== sub) authorize(actor.role, 'remove-member');
  const target = targetSub === sub ? actor : await ports.getMember(teamId, targetSub);
  if (target?.membership !== 'joined') {
    if (target) await ports.deleteSharedOf(teamId, targetSub);
    throw new TeamMemberNotFoundError();
  }
  assertMayRemove(actor, target);
  await ports.endMembership(
    teamId,
    target.sub,
    target.role,
    target === actor ? 'left' : 'removed',
    ports.now().toISOString(),
  );
}
