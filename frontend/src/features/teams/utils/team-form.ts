import type { Invitation, Team, TeamMember } from '../../../../../functions/contracts/teams';
import { MAX_SEATS_PER_PURCHASE } from '../../../../../functions/domain/team-seats';

/** Pure rules of the team screens' forms and lists, kept apart from React so they are unit-tested. */

/** The domains typed in one field, separated by commas, semicolons or spaces (`acme.com, acme.co.uk`). */
export function splitDomains(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim())
    .filter(Boolean);
}

/** A whole number of seats from 1 to the most one purchase takes (200), or null for anything else typed. */
export function parseSeats(text: string): number | null {
  if (!/^\d{1,3}$/.test(text.trim())) return null;
  const seats = Number(text.trim());
  return seats >= 1 && seats <= MAX_SEATS_PER_PURCHASE ? seats : null;
}

/** One row of 'Members': a member, or an e-mail invitation not answered yet (state 'Invited' or 'Expired'). */
export type MemberRow =
  | { kind: 'member'; key: string; member: TeamMember }
  | { kind: 'invitation'; key: string; invitation: Invitation };

/** The rows of 'Members': the members as the API orders them (owner first), then the open invitations. */
export function memberRows(admin: NonNullable<Team['admin']>): MemberRow[] {
  return [
    ...admin.members.map((member) => ({ kind: 'member' as const, key: `m:${member.sub}`, member })),
    ...admin.invitations.map((invitation) => ({
      kind: 'invitation' as const,
      key: `i:${invitation.email}`,
      invitation,
    })),
  ];
}

/** What the caller may do to a member's row (docs/teams.md "Roles"), from the caller's role. */
export interface MemberActions {
  makeAdmin: boolean;
  makeMember: boolean;
  makeOwner: boolean;
  remove: boolean;
}

/**
 * The actions offered on `member`'s row to a caller of role `callerRole` with id `callerSub`: the owner sets roles
 * and hands the team over; the owner and admins remove members, an admin not another admin (the owner's call);
 * nobody removes the owner or acts on themself here (leaving is the member page's).
 */
export function memberActions(
  member: TeamMember,
  callerRole: TeamMember['role'],
  callerSub: string,
): MemberActions {
  const none = { makeAdmin: false, makeMember: false, makeOwner: false, remove: false };
  if (member.sub === callerSub || member.role === 'owner') return none;
  const owner = callerRole === 'owner';
  return {
    makeAdmin: owner && member.role === 'member',
    makeMember: owner && member.role === 'admin',
    makeOwner: owner,
    remove: owner || (callerRole === 'admin' && member.role === 'member'),
  };
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** 'Nov 29, 2026' (docs/product-spec.md §2 "Teams": dates). */
export function formatDate(iso: string): string {
  return DATE.format(new Date(iso));
}
