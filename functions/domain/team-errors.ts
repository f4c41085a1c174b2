/**
 * Named errors of teams (issue 37, docs/teams.md "Errors"): each message is the sentence the customer reads, written
 * into docs/product-spec.md §8 and shown verbatim by the SPA. Each carries its API `code` and `details`; the one
 * error table (functions/http/errors.ts) gives each code its status; the docstrings give that form. Pure: no I/O, safe
 * in the browser bundle.
 */

/** The customer-facing sentences of the team errors, keyed by the API's `code` (docs/product-spec.md §8). */
export const TEAM_ERROR_MESSAGES = {
  TEAM_NOT_FOUND: "This team doesn't exist, or you are not one of its members.",
  TEAM_FORBIDDEN: "Only the team's owner or an admin can do this.",
  TEAM_OWNER_ONLY: "Only the team's owner can do this.",
  TEAM_MEMBER_NOT_FOUND: 'This person is not a member of the team.',
  TEAM_OWNER_CANNOT_LEAVE:
    'You own this team, so you cannot leave it or be removed. Make another member the owner first.',
  TEAM_DOMAIN_NOT_ALLOWED:
    '{domain} is a public e-mail service, so anyone can have an address there. Use your company’s own domain.',
  INVITE_NOT_FOUND: 'This invitation link is not valid. Ask your team for a new one.',
  INVITE_EXPIRED: 'This invitation link has expired. Ask your team for a new one.',
  INVITE_USED_UP:
    'This invitation link has been used as many times as it allows. Ask your team for a new one.',
  INVITE_REVOKED: 'This invitation link has been turned off. Ask your team for a new one.',
  INVITE_WRONG_DOMAIN:
    'This team only accepts e-mail addresses at {domains}. Sign in with your work address to join.',
  INVITE_WRONG_ADDRESS:
    'This invitation was sent to another e-mail address. Sign in with the address it was sent to.',
  INVITATION_NOT_FOUND: 'No invitation was sent to this address.',
  EMAIL_NOT_VERIFIED: 'Please verify your e-mail address before joining a team.',
  LOOK_LOCKED:
    "Your team's look doesn't include that choice. Pick from the team's styles, backgrounds and outfits.",
  TEAM_ALLOWANCE_USED_GENERATION: 'You have already made your team headshots.',
  TEAM_ALLOWANCE_USED_EDITS: 'You have used all {n} of your team edits.',
  TEAM_NO_SEATS: "Your team has no seats left. Ask your team's owner to buy more.",
  TEAM_NO_DOMAINS: "Add your company's e-mail domains to the team first, then limit a link to them.",
  TOO_MANY_INVITE_LINKS: 'This team has {n} open invitation links. Turn one off before creating another.',
  TOO_MANY_INVITEES: 'Invite at most {n} addresses at a time.',
  INVITATION_SEND_LIMIT: 'This address has been sent {n} invitations already. Wait for them to answer.',
  INVITATION_NOT_SENT: 'The invitation could not be sent. Please try again in a few minutes.',
  NOT_A_TEAM_HEADSHOT: 'Only the headshots you made with {team} can be shared with it.',
  TEAM_OWNER_CANNOT_DELETE_ACCOUNT:
    'You own {team}, which has other members. Make one of them its owner before you delete your account.',
} as const;

/** {@link TEAM_ERROR_MESSAGES}'s `{name}` placeholders filled in. */
export function teamMessage(
  code: keyof typeof TEAM_ERROR_MESSAGES,
  values: Record<string, string | number> = {},
): string {
  return TEAM_ERROR_MESSAGES[code].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** "acme.com", "acme.com or acme.co.uk", "a.com, b.com or c.com": the domains as a person reads them. */
export function listDomains(domains: readonly string[]): string {
  if (domains.length <= 1) return domains.join('');
  return `${domains.slice(0, -1).join(', ')} or ${domains.at(-1)}`;
}

/** The API codes of the team errors (docs/teams.md "Errors"). */
export type TeamErrorCode =
  | Exclude<
      keyof typeof TEAM_ERROR_MESSAGES,
      'TEAM_OWNER_ONLY' | 'TEAM_ALLOWANCE_USED_GENERATION' | 'TEAM_ALLOWANCE_USED_EDITS'
    >
  | 'TEAM_ALLOWANCE_USED';

/** A team error: the API `code` it answers with, its sentence, and the `details` the API adds (none by default). */
export abstract class TeamError extends Error {
  constructor(
    readonly code: TeamErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** The class of a team error whose message is its code's sentence as it stands, with no details. */
function fixedTeamError<const N extends string>(
  name: N,
  code: TeamErrorCode & keyof typeof TEAM_ERROR_MESSAGES,
) {
  return class extends TeamError {
    override readonly name: N = name;
    constructor() {
      super(code, TEAM_ERROR_MESSAGES[code]);
    }
  };
}

/** The class of a team error about a limit: `max` fills the sentence's `{n}`. */
function limitTeamError<const N extends string>(
  name: N,
  code: TeamErrorCode & keyof typeof TEAM_ERROR_MESSAGES,
) {
  return class extends TeamError {
    override readonly name: N = name;
    constructor(readonly max: number) {
      super(code, teamMessage(code, { n: max }));
    }
  };
}

/**
 * 404 `TEAM_NOT_FOUND`: no such team, or the caller is not a (current) member of it. Never says which, so a team's
 * existence is not revealed to outsiders (docs/teams.md "Roles").
 */
export class TeamNotFoundError extends fixedTeamError('TeamNotFoundError', 'TEAM_NOT_FOUND') {}

/**
 * 403 `TEAM_FORBIDDEN`: the caller is a member but their role may not do this (`needs`: the least role that may).
 * Only members get it; everyone else gets {@link TeamNotFoundError}.
 */
export class TeamForbiddenError extends TeamError {
  override readonly name = 'TeamForbiddenError';
  constructor(readonly needs: 'admin' | 'owner') {
    super(
      'TEAM_FORBIDDEN',
      needs === 'owner' ? TEAM_ERROR_MESSAGES.TEAM_OWNER_ONLY : TEAM_ERROR_MESSAGES.TEAM_FORBIDDEN,
    );
  }
}

/** 404 `TEAM_MEMBER_NOT_FOUND`: the member named in the path is not (or no longer) in the team. */
export class TeamMemberNotFoundError extends fixedTeamError(
  'TeamMemberNotFoundError',
  'TEAM_MEMBER_NOT_FOUND',
) {}

/** 409 `TEAM_OWNER_CANNOT_LEAVE`: the owner tried to leave, or someone tried to remove the owner or demote them. */
export class TeamOwnerCannotLeaveError extends fixedTeamError(
  'TeamOwnerCannotLeaveError',
  'TEAM_OWNER_CANNOT_LEAVE',
) {}

/** 400 `TEAM_DOMAIN_NOT_ALLOWED`: an allowed domain that is a public or disposable e-mail service. */
export class TeamDomainNotAllowedError extends TeamError {
  override readonly name = 'TeamDomainNotAllowedError';
  constructor(readonly domain: string) {
    super('TEAM_DOMAIN_NOT_ALLOWED', teamMessage('TEAM_DOMAIN_NOT_ALLOWED', { domain }), { domain });
  }
}

/** Why an invitation link cannot be used: its API code. */
export type InviteProblem = 'INVITE_NOT_FOUND' | 'INVITE_EXPIRED' | 'INVITE_USED_UP' | 'INVITE_REVOKED';

/**
 * 404 `INVITE_NOT_FOUND` (no such token, or its team is gone) or 410 `INVITE_EXPIRED` / `INVITE_USED_UP` /
 * `INVITE_REVOKED`: the link cannot be used. The message asks for a new link; nothing about the team is said.
 */
export class InviteUnusableError extends TeamError {
  override readonly name = 'InviteUnusableError';
  constructor(override readonly code: InviteProblem) {
    super(code, TEAM_ERROR_MESSAGES[code]);
  }
}

/** 403 `INVITE_WRONG_DOMAIN`: the link admits only the team's domains and the caller's verified address is elsewhere. */
export class InviteWrongDomainError extends TeamError {
  override readonly name = 'InviteWrongDomainError';
  constructor(readonly domains: readonly string[]) {
    super('INVITE_WRONG_DOMAIN', teamMessage('INVITE_WRONG_DOMAIN', { domains: listDomains(domains) }), {
      domains,
    });
  }
}

/** 403 `INVITE_WRONG_ADDRESS`: an e-mail invitation's link opened by a verified address other than the invited one. */
export class InviteWrongAddressError extends fixedTeamError(
  'InviteWrongAddressError',
  'INVITE_WRONG_ADDRESS',
) {}

/** 404 `INVITATION_NOT_FOUND`: a resend for an address the team never invited (or that already joined). */
export class InvitationNotFoundError extends fixedTeamError(
  'InvitationNotFoundError',
  'INVITATION_NOT_FOUND',
) {}

/** 403 `EMAIL_NOT_VERIFIED`: joining needs the ID token's `email_verified` to be true. */
export class EmailNotVerifiedError extends fixedTeamError('EmailNotVerifiedError', 'EMAIL_NOT_VERIFIED') {}

/** 400 `LOOK_LOCKED`: a team generation (or edit) asked for a style, background or outfit outside the team's look. */
export class LookLockedError extends TeamError {
  override readonly name = 'LookLockedError';
  constructor(readonly field: 'style' | 'background' | 'outfit') {
    super('LOOK_LOCKED', TEAM_ERROR_MESSAGES.LOOK_LOCKED, { field });
  }
}

/** 409 `TEAM_ALLOWANCE_USED`: the member's one team generation, or all their team edits, are used. */
export class TeamAllowanceUsedError extends TeamError {
  override readonly name = 'TeamAllowanceUsedError';
  constructor(
    readonly kind: 'generation' | 'edits',
    /** The member's edit allowance (for the edits sentence). */
    readonly edits: number,
  ) {
    super(
      'TEAM_ALLOWANCE_USED',
      kind === 'generation'
        ? TEAM_ERROR_MESSAGES.TEAM_ALLOWANCE_USED_GENERATION
        : teamMessage('TEAM_ALLOWANCE_USED_EDITS', { n: edits }),
      { kind },
    );
  }
}

/** 402 `TEAM_NO_SEATS`: the team's ledger holds fewer credits than the spend (seats are bought by the owner). */
export class TeamNoSeatsError extends TeamError {
  override readonly name = 'TeamNoSeatsError';
  constructor(
    /** Credits in the team's ledger. */
    readonly balance: number,
    /** Credits the spend needs. */
    readonly required: number,
  ) {
    super('TEAM_NO_SEATS', TEAM_ERROR_MESSAGES.TEAM_NO_SEATS, { required, balance });
  }
}

/** 400 `TEAM_NO_DOMAINS`: a domains-only link for a team without allowed domains. */
export class TeamNoDomainsError extends fixedTeamError('TeamNoDomainsError', 'TEAM_NO_DOMAINS') {}

/** 409 `TOO_MANY_INVITE_LINKS`: the team already has `max` open links. */
export class TooManyInviteLinksError extends limitTeamError(
  'TooManyInviteLinksError',
  'TOO_MANY_INVITE_LINKS',
) {}

/** 400 `TOO_MANY_INVITEES`: one request names more than `max` addresses. */
export class TooManyInviteesError extends limitTeamError('TooManyInviteesError', 'TOO_MANY_INVITEES') {}

/** 409 `INVITATION_SEND_LIMIT`: the address was sent the most invitations one address may get. */
export class InvitationSendLimitError extends limitTeamError(
  'InvitationSendLimitError',
  'INVITATION_SEND_LIMIT',
) {}

/** 502 `INVITATION_NOT_SENT`: the mail service refused or failed; the invitation is kept, to resend. */
export class InvitationNotSentError extends fixedTeamError('InvitationNotSentError', 'INVITATION_NOT_SENT') {}
