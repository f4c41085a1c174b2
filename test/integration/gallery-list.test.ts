import { beforeAll, describe, expect, inject, it } from 'vitest';
import { galleryPageSchema } from '../../functions/contracts';
import { encodeCursor, type GalleryFilter } from '../../functions/domain/gallery';
import { OUTFITS } from '../../functions/domain/outfits';
import { type TestUser } from '../helpers/cognito';
import {
  allPages,
  list,
  listPage,
  seedHeadshots,
  signedUpUser,
  type ErrorBody,
  type Seeded,
  sampleImages,
} from '../helpers/gallery';

/*
 * GET /api/headshots on the shared local stack (test/global-setup.ts): the real route table behind the local gateway
 * and Cognito JWT authorizer, DynamoDB Local and s3rver, over 100 seeded headshots (test/helpers/gallery.ts): pages,
 * filters and cursors.
 */

const { gatewayUrl } = inject('localStack');

describe('GET /api/headshots', () => {
  let owner: TestUser;
  let seeded: Seeded;
  beforeAll(async () => {
    owner = await signedUpUser();
    seeded = await seedHeadshots(owner.sub, 100, { favoriteEvery: 7, withImages: 2 });
  });

  it('pages through 100 headshots newest first: every one exactly once, 30 + 30 + 30 + 10', async () => {
    const pages = await allPages(owner, 'all');
    expect(pages.map((p) => p.items.length)).toEqual([30, 30, 30, 10]);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const ids = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(new Set(ids).size).toBe(100);
    expect(ids).toEqual(seeded.map((h) => h.id));
    for (const page of pages) expect(page.stats).toEqual({ total: 100, favorites: 15 });

    for (const page of pages) galleryPageSchema.parse(page);
    const first = pages[0]!.items[0]!;
    const newest = seeded[0]!;
    expect(first).toEqual({
      id: newest.id,
      generationId: newest.generationId,
      slot: newest.slot,
      style: newest.style,
      background: newest.background,
      outfit: newest.outfit ?? 'own-clothing',
      isFavorite: newest.isFavorite,
      // Seeded without a face score: the API says so rather than inventing one.
      likeness: null,
      // Seeded without a provider: made before offline headshots were marked, so not a preview.
      preview: false,
      createdAt: newest.createdAt,
      thumbnailUrl: expect.any(String),
      imageUrl: expect.any(String),
      downloadUrl: expect.any(String),
      fileName: `headshot-${newest.style}-${newest.background}-${newest.slot + 1}-square.jpg`,
      // Seeded without edits: no versions (issue 36).
      versionCount: 0,
      // Seeded like a headshot made before issue 28: only the square to download.
      variants: [
        {
          variant: 'square',
          width: 1024,
          height: 1024,
          fileName: `headshot-${newest.style}-${newest.background}-${newest.slot + 1}-square.jpg`,
          url: first.imageUrl,
        },
      ],
    });
    // The URLs are presigned GETs, still valid 15 minutes from now (signed at the start of a 5-minute window, so a
    // page loaded again reuses them), that serve the stored bytes; storage keys never leave the server.
    const signed = new URL(first.imageUrl).searchParams;
    const signedAt = Date.parse(
      signed
        .get('X-Amz-Date')!
        .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    );
    const expiresAt = signedAt + Number(signed.get('X-Amz-Expires')) * 1000;
    expect(expiresAt - Date.now()).toBeGreaterThanOrEqual(900_000 - 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(1_200_000);
    const image = await fetch(first.imageUrl);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals((await sampleImages()).jpeg)).toBe(true);
    const thumbnail = await fetch(first.thumbnailUrl);
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals((await sampleImages()).webp)).toBe(true);
    expect(JSON.stringify(pages)).not.toContain('imageKey');
  });

  it('applies each filter on the server: exactly the matching items, newest first, full pages', async () => {
    const expected = {
      all: seeded.map((h) => h.id),
      favorites: seeded.filter((h) => h.isFavorite).map((h) => h.id),
      professional: seeded.filter((h) => h.style === 'professional').map((h) => h.id),
      'business-casual': seeded.filter((h) => h.style === 'business-casual').map((h) => h.id),
      creative: seeded.filter((h) => h.style === 'creative').map((h) => h.id),
      ...Object.fromEntries(
        OUTFITS.map((outfit) => [
          outfit,
          seeded.filter((h) => (h.outfit ?? 'own-clothing') === outfit).map((h) => h.id),
        ]),
      ),
    } as Record<GalleryFilter, string[]>;
    // Own clothing holds the headshots made before outfits (no outfit attribute) too.
    expect(expected['own-clothing']).toHaveLength(20);
    expect(expected.blazer).toHaveLength(20);
    expect(expected.favorites).toHaveLength(15);
    expect(expected.professional).toHaveLength(34);
    for (const [filter, ids] of Object.entries(expected) as [GalleryFilter, string[]][]) {
      const pages = await allPages(owner, filter);
      const got = pages.flatMap((p) => p.items.map((i) => i.id));
      expect(got, filter).toEqual(ids);
      // Full pages of 30 until the last one, and no empty trailing page.
      const sizes = pages.map((p) => p.items.length);
      expect(
        sizes.slice(0, -1).every((n) => n === 30),
        `${filter}: ${sizes.join(',')}`,
      ).toBe(true);
      expect(sizes.at(-1)).toBeGreaterThan(0);
      for (const item of pages.flatMap((p) => p.items)) {
        if (filter === 'favorites') expect(item.isFavorite).toBe(true);
        else if ((OUTFITS as readonly string[]).includes(filter)) expect(item.outfit).toBe(filter);
        else if (filter !== 'all') expect(item.style).toBe(filter);
      }
    }
  });

  it('refuses unknown filters, altered cursors and cursors of another user’s partition', async () => {
    const bad = await list(owner, '?filter=selfies');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.code).toBe('VALIDATION_ERROR');

    const { nextCursor } = await listPage(owner, 'all');
    const other = await signedUpUser();
    const foreign = [
      // The owner's real cursor, sent by another user: it points into the owner's partition.
      nextCursor!,
      encodeCursor({ PK: `USER#${owner.sub}`, SK: `HEADSHOT#${seeded[50]!.id}` }),
      encodeCursor({ PK: `USER#${other.sub}`, SK: 'PROFILE' }),
      `${nextCursor!.slice(0, -2)}xx`,
      'not-a-cursor!',
    ];
    for (const cursor of foreign) {
      const res = await list(other, `?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(((await res.json()) as ErrorBody).error.code).toMatch(/INVALID_CURSOR|VALIDATION_ERROR/);
    }
    // The other user's own gallery is empty: nothing of the owner's leaks.
    expect(await listPage(other, 'all')).toEqual({
      items: [],
      nextCursor: null,
      stats: { total: 0, favorites: 0 },
    });
    expect((await fetch(`${gatewayUrl}/api/headshots`)).status).toBe(401);
  });
});
