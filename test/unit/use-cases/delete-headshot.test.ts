import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { deleteHeadshot } from '../../../functions/use-cases/delete-headshot';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';

const sub = 'user-1';

describe('deleteHeadshot: one headshot and its files', () => {
  it('deletes the headshot with its files, then says it is gone', async () => {
    const headshots = new FakeHeadshots();
    const record = headshots.seed(sub, '01A');
    await deleteHeadshot(sub, '01A', headshots);
    expect(await headshots.getHeadshot(sub, '01A')).toBeUndefined();
    expect(headshots.deletedKeys).toEqual([record.imageKey, record.thumbnailKey]);
    await expect(deleteHeadshot(sub, '01A', headshots)).rejects.toBeInstanceOf(ItemNotFoundError);
  });

  it('never touches another user’s headshot: ItemNotFoundError, as for an unknown one', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed('someone-else', '01A');
    await expect(deleteHeadshot(sub, '01A', headshots)).rejects.toBeInstanceOf(ItemNotFoundError);
    expect(headshots.records.size).toBe(1);
  });

  it('lets a storage failure through (a retry finishes the deletion)', async () => {
    const down = new Error('S3 down');
    await expect(deleteHeadshot(sub, '01A', { deleteHeadshot: failing(down) })).rejects.toBe(down);
  });
});
