import { describe, expect, it } from 'vitest';
import {
  assertMayJoin,
  inviteLinkStatus,
  parseInviteeList,
  type InviteLink,
} from '../../functions/domain/team-invites';
import {
  INVITE_TOKEN_PATTERN,
  inviteTokenHash,
  newInviteToken,
} from '../../functions/domain/team-invite-tokens';
import {
  EmailNotVerifiedError,
  InviteUnusableError,
  InviteWrongAddressError,
  InviteWrongDomainError,
} from '../../functions/domain/team-errors';

/* Invitation links and e-mail invitations (docs/teams.md "Invitations"). */

const NOW = Date.parse('2026-11-29T12:00:00Z');
const link = (over: Partial<InviteLink> = {}): InviteLink => ({
  linkId: 'L1',
  createdAt: '2026-11-28T12:00:00Z',
  expiresAt: '2026-12-05T12:00:00Z',
  cap: 3,
  uses: 0,
  domainsOnly: false,
  ...over,
});
const verified = (email: string) => ({ email, emailVerified: true });

describe('invitation links (functions/domain/team-invites.ts)', () => {
  it('is valid until it expires, is used up or is revoked — revoked first, then expired', () => {
    expect(inviteLinkStatus(link(), NOW)).toBe('valid');
    expect(inviteLinkStatus(link({ expiresAt: '2026-11-29T12:00:00Z' }), NOW)).toBe('INVITE_EXPIRED');
    expect(inviteLinkStatus(link({ uses: 3 }), NOW)).toBe('INVITE_USED_UP');
    expect(inviteLinkStatus(link({ uses: 3, revokedAt: '2026-11-29T00:00:00Z' }), NOW)).toBe(
      'INVITE_REVOKED',
    );
    expect(inviteLinkStatus(link({ uses: 3, expiresAt: '2026-11-01T00:00:00Z' }), NOW)).toBe(
      'INVITE_EXPIRED',
    );
  });

  it('refuses an unusable link with its own code and sentence', () => {
    const expired = link({ expiresAt: '2026-11-01T00:00:00Z' });
    expect(() => assertMayJoin(expired, [], verified('jo@acme.com'), NOW)).toThrow(
      'This invitation link has expired. Ask your team for a new one.',
    );
    try {
      assertMayJoin(link({ uses: 3 }), [], verified('jo@acme.com'), NOW);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InviteUnusableError);
      expect((error as InviteUnusableError).code).toBe('INVITE_USED_UP');
    }
  });

  it('needs a verified address', () => {
    expect(() => assertMayJoin(link(), [], { email: 'jo@acme.com', emailVerified: false }, NOW)).toThrow(
      EmailNotVerifiedError,
    );
  });

  it('admits only the allowed domains through a domains-only link, and anyone through an open one', () => {
    const only = link({ domainsOnly: true });
    expect(() => assertMayJoin(only, ['acme.com'], verified('Jo@Acme.com'), NOW)).not.toThrow();
    expect(() => assertMayJoin(only, ['acme.com', 'acme.co.uk'], verified('jo@other.com'), NOW)).toThrow(
      'This team only accepts e-mail addresses at acme.com or acme.co.uk. Sign in with your work address to join.',
    );
    expect(() => assertMayJoin(only, ['acme.com'], verified('jo@eu.acme.com'), NOW)).toThrow(
      InviteWrongDomainError,
    );
    expect(() => assertMayJoin(link(), ['acme.com'], verified('jo@other.com'), NOW)).not.toThrow();
  });

  it('admits only the invited address through a personal link', () => {
    const personal = link({ cap: 1, email: 'jo@acme.com' });
    expect(() => assertMayJoin(personal, [], verified(' JO@acme.com'), NOW)).not.toThrow();
    expect(() => assertMayJoin(personal, [], verified('sam@acme.com'), NOW)).toThrow(InviteWrongAddressError);
  });
});

describe('invitation tokens (functions/domain/team-invite-tokens.ts)', () => {
  it('makes 256-bit base64url tokens, each new, and keeps only a SHA-256 of them', () => {
    const a = newInviteToken();
    const b = newInviteToken();
    expect(a).toMatch(INVITE_TOKEN_PATTERN);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(inviteTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(inviteTokenHash(a)).toBe(inviteTokenHash(a));
    expect(inviteTokenHash(a)).not.toBe(inviteTokenHash(b));
    // The SHA-256 of "abc" (FIPS 180-2, appendix B.1).
    expect(inviteTokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('pasted lists and CSVs of addresses', () => {
  it('reads every address of a CSV with a header, names and quotes, once each, lower case', () => {
    const csv = 'name,email\n"Jo Bloggs","Jo@Acme.com"\nSam,sam@acme.com\nJo again,jo@acme.com\n';
    expect(parseInviteeList(csv)).toEqual({ emails: ['jo@acme.com', 'sam@acme.com'], invalid: [] });
  });

  it('reads lists separated by semicolons, tabs or new lines, and "Name <address>" forms', () => {
    expect(parseInviteeList('Jo <jo@acme.com>; sam@acme.com\tkim@acme.co.uk').emails).toEqual([
      'jo@acme.com',
      'sam@acme.com',
      'kim@acme.co.uk',
    ]);
  });

  it('returns fields with an @ that are not addresses as invalid', () => {
    expect(parseInviteeList('jo@acme, @acme.com, jo smith@acme.com, ok@acme.com')).toEqual({
      emails: ['ok@acme.com'],
      invalid: ['jo@acme', '@acme.com', 'jo smith@acme.com'],
    });
  });
});
