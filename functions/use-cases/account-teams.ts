import { closeOwnTeam } from '../adapters/teams/closing';
import { endMembership } from '../adapters/teams/changes';
import { listInviteLinks, revokeInviteLink } from '../adapters/teams/invites';
import { listMembers, listMyTeams } from '../adapters/teams/records';
import { assertMayDeleteAccount, departureOf, type TeamOfDeletedAccount } from '../domain/team-departures';
import { TeamMemberNotFoundError } from '../domain/team-errors';

/**
 * An account's teams when it is deleted (docs/teams.md "Privacy and retention"): refused while the person owns a team
 * others are in; otherwise they leave every team (their shares leave with them, their address is dropped from it),
 * and a team they own alone is closed: its links turned off, so nobody joins a team nobody can run.
 */

/** What the account's teams need. */
export interface AccountTeamsPorts {
  listMyTeams: typeof listMyTeams;
  listMembers: typeof listMembers;
  endMembership: typeof endMembership;
  listInviteLinks: typeof listInviteLinks;
  revokeInviteLink: typeof revokeInviteLink;
  closeOwnTeam: typeof closeOwnTeam;
}

export const accountTeamsAdapters: AccountTeamsPorts = {
  listMyTeams,
  listMembers,
  endMembership,
  listInviteLinks,
  revokeInviteLink,
  closeOwnTeam,
};

/** The person's current teams, each with their role and how many others are in it. */
async function teamsOf(sub: string, ports: AccountTeamsPorts): Promise<TeamOfDeletedAccount[]> {
  const mine = await ports.listMyTeams(sub);
  return Promise.all(
    mine.map(async ({ team, member }) => ({
      teamId: team.teamId,
      name: team.name,
      role: member.role,
      otherMembers:
        member.role === 'owner'
          ? (await ports.listMembers(team.teamId)).filter((m) => m.membership === 'joined' && m.sub !== sub)
              .length
          : 0,
    })),
  );
}

/**
 * Refuses to delete the account of the owner of a team others are in (before anything is deleted).
 *
 * @throws {TeamOwnerCannotDeleteAccountError} naming the team to hand over
 */
export async function assertAccountMayLeaveTeams(
  sub: string,
  ports: AccountTeamsPorts = accountTeamsAdapters,
): Promise<void> {
  assertMayDeleteAccount(await teamsOf(sub, ports));
}

/**
 * Ends every membership of `sub`: a member or admin leaves (as `DELETE …/members/{sub}` does); the owner, alone by
 * {@link assertAccountMayLeaveTeams}, closes the team after turning off its links. Idempotent: a retry finds only
 * the teams still left.
 *
 * @param now ISO 8601
 */
export async function leaveAllTeams(
  sub: string,
  now: string,
  ports: AccountTeamsPorts = accountTeamsAdapters,
): Promise<void> {
  for (const { team, member } of await ports.listMyTeams(sub)) {
    if (departureOf(member.role) === 'close') {
      for (const link of await ports.listInviteLinks(team.teamId)) {
        if (link.revokedAt === undefined) await ports.revokeInviteLink(team.teamId, link.linkId, now);
      }
      await ports.closeOwnTeam(team.teamId, sub, now);
      continue;
    }
    try {
      await ports.endMembership(team.teamId, sub, member.role, 'left', now);
    } catch (error) {
      // Removed, or their role changed, since it was read: read again on the retry, as the table says now.
      if (!(error instanceof TeamMemberNotFoundError)) throw error;
      const again = (await ports.listMyTeams(sub)).find((t) => t.team.teamId === team.teamId);
      if (again) await ports.endMembership(team.teamId, sub, again.member.role, 'left', now);
    }
  }
}
