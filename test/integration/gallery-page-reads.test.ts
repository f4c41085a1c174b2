import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { setFavorite } from '../../functions/adapters/headshots/changes';
import { readGalleryPage } from '../../functions/adapters/headshots/pages';
import { listHeadshotKeys } from '../../functions/adapters/headshots/records';
import { ensureUser } from '../../functions/adapters/user-creation';
import { isUlid } from '../../functions/domain/object-keys';
import { seedHeadshots, type Seeded } from '../helpers/gallery';

/*
 * What `GET /api/headshots` reads (functions/adapters/headshots/pages.ts): the first newest-first page is ONE Query
 * that also returns the gallery's stats item; later pages, best match and the readers of the headshot key prefix
 * never take the stats item for a headshot. Counts the DynamoDB commands this process sends, on DynamoDB Local.
 */

inject('localStack');

const RECORDER = 'galleryPageReadsRecorder';
let sent: string[] = [];

/** Records the name of every command the handlers' DynamoDB client sends from now on. */
function recordCommands(): void {
  sent = [];
  documentClient().middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: RECORDER },
  );
}

afterEach(() => {
  documentClient().middlewareStack.remove(RECORDER);
});

describe('gallery page reads', () => {
  const sub = crypto.randomUUID();
  let seeded: Seeded;
  beforeAll(async () => {
    // A signed-up user (the post-confirmation trigger's user item): only theirs are the counters stored for.
    await ensureUser(sub, `${sub}@example.com`);
    seeded = await seedHeadshots(sub, 40, { favoriteEvery: 4 });
    // Data from before the stats item: the first read counts it once.
    const first = await readGalleryPage(sub, { filter: 'all', sort: 'newest' });
    expect(first.stats).toEqual({ total: 40, favorites: 10 });
  });

  it('reads the first page and the counters with one Query; a later page adds one GetItem', async () => {
    recordCommands();
    const first = await readGalleryPage(sub, { filter: 'all', sort: 'newest' });
    expect(sent).toEqual(['QueryCommand']);
    expect(first.stats).toEqual({ total: 40, favorites: 10 });
    expect(first.items.map((h) => h.id)).toEqual(seeded.slice(0, 30).map((h) => h.id));

    sent = [];
    const second = await readGalleryPage(sub, { filter: 'all', sort: 'newest', cursor: first.nextCursor! });
    expect(sent.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    expect(second.items.map((h) => h.id)).toEqual(seeded.slice(30).map((h) => h.id));
    expect(second).toMatchObject({ nextCursor: null, stats: { total: 40, favorites: 10 } });
  });

  it('keeps the counters in a filtered first page, and they follow a favorite at once', async () => {
    await setFavorite(sub, seeded[1]!.id, true);
    recordCommands();
    const favorites = await readGalleryPage(sub, { filter: 'favorites', sort: 'newest' });
    expect(sent).toEqual(['QueryCommand']);
    expect(favorites.stats).toEqual({ total: 40, favorites: 11 });
    expect(favorites.items.map((h) => h.id)).toEqual(
      seeded.filter((h) => h.isFavorite || h.id === seeded[1]!.id).map((h) => h.id),
    );
    const creative = await readGalleryPage(sub, { filter: 'creative', sort: 'newest' });
    expect(creative.items.map((h) => h.id)).toEqual(
      seeded.filter((h) => h.style === 'creative').map((h) => h.id),
    );
    expect(creative.stats).toEqual({ total: 40, favorites: 11 });
    await setFavorite(sub, seeded[1]!.id, false);
  });

  it('never lists the stats item as a headshot (best match, key listings)', async () => {
    const best = await readGalleryPage(sub, { filter: 'all', sort: 'best-match' });
    expect(best.stats).toEqual({ total: 40, favorites: 10 });
    const next = await readGalleryPage(sub, { filter: 'all', sort: 'best-match', cursor: best.nextCursor! });
    const ids = [...best.items, ...next.items].map((h) => h.id);
    expect(new Set(ids)).toEqual(new Set(seeded.map((h) => h.id)));
    expect(ids.every(isUlid)).toBe(true);

    const keys = await listHeadshotKeys(sub);
    expect(keys).toHaveLength(40);
    expect(keys.every((key) => key.SK.startsWith('HEADSHOT#'))).toBe(true);
  });
});
