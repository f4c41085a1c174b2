import { inAllowedDomain } from './teams';
import {
  EmailNotVerifiedError,
  InviteUnusableError,
  InviteWrongAddressError,
  InviteWrongDomainError,
  type InviteProblem,
} from './team-errors';

/**
 * Invitations to a team (issue 37 §4, §7; docs/teams.md "Invitations"): links that expire, have a cap and may admit
 * only the team's domains, and personal e-mail invitations (a link of one use for one address). Pure: no I/O, safe in
 * the browser bundle (the token's randomness and hash are in domain/team-invite-tokens.ts).
 */

/** Days a link may live: 1 to 30, 7 unless the admin says. */
export const INVITE_LINK_DAYS = { min: 1, max: 30, default: 7 } as const;
/** Joins a link may admit: 1 to 1,000, 25 unless the admin says. */
export const INVITE_LINK_CAP = { min: 1, max: 1000, default: 25 } as const;
/** Days an e-mail invitation's link lives (each resend makes a new one). */
export const INVITATION_DAYS = 14;
/** Times one address may be sent an invitation (the first send and the resends): a team cannot spam a person. */
export const MAX_INVITATION_SENDS = 5;
/** Addresses one `POST /api/teams/{teamId}/invitations` may invite (a CSV of more is sent in several requests). */
export const MAX_INVITATIONS_PER_REQUEST = 50;
/** Open links a team may have at once (not revoked, not expired). */
export const MAX_OPEN_INVITE_LINKS = 20;

/** An invitation link as stored (`TEAM#<teamId>` / `INVITELINK#<linkId>`), without its token (only its hash is kept). */
export interface InviteLink {
  linkId: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  expiresAt: string;
  /** Joins it admits. */
  cap: number;
  /** Joins so far. */
  uses: number;
  /** Only verified addresses in the team's allowed domains may join through it. */
  domainsOnly: boolean;
  /** ISO 8601 UTC, when an admin turned it off (or a resend replaced it). */
  revokedAt?: string | undefined;
  /** A personal link: the e-mail invitation's address (normalised); only that verified address may join. */
  email?: string | undefined;
}

/** Where a link stands: usable, or why not (the API's code). */
export type InviteLinkStatus = 'valid' | Exclude<InviteProblem, 'INVITE_NOT_FOUND'>;

/** A link's status at `nowMs` (epoch ms): revoked first, then expired, then used up. */
export function inviteLinkStatus(link: InviteLink, nowMs: number): InviteLinkStatus {
  if (link.revokedAt !== undefined) return 'INVITE_REVOKED';
  if (Date.parse(link.expiresAt) <= nowMs) return 'INVITE_EXPIRED';
  if (link.uses >= link.cap) return 'INVITE_USED_UP';
  return 'valid';
}

/** The person joining, from the ID token's claims. */
export interface Joiner {
  email: string;
  /** The `email_verified` claim. */
  emailVerified: boolean;
}

/**
 * Refuses a join through `link` (docs/teams.md "Invitations"): an unusable link; an unverified address; a domains-only
 * link and an address outside `allowedDomains`; a personal link and another address. A current member who opens a
 * link again is let in before these checks by the use case (idempotent), without using the link.
 *
 * @throws {InviteUnusableError} revoked, expired or used up.
 * @throws {EmailNotVerifiedError}
 * @throws {InviteWrongDomainError}
 * @throws {InviteWrongAddressError}
 */
export function assertMayJoin(
  link: InviteLink,
  allowedDomains: readonly string[],
  joiner: Joiner,
  nowMs: number,
): void {
  const status = inviteLinkStatus(link, nowMs);
  if (status !== 'valid') throw new InviteUnusableError(status);
  if (!joiner.emailVerified) throw new EmailNotVerifiedError();
  if (link.domainsOnly && !inAllowedDomain(joiner.email, allowedDomains)) {
    throw new InviteWrongDomainError(allowedDomains);
  }
  if (link.email !== undefined && normaliseInvitee(joiner.email) !== link.email) {
    throw new InviteWrongAddressError();
  }
}

/** An address as invitations key it: trimmed and lower-cased (the whole address; no provider folding). */
export function normaliseInvitee(email: string): string {
  return email.trim().toLowerCase();
}

/** A plausible address: something, `@`, a dotted domain; no spaces, at most 254 characters (RFC 5321 §4.5.3.1.3). */
export const INVITEE_PATTERN = /^[^\s@<>,;"]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/;

/**
 * The addresses of a pasted list or CSV (issue 37 §4 "a CSV of addresses for many"): every field of every line that
 * looks like an address (`Jo <jo@acme.com>` and quoted fields too), normalised, without repeats, in order; fields
 * with an `@` that are not addresses come back in `invalid`. Header fields (`email`, `name`) and other text are
 * ignored.
 */
export function parseInviteeList(text: string): { emails: string[]; invalid: string[] } {
  const emails: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\n\r,;\t]+/)) {
    const field = raw.trim().replace(/^"+|"+$/g, '');
    if (!field.includes('@')) continue;
    const candidate = normaliseInvitee(/<([^>]*)>/.exec(field)?.[1] ?? field);
    if (candidate.length <= 254 && INVITEE_PATTERN.test(candidate)) {
      if (!emails.includes(candidate)) emails.push(candidate);
    } else invalid.push(field);
  }
  return { emails, invalid };
}
