import { describe, expect, it } from 'vitest';
import { toHttpError } from '../../functions/http/errors';
import {
  EmailNotVerifiedError,
  InvitationNotFoundError,
  InvitationNotSentError,
  InvitationSendLimitError,
  InviteUnusableError,
  InviteWrongAddressError,
  InviteWrongDomainError,
  LookLockedError,
  TeamAllowanceUsedError,
  TeamDomainNotAllowedError,
  TeamForbiddenError,
  TeamMemberNotFoundError,
  TeamNoDomainsError,
  TeamNoSeatsError,
  TeamNotFoundError,
  TeamOwnerCannotLeaveError,
  TooManyInviteLinksError,
  TooManyInviteesError,
} from '../../functions/domain/team-errors';
import { TeamOwnerCannotDeleteAccountError } from '../../functions/domain/team-departures';
import { NotATeamHeadshotError } from '../../functions/domain/team-shares';

/* The team errors in the one error table (functions/http/errors.ts), as docs/teams.md "Errors" lists them. */

describe('team errors → HTTP', () => {
  it('answers each with the documented status, code and details', () => {
    const cases: [Error, number, string, unknown?][] = [
      [new TeamNotFoundError(), 404, 'TEAM_NOT_FOUND'],
      [new TeamForbiddenError('admin'), 403, 'TEAM_FORBIDDEN'],
      [new TeamMemberNotFoundError(), 404, 'TEAM_MEMBER_NOT_FOUND'],
      [new TeamOwnerCannotLeaveError(), 409, 'TEAM_OWNER_CANNOT_LEAVE'],
      [new TeamDomainNotAllowedError('gmail.com'), 400, 'TEAM_DOMAIN_NOT_ALLOWED', { domain: 'gmail.com' }],
      [new InviteUnusableError('INVITE_NOT_FOUND'), 404, 'INVITE_NOT_FOUND'],
      [new InviteUnusableError('INVITE_EXPIRED'), 410, 'INVITE_EXPIRED'],
      [new InviteUnusableError('INVITE_USED_UP'), 410, 'INVITE_USED_UP'],
      [new InviteUnusableError('INVITE_REVOKED'), 410, 'INVITE_REVOKED'],
      [new InviteWrongDomainError(['acme.com']), 403, 'INVITE_WRONG_DOMAIN', { domains: ['acme.com'] }],
      [new InviteWrongAddressError(), 403, 'INVITE_WRONG_ADDRESS'],
      [new InvitationNotFoundError(), 404, 'INVITATION_NOT_FOUND'],
      [new EmailNotVerifiedError(), 403, 'EMAIL_NOT_VERIFIED'],
      [new LookLockedError('outfit'), 400, 'LOOK_LOCKED', { field: 'outfit' }],
      [new TeamAllowanceUsedError('edits', 2), 409, 'TEAM_ALLOWANCE_USED', { kind: 'edits' }],
      [new TeamNoSeatsError(3, 6), 402, 'TEAM_NO_SEATS', { required: 6, balance: 3 }],
      [new TeamNoDomainsError(), 400, 'TEAM_NO_DOMAINS'],
      [new TooManyInviteLinksError(20), 409, 'TOO_MANY_INVITE_LINKS'],
      [new TooManyInviteesError(50), 400, 'TOO_MANY_INVITEES'],
      [new InvitationSendLimitError(5), 409, 'INVITATION_SEND_LIMIT'],
      [new InvitationNotSentError(), 502, 'INVITATION_NOT_SENT'],
      [new NotATeamHeadshotError('Acme'), 404, 'NOT_A_TEAM_HEADSHOT'],
      [
        new TeamOwnerCannotDeleteAccountError('T1', 'Acme'),
        409,
        'TEAM_OWNER_CANNOT_DELETE_ACCOUNT',
        { teamId: 'T1', teamName: 'Acme' },
      ],
    ];
    for (const [error, status, code, details] of cases) {
      const http = toHttpError(error);
      expect([code, http?.statusCode, http?.code, http?.message, http?.details]).toEqual([
        code,
        status,
        code,
        error.message,
        details,
      ]);
    }
  });

  it('tells the admin the allowance in the edits sentence', () => {
    expect(new TeamAllowanceUsedError('edits', 2).message).toBe('You have used all 2 of your team edits.');
    expect(new NotATeamHeadshotError('Acme').message).toBe(
      'Only the headshots you made with Acme can be shared with it.',
    );
    expect(new TeamOwnerCannotDeleteAccountError('T1', 'Acme').message).toBe(
      'You own Acme, which has other members. Make one of them its owner before you delete your account.',
    );
    expect(new TooManyInviteLinksError(20).message).toBe(
      'This team has 20 open invitation links. Turn one off before creating another.',
    );
  });
});
