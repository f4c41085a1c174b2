import type { InvitationRecord } from '../adapters/teams/invites';
import type { MemberRecord, TeamRecord } from '../adapters/teams/records';
import type { Invitation, Team, TeamMember } from '../contracts/teams';
import { MEMBER_GENERATIONS, SEAT_EDIT_CREDITS } from '../domain/team-seats';
import { memberState } from '../domain/teams';

/**
 * The team as `GET`/`PATCH /api/teams/{teamId}` answer it (contracts/teams.ts `teamSchema`): every member sees the
 * team's name, look and their own seat; the owner and admins also see its running (docs/teams.md "Roles").
 */

/** A member item as the API shows it. */
export function memberView(member: MemberRecord): TeamMember {
  return {
    sub: member.sub,
    email: member.email,
    role: member.role,
    state: memberState(member),
    joinedAt: member.joinedAt,
    allowance: {
      generationsUsed: member.generationsUsed,
      generations: MEMBER_GENERATIONS,
      editsUsed: member.editsUsed,
      edits: SEAT_EDIT_CREDITS,
    },
    sharedCount: member.sharedCount,
  };
}

const ROLE_ORDER = { owner: 0, admin: 1, member: 2 } as const;

/** An invitation not accepted: `invited`, or `expired` after its link's expiry. */
function invitationView(invitation: InvitationRecord, nowMs: number): Invitation {
  return {
    email: invitation.email,
    state: Date.parse(invitation.expiresAt) <= nowMs ? 'expired' : 'invited',
    sentAt: invitation.sentAt,
    sends: invitation.sends,
    expiresAt: invitation.expiresAt,
  };
}

/** What the owner and admins see besides: the members and invitations as read. */
export interface TeamRunning {
  members: MemberRecord[];
  invitations: InvitationRecord[];
}

/**
 * The view of `team` for `me`; `running` only for the owner and admins (null section for a member).
 *
 * @param nowMs epoch ms (an invitation past its expiry shows `expired`)
 */
export function teamView(
  team: TeamRecord,
  me: MemberRecord,
  running: TeamRunning | null,
  nowMs: number,
): Team {
  return {
    teamId: team.teamId,
    name: team.name,
    look: team.look,
    me: memberView(me),
    admin: running && {
      allowedDomains: team.allowedDomains,
      balance: team.balance,
      creditsOwed: team.creditsOwed,
      members: running.members
        .filter((m) => m.membership === 'joined')
        .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt.localeCompare(b.joinedAt))
        .map(memberView),
      invitations: running.invitations
        .filter((i) => i.acceptedAt === undefined)
        .sort((a, b) => b.sentAt.localeCompare(a.sentAt))
        .map((i) => invitationView(i, nowMs)),
    },
  };
}
