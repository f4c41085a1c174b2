import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { deleteHeadshot, type DeleteHeadshotPorts } from '../../../functions/use-cases/delete-headshot';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';
import { FakeHeadshotVersions } from './fakes/headshot-versions';

const sub = 'user-1';

/** A user's headshots and their versions, and the deletion's ports on them. */
function world() {
  const headshots = new FakeHeadshots();
  const versions = new FakeHeadshotVersions((owner, id) => headshots.records.get(`${owner}|${id}`));
  const ports: DeleteHeadshotPorts = {
    withdrawShares: async () => 0,
    deleteHeadshot: headshots.deleteHeadshot,
    deleteHeadshotVersions: versions.deleteHeadshotVersions,
  };
  return { headshots, versions, ports };
}

describe('deleteHeadshot: one headshot and its files', () => {
  it('deletes the headshot with its files, then says it is gone', async () => {
    const { headshots, ports } = world();
    const record = headshots.seed(sub, '01A');
    await deleteHeadshot(sub, '01A', ports);
    expect(await headshots.getHeadshot(sub, '01A')).toBeUndefined();
    expect(headshots.deletedKeys).toEqual([record.imageKey, record.thumbnailKey]);
    await expect(deleteHeadshot(sub, '01A', ports)).rejects.toBeInstanceOf(ItemNotFoundError);
  });

  it('deletes every version of the headshot with their files, and only its own (issue 36)', async () => {
    const { headshots, versions, ports } = world();
    headshots.seed(sub, '01A');
    headshots.seed(sub, '01B');
    const v1 = versions.seed(sub, '01A', '01V1');
    const v2 = versions.seed(sub, '01A', '01V2');
    versions.seed(sub, '01B', '01V3');
    await deleteHeadshot(sub, '01A', ports);
    expect(await versions.listHeadshotVersions(sub, '01A')).toEqual([]);
    expect(versions.deletedKeys).toEqual([v1.imageKey, v1.thumbnailKey, v2.imageKey, v2.thumbnailKey]);
    expect((await versions.listHeadshotVersions(sub, '01B')).map((v) => v.id)).toEqual(['01V3']);
  });

  it('deletes a version saved while the headshot was being deleted', async () => {
    const { headshots, versions, ports } = world();
    headshots.seed(sub, '01A');
    const racing: DeleteHeadshotPorts = {
      ...ports,
      deleteHeadshot: async (owner, id) => {
        versions.seed(sub, '01A', '01V9');
        return headshots.deleteHeadshot(owner, id);
      },
    };
    await deleteHeadshot(sub, '01A', racing);
    expect(versions.records.size).toBe(0);
  });

  it('never touches another user’s headshot or its versions: ItemNotFoundError, as for an unknown one', async () => {
    const { headshots, versions, ports } = world();
    headshots.seed('someone-else', '01A');
    versions.seed('someone-else', '01A', '01V1');
    await expect(deleteHeadshot(sub, '01A', ports)).rejects.toBeInstanceOf(ItemNotFoundError);
    expect(headshots.records.size).toBe(1);
    expect(versions.records.size).toBe(1);
  });

  it('lets a storage failure through, before the headshot is touched (a retry finishes the deletion)', async () => {
    const { headshots, ports } = world();
    headshots.seed(sub, '01A');
    const down = new Error('S3 down');
    await expect(deleteHeadshot(sub, '01A', { ...ports, deleteHeadshot: failing(down) })).rejects.toBe(down);
    await expect(
      deleteHeadshot(sub, '01A', { ...ports, deleteHeadshotVersions: failing(down) }),
    ).rejects.toBe(down);
    expect(headshots.records.size).toBe(1);
  });
});
