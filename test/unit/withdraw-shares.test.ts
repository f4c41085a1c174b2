import { describe, expect, it } from 'vitest';
import { openLook } from '../../functions/domain/team-look';
import { TeamOwnerCannotDeleteAccountError } from '../../functions/domain/team-departures';
import { assertAccountMayLeaveTeams, leaveAllTeams } from '../../functions/use-cases/account-teams';
import { deleteHeadshot } from '../../functions/use-cases/delete-headshot';
import { deleteHeadshotVersion } from '../../functions/use-cases/delete-headshot-version';
import { deleteUserData } from '../../functions/use-cases/delete-my-data';
import { expireHeadshots } from '../../functions/use-cases/expire-headshots';
import { withdrawShares } from '../../functions/use-cases/withdraw-shares';
import { memberRecord, sharedRecord, teamStore } from '../helpers/team-store';
import { FakeGenerations } from './use-cases/fakes/generations';
import { FakeMarkers, retentionPortsOf } from './use-cases/fakes/markers';
import { FakeUserData } from './use-cases/fakes/user-data';
import { deleteUserDataPorts } from './use-cases/fakes/user-data-ports';

/*
 * A member's own deletions take their headshots out of every team first (docs/teams.md "Sharing and the team
 * gallery"), so a team never links to a deleted file; deleting the account leaves or closes their teams.
 */

const NOW = '2026-11-29T12:00:00.000Z';

/** Ana in T1 (shares H1 and H2) and T2 (shares H1's version V1), and a share left in T3, a team she has left. */
function world() {
  const store = teamStore();
  for (const [teamId, owner] of [
    ['T1', 'owner1'],
    ['T2', 'owner2'],
    ['T3', 'owner3'],
  ] as const) {
    store.teams.set(teamId, {
      teamId,
      name: `Team ${teamId}`,
      ownerSub: owner,
      allowedDomains: [],
      look: openLook(),
      balance: 0,
      creditsOwed: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
    });
    store.members.set(`${teamId}/${owner}`, memberRecord(teamId, owner, 'owner'));
  }
  const put = (teamId: string, headshotId: string, versionId?: string) => {
    const share = sharedRecord(teamId, 'ana', headshotId, versionId ? { versionId, versionNumber: 1 } : {});
    store.shared.set(`${teamId}/ana/${headshotId}`, share);
    store.ownShares.set(`ana/${headshotId}/${teamId}`, {
      sub: 'ana',
      teamId,
      headshotId,
      ...(versionId ? { versionId } : {}),
      sharedAt: share.sharedAt,
    });
  };
  // Ana's member items, and her "my teams" items of the two teams she is in.
  await_(store.storeTeam(store.teams.get('T1')!, { ...memberRecord('T1', 'ana', 'member'), sharedCount: 2 }));
  await_(store.storeTeam(store.teams.get('T2')!, { ...memberRecord('T2', 'ana', 'admin'), sharedCount: 1 }));
  store.members.set('T3/ana', { ...memberRecord('T3', 'ana', 'member'), membership: 'left', email: '' });
  put('T1', 'H1');
  put('T1', 'H2');
  put('T2', 'H1', 'V1');
  put('T3', 'H1');
  return { store, put };
}

/** The in-memory store's writes settle at once; this only keeps the floating promise visible. */
function await_(promise: Promise<unknown>) {
  void promise;
}

describe('withdrawShares', () => {
  it('takes one headshot out of every team that holds it, counting only current shares', async () => {
    const { store } = world();
    expect(await withdrawShares('ana', { headshotId: 'H1' }, store)).toBe(3);
    expect([...store.shared.keys()]).toEqual(['T1/ana/H2']);
    expect([...store.ownShares.keys()]).toEqual(['ana/H2/T1']);
    expect(store.members.get('T1/ana')?.sharedCount).toBe(1);
    expect(store.members.get('T2/ana')?.sharedCount).toBe(0);
    expect(store.members.get('T3/ana')?.sharedCount).toBe(0);
    expect(await withdrawShares('ana', { headshotId: 'H1' }, store)).toBe(0);
  });

  it('with a version, takes out only the shares of that version', async () => {
    const { store } = world();
    expect(await withdrawShares('ana', { headshotId: 'H1', versionId: 'V9' }, store)).toBe(0);
    expect(await withdrawShares('ana', { headshotId: 'H1', versionId: 'V1' }, store)).toBe(1);
    expect([...store.shared.keys()].sort()).toEqual(['T1/ana/H1', 'T1/ana/H2', 'T3/ana/H1']);
  });

  it('without a headshot, takes out all of them, and the member’s records of shares whose team item is gone', async () => {
    const { store } = world();
    store.shared.delete('T3/ana/H1');
    expect(await withdrawShares('ana', undefined, store)).toBe(3);
    expect(store.shared.size).toBe(0);
    expect(store.ownShares.size).toBe(0);
  });

  it('never touches someone else’s shares', async () => {
    const { store } = world();
    store.shared.set('T1/bo/H1', sharedRecord('T1', 'bo', 'H1'));
    await withdrawShares('ana', { headshotId: 'H1' }, store);
    await withdrawShares('ana', undefined, store);
    expect([...store.shared.keys()]).toEqual(['T1/bo/H1']);
  });
});

/** Records the order of the calls a deletion makes. */
function calls() {
  const order: string[] = [];
  const step =
    <T>(name: string, answer: T) =>
    async (..._args: unknown[]) => {
      order.push(name);
      return answer;
    };
  return { order, step };
}

describe('deletions withdraw shares before the files go, and again once the item is gone', () => {
  it('deleting a headshot', async () => {
    const { order, step } = calls();
    await deleteHeadshot('ana', 'H1', {
      withdrawShares: step('withdraw', 0),
      deleteHeadshotVersions: step('versions', 0),
      deleteHeadshot: step('headshot', true),
    });
    expect(order).toEqual(['withdraw', 'versions', 'headshot', 'withdraw', 'versions']);
  });

  it('deleting a version withdraws that version’s shares only', async () => {
    const { order, step } = calls();
    const which: unknown[] = [];
    await deleteHeadshotVersion('ana', 'H1', 'V1', {
      withdrawShares: async (_sub, what) => {
        which.push(what);
        return step('withdraw', 0)();
      },
      deleteHeadshotVersion: step('version', true),
    });
    expect(order).toEqual(['withdraw', 'version', 'withdraw']);
    expect(which).toEqual([
      { headshotId: 'H1', versionId: 'V1' },
      { headshotId: 'H1', versionId: 'V1' },
    ]);
  });

  it('"Delete my data" withdraws every share around deleting the headshot items', async () => {
    const { order, step } = calls();
    const data = new FakeUserData();
    data.seed('ana', { headshots: 2, objects: 3, generations: [] });
    const ports = deleteUserDataPorts(data);
    await deleteUserData('ana', Date.parse(NOW), {
      ...ports,
      withdrawShares: step('withdraw', 0),
      deleteAllHeadshotItems: async (sub) => {
        order.push('headshots');
        return ports.deleteAllHeadshotItems(sub);
      },
      deleteUserObjects: async (sub) => {
        order.push('objects');
        return ports.deleteUserObjects(sub);
      },
    });
    expect(order).toEqual(['withdraw', 'headshots', 'withdraw', 'objects']);
  });

  it('the end of retention', async () => {
    const markers = new FakeMarkers();
    const { order, step } = calls();
    await markers.putRetentionMarker('ana', 'g1', '2024-01-01T00:00:00.000Z');
    await expireHeadshots(
      Date.parse(NOW),
      {},
      {
        ...retentionPortsOf(new FakeGenerations(), markers),
        headshotIdsOfGeneration: async () => ['H1'],
        withdrawShares: step('withdraw', 0),
        deleteHeadshotVersions: step('versions', 0),
        deleteHeadshot: step('headshot', true),
        deleteGeneration: step('generation', undefined),
      },
    );
    expect(order).toEqual(['withdraw', 'versions', 'headshot', 'withdraw', 'generation']);
  });
});

describe('an account’s teams when it is deleted', () => {
  it('refuses the owner of a team others are in, naming it', async () => {
    const { store } = world();
    await store.storeTeam(store.teams.get('T1')!, memberRecord('T1', 'owner1', 'owner'));
    const refusal = assertAccountMayLeaveTeams('owner1', store);
    await expect(refusal).rejects.toBeInstanceOf(TeamOwnerCannotDeleteAccountError);
    await expect(refusal).rejects.toThrow(
      'You own Team T1, which has other members. Make one of them its owner before you delete your account.',
    );
  });

  it('lets the owner alone in a team close it: their membership ends and its links are turned off', async () => {
    const { store } = world();
    store.teams.set('T4', { ...store.teams.get('T1')!, teamId: 'T4', ownerSub: 'solo', name: 'Solo' });
    await store.storeTeam(store.teams.get('T4')!, memberRecord('T4', 'solo', 'owner'));
    const link = {
      linkId: 'L1',
      createdAt: NOW,
      expiresAt: '2026-12-29T00:00:00.000Z',
      cap: 5,
      uses: 0,
      domainsOnly: false,
    };
    await store.putInviteLink('T4', link, 'hash');
    await assertAccountMayLeaveTeams('solo', store);
    await leaveAllTeams('solo', NOW, store);
    expect(store.members.get('T4/solo')).toMatchObject({ membership: 'left', email: '' });
    expect(store.teams.get('T4')).toMatchObject({ closedAt: NOW });
    expect((await store.listInviteLinks('T4'))[0]?.revokedAt).toBe(NOW);
    expect(await store.listMyTeams('solo')).toEqual([]);
  });

  it('lets a member or admin leave every team: their shares leave with them, and their address', async () => {
    const { store } = world();
    await assertAccountMayLeaveTeams('ana', store);
    await leaveAllTeams('ana', NOW, store);
    expect(await store.listMyTeams('ana')).toEqual([]);
    for (const teamId of ['T1', 'T2']) {
      expect(store.members.get(`${teamId}/ana`)).toMatchObject({
        membership: 'left',
        email: '',
        sharedCount: 0,
      });
    }
    expect([...store.shared.keys()]).toEqual(['T3/ana/H1']);
    // Retried, there is nothing left to do.
    await leaveAllTeams('ana', NOW, store);
  });
});
