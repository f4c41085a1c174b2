import { describe, expect, it } from 'vitest';
import { ItemNotFoundError } from '../../../functions/domain/errors';
import { updateHeadshot } from '../../../functions/use-cases/update-headshot';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';

const sub = 'user-1';

describe('updateHeadshot: a favorite, or not', () => {
  it('marks the headshot and answers its view; the same value again changes nothing', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed(sub, '01A');
    expect(await updateHeadshot(sub, '01A', { isFavorite: true }, headshots)).toMatchObject({
      id: '01A',
      isFavorite: true,
    });
    expect((await updateHeadshot(sub, '01A', { isFavorite: true }, headshots)).isFavorite).toBe(true);
    expect((await updateHeadshot(sub, '01A', { isFavorite: false }, headshots)).isFavorite).toBe(false);
  });

  it('throws ItemNotFoundError for an unknown id and another user’s headshot alike, changing nothing', async () => {
    const headshots = new FakeHeadshots();
    headshots.seed('someone-else', '01A');
    await expect(updateHeadshot(sub, '01A', { isFavorite: true }, headshots)).rejects.toBeInstanceOf(
      ItemNotFoundError,
    );
    await expect(updateHeadshot(sub, '01Z', { isFavorite: true }, headshots)).rejects.toThrow(
      'Headshot not found.',
    );
    expect((await headshots.getHeadshot('someone-else', '01A'))?.isFavorite).toBe(false);
  });

  it('lets a failing table through', async () => {
    const headshots = new FakeHeadshots();
    const down = new Error('table down');
    await expect(
      updateHeadshot(sub, '01A', { isFavorite: true }, { ...headshots, setFavorite: failing(down) }),
    ).rejects.toBe(down);
  });
});
