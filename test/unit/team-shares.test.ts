import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../functions/domain/errors';
import { InvalidCursorError } from '../../functions/domain/gallery';
import { TeamForbiddenError, TeamNotFoundError } from '../../functions/domain/team-errors';
import { openLook } from '../../functions/domain/team-look';
import type { GenerationPayer } from '../../functions/domain/team-seats';
import { NotATeamHeadshotError } from '../../functions/domain/team-shares';
import { memberState } from '../../functions/domain/teams';
import { removeMember } from '../../functions/use-cases/remove-team-member';
import { listTeamHeadshots, type TeamGalleryPorts } from '../../functions/use-cases/team-gallery';
import { shareHeadshot, type ShareHeadshotPorts } from '../../functions/use-cases/team-shares';
import { unshareHeadshot, type UnshareHeadshotPorts } from '../../functions/use-cases/unshare-team-headshot';
import { memberRecord, sharedRecord, teamStore } from '../helpers/team-store';
import { FakeHeadshots } from './use-cases/fakes/headshots';
import { FakeHeadshotVersions } from './use-cases/fakes/headshot-versions';

/*
 * Sharing with a team and the team gallery (docs/teams.md "Sharing and the team gallery") against the in-memory team
 * store: only a member's own team headshots, counted once, never seen by the team once unshared or once the member
 * is gone.
 */

const file = (key: string) => ({ key, width: 1024, height: 1280, bytes: 1 });

/** Team T1 (owner, admin, member ana@acme.com, member bo@acme.com) and team T2 (owner2, and ana as a member). */
function world() {
  const store = teamStore();
  const team = (teamId: string, ownerSub: string) => ({
    teamId,
    name: teamId === 'T1' ? 'Acme' : 'Globex',
    ownerSub,
    allowedDomains: [],
    look: openLook(),
    balance: 0,
    creditsOwed: 0,
    createdAt: '2026-11-20T09:00:00.000Z',
  });
  store.teams.set('T1', team('T1', 'owner'));
  store.teams.set('T2', team('T2', 'owner2'));
  for (const [sub, role] of [
    ['owner', 'owner'],
    ['admin', 'admin'],
    ['ana', 'member'],
    ['bo', 'member'],
  ] as const) {
    store.members.set(`T1/${sub}`, memberRecord('T1', sub, role, `${sub}@acme.com`));
  }
  store.members.set('T2/owner2', memberRecord('T2', 'owner2', 'owner'));
  store.members.set('T2/ana', memberRecord('T2', 'ana', 'member', 'ana@acme.com'));
  const headshots = new FakeHeadshots();
  const versions = new FakeHeadshotVersions((sub, id) => headshots.records.get(`${sub}|${id}`));
  const payers = new Map<string, GenerationPayer>([
    ['gen-T1', { team: 'T1' }],
    ['gen-T2', { team: 'T2' }],
    ['gen-own', 'user'],
  ]);
  /** A headshot of `sub` from the generation `gen-<team>` (`own`: paid with their own credits). */
  const headshot = (sub: string, id: string, team: 'T1' | 'T2' | 'own' = 'T1', slot = 0) => {
    store.files.add(`${sub}/${id}`);
    return headshots.seed(sub, id, {
      generationId: `gen-${team}`,
      slot,
      outfit: 'blazer',
      variants: {
        portrait: file(`results/${sub}/gen-${team}/portrait/${id}.jpg`),
        original: file(`results/${sub}/gen-${team}/original/${id}.png`),
      },
    });
  };
  const version = (sub: string, headshotId: string, id: string) => {
    store.files.add(`${sub}/${headshotId}/${id}`);
    return versions.seed(sub, headshotId, id);
  };
  const ports: ShareHeadshotPorts & UnshareHeadshotPorts & TeamGalleryPorts = {
    ...store,
    getHeadshot: headshots.getHeadshot,
    listHeadshotVersions: versions.listHeadshotVersions,
    generationPayer: async (_sub, generationId) => payers.get(generationId),
    shareUrls: versions.versionUrls,
  };
  const sharedCount = (teamId: string, sub: string) => store.members.get(`${teamId}/${sub}`)!.sharedCount;
  return { store, headshots, versions, headshot, version, ports, sharedCount };
}

describe('shareHeadshot', () => {
  it('shares a member’s team headshot once: the team’s item, their own record, sharedCount + 1', async () => {
    const { store, headshot, ports, sharedCount } = world();
    headshot('ana', '01H10000000000000000000000', 'T1', 2);
    const shared = await shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, ports);
    expect(shared).toMatchObject({
      headshotId: '01H10000000000000000000000',
      member: { sub: 'ana', email: 'ana@acme.com' },
      sharedAt: '2026-11-29T12:00:00.000Z',
      style: 'professional',
      background: 'office',
      outfit: 'blazer',
    });
    expect(shared.versionId).toBeUndefined();
    // The ZIP's entries: a folder per member, each file named as it downloads from the member's own gallery.
    expect(shared.variants.map((v) => [v.variant, v.fileName])).toEqual([
      ['square', 'ana@acme.com/headshot-professional-office-3-square.jpg'],
      ['portrait', 'ana@acme.com/headshot-professional-office-3-portrait.jpg'],
      ['original', 'ana@acme.com/headshot-professional-office-3-original.png'],
    ]);
    expect(shared.imageUrl).toBe('https://results.test/results/ana/g1/01H10000000000000000000000.jpg?inline');
    expect(sharedCount('T1', 'ana')).toBe(1);
    expect(memberState(store.members.get('T1/ana')!)).toBe('shared');
    expect([...store.ownShares.keys()]).toEqual(['ana/01H10000000000000000000000/T1']);

    // Idempotent: the same share again answers it, counted once.
    expect(await shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, ports)).toEqual(shared);
    expect(sharedCount('T1', 'ana')).toBe(1);
  });

  it('shares a version (an edit’s result) instead, and switching versions replaces it without counting again', async () => {
    const { store, headshot, version, ports, sharedCount } = world();
    headshot('ana', '01H10000000000000000000000');
    version('ana', '01H10000000000000000000000', '01V1');
    version('ana', '01H10000000000000000000000', '01V2');
    await shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, ports);
    const v2 = await shareHeadshot('T1', 'ana', '01H10000000000000000000000', '01V2', ports);
    expect(v2).toMatchObject({ headshotId: '01H10000000000000000000000', versionId: '01V2' });
    expect(v2.imageUrl).toBe('https://results.test/results/ana/g-01V2/0.jpg?inline');
    expect(v2.variants.map((v) => v.fileName)).toEqual([
      'ana@acme.com/headshot-professional-office-1-v2-square.jpg',
    ]);
    expect(sharedCount('T1', 'ana')).toBe(1);
    expect(store.shared.get('T1/ana/01H10000000000000000000000')?.versionId).toBe('01V2');
    await expect(shareHeadshot('T1', 'ana', '01H10000000000000000000000', '01NOPE', ports)).rejects.toThrow(
      'Headshot not found.',
    );
  });

  it('answers another person’s headshot id as an unknown one, and never reads it', async () => {
    const { store, headshot, ports } = world();
    headshot('bo', '01B10000000000000000000000');
    await expect(
      shareHeadshot('T1', 'ana', '01B10000000000000000000000', undefined, ports),
    ).rejects.toBeInstanceOf(ItemNotFoundError);
    await expect(shareHeadshot('T1', 'ana', '01NONE', undefined, ports)).rejects.toThrow(
      'Headshot not found.',
    );
    expect(store.shared.size).toBe(0);
  });

  it('refuses a personal headshot and another team’s with the sentence that says why', async () => {
    const { store, headshot, ports } = world();
    headshot('ana', '01P10000000000000000000000', 'own');
    headshot('ana', '01G10000000000000000000000', 'T2');
    for (const id of ['01P10000000000000000000000', '01G10000000000000000000000']) {
      const refusal = shareHeadshot('T1', 'ana', id, undefined, ports);
      await expect(refusal).rejects.toBeInstanceOf(NotATeamHeadshotError);
      await expect(refusal).rejects.toThrow('Only the headshots you made with Acme can be shared with it.');
    }
    // The T2 headshot goes to T2, where it was paid for.
    await shareHeadshot('T2', 'ana', '01G10000000000000000000000', undefined, ports);
    expect([...store.shared.keys()]).toEqual(['T2/ana/01G10000000000000000000000']);
  });

  it('refuses a non-member as an unknown team, and a member removed while sharing', async () => {
    const { store, headshot, ports } = world();
    headshot('ana', '01H10000000000000000000000');
    headshot('owner2', '01X10000000000000000000000', 'T1');
    await expect(
      shareHeadshot('T1', 'owner2', '01X10000000000000000000000', undefined, ports),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    const racing = {
      ...ports,
      getShare: async (teamId: string, sub: string, headshotId: string) => {
        await store.endMembership('T1', 'ana', 'member', 'removed', '2026-11-29T11:00:00.000Z');
        return ports.getShare(teamId, sub, headshotId);
      },
    };
    await expect(
      shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, racing),
    ).rejects.toBeInstanceOf(TeamNotFoundError);
    expect(store.shared.size).toBe(0);
  });

  it('answers 404 when the headshot is deleted while it is being shared: no share of a deleted file', async () => {
    const { store, headshot, ports } = world();
    headshot('ana', '01H10000000000000000000000');
    const racing = {
      ...ports,
      getShare: async (teamId: string, sub: string, headshotId: string) => {
        store.files.delete('ana/01H10000000000000000000000');
        return ports.getShare(teamId, sub, headshotId);
      },
    };
    await expect(shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, racing)).rejects.toThrow(
      'Headshot not found.',
    );
    expect(store.shared.size).toBe(0);
  });

  it('replaces and counts a share left behind by an earlier membership (shared before the member re-joined)', async () => {
    const { store, headshot, ports, sharedCount } = world();
    headshot('ana', '01H10000000000000000000000');
    store.shared.set(
      'T1/ana/01H10000000000000000000000',
      sharedRecord('T1', 'ana', '01H10000000000000000000000', {
        sharedAt: '2026-11-01T00:00:00.000Z',
        style: 'creative',
      }),
    );
    const shared = await shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, ports);
    expect(shared).toMatchObject({ style: 'professional', sharedAt: '2026-11-29T12:00:00.000Z' });
    expect(sharedCount('T1', 'ana')).toBe(1);
  });
});

describe('unshareHeadshot', () => {
  it('takes one headshot out of the team (sharedCount − 1), the last one too, and is idempotent', async () => {
    const { store, headshot, ports, sharedCount } = world();
    headshot('ana', '01H10000000000000000000000');
    headshot('ana', '01H20000000000000000000000');
    await shareHeadshot('T1', 'ana', '01H10000000000000000000000', undefined, ports);
    await shareHeadshot('T1', 'ana', '01H20000000000000000000000', undefined, ports);
    await unshareHeadshot('T1', 'ana', '01H10000000000000000000000', ports);
    expect(sharedCount('T1', 'ana')).toBe(1);
    // Sharing is the member's choice, and so is taking the last one back: they are no longer `shared`.
    await unshareHeadshot('T1', 'ana', '01H20000000000000000000000', ports);
    expect(sharedCount('T1', 'ana')).toBe(0);
    expect(memberState(store.members.get('T1/ana')!)).toBe('joined');
    expect(store.shared.size).toBe(0);
    expect(store.ownShares.size).toBe(0);
    await unshareHeadshot('T1', 'ana', '01H20000000000000000000000', ports);
    expect(sharedCount('T1', 'ana')).toBe(0);
  });

  it('touches only the caller’s own share; a non-member is an unknown team', async () => {
    const { store, headshot, ports } = world();
    headshot('bo', '01B10000000000000000000000');
    await shareHeadshot('T1', 'bo', '01B10000000000000000000000', undefined, ports);
    await unshareHeadshot('T1', 'ana', '01B10000000000000000000000', ports);
    await unshareHeadshot('T1', 'owner', '01B10000000000000000000000', ports);
    expect([...store.shared.keys()]).toEqual(['T1/bo/01B10000000000000000000000']);
    await expect(unshareHeadshot('T1', 'owner2', '01B10000000000000000000000', ports)).rejects.toBeInstanceOf(
      TeamNotFoundError,
    );
  });
});

describe('listTeamHeadshots', () => {
  it('shows the owner and admins every current member’s shares with their e-mail, never an unshared one', async () => {
    const { headshot, ports } = world();
    headshot('ana', '01A10000000000000000000000');
    headshot('ana', '01A20000000000000000000000');
    headshot('bo', '01B10000000000000000000000');
    headshot('bo', '01B20000000000000000000000');
    await shareHeadshot('T1', 'ana', '01A10000000000000000000000', undefined, ports);
    await shareHeadshot('T1', 'bo', '01B20000000000000000000000', undefined, ports);
    for (const viewer of ['owner', 'admin']) {
      const page = await listTeamHeadshots('T1', viewer, {}, ports);
      expect(page.items.map((h) => [h.member.email, h.headshotId])).toEqual([
        ['bo@acme.com', '01B20000000000000000000000'],
        ['ana@acme.com', '01A10000000000000000000000'],
      ]);
      expect(page.nextCursor).toBeNull();
    }
    const bo = await listTeamHeadshots('T1', 'owner', { member: 'bo' }, ports);
    expect(bo.items.map((h) => h.headshotId)).toEqual(['01B20000000000000000000000']);
  });

  it('shows a plain member only their own shares, and refuses them anyone else’s', async () => {
    const { headshot, ports } = world();
    headshot('ana', '01A10000000000000000000000');
    headshot('bo', '01B10000000000000000000000');
    await shareHeadshot('T1', 'ana', '01A10000000000000000000000', undefined, ports);
    await shareHeadshot('T1', 'bo', '01B10000000000000000000000', undefined, ports);
    const own = await listTeamHeadshots('T1', 'ana', {}, ports);
    expect(own.items.map((h) => h.headshotId)).toEqual(['01A10000000000000000000000']);
    expect((await listTeamHeadshots('T1', 'ana', { member: 'ana' }, ports)).items).toHaveLength(1);
    await expect(listTeamHeadshots('T1', 'ana', { member: 'bo' }, ports)).rejects.toBeInstanceOf(
      TeamForbiddenError,
    );
    await expect(listTeamHeadshots('T1', 'owner2', {}, ports)).rejects.toBeInstanceOf(TeamNotFoundError);
  });

  it('no longer lists a member’s shares once they are removed, even if their shares’ deletion stopped part way', async () => {
    const { store, headshot, ports } = world();
    headshot('ana', '01A10000000000000000000000');
    headshot('bo', '01B10000000000000000000000');
    await shareHeadshot('T1', 'ana', '01A10000000000000000000000', undefined, ports);
    await shareHeadshot('T1', 'bo', '01B10000000000000000000000', undefined, ports);
    const stopped = { ...store, deleteSharedOf: async () => undefined };
    await removeMember('T1', 'owner', 'bo', {
      ...stopped,
      endMembership: async (teamId, sub, role, how, now) => {
        const member = store.members.get(`${teamId}/${sub}`)!;
        Object.assign(member, { membership: how, leftAt: now, sharedCount: 0, email: '' });
        expect(role).toBe('member');
      },
    });
    expect(store.shared.has('T1/bo/01B10000000000000000000000')).toBe(true);
    const page = await listTeamHeadshots('T1', 'owner', {}, ports);
    expect(page.items.map((h) => h.headshotId)).toEqual(['01A10000000000000000000000']);

    // They join again: what they shared before is still not shown (shared before this join).
    Object.assign(store.members.get('T1/bo')!, {
      membership: 'joined',
      joinedAt: '2026-11-29T13:00:00.000Z',
      email: 'bo@acme.com',
    });
    expect((await listTeamHeadshots('T1', 'owner', {}, ports)).items.map((h) => h.headshotId)).toEqual([
      '01A10000000000000000000000',
    ]);

    // Removing them again answers 404, and finishes the job: nothing of theirs is left.
    store.members.get('T1/bo')!.membership = 'removed';
    await expect(removeMember('T1', 'owner', 'bo', store)).rejects.toThrow('This person is not a member');
    expect([...store.shared.keys()]).toEqual(['T1/ana/01A10000000000000000000000']);
    expect([...store.ownShares.keys()]).toEqual(['ana/01A10000000000000000000000/T1']);
  });

  it('pages 30 at a time, member by member and newest first, with a cursor only for this team', async () => {
    const { headshot, ports } = world();
    const ids: string[] = [];
    let time = Date.parse('2026-11-25T00:00:00.000Z');
    for (const sub of ['ana', 'bo']) {
      for (let i = 0; i < 18; i++) {
        const id = ulid(time++);
        headshot(sub, id);
        await shareHeadshot('T1', sub, id, undefined, ports);
        ids.push(id);
      }
    }
    const first = await listTeamHeadshots('T1', 'admin', {}, ports);
    expect(first.items).toHaveLength(30);
    expect(first.nextCursor).not.toBeNull();
    const second = await listTeamHeadshots('T1', 'admin', { cursor: first.nextCursor! }, ports);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.items, ...second.items].map((h) => h.headshotId);
    expect(seen).toHaveLength(36);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen.slice(0, 19)).toEqual([...ids.slice(18).reverse(), ids[17]]);
    await expect(
      listTeamHeadshots('T2', 'owner2', { cursor: first.nextCursor! }, ports),
    ).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(
      listTeamHeadshots('T1', 'admin', { cursor: first.nextCursor!, member: 'bo' }, ports),
    ).rejects.toBeInstanceOf(InvalidCursorError);
  });
});
