import { describe, expect, it } from 'vitest';
import {
  assertMayRemove,
  assertMaySetRole,
  authorize,
  inAllowedDomain,
  may,
  memberState,
  normaliseDomain,
  normaliseTeamName,
  TEAM_ACTIONS,
  type TeamRole,
} from '../../functions/domain/teams';
import { allowedDomains, isPublicMailDomain } from '../../functions/domain/team-domains';
import {
  listDomains,
  TeamDomainNotAllowedError,
  TeamForbiddenError,
  TeamOwnerCannotLeaveError,
} from '../../functions/domain/team-errors';

/* The pure rules of teams (docs/teams.md "Roles", "Invitations"): who may do what, names, domains. */

const ROLES: TeamRole[] = ['member', 'admin', 'owner'];

describe('roles (functions/domain/teams.ts)', () => {
  it('lets a member view, generate, share and leave, and nothing that runs the team', () => {
    const allowed = Object.keys(TEAM_ACTIONS).filter((a) => may('member', a as keyof typeof TEAM_ACTIONS));
    expect(allowed.sort()).toEqual(['generate', 'leave', 'share', 'view-team']);
  });

  it('lets an admin run the team but not change roles, and the owner do everything', () => {
    for (const action of Object.keys(TEAM_ACTIONS) as (keyof typeof TEAM_ACTIONS)[]) {
      expect(may('owner', action)).toBe(true);
      expect(may('admin', action)).toBe(action !== 'set-role');
    }
  });

  it('refuses with the least role that may, in the customer’s words', () => {
    expect(() => authorize('member', 'view-members')).toThrow(new TeamForbiddenError('admin'));
    expect(() => authorize('member', 'view-members')).toThrow(
      "Only the team's owner or an admin can do this.",
    );
    expect(() => authorize('admin', 'set-role')).toThrow("Only the team's owner can do this.");
    expect(() => authorize('admin', 'edit-team')).not.toThrow();
  });

  it('lets anyone but the owner leave, an admin remove members only, and nobody remove the owner', () => {
    const person = (sub: string, role: TeamRole) => ({ sub, role });
    for (const role of ['member', 'admin'] as const) {
      expect(() => assertMayRemove(person('a', role), person('a', role))).not.toThrow();
    }
    expect(() => assertMayRemove(person('o', 'owner'), person('o', 'owner'))).toThrow(
      TeamOwnerCannotLeaveError,
    );
    for (const role of ROLES) {
      expect(() => assertMayRemove(person('x', role), person('o', 'owner'))).toThrow(
        TeamOwnerCannotLeaveError,
      );
    }
    expect(() => assertMayRemove(person('a', 'admin'), person('m', 'member'))).not.toThrow();
    expect(() => assertMayRemove(person('a', 'admin'), person('b', 'admin'))).toThrow(TeamForbiddenError);
    expect(() => assertMayRemove(person('o', 'owner'), person('b', 'admin'))).not.toThrow();
    expect(() => assertMayRemove(person('m', 'member'), person('n', 'member'))).toThrow(TeamForbiddenError);
  });

  it('lets only the owner change roles, never their own or the owner’s', () => {
    expect(() => assertMaySetRole({ sub: 'o', role: 'owner' }, { sub: 'm', role: 'member' })).not.toThrow();
    expect(() => assertMaySetRole({ sub: 'a', role: 'admin' }, { sub: 'm', role: 'member' })).toThrow(
      TeamForbiddenError,
    );
    expect(() => assertMaySetRole({ sub: 'o', role: 'owner' }, { sub: 'o', role: 'owner' })).toThrow(
      TeamOwnerCannotLeaveError,
    );
  });
});

describe('member states', () => {
  it('derives joined, generating and shared from the counters', () => {
    expect(memberState({ generationsUsed: 0, sharedCount: 0 })).toBe('joined');
    expect(memberState({ generationsUsed: 1, sharedCount: 0 })).toBe('generating');
    expect(memberState({ generationsUsed: 1, sharedCount: 2 })).toBe('shared');
  });
});

describe('team names', () => {
  it('trims, folds white space and control characters, and refuses empty or long names', () => {
    expect(normaliseTeamName('  Acme \t Corp\n')).toBe('Acme Corp');
    expect(normaliseTeamName('A\u0000B')).toBe('A B');
    expect(normaliseTeamName('   ')).toBeUndefined();
    expect(normaliseTeamName('x'.repeat(80))).toHaveLength(80);
    expect(normaliseTeamName('x'.repeat(81))).toBeUndefined();
  });
});

describe('allowed domains (functions/domain/team-domains.ts)', () => {
  it('normalises, removes repeats and keeps the order', () => {
    expect(normaliseDomain(' @Acme.COM. ')).toBe('acme.com');
    expect(allowedDomains(['Acme.com', 'acme.co.uk', '@ACME.com'])).toEqual(['acme.com', 'acme.co.uk']);
  });

  it('refuses public webmail and disposable services, naming the domain', () => {
    for (const domain of ['gmail.com', 'Hotmail.co.uk', 'yahoo.fr', 'outlook.com', 'mailinator.com']) {
      expect(() => allowedDomains([domain])).toThrow(TeamDomainNotAllowedError);
    }
    expect(() => allowedDomains(['gmail.com'])).toThrow(
      'gmail.com is a public e-mail service, so anyone can have an address there. Use your company’s own domain.',
    );
    expect(isPublicMailDomain('acme.com')).toBe(false);
  });

  it('refuses what is not a domain, and more than 10', () => {
    for (const bad of ['acme', '-acme.com', 'acme..com', 'ac me.com', 'acme.c']) {
      expect(() => allowedDomains([bad])).toThrow(RangeError);
    }
    expect(() => allowedDomains(Array.from({ length: 11 }, (_, i) => `d${i}.com`))).toThrow(RangeError);
    expect(allowedDomains(['xn--bcher-kva.example'])).toEqual(['xn--bcher-kva.example']);
  });

  it('matches an address at the domain itself, in any case, never a subdomain or a look-alike', () => {
    expect(inAllowedDomain('Jo@ACME.com', ['acme.com'])).toBe(true);
    expect(inAllowedDomain('jo@eu.acme.com', ['acme.com'])).toBe(false);
    expect(inAllowedDomain('jo@notacme.com', ['acme.com'])).toBe(false);
    expect(inAllowedDomain('jo@acme.com.evil.io', ['acme.com'])).toBe(false);
    expect(inAllowedDomain('acme.com', ['acme.com'])).toBe(false);
    expect(inAllowedDomain('jo@acme.com', [])).toBe(false);
  });

  it('lists domains as a person reads them', () => {
    expect(listDomains(['a.com'])).toBe('a.com');
    expect(listDomains(['a.com', 'b.com'])).toBe('a.com or b.com');
    expect(listDomains(['a.com', 'b.com', 'c.com'])).toBe('a.com, b.com or c.com');
  });
});

describe('the team errors’ sentences', () => {
  it('are the ones docs/product-spec.md §8 and docs/teams.md give', async () => {
    const { readFile } = await import('node:fs/promises');
    const { TEAM_ERROR_MESSAGES } = await import('../../functions/domain/team-errors');
    const spec = await readFile(new URL('../../docs/product-spec.md', import.meta.url), 'utf8');
    const design = await readFile(new URL('../../docs/teams.md', import.meta.url), 'utf8');
    for (const message of Object.values(TEAM_ERROR_MESSAGES)) {
      for (const part of message.split(/\{\w+\}/).filter((p) => p.trim().length > 3)) {
        expect(spec).toContain(part);
        expect(design).toContain(part);
      }
    }
  });
});
