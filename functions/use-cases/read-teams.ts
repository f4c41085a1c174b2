import { listInvitations } from '../adapters/teams/invites';
import { listMembers, listMyTeams, type MemberRecord, type TeamRecord } from '../adapters/teams/records';
import type { Team, Teams } from '../contracts/teams';
import { may } from '../domain/teams';
import { teamAccess, teamAccessAdapters, type TeamAccessPorts } from './team-access';
import { teamView } from './team-view';

/**
 * Reading teams (docs/teams.md "Routes"): the caller's teams and one team as the caller may see it. Only reads: the
 * read routes' functions are granted no write (functions/catalogue.ts).
 */

/** What reading needs. */
export interface ReadTeamsPorts extends TeamAccessPorts {
  listMembers: typeof listMembers;
  listInvitations: typeof listInvitations;
  listMyTeams: typeof listMyTeams;
  now: () => Date;
}

export const readTeamsAdapters: ReadTeamsPorts = {
  ...teamAccessAdapters,
  listMembers,
  listInvitations,
  listMyTeams,
  now: () => new Date(),
};

/** `GET /api/teams`: the caller's current teams, oldest joined first. */
export async function listTeams(
  sub: string,
  ports: Pick<ReadTeamsPorts, 'listMyTeams'> = readTeamsAdapters,
): Promise<Teams> {
  const mine = await ports.listMyTeams(sub);
  return {
    items: mine
      .map(({ team, member }) => ({
        teamId: team.teamId,
        name: team.name,
        role: member.role,
        joinedAt: member.joinedAt,
      }))
      .sort((a, b) => a.joinedAt.localeCompare(b.joinedAt)),
  };
}

/**
 * `GET /api/teams/{teamId}`: the team as the caller may see it.
 *
 * @throws {TeamNotFoundError} for a non-member
 */
export async function getTeam(
  teamId: string,
  sub: string,
  ports: ReadTeamsPorts = readTeamsAdapters,
): Promise<Team> {
  const { team, member } = await teamAccess(teamId, sub, 'view-team', ports);
  return viewFor(team, member, ports);
}

/** The view of `team` for `member`: the running part read only for the owner and admins. */
export async function viewFor(team: TeamRecord, member: MemberRecord, ports: ReadTeamsPorts): Promise<Team> {
  const running = may(member.role, 'view-members')
    ? await Promise.all([ports.listMembers(team.teamId), ports.listInvitations(team.teamId)]).then(
        ([members, invitations]) => ({ members, invitations }),
      )
    : null;
  return teamView(team, member, running, ports.now().getTime());
}
