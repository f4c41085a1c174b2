import { TeamError, teamMessage } from './team-errors';
import type { TeamRole } from './teams';

/**
 * What deleting an account does to the person's teams (docs/teams.md "Privacy and retention"): a member or admin
 * leaves each; an owner must first hand over a team that has other members, and the owner alone in a team closes it
 * (their membership ends and its links are turned off: nobody can run it or join it any more). Pure: no I/O.
 */

/** One of the person's current teams, as account deletion weighs it. */
export interface TeamOfDeletedAccount {
  teamId: string;
  name: string;
  role: TeamRole;
  /** Current members other than the person. */
  otherMembers: number;
}

/**
 * Refuses to delete the account of someone who owns a team that has other members: the team would be left without
 * anyone allowed to run it, buy seats or remove people. Handing it over (`PUT /api/teams/{teamId}/members/{sub}`
 * `{role: 'owner'}`) first keeps it theirs.
 *
 * @throws {TeamOwnerCannotDeleteAccountError} naming the first such team
 */
export function assertMayDeleteAccount(teams: readonly TeamOfDeletedAccount[]): void {
  const blocking = teams.find((team) => team.role === 'owner' && team.otherMembers > 0);
  if (blocking) throw new TeamOwnerCannotDeleteAccountError(blocking.teamId, blocking.name);
}

/**
 * How the person's membership ends with their account: `leave` (a member or an admin, as `DELETE …/members/{sub}`
 * does), or `close` (the owner, alone in the team once {@link assertMayDeleteAccount} passed).
 */
export function departureOf(role: TeamRole): 'leave' | 'close' {
  return role === 'owner' ? 'close' : 'leave';
}

/**
 * 409 `TEAM_OWNER_CANNOT_DELETE_ACCOUNT`: `DELETE /api/me` by the owner of a team that still has other members; they
 * hand it over first. Nothing was deleted.
 */
export class TeamOwnerCannotDeleteAccountError extends TeamError {
  override readonly name = 'TeamOwnerCannotDeleteAccountError';
  constructor(
    readonly teamId: string,
    readonly teamName: string,
  ) {
    super(
      'TEAM_OWNER_CANNOT_DELETE_ACCOUNT',
      teamMessage('TEAM_OWNER_CANNOT_DELETE_ACCOUNT', { team: teamName }),
      {
        teamId,
        teamName,
      },
    );
  }
}
