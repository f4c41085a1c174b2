import { describe, expect, it } from 'vitest';
import { InvalidCursorError } from '../../../functions/domain/gallery';
import { listHeadshots } from '../../../functions/use-cases/list-headshots';
import { failing } from './fakes/failures';
import { FakeHeadshots } from './fakes/headshots';

const sub = 'user-1';

function setup() {
  const headshots = new FakeHeadshots();
  headshots.seed(sub, '01A', { likeness: 90, isFavorite: true });
  headshots.seed(sub, '01B', { likeness: 70, style: 'creative' });
  headshots.seed(sub, '01C', { likeness: 80 });
  headshots.seed('someone-else', '01D');
  return headshots;
}

describe('listHeadshots: the caller’s gallery', () => {
  it('answers the caller’s headshots newest first as API views, with the whole gallery’s totals', async () => {
    const headshots = setup();
    const page = await listHeadshots(sub, { filter: 'all', sort: 'newest' }, headshots);
    expect(page.items.map((h) => h.id)).toEqual(['01C', '01B', '01A']);
    expect(page.items[0]?.imageUrl).toContain('?inline');
    expect(page).toMatchObject({ nextCursor: null, stats: { total: 3, favorites: 1 } });
  });

  it('filters and sorts on the server; the totals stay the whole gallery’s', async () => {
    const headshots = setup();
    const favorites = await listHeadshots(sub, { filter: 'favorites', sort: 'newest' }, headshots);
    expect(favorites.items.map((h) => h.id)).toEqual(['01A']);
    expect(favorites.stats).toEqual({ total: 3, favorites: 1 });
    const best = await listHeadshots(sub, { filter: 'all', sort: 'best-match' }, headshots);
    expect(best.items.map((h) => h.id)).toEqual(['01A', '01C', '01B']);
  });

  it('lets the page’s InvalidCursorError through (the API answers 400 INVALID_CURSOR)', async () => {
    const headshots = setup();
    const ports = { ...headshots, readGalleryPage: failing(new InvalidCursorError()) };
    await expect(
      listHeadshots(sub, { filter: 'all', sort: 'newest', cursor: 'x' }, ports),
    ).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('fails when the URLs cannot be signed, answering no half page', async () => {
    const headshots = setup();
    const ports = { readGalleryPage: headshots.readGalleryPage, headshotUrls: failing() };
    await expect(listHeadshots(sub, { filter: 'all', sort: 'newest' }, ports)).rejects.toThrow('port down');
  });
});
