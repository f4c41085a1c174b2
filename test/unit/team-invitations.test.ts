import { describe, expect, it, vi } from 'vitest';
import {
  createInviteLink,
  revokeInviteLink,
  type InviteLinksPorts,
} from '../../functions/use-cases/invite-links';
import { listInviteLinks } from '../../functions/use-cases/list-invite-links';
import {
  resendInvitation,
  sendInvitations,
  type SendInvitationsPorts,
} from '../../functions/use-cases/send-invitations';
import { acceptInvite, type JoinTeamPorts } from '../../functions/use-cases/join-team';
import { previewInvite } from '../../functions/use-cases/preview-invite';
import { createTeam } from '../../functions/use-cases/teams';
import {
  EmailNotVerifiedError,
  InvitationNotFoundError,
  InvitationNotSentError,
  InvitationSendLimitError,
  InviteUnusableError,
  InviteWrongAddressError,
  InviteWrongDomainError,
  TeamForbiddenError,
  TeamNoDomainsError,
  TeamNotFoundError,
  TooManyInviteLinksError,
  TooManyInviteesError,
} from '../../functions/domain/team-errors';
import { inviteTokenHash } from '../../functions/domain/team-invite-tokens';
import { memberRecord, teamStore } from '../helpers/team-store';

/* Invitation links, e-mail invitations and joining (docs/teams.md "Invitations") against the in-memory store. */

const T0 = Date.parse('2026-11-29T12:00:00Z');

async function setup() {
  let now = T0;
  const store = teamStore(() => new Date(now));
  let n = 0;
  const tokens: string[] = [];
  const newToken = () => {
    const token = `tok${++n}`.padEnd(43, 'x');
    tokens.push(token);
    return token;
  };
  const common = {
    ...store,
    newId: () => `L${++n}`,
    newToken,
    joinUrl: (t: string) => `https://site.test/join/${t}`,
  };
  await createTeam(
    { sub: 'owner', email: 'owner@acme.com' },
    { name: 'Acme', allowedDomains: ['acme.com'] },
    { ...store, countTeamCreated: async () => undefined, newId: () => 'T1' },
  );
  store.members.set('T1/admin', memberRecord('T1', 'admin', 'admin'));
  store.members.set('T1/member', memberRecord('T1', 'member', 'member'));
  const mails: { to: string; subject: string; text: string }[] = [];
  const links: InviteLinksPorts = {
    ...common,
    putInviteLink: store.putInviteLink,
    readLinks: store.readLinks,
    storeRevoke: store.storeRevoke,
  };
  const invitations: SendInvitationsPorts = {
    ...common,
    countInvitations: vi.fn(async () => undefined),
    sendMail: vi.fn(async (to: string, content: { subject: string; text: string }) => {
      mails.push({ to, subject: content.subject, text: content.text });
      return 'msg';
    }),
  };
  const join: JoinTeamPorts = { ...store, countJoin: vi.fn(async () => undefined) };
  return { store, links, invitations, join, mails, tokens, advance: (ms: number) => (now += ms) };
}

const jo = { sub: 'jo', email: 'Jo@acme.com', emailVerified: true };

describe('invitation links', () => {
  it('creates a link whose URL holds a token the table keeps only as its hash, and lists it without it', async () => {
    const { store, links, tokens } = await setup();
    const created = await createInviteLink(
      'T1',
      'admin',
      { expiresInDays: 3, cap: 2, domainsOnly: true },
      links,
    );
    expect(created.url).toBe(`https://site.test/join/${tokens[0]}`);
    expect(created.link).toMatchObject({
      cap: 2,
      uses: 0,
      domainsOnly: true,
      status: 'valid',
      expiresAt: '2026-12-02T12:00:00.000Z',
    });
    const stored = store.links.get(created.link.linkId)!;
    expect(stored.tokenHash).toBe(inviteTokenHash(tokens[0]!));
    expect(JSON.stringify(stored.link)).not.toContain(tokens[0]);
    const listed = await listInviteLinks('T1', 'owner', links);
    expect(listed.items).toEqual([created.link]);
    expect(JSON.stringify(listed)).not.toContain(tokens[0]);
  });

  it('refuses a plain member, a domains-only link without domains and a 21st open link', async () => {
    const { store, links } = await setup();
    await expect(createInviteLink('T1', 'member', {}, links)).rejects.toThrow(TeamForbiddenError);
    await expect(listInviteLinks('T1', 'member', links)).rejects.toThrow(TeamForbiddenError);
    await expect(createInviteLink('T1', 'stranger', {}, links)).rejects.toThrow(TeamNotFoundError);
    store.teams.get('T1')!.allowedDomains = [];
    await expect(createInviteLink('T1', 'owner', { domainsOnly: true }, links)).rejects.toThrow(
      TeamNoDomainsError,
    );
    for (let i = 0; i < 20; i++) await createInviteLink('T1', 'owner', {}, links);
    await expect(createInviteLink('T1', 'owner', {}, links)).rejects.toThrow(TooManyInviteLinksError);
  });

  it('revokes a link: its preview says so and nobody joins with it', async () => {
    const { links, join, tokens } = await setup();
    const { link } = await createInviteLink('T1', 'admin', {}, links);
    await revokeInviteLink('T1', 'admin', link.linkId, links);
    await revokeInviteLink('T1', 'admin', link.linkId, links);
    expect(await previewInvite(tokens[0]!, join)).toMatchObject({
      teamName: 'Acme',
      status: 'INVITE_REVOKED',
    });
    await expect(acceptInvite(tokens[0]!, jo, join)).rejects.toThrow(
      'This invitation link has been turned off.',
    );
  });
});

describe('joining', () => {
  it('joins a verified address as a member, once per cap, and is idempotent for a member', async () => {
    const { store, links, join, tokens } = await setup();
    await createInviteLink('T1', 'owner', { cap: 1, domainsOnly: true }, links);
    expect(await previewInvite(tokens[0]!, join)).toEqual({
      teamName: 'Acme',
      status: 'valid',
      requiredDomains: ['acme.com'],
      personal: false,
    });
    expect(await acceptInvite(tokens[0]!, jo, join)).toEqual({
      teamId: 'T1',
      teamName: 'Acme',
      role: 'member',
      alreadyMember: false,
    });
    expect(store.members.get('T1/jo')).toMatchObject({
      email: 'jo@acme.com',
      role: 'member',
      generationsUsed: 0,
      editsUsed: 0,
    });
    expect(await acceptInvite(tokens[0]!, jo, join)).toMatchObject({ alreadyMember: true });
    await expect(
      acceptInvite(tokens[0]!, { ...jo, sub: 'sam', email: 'sam@acme.com' }, join),
    ).rejects.toThrow('This invitation link has been used as many times as it allows.');
    expect(join.countJoin).toHaveBeenCalledTimes(3);
  });

  it('refuses an unverified address, another domain, an expired link and an unknown token, with their codes', async () => {
    const { links, join, tokens, advance } = await setup();
    await createInviteLink('T1', 'owner', { domainsOnly: true, expiresInDays: 1 }, links);
    await expect(acceptInvite(tokens[0]!, { ...jo, emailVerified: false }, join)).rejects.toThrow(
      EmailNotVerifiedError,
    );
    await expect(acceptInvite(tokens[0]!, { ...jo, email: 'jo@other.com' }, join)).rejects.toThrow(
      InviteWrongDomainError,
    );
    await expect(acceptInvite('nope', jo, join)).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
    await expect(previewInvite('y'.repeat(43), join)).rejects.toMatchObject({ code: 'INVITE_NOT_FOUND' });
    advance(86_400_000);
    await expect(acceptInvite(tokens[0]!, jo, join)).rejects.toMatchObject({ code: 'INVITE_EXPIRED' });
  });

  it('gives a member who left their same allowance back when they join again (no second seat)', async () => {
    const { store, links, join, tokens } = await setup();
    store.members.set('T1/jo', {
      ...memberRecord('T1', 'jo', 'member'),
      membership: 'left',
      generationsUsed: 1,
      editsUsed: 2,
    });
    await createInviteLink('T1', 'owner', {}, links);
    await acceptInvite(tokens[0]!, jo, join);
    expect(store.members.get('T1/jo')).toMatchObject({
      membership: 'joined',
      generationsUsed: 1,
      editsUsed: 2,
      role: 'member',
    });
  });

  it('says which way a link became unusable when it changed between the read and the join', async () => {
    const { store, links, join, tokens } = await setup();
    const { link } = await createInviteLink('T1', 'owner', {}, links);
    const findInvite = join.findInvite;
    join.findInvite = async (hash) => {
      const found = await findInvite(hash);
      store.links.get(link.linkId)!.link.revokedAt = '2026-11-29T11:00:00Z';
      return found;
    };
    await expect(acceptInvite(tokens[0]!, jo, join)).rejects.toThrow(InviteUnusableError);
    await expect(acceptInvite(tokens[0]!, jo, join)).rejects.toMatchObject({ code: 'INVITE_REVOKED' });
  });
});

describe('e-mail invitations', () => {
  it('invites each new address in the team’s domains with a personal link, and sorts out the rest', async () => {
    const { store, invitations, mails, tokens } = await setup();
    store.members.get('T1/member')!.email = 'member@acme.com';
    const result = await sendInvitations(
      'T1',
      { sub: 'admin', email: 'Admin@acme.com' },
      {
        emails: ['grace@acme.com'],
        text: 'name,email\nAda,ADA@acme.com\nM,member@acme.com\nX,x@other.com\nbad@,\nGrace,grace@acme.com',
      },
      invitations,
    );
    expect(result).toEqual({
      sent: ['grace@acme.com', 'ada@acme.com'],
      failed: [],
      alreadyMembers: ['member@acme.com'],
      alreadyInvited: [],
      wrongDomain: ['x@other.com'],
      invalid: ['bad@'],
    });
    expect(invitations.countInvitations).toHaveBeenCalledWith('admin', 2);
    expect(mails.map((m) => m.to)).toEqual(['grace@acme.com', 'ada@acme.com']);
    expect(mails[0]!.subject).toBe("You're invited to Acme on Headshot Studio");
    expect(mails[0]!.text).toContain('admin@acme.com invited you to make professional headshots with Acme.');
    expect(mails[0]!.text).toContain(`Join Acme: https://site.test/join/${tokens[0]}`);
    expect(mails[0]!.text).toContain('This invitation expires on Dec 13, 2026.');
    const again = await sendInvitations(
      'T1',
      { sub: 'admin', email: 'admin@acme.com' },
      { emails: ['grace@acme.com'] },
      invitations,
    );
    expect(again.alreadyInvited).toEqual(['grace@acme.com']);
  });

  it('lets only the invited, verified address join with a personal link, and marks the invitation accepted', async () => {
    const { store, invitations, join, tokens } = await setup();
    await sendInvitations(
      'T1',
      { sub: 'owner', email: 'owner@acme.com' },
      { emails: ['jo@acme.com'] },
      invitations,
    );
    expect(await previewInvite(tokens[0]!, join)).toMatchObject({ personal: true, requiredDomains: [] });
    await expect(
      acceptInvite(tokens[0]!, { ...jo, sub: 'sam', email: 'sam@acme.com' }, join),
    ).rejects.toThrow(InviteWrongAddressError);
    await acceptInvite(tokens[0]!, jo, join);
    expect(store.invitations.get('T1/jo@acme.com')?.acceptedAt).toBeDefined();
  });

  it('resends with a new link, turns the old one off, and stops after 5 sends', async () => {
    const { store, invitations, join, tokens } = await setup();
    const owner = { sub: 'owner', email: 'owner@acme.com' };
    await sendInvitations('T1', owner, { emails: ['jo@acme.com'] }, invitations);
    expect(await resendInvitation('T1', owner, 'JO@acme.com', invitations)).toMatchObject({
      sends: 2,
      state: 'invited',
    });
    expect(await previewInvite(tokens[0]!, join)).toMatchObject({ status: 'INVITE_REVOKED' });
    expect(await previewInvite(tokens[1]!, join)).toMatchObject({ status: 'valid' });
    for (let i = 0; i < 3; i++) await resendInvitation('T1', owner, 'jo@acme.com', invitations);
    await expect(resendInvitation('T1', owner, 'jo@acme.com', invitations)).rejects.toThrow(
      InvitationSendLimitError,
    );
    await expect(resendInvitation('T1', owner, 'nobody@acme.com', invitations)).rejects.toThrow(
      InvitationNotFoundError,
    );
    expect(store.invitations.get('T1/jo@acme.com')?.sends).toBe(5);
  });

  it('reports a failed send and keeps the invitation to resend; a failed resend is a 502', async () => {
    const { invitations } = await setup();
    invitations.sendMail = async () => {
      throw Object.assign(new Error('Throttled for someone@acme.com'), { name: 'TooManyRequestsException' });
    };
    const owner = { sub: 'owner', email: 'owner@acme.com' };
    const result = await sendInvitations('T1', owner, { emails: ['jo@acme.com'] }, invitations);
    expect(result).toMatchObject({ sent: [], failed: ['jo@acme.com'] });
    await expect(resendInvitation('T1', owner, 'jo@acme.com', invitations)).rejects.toThrow(
      InvitationNotSentError,
    );
  });

  it('refuses a plain member and more than 50 addresses, sending nothing', async () => {
    const { invitations, mails } = await setup();
    await expect(
      sendInvitations('T1', { sub: 'member', email: 'm@acme.com' }, { emails: ['a@acme.com'] }, invitations),
    ).rejects.toThrow(TeamForbiddenError);
    const many = Array.from({ length: 51 }, (_, i) => `p${i}@acme.com`).join('\n');
    await expect(
      sendInvitations('T1', { sub: 'owner', email: 'o@acme.com' }, { text: many }, invitations),
    ).rejects.toThrow(TooManyInviteesError);
    expect(mails).toEqual([]);
    expect(invitations.countInvitations).not.toHaveBeenCalled();
  });
});
