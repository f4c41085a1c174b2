import { describe, expect, it, vi } from 'vitest';
import { createTeam, updateTeam, type TeamsPorts } from '../../functions/use-cases/teams';
import { getTeam, listTeams } from '../../functions/use-cases/read-teams';
import { setMemberRole } from '../../functions/use-cases/team-members';
import { removeMember } from '../../functions/use-cases/remove-team-member';
import {
  TeamDomainNotAllowedError,
  TeamForbiddenError,
  TeamMemberNotFoundError,
  TeamNotFoundError,
  TeamOwnerCannotLeaveError,
} from '../../functions/domain/team-errors';
import { QuotaExceededError } from '../../functions/domain/quotas';
import { NoEmailInTokenError } from '../../functions/domain/errors';
import { memberRecord, sharedRecord, teamStore } from '../helpers/team-store';

/* The team's own use cases (docs/teams.md "Roles", "Routes") against an in-memory store of the team adapters. */

function setup() {
  const store = teamStore();
  let n = 0;
  const ports: TeamsPorts = {
    ...store,
    countTeamCreated: vi.fn(async () => undefined),
    newId: () => `T${++n}`,
  };
  return { store, ports };
}

/** A team `T1` owned by `owner`, with `admin` and `member`. */
async function seededTeam() {
  const { store, ports } = setup();
  await createTeam(
    { sub: 'owner', email: 'Owner@Acme.com' },
    { name: ' Acme  Corp ', allowedDomains: ['Acme.com'] },
    ports,
  );
  store.members.set('T1/admin', memberRecord('T1', 'admin', 'admin'));
  store.members.set('T1/member', memberRecord('T1', 'member', 'member'));
  return { store, ports };
}

describe('createTeam', () => {
  it('makes the caller the owner of a team with a normalised name and domains, an open look and no seats', async () => {
    const { store, ports } = setup();
    const team = await createTeam(
      { sub: 'owner', email: 'Owner@Acme.com' },
      { name: ' Acme  Corp ', allowedDomains: ['@ACME.com'] },
      ports,
    );
    expect(team).toMatchObject({
      teamId: 'T1',
      name: 'Acme Corp',
      me: { role: 'owner', email: 'owner@acme.com', state: 'joined' },
    });
    expect(team.admin).toMatchObject({
      allowedDomains: ['acme.com'],
      balance: 0,
      creditsOwed: 0,
      invitations: [],
    });
    expect(team.look.styles).toHaveLength(3);
    expect(store.teams.get('T1')?.ownerSub).toBe('owner');
    expect(ports.countTeamCreated).toHaveBeenCalledWith('owner');
    expect((await listTeams('owner', ports)).items).toEqual([
      { teamId: 'T1', name: 'Acme Corp', role: 'owner', joinedAt: team.me.joinedAt },
    ]);
  });

  it('refuses public webmail domains and a token without e-mail before counting anything', async () => {
    const { store, ports } = setup();
    await expect(
      createTeam({ sub: 'o', email: 'o@gmail.com' }, { name: 'X', allowedDomains: ['gmail.com'] }, ports),
    ).rejects.toThrow(TeamDomainNotAllowedError);
    await expect(createTeam({ sub: 'o', email: undefined }, { name: 'X' }, ports)).rejects.toThrow(
      NoEmailInTokenError,
    );
    expect(ports.countTeamCreated).not.toHaveBeenCalled();
    expect(store.teams.size).toBe(0);
  });

  it('stores nothing past the daily quota', async () => {
    const { store, ports } = setup();
    ports.countTeamCreated = async () => {
      throw new QuotaExceededError('teams', 60, 'limit');
    };
    await expect(createTeam({ sub: 'o', email: 'o@acme.com' }, { name: 'X' }, ports)).rejects.toThrow(
      QuotaExceededError,
    );
    expect(store.teams.size).toBe(0);
  });
});

describe('getTeam', () => {
  it('shows the owner and admins the members (owner first) and the ledger', async () => {
    const { ports } = await seededTeam();
    for (const sub of ['owner', 'admin']) {
      const team = await getTeam('T1', sub, ports);
      expect(team.admin?.members.map((m) => m.sub)).toEqual(['owner', 'admin', 'member']);
      expect(team.admin?.members[2]).toMatchObject({
        state: 'joined',
        allowance: { generationsUsed: 0, generations: 1, editsUsed: 0, edits: 2 },
      });
    }
  });

  it('shows a plain member only the team’s name, look and their own seat', async () => {
    const { ports } = await seededTeam();
    const team = await getTeam('T1', 'member', ports);
    expect(team.admin).toBeNull();
    expect(team.me.sub).toBe('member');
    expect(JSON.stringify(team)).not.toContain('owner@acme.com');
  });

  it('answers TEAM_NOT_FOUND to a non-member, a member of another team, a member gone, and for an unknown team', async () => {
    const { store, ports } = await seededTeam();
    await createTeam({ sub: 'other', email: 'o@other.com' }, { name: 'Other' }, ports);
    store.members.set('T1/gone', { ...memberRecord('T1', 'gone', 'member'), membership: 'removed' });
    for (const [teamId, sub] of [
      ['T1', 'stranger'],
      ['T1', 'other'],
      ['T1', 'gone'],
      ['T9', 'owner'],
    ] as const) {
      await expect(getTeam(teamId, sub, ports)).rejects.toThrow(TeamNotFoundError);
    }
  });
});

describe('updateTeam', () => {
  it('lets an admin change the name, domains and look, normalised', async () => {
    const { store, ports } = await seededTeam();
    const team = await updateTeam(
      'T1',
      'admin',
      {
        name: 'Acme',
        allowedDomains: ['acme.com', 'ACME.co.uk'],
        look: {
          styles: ['professional'],
          backgrounds: [{ type: 'colour', colour: '#1F6FEB' }],
          outfits: ['blazer'],
        },
      },
      ports,
    );
    expect(team.name).toBe('Acme');
    expect(team.admin?.allowedDomains).toEqual(['acme.com', 'acme.co.uk']);
    expect(store.teams.get('T1')?.look.backgrounds).toEqual([{ type: 'colour', colour: '#1f6feb' }]);
  });

  it('refuses a plain member (403) and changes nothing', async () => {
    const { store, ports } = await seededTeam();
    await expect(updateTeam('T1', 'member', { name: 'Mine' }, ports)).rejects.toThrow(TeamForbiddenError);
    expect(store.teams.get('T1')?.name).toBe('Acme Corp');
  });
});

describe('roles and leaving', () => {
  const membersPorts = (store: ReturnType<typeof teamStore>) => store;

  it('lets the owner make an admin and hand the team over', async () => {
    const { store } = await seededTeam();
    const ports = membersPorts(store);
    expect(await setMemberRole('T1', 'owner', 'member', 'admin', ports)).toMatchObject({ role: 'admin' });
    await setMemberRole('T1', 'owner', 'admin', 'owner', ports);
    expect(store.teams.get('T1')?.ownerSub).toBe('admin');
    expect(store.members.get('T1/owner')?.role).toBe('admin');
    expect(store.members.get('T1/admin')?.role).toBe('owner');
  });

  it('refuses role changes to admins and members, and to the owner’s own role', async () => {
    const { store } = await seededTeam();
    await expect(setMemberRole('T1', 'admin', 'member', 'admin', store)).rejects.toThrow(TeamForbiddenError);
    await expect(setMemberRole('T1', 'member', 'member', 'admin', store)).rejects.toThrow(TeamForbiddenError);
    await expect(setMemberRole('T1', 'owner', 'owner', 'member', store)).rejects.toThrow(
      TeamOwnerCannotLeaveError,
    );
    await expect(setMemberRole('T1', 'owner', 'nobody', 'admin', store)).rejects.toThrow(
      TeamMemberNotFoundError,
    );
  });

  it('lets a member leave, keeping their allowance on the item, and takes their shares out of the team', async () => {
    const { store } = await seededTeam();
    store.members.get('T1/member')!.generationsUsed = 1;
    store.shared.set('T1/member/H1', sharedRecord('T1', 'member', 'H1'));
    store.shared.set('T1/admin/H2', sharedRecord('T1', 'admin', 'H2'));
    await removeMember('T1', 'member', 'member', store);
    // Their allowance stays with the team; their address does not (docs/teams.md "Privacy and retention").
    expect(store.members.get('T1/member')).toMatchObject({
      membership: 'left',
      generationsUsed: 1,
      email: '',
    });
    expect([...store.shared.keys()]).toEqual(['T1/admin/H2']);
    await expect(getTeam('T1', 'member', store)).rejects.toThrow(TeamNotFoundError);
  });

  it('lets an admin remove a member but not an admin; the owner removes admins; nobody removes the owner', async () => {
    const { store } = await seededTeam();
    store.members.set('T1/admin2', memberRecord('T1', 'admin2', 'admin'));
    await expect(removeMember('T1', 'admin', 'admin2', store)).rejects.toThrow(TeamForbiddenError);
    await expect(removeMember('T1', 'admin', 'owner', store)).rejects.toThrow(TeamOwnerCannotLeaveError);
    await expect(removeMember('T1', 'owner', 'owner', store)).rejects.toThrow(TeamOwnerCannotLeaveError);
    await removeMember('T1', 'admin', 'member', store);
    expect(store.members.get('T1/member')?.membership).toBe('removed');
    await removeMember('T1', 'owner', 'admin2', store);
    expect(store.members.get('T1/admin2')?.membership).toBe('removed');
  });

  it('refuses a plain member removing someone before reading who it is (403 for a member or not)', async () => {
    const { store } = await seededTeam();
    const getMember = vi.spyOn(store, 'getMember');
    await expect(removeMember('T1', 'member', 'admin', store)).rejects.toThrow(TeamForbiddenError);
    await expect(removeMember('T1', 'member', 'nobody', store)).rejects.toThrow(TeamForbiddenError);
    expect(getMember.mock.calls.map(([, sub]) => sub)).toEqual(['member', 'member']);
  });
});
