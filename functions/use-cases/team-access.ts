import { getMember, getTeam, type MemberRecord, type TeamRecord } from '../adapters/teams/records';
import { TeamNotFoundError } from '../domain/team-errors';
import { authorize, type TeamAction } from '../domain/teams';

/**
 * The first step of every team route (docs/teams.md "Roles"): the team and the caller's member item, read strongly
 * consistent. A caller who is not a current member gets `TeamNotFoundError` (404) whatever the route, so a team's
 * existence is never revealed; a member whose role may not do `action` gets `TeamForbiddenError` (403).
 */

/** What the check reads. */
export interface TeamAccessPorts {
  getTeam: typeof getTeam;
  getMember: typeof getMember;
}

export const teamAccessAdapters: TeamAccessPorts = { getTeam, getMember };

/** A current member and their team. */
export interface TeamAccess {
  team: TeamRecord;
  member: MemberRecord;
}

/**
 * The team and the caller's membership, authorized for `action`.
 *
 * @throws {TeamNotFoundError} no such team, or the caller is not a current member of it
 * @throws {TeamForbiddenError} the caller's role may not do `action`
 */
export async function teamAccess(
  teamId: string,
  sub: string,
  action: TeamAction,
  ports: TeamAccessPorts = teamAccessAdapters,
): Promise<TeamAccess> {
  const [team, member] = await Promise.all([ports.getTeam(teamId), ports.getMember(teamId, sub)]);
  if (!team || member?.membership !== 'joined') throw new TeamNotFoundError();
  authorize(member.role, action);
  return { team, member };
}
