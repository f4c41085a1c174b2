import { TeamForbiddenError, TeamOwnerCannotLeaveError } from './team-errors';

/**
 * Teams (issue 37, docs/teams.md): who may do what in a team, a member's states, and the team's name. Every rule here
 * is checked on the server for every read and write (docs/teams.md "Roles"); the SPA only hides what a role cannot
 * do. Pure: no I/O.
 */

/** A member's role: one owner per team; admins run it with the owner; members generate and share. */
export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
/** One of {@link TEAM_ROLES}. */
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * What a role may do (docs/teams.md "Roles"). `view-team`: the team's name, look and the caller's own allowance;
 * `generate`, `share`: with the team's look and seats, one's own headshots; everything else runs the team.
 */
export const TEAM_ACTIONS = {
  'view-team': 'member',
  generate: 'member',
  share: 'member',
  leave: 'member',
  'view-members': 'admin',
  'edit-team': 'admin',
  'manage-invites': 'admin',
  'remove-member': 'admin',
  'buy-seats': 'admin',
  'view-purchases': 'admin',
  'view-gallery': 'admin',
  'set-role': 'owner',
} as const satisfies Record<string, TeamRole>;
/** One of the keys of {@link TEAM_ACTIONS}. */
export type TeamAction = keyof typeof TEAM_ACTIONS;

const RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 };

/** Whether `role` may do `action` ({@link TEAM_ACTIONS}). */
export function may(role: TeamRole, action: TeamAction): boolean {
  return RANK[role] >= RANK[TEAM_ACTIONS[action]];
}

/**
 * Refuses `action` to a member whose role may not do it. The caller must already be known to be a member: a
 * non-member gets `TeamNotFoundError` before this, so a team's existence is not revealed.
 *
 * @throws {TeamForbiddenError} with the least role that may.
 */
export function authorize(role: TeamRole, action: TeamAction): void {
  if (!may(role, action)) {
    throw new TeamForbiddenError(TEAM_ACTIONS[action] === 'owner' ? 'owner' : 'admin');
  }
}

/**
 * Whether `actor` may remove `target` from the team (docs/teams.md "Leaving and removal"): anyone may remove
 * themself (leave) except the owner; the owner removes admins and members; an admin removes members only; nobody
 * removes the owner.
 *
 * @throws {TeamOwnerCannotLeaveError} when the target is the owner.
 * @throws {TeamForbiddenError} when the actor's role is too low.
 */
export function assertMayRemove(
  actor: { sub: string; role: TeamRole },
  target: { sub: string; role: TeamRole },
): void {
  if (target.role === 'owner') throw new TeamOwnerCannotLeaveError();
  if (actor.sub === target.sub) return;
  if (target.role === 'admin') authorize(actor.role, 'set-role');
  else authorize(actor.role, 'remove-member');
}

/**
 * The role change the owner asks for (`PUT /api/teams/{teamId}/members/{sub}` `{role}`): `admin` or `member` sets
 * the target's role; `owner` hands the team over (the old owner becomes an admin, in the same transaction).
 *
 * @throws {TeamForbiddenError} unless the actor is the owner.
 * @throws {TeamOwnerCannotLeaveError} when the target is the owner (the owner is changed only by handing over).
 */
export function assertMaySetRole(
  actor: { sub: string; role: TeamRole },
  target: { sub: string; role: TeamRole },
) {
  authorize(actor.role, 'set-role');
  if (target.role === 'owner' || target.sub === actor.sub) throw new TeamOwnerCannotLeaveError();
}

/** Stored on the member item: in the team, or gone (the item stays so a person's allowance survives re-joining). */
export const MEMBERSHIPS = ['joined', 'removed', 'left'] as const;
/** One of {@link MEMBERSHIPS}. */
export type Membership = (typeof MEMBERSHIPS)[number];

/**
 * A member's state on the team's dashboard (issue 37 §6): `invited` (an e-mail invitation not yet accepted: no member
 * item), `joined`, `generating` (their team generation started, nothing shared yet), `shared` (at least one headshot
 * shared with the team).
 */
export const MEMBER_STATES = ['invited', 'joined', 'generating', 'shared'] as const;
/** One of {@link MEMBER_STATES}. */
export type MemberState = (typeof MEMBER_STATES)[number];

/**
 * The dashboard state of a member item: derived from its counters, never stored, so it cannot drift from them.
 */
export function memberState(member: {
  generationsUsed: number;
  sharedCount: number;
}): Exclude<MemberState, 'invited'> {
  if (member.sharedCount > 0) return 'shared';
  return member.generationsUsed > 0 ? 'generating' : 'joined';
}

// eslint-disable-next-line no-control-regex -- control characters are what a name loses.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** The longest team name, in characters. */
export const TEAM_NAME_MAX_LENGTH = 80;

/**
 * A team name as stored: trimmed, runs of white space as one space, no control characters; `undefined` when nothing
 * is left or it is longer than {@link TEAM_NAME_MAX_LENGTH}.
 */
export function normaliseTeamName(name: string): string | undefined {
  const clean = name.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > 0 && [...clean].length <= TEAM_NAME_MAX_LENGTH ? clean : undefined;
}

/** At most this many allowed domains per team. */
export const MAX_TEAM_DOMAINS = 10;

/**
 * A domain name as the API takes it, once lower-cased and without a leading `@` or trailing dot: labels of letters,
 * digits and `-` (not at either end), at least two labels, 253 characters at most. Internationalised names are given
 * in their ASCII (`xn--`) form.
 */
export const DOMAIN_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** `" @Acme.COM. "` → `"acme.com"`: how a domain is compared and stored. */
export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
}

/** The domain of an address, normalised ({@link normaliseDomain}); '' when it has no `@`. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : normaliseDomain(email.slice(at + 1));
}

/**
 * Whether `email` is at one of `domains` (normalised) — the domain itself only, not its subdomains: `jo@acme.com`
 * is in `acme.com`, `jo@eu.acme.com` is not (a subdomain can be another organisation's, e.g. a university's
 * students), so a team lists each domain its people use.
 */
export function inAllowedDomain(email: string, domains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== '' && domains.includes(domain);
}
