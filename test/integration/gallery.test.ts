import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { documentClient, s3Client } from '../../functions/adapters/aws';
import { newGenerationItem } from '../../functions/adapters/generations';
import type { HeadshotRecord } from '../../functions/adapters/headshots/records';
import { getUser, grantCredits, listLedger, spendCredits } from '../../functions/adapters/ledger';
import { purchaseSk, userPk } from '../../functions/adapters/keys';
import { savePhotoFacts } from '../../functions/adapters/photo-checks';
import { headObject, putObject } from '../../functions/adapters/storage';
import { loadConfig } from '../../functions/config';
import { galleryPageSchema } from '../../functions/contracts';
import { encodeCursor, type GalleryFilter } from '../../functions/domain/gallery';
import type { Style } from '../../functions/domain/generation';
import { headshotImageKey, headshotThumbnailKey, uploadKey } from '../../functions/domain/object-keys';
import { createTestUser, type TestUser } from '../helpers/cognito';
import { api, fixturePhoto, uploadPhotos } from '../helpers/generation';
import { expectLedgerBalanced } from '../helpers/ledger';

/*
 * The gallery API on the shared local stack (test/integration/global-setup.ts): the real route table behind the
 * local gateway and Cognito JWT authorizer, DynamoDB Local and s3rver. Headshots are seeded as the workflow stores
 * them (items in the table, a JPEG and a WebP thumbnail in the results bucket), so the gallery is tested at sizes a
 * real generation would take minutes to reach.
 */

const { gatewayUrl, runtimeConfig } = inject('localStack');
const pool = { userPoolId: runtimeConfig.userPoolId, clientId: runtimeConfig.userPoolClientId };

interface Item {
  id: string;
  generationId: string;
  style: string;
  background: string;
  isFavorite: boolean;
  createdAt: string;
  thumbnailUrl: string;
  imageUrl: string;
}
interface Page {
  items: Item[];
  nextCursor: string | null;
  stats: { total: number; favorites: number };
}
interface ErrorBody {
  error: { code: string; message: string };
}

const STYLES: Style[] = ['professional', 'business-casual', 'creative'];
const BACKGROUNDS = ['office', 'studio', 'outdoor', 'gradient'] as const;

async function signedUpUser(): Promise<TestUser> {
  const user = await createTestUser(pool);
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

let jpeg: Buffer;
let webp: Buffer;
beforeAll(async () => {
  const image = sharp({ create: { width: 16, height: 16, channels: 3, background: '#7a869a' } });
  [jpeg, webp] = await Promise.all([image.clone().jpeg().toBuffer(), image.clone().webp().toBuffer()]);
});

/** What {@link seedHeadshots} wrote, newest first. */
type Seeded = HeadshotRecord[];

/**
 * Writes `count` headshots of one generation the way the workflow stores them: ULIDs a millisecond apart (so their
 * order is known), styles cycling professional → business-casual → creative, every `favoriteEvery`th a favorite,
 * plus the JPEG and thumbnail for the first `withImages` of them (newest first).
 */
async function seedHeadshots(
  sub: string,
  count: number,
  options: { favoriteEvery?: number; withImages?: number; generationId?: string } = {},
): Promise<Seeded> {
  const generationId = options.generationId ?? ulid();
  const start = Date.now() - count - 1000;
  const records: HeadshotRecord[] = Array.from({ length: count }, (_, i) => ({
    id: ulid(start + i),
    userId: sub,
    generationId,
    slot: i % 6,
    style: STYLES[i % 3]!,
    background: BACKGROUNDS[i % 4]!,
    imageKey: headshotImageKey(sub, generationId, i),
    thumbnailKey: headshotThumbnailKey(sub, generationId, i),
    isFavorite: options.favoriteEvery ? i % options.favoriteEvery === 0 : false,
    creditsUsed: 1,
    createdAt: new Date(start + i).toISOString(),
  }));
  const { TABLE_NAME } = loadConfig();
  for (let i = 0; i < records.length; i += 25) {
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [TABLE_NAME]: records.slice(i, i + 25).map((r) => ({
            PutRequest: { Item: { PK: `USER#${sub}`, SK: `HEADSHOT#${r.id}`, type: 'headshot', ...r } },
          })),
        },
      }),
    );
  }
  const newestFirst = [...records].reverse();
  await Promise.all(
    newestFirst
      .slice(0, options.withImages ?? 0)
      .flatMap((r) => [
        putObject('results', r.imageKey, jpeg, 'image/jpeg'),
        putObject('results', r.thumbnailKey, webp, 'image/webp'),
      ]),
  );
  return newestFirst;
}

const list = (user: TestUser, query = '') => api(gatewayUrl, user.idToken, 'GET', `/api/headshots${query}`);

async function listPage(user: TestUser, filter: GalleryFilter, cursor?: string | null): Promise<Page> {
  const params = new URLSearchParams({ filter });
  if (cursor) params.set('cursor', cursor);
  const res = await list(user, `?${params}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

/** Follows `nextCursor` to the end; returns every page. */
async function allPages(user: TestUser, filter: GalleryFilter): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await listPage(user, filter, cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

async function objectKeys(bucket: 'uploads' | 'results', prefix: string): Promise<string[]> {
  const config = loadConfig();
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3Client().send(
      new ListObjectsV2Command({
        Bucket: bucket === 'uploads' ? config.UPLOADS_BUCKET : config.RESULTS_BUCKET,
        Prefix: prefix,
        ContinuationToken: token,
      }),
    );
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

/** Every item of the user's partition, by kind (the part of SK before '#'). */
async function itemsByKind(sub: string): Promise<Record<string, Record<string, unknown>[]>> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: loadConfig().TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${sub}` },
      ConsistentRead: true,
    }),
  );
  const kinds: Record<string, Record<string, unknown>[]> = {};
  for (const item of Items) {
    const kind = String(item.SK).split('#')[0]!;
    // The user item's gallery counters follow the headshots (functions/adapters/gallery-stats.ts): the rest of it
    // is the accounting these tests watch.
    const { headshotCount: _h, favoriteCount: _f, galleryVersion: _v, galleryCounted: _c, ...rest } = item;
    (kinds[kind] ??= []).push(kind === 'PROFILE' ? rest : item);
  }
  return kinds;
}

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
      isFavorite: newest.isFavorite,
      // Seeded without a face score: the API says so rather than inventing one.
      likeness: null,
      createdAt: newest.createdAt,
      thumbnailUrl: expect.any(String),
      imageUrl: expect.any(String),
      downloadUrl: expect.any(String),
      fileName: `headshot-${newest.id}.jpg`,
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
    expect(Buffer.from(await image.arrayBuffer()).equals(jpeg)).toBe(true);
    const thumbnail = await fetch(first.thumbnailUrl);
    expect(Buffer.from(await thumbnail.arrayBuffer()).equals(webp)).toBe(true);
    expect(JSON.stringify(pages)).not.toContain('imageKey');
  });

  it('applies each filter on the server: exactly the matching items, newest first, full pages', async () => {
    const expected: Record<GalleryFilter, string[]> = {
      all: seeded.map((h) => h.id),
      favorites: seeded.filter((h) => h.isFavorite).map((h) => h.id),
      professional: seeded.filter((h) => h.style === 'professional').map((h) => h.id),
      'business-casual': seeded.filter((h) => h.style === 'business-casual').map((h) => h.id),
      creative: seeded.filter((h) => h.style === 'creative').map((h) => h.id),
    };
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

describe('favorites, downloads and deleting one headshot', () => {
  it('favorite round trip, with the stats right after each change', async () => {
    const user = await signedUpUser();
    const [a, b] = await seedHeadshots(user.sub, 6, { withImages: 6 });
    const patch = (id: string, body: unknown) =>
      api(gatewayUrl, user.idToken, 'PATCH', `/api/headshots/${id}`, body);

    const on = await patch(a!.id, { isFavorite: true });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ id: a!.id, isFavorite: true, style: a!.style });
    expect((await patch(b!.id, { isFavorite: true })).status).toBe(200);
    expect((await patch(b!.id, { isFavorite: true })).status).toBe(200); // idempotent
    let page = await listPage(user, 'all');
    expect(page.stats).toEqual({ total: 6, favorites: 2 });
    expect(page.items.filter((i) => i.isFavorite).map((i) => i.id)).toEqual([a!.id, b!.id]);
    expect((await listPage(user, 'favorites')).items.map((i) => i.id)).toEqual([a!.id, b!.id]);

    const off = await patch(a!.id, { isFavorite: false });
    expect(await off.json()).toMatchObject({ id: a!.id, isFavorite: false });
    page = await listPage(user, 'all');
    expect(page.stats).toEqual({ total: 6, favorites: 1 });
    expect((await listPage(user, 'favorites')).items.map((i) => i.id)).toEqual([b!.id]);

    // Deleting a favorite lowers both counts.
    expect((await api(gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${b!.id}`)).status).toBe(204);
    expect((await listPage(user, 'all')).stats).toEqual({ total: 5, favorites: 0 });

    for (const body of [{}, { isFavorite: 'yes' }, { isFavorite: true, style: 'creative' }, undefined]) {
      const res = await patch(a!.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('download: a presigned URL served as an attachment named headshot-{id}.jpg', async () => {
    const user = await signedUpUser();
    const [h] = await seedHeadshots(user.sub, 1, { withImages: 1 });
    const res = await api(gatewayUrl, user.idToken, 'GET', `/api/headshots/${h!.id}/download`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; fileName: string; expiresAt: string };
    expect(body.fileName).toBe(`headshot-${h!.id}.jpg`);
    const url = new URL(body.url);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="headshot-${h!.id}.jpg"`,
    );
    expect(url.searchParams.get('response-content-type')).toBe('image/jpeg');
    const file = await fetch(body.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="headshot-${h!.id}.jpg"`);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('delete one: 204, its JPEG and thumbnail are gone from S3, the others stay', async () => {
    const user = await signedUpUser();
    const [gone, kept] = await seedHeadshots(user.sub, 2, { withImages: 2 });
    expect(await headObject('results', gone!.imageKey)).toBeDefined();

    const res = await api(gatewayUrl, user.idToken, 'DELETE', `/api/headshots/${gone!.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await headObject('results', gone!.imageKey)).toBeUndefined();
    expect(await headObject('results', gone!.thumbnailKey)).toBeUndefined();
    expect(await headObject('results', kept!.imageKey)).toBeDefined();
    expect(await headObject('results', kept!.thumbnailKey)).toBeDefined();
    const page = await listPage(user, 'all');
    expect(page.items.map((i) => i.id)).toEqual([kept!.id]);
    expect(page.stats.total).toBe(1);

    // Gone is gone: a second delete, a favorite or a download of it is 404.
    for (const [method, path, body] of [
      ['DELETE', `/api/headshots/${gone!.id}`],
      ['PATCH', `/api/headshots/${gone!.id}`, { isFavorite: true }],
      ['GET', `/api/headshots/${gone!.id}/download`],
    ] as const) {
      expect((await api(gatewayUrl, user.idToken, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
  });

  it("another user's ids → 404 on every route, and nothing changes", async () => {
    const [owner, intruder] = await Promise.all([signedUpUser(), signedUpUser()]);
    const [h] = await seedHeadshots(owner.sub, 1, { withImages: 1 });
    const before = await itemsByKind(owner.sub);

    const attempts = [
      ['PATCH', `/api/headshots/${h!.id}`, { isFavorite: true }],
      ['GET', `/api/headshots/${h!.id}/download`, undefined],
      ['DELETE', `/api/headshots/${h!.id}`, undefined],
      // Ids that cannot name a headshot get the same answer.
      ['PATCH', '/api/headshots/not-an-id', { isFavorite: true }],
      ['GET', `/api/headshots/${h!.id.toLowerCase()}/download`, undefined],
      ['DELETE', `/api/headshots/${ulid()}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await api(gatewayUrl, intruder.idToken, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as ErrorBody).error).toEqual({
        code: 'NOT_FOUND',
        message: 'Headshot not found.',
      });
    }
    expect(await itemsByKind(owner.sub)).toEqual(before);
    expect(await headObject('results', h!.imageKey)).toBeDefined();
    expect(await headObject('results', h!.thumbnailKey)).toBeDefined();
    expect((await listPage(owner, 'all')).items).toEqual([
      expect.objectContaining({ id: h!.id, isFavorite: false }),
    ]);
    // The intruder deleting "their" data touches none of the owner's.
    expect((await api(gatewayUrl, intruder.idToken, 'DELETE', '/api/me/data')).status).toBe(200);
    expect(await itemsByKind(owner.sub)).toEqual(before);
    expect(await headObject('results', h!.imageKey)).toBeDefined();
  });
});

describe('DELETE /api/me/data', () => {
  /** A user with uploads (through the real presigned POST), generations, headshots with images, and a purchase. */
  async function userWithData(): Promise<{ user: TestUser; headshots: Seeded; uploads: string[] }> {
    const user = await signedUpUser();
    const uploads = await uploadPhotos(gatewayUrl, user.idToken, [
      fixturePhoto('obama.jpg'),
      fixturePhoto('obama3.jpg'),
    ]);
    // A normalized copy, as PrepareReferences writes one next to the upload.
    await putObject('uploads', `${uploads[0]!.replace(/\/0$/, '')}/normalized/0.jpg`, jpeg, 'image/jpeg');
    const generationIds = [ulid(), ulid()];
    const { TABLE_NAME } = loadConfig();
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [TABLE_NAME]: generationIds.map((id) => ({
            PutRequest: {
              Item: {
                ...newGenerationItem({
                  id,
                  sub: user.sub,
                  style: 'creative',
                  background: 'studio',
                  referenceKeys: uploads,
                  now: new Date().toISOString(),
                }),
                status: 'succeeded',
                stage: 'done',
                progress: 100,
              },
            },
          })),
        },
      }),
    );
    const headshots = [
      ...(await seedHeadshots(user.sub, 6, { withImages: 6, generationId: generationIds[0] })),
      ...(await seedHeadshots(user.sub, 30, { withImages: 30, generationId: generationIds[1] })),
    ];
    return { user, headshots, uploads };
  }

  it('deletes every upload, result image, headshot and generation; credits, purchases and ledger stay', async () => {
    const [{ user, headshots }, other] = await Promise.all([userWithData(), userWithData()]);
    // Buying and spending left their marks in the ledger and a purchase: those must survive.
    const sessionId = `cs_test_${ulid()}`;
    await grantCredits({
      sub: user.sub,
      amount: 40,
      ref: sessionId,
      related: {
        item: {
          PK: userPk(user.sub),
          SK: purchaseSk(sessionId),
          type: 'purchase',
          packId: 'starter',
          credits: 40,
          amountTotal: 3500,
          currency: 'usd',
          status: 'completed',
          createdAt: new Date().toISOString(),
        },
      },
    });
    await spendCredits({ sub: user.sub, amount: 2, ref: `test-${ulid()}` });
    // A checked photo leaves its face descriptor in the check cache: biometric data goes with the photos.
    await savePhotoFacts(user.sub, `uploads/${user.sub}/${ulid()}/0`, '"etag"', {
      width: 800,
      height: 1000,
      readable: true,
      faces: [{ left: 0.3, top: 0.2, right: 0.7, bottom: 0.6 }],
      descriptor: Array.from({ length: 8 }, () => Math.SQRT1_2 / 2),
    });
    const balance = (await getUser(user.sub))!.credits;
    const ledger = await listLedger(user.sub);
    const kindsBefore = await itemsByKind(user.sub);
    const otherBefore = await itemsByKind(other.user.sub);
    const otherObjects = [
      ...(await objectKeys('uploads', `uploads/${other.user.sub}/`)),
      ...(await objectKeys('results', `results/${other.user.sub}/`)),
    ];
    expect(otherObjects).toHaveLength(3 + 72);
    const objectsBefore =
      (await objectKeys('uploads', `uploads/${user.sub}/`)).length +
      (await objectKeys('results', `results/${user.sub}/`)).length;
    expect(objectsBefore).toBe(3 + headshots.length * 2);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 36, generations: 2, objects: objectsBefore } });

    expect(await objectKeys('uploads', `uploads/${user.sub}/`)).toEqual([]);
    expect(await objectKeys('results', `results/${user.sub}/`)).toEqual([]);
    const kindsAfter = await itemsByKind(user.sub);
    expect(kindsAfter.HEADSHOT).toBeUndefined();
    expect(kindsAfter.GENERATION).toBeUndefined();
    // Everything else (profile, ledger entries, their idempotency markers, the quota windows — deleting data must
    // not reset a quota) is untouched.
    expect(kindsBefore.PHOTOCHECK).toHaveLength(1);
    expect(kindsAfter.PHOTOCHECK).toBeUndefined();
    const { HEADSHOT: _h, GENERATION: _g, PHOTOCHECK: _p, ...accounting } = kindsBefore;
    expect(Object.keys(accounting).sort()).toEqual(['LEDGER', 'LEDGERREF', 'PROFILE', 'PURCHASE', 'QUOTA']);
    expect(kindsAfter).toEqual(accounting);
    expect((await getUser(user.sub))!.credits).toBe(balance);
    expect(await listLedger(user.sub)).toEqual(ledger);
    await expectLedgerBalanced(user.sub);
    expect(await listPage(user, 'all')).toEqual({
      items: [],
      nextCursor: null,
      stats: { total: 0, favorites: 0 },
    });

    // The other user's data is all there.
    expect(await itemsByKind(other.user.sub)).toEqual(otherBefore);
    expect([
      ...(await objectKeys('uploads', `uploads/${other.user.sub}/`)),
      ...(await objectKeys('results', `results/${other.user.sub}/`)),
    ]).toEqual(otherObjects);

    // Again: nothing left to delete.
    const again = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(await again.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 0 } });
  });

  it('deletes more than 1,000 objects under one prefix (several ListObjectsV2 pages and DeleteObjects calls)', async () => {
    const user = await signedUpUser();
    const other = await signedUpUser();
    const body = Buffer.from('x');
    // Written straight to S3 in parallel batches: the delete path is under test, not the upload path.
    const keys = (sub: string, count: number) =>
      Array.from({ length: count }, (_, i) => `results/${sub}/${ulid()}/${i}.jpg`);
    const mine = keys(user.sub, 1_234);
    const theirs = keys(other.sub, 3);
    const all = [...mine, ...theirs];
    for (let i = 0; i < all.length; i += 100) {
      await Promise.all(all.slice(i, i + 100).map((key) => putObject('results', key, body, 'image/jpeg')));
    }
    expect(await objectKeys('results', `results/${user.sub}/`)).toHaveLength(1_234);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 0, generations: 0, objects: 1_234 } });
    expect(await objectKeys('results', `results/${user.sub}/`)).toEqual([]);
    expect((await objectKeys('results', `results/${other.sub}/`)).sort()).toEqual([...theirs].sort());
  });

  it('refuses (409) while a generation is running, deleting nothing', async () => {
    const user = await signedUpUser();
    const id = ulid();
    await spendCredits({
      sub: user.sub,
      amount: 6,
      ref: id,
      related: {
        item: newGenerationItem({
          id,
          sub: user.sub,
          style: 'professional',
          background: 'office',
          referenceKeys: [uploadKey(user.sub, ulid(), 0)],
          now: new Date().toISOString(),
        }),
      },
    });
    const seeded = await seedHeadshots(user.sub, 2, { withImages: 2, generationId: id });
    const before = await itemsByKind(user.sub);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status).toBe(409);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('GENERATION_IN_PROGRESS');
    expect(body.error.message).toBe(
      'Your headshots are still being generated. Please wait until they are ready (about 2-3 minutes), then delete your photos.',
    );
    expect(await itemsByKind(user.sub)).toEqual(before);
    expect(await headObject('results', seeded[0]!.imageKey)).toBeDefined();
  });

  it('refunds a generation left unfinished longer than any execution can run, then deletes it', async () => {
    const user = await signedUpUser();
    const id = ulid(Date.now() - 3 * 3600_000);
    await spendCredits({
      sub: user.sub,
      amount: 6,
      ref: id,
      related: {
        item: {
          ...newGenerationItem({
            id,
            sub: user.sub,
            style: 'professional',
            background: 'office',
            referenceKeys: [uploadKey(user.sub, ulid(), 0)],
            now: new Date(Date.now() - 3 * 3600_000).toISOString(),
          }),
          status: 'running',
        },
      },
    });
    expect((await getUser(user.sub))!.credits).toBe(0);

    const res = await api(gatewayUrl, user.idToken, 'DELETE', '/api/me/data');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ deleted: { headshots: 0, generations: 1, objects: 0 } });
    // Its 6 undelivered headshots were refunded before the item went.
    expect((await getUser(user.sub))!.credits).toBe(6);
    expect((await listLedger(user.sub)).filter((e) => e.reason === 'refund')).toHaveLength(6);
    await expectLedgerBalanced(user.sub);
    expect((await itemsByKind(user.sub)).GENERATION).toBeUndefined();
  });
});
