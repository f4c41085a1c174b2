import { endMembership, handOver, setRole } from '../adapters/teams/changes';
import type { TeamMember } from '../contracts/teams';
import { TeamMemberNotFoundError } from '../domain/team-errors';
import { assertMayRemove, assertMaySetRole, authorize, type TeamRole } from '../domain/teams';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { memberView } from './team-view';

/**
 * A team's members (docs/teams.md "Roles", "Members: lifecycle"): the owner sets roles and hands the team over; the
 * owner and admins remove members; anyone but the owner leaves.
 */

/** What these use cases need. */
export interface TeamMembersPorts extends TeamAccessPorts {
  setRole: typeof setRole;
  handOver: typeof handOver;
  endMembership: typeof endMembership;
  now: () => Date;
}

const adapters: TeamMembersPorts = {
  ...teamAccessAdapters,
  setRole,
  handOver,
  endMembership,
  now: () => new Date(),
};

/** The target, a current member of the team, or 404 `TEAM_MEMBER_NOT_FOUND`. */
async function currentMember(teamId: string, sub: string, ports: TeamAccessPorts) {
  const target = await ports.getMember(teamId, sub);
  if (target?.membership !== 'joined') throw new TeamMemberNotFoundError();
  return target;
}

/**
 * `PUT /api/teams/{teamId}/members/{sub}` `{role}` (owner only): makes a member an admin or a member, or (`owner`)
 * hands the team over — the caller becomes an admin.
 *
 * @returns the target as they are now
 * @throws {TeamNotFoundError} non-member; {TeamForbiddenError} not the owner; {TeamMemberNotFoundError} no such
 *   member; {TeamOwnerCannotLeaveError} the target is the owner (themself)
 */
export async function setMemberRole(
  teamId: string,
  sub: string,
  targetSub: string,
  role: TeamRole,
  ports: TeamMembersPorts = adapters,
): Promise<TeamMember> {
  const { member: actor } = await teamAccess(teamId, sub, 'set-role', ports);
  const target = await currentMember(teamId, targetSub, ports);
  assertMaySetRole(actor, target);
  if (role === 'owner') await ports.handOver(teamId, actor.sub, target.sub);
  else if (role !== target.role) await ports.setRole(teamId, target.sub, role);
  return memberView({ ...target, role });
}

/**
 * `DELETE /api/teams/{teamId}/members/{sub}`: removes a member (owner/admin; an admin only members), or, for the
 * caller's own `sub`, leaves. The member item is kept with its counters; their shared headshots leave the team.
 *
 * @throws {TeamNotFoundError} non-member; {TeamForbiddenError} role too low; {TeamMemberNotFoundError} no such
 *   member; {TeamOwnerCannotLeaveError} the target is the owner
 */
export async function removeMember(
  teamId: string,
  sub: string,
  targetSub: string,
  ports: TeamMembersPorts = adapters,
): Promise<void> {
  const { member: actor } = await teamAccess(teamId, sub, 'leave', ports);
  // A plain member learns nothing of others: refused before the target is read.
  if (targetSub !== sub) authorize(actor.role, 'remove-member');
  const target = targetSub === sub ? actor : await currentMember(teamId, targetSub, ports);
  assertMayRemove(actor, target);
  await ports.endMembership(
    teamId,
    target.sub,
    target.role,
    target === actor ? 'left' : 'removed',
    ports.now().toISOString(),
  );
}
