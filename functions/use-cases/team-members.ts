import { handOver, setRole } from '../adapters/teams/changes';
import type { TeamMember } from '../contracts/teams';
import { TeamMemberNotFoundError } from '../domain/team-errors';
import { assertMaySetRole, type TeamRole } from '../domain/teams';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { memberView } from './team-view';

/**
 * A team's roles (docs/teams.md "Roles"): the owner sets them and hands the team over (removal and leaving:
 * use-cases/remove-team-member.ts).
 */

/** What these use cases need. */
export interface TeamMembersPorts extends TeamAccessPorts {
  setRole: typeof setRole;
  handOver: typeof handOver;
}

const adapters: TeamMembersPorts = {
  ...teamAccessAdapters,
  setRole,
  handOver,
};

/**
 * The target, a current member of the team.
 *
 * @throws {TeamMemberNotFoundError} when they are not (or no longer) in it
 */
export async function currentMember(teamId: string, sub: string, ports: TeamAccessPorts) {
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
