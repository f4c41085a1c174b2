import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { expect, inject } from 'vitest';
import { closeGeneration, markFinished } from '../../functions/adapters/generations';
import { documentClient, s3Client } from '../../functions/adapters/support/aws';
import { getHeadshots, saveHeadshot, type HeadshotRecord } from '../../functions/adapters/headshots/records';
import { GALLERY_STATS_SK } from '../../functions/adapters/support/keys';
import type { Headshot } from '../../functions/contracts';
import { putObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import type { GalleryFilter } from '../../functions/domain/gallery';
import { CANVAS_SIZES } from '../../functions/domain/headshot-variants';
import { HEADSHOT_SIDE, LOCAL_PROVIDER, THUMBNAIL_SIDE } from '../../functions/domain/headshot-images';
import type { Background, Style } from '../../functions/domain/styles';
import { OUTFITS } from '../../functions/domain/outfits';
import {
  headshotImageKey,
  headshotThumbnailKey,
  headshotVariantKey,
} from '../../functions/domain/object-keys';
import { createTestUser, type TestUser } from './cognito';
import { api } from './generation';
import { spendOnGeneration } from './generation-items';

/*
 * The gallery tests' fixtures, on the shared local stack: headshots seeded as the workflow stores them (items in the
 * table, a JPEG and a WebP thumbnail in the results bucket), the gallery read page by page, and what a user has left
 * in the table and the buckets.
 */

/** A gallery item as the tests read it. */
export type Item = Headshot;
/** One page of `GET /api/headshots`. */
export interface Page {
  items: Item[];
  nextCursor: string | null;
  stats: { total: number; favorites: number };
}
/** The API's error body. */
export interface ErrorBody {
  error: { code: string; message: string };
}

export const STYLES: Style[] = ['professional', 'business-casual', 'creative'];
export const BACKGROUNDS = ['office', 'studio', 'outdoor', 'gradient'] as const;

/** A new user of the shared stack's pool, with their user item (`GET /api/me`). */
export async function signedUpUser(): Promise<TestUser> {
  const { gatewayUrl, runtimeConfig } = inject('localStack');
  const user = await createTestUser({
    userPoolId: runtimeConfig.userPoolId,
    clientId: runtimeConfig.userPoolClientId,
  });
  expect((await api(gatewayUrl, user.idToken, 'GET', '/api/me')).status).toBe(200);
  return user;
}

let images: Promise<{ jpeg: Buffer; webp: Buffer }> | undefined;

/** A small JPEG and its WebP thumbnail, made once: what the workflow stores for a headshot. */
export function sampleImages(): Promise<{ jpeg: Buffer; webp: Buffer }> {
  images ??= (async () => {
    const image = sharp({ create: { width: 16, height: 16, channels: 3, background: '#7a869a' } });
    const [jpeg, webp] = await Promise.all([
      image.clone().jpeg().toBuffer(),
      image.clone().webp().toBuffer(),
    ]);
    return { jpeg, webp };
  })();
  return images;
}

/** What {@link seedHeadshots} wrote, newest first. */
export type Seeded = HeadshotRecord[];

/**
 * Writes `count` headshots of one generation the way the workflow stores them: ULIDs a millisecond apart (so their
 * order is known), styles cycling professional → business-casual → creative, every `favoriteEvery`th a favorite,
 * plus the JPEG and thumbnail for the first `withImages` of them (newest first).
 */
export async function seedHeadshots(
  sub: string,
  count: number,
  options: { favoriteEvery?: number; withImages?: number; generationId?: string; teamId?: string } = {},
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
    // Every outfit; every tenth has none, as headshots made before outfits (their own clothing).
    ...(i % 10 === 0 ? {} : { outfit: OUTFITS[i % 5]! }),
    imageKey: headshotImageKey(sub, generationId, i),
    thumbnailKey: headshotThumbnailKey(sub, generationId, i),
    isFavorite: options.favoriteEvery ? i % options.favoriteEvery === 0 : false,
    creditsUsed: 1,
    createdAt: new Date(start + i).toISOString(),
    // A team-paid generation's headshots carry their team, as finishHeadshot writes them (docs/teams.md "Items").
    ...(options.teamId === undefined ? {} : { teamId: options.teamId }),
  }));
  const { TABLE_NAME } = storageSettings();
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
  const { jpeg, webp } = await sampleImages();
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

/** A headshot's four files at the sizes the workflow stores them (functions/use-cases/headshot-files.ts). */
interface HeadshotFileSet {
  /** The 1024×1024 JPEG (`imageKey`). */
  square: Buffer;
  /** The WebP thumbnail, 384 px. */
  thumbnail: Buffer;
  /** The 4:5 JPEG, 1024×1280: the whole standard canvas. */
  portrait: Buffer;
  /** The canvas as PNG, 1024×1280. */
  original: Buffer;
}

let fileSet: Promise<HeadshotFileSet> | undefined;

/** One plain standard canvas cut and encoded as a headshot's four files, made once per process and shared by all. */
function headshotFileSet(): Promise<HeadshotFileSet> {
  fileSet ??= (async () => {
    const { width, height } = CANVAS_SIZES.flexible.standard;
    const canvas = sharp({ create: { width, height, channels: 3, background: '#8a94a6' } });
    const square = canvas.clone().resize(HEADSHOT_SIDE, HEADSHOT_SIDE, { position: 'top' });
    const [squareJpeg, thumbnail, portrait, original] = await Promise.all([
      square.clone().jpeg().toBuffer(),
      square.clone().resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE).webp().toBuffer(),
      canvas.clone().jpeg().toBuffer(),
      canvas.clone().png().toBuffer(),
    ]);
    return { square: squareJpeg, thumbnail, portrait, original };
  })();
  return fileSet;
}

/** What {@link seedGeneration} made. */
export interface SeededGeneration {
  /** The generation's id. */
  id: string;
  /** Its six headshots, by slot. */
  headshots: HeadshotRecord[];
}

/**
 * A finished generation of `sub` as the workflow leaves one, without running it, for the browser tests whose subject
 * comes after it (the gallery, the results screen): its 6 credits spent in the ledger with the generation item
 * (./generation-items.ts `spendOnGeneration`, as `POST /api/generations` does), then its six headshots saved through
 * the headshot store (slots, `imagesSaved`, the gallery's counters: adapters/headshots/records.ts `saveHeadshot`) in
 * one `style` and `background`, made by `provider` (default `local`, the offline composites the local stack makes),
 * each with a likeness (92 % down to 77 %) and its four files at their real sizes, and the generation closed and
 * `succeeded`. Needs the stack's environment in `process.env`.
 *
 * @throws as `spendCredits` does when `sub` has fewer than 6 credits
 */
export async function seedGeneration(
  sub: string,
  {
    style = 'professional',
    background = 'office',
    provider = LOCAL_PROVIDER,
  }: { style?: Style; background?: Background; provider?: string } = {},
): Promise<SeededGeneration> {
  const id = await spendOnGeneration(sub, { style, background });
  const files = await headshotFileSet();
  const { width, height } = CANVAS_SIZES.flexible.standard;
  const ids: string[] = [];
  for (let slot = 0; slot < 6; slot += 1) {
    const key = (variant: 'portrait' | 'original') => headshotVariantKey(sub, id, slot, variant);
    const stored = {
      imageKey: headshotVariantKey(sub, id, slot, 'square'),
      thumbnailKey: headshotThumbnailKey(sub, id, slot),
      variants: {
        portrait: { key: key('portrait'), width, height, bytes: files.portrait.length },
        original: { key: key('original'), width, height, bytes: files.original.length },
      },
    };
    await Promise.all([
      putObject('results', stored.imageKey, files.square, 'image/jpeg'),
      putObject('results', stored.thumbnailKey, files.thumbnail, 'image/webp'),
      putObject('results', stored.variants.portrait.key, files.portrait, 'image/jpeg'),
      putObject('results', stored.variants.original.key, files.original, 'image/png'),
    ]);
    const likeness = 92 - 3 * slot;
    const saved = await saveHeadshot({
      sub,
      generationId: id,
      slot,
      style,
      background,
      likeness,
      provider,
      ...stored,
    });
    ids.push(saved.headshotId);
  }
  await closeGeneration(sub, id);
  await markFinished(sub, id, 'succeeded');
  return { id, headshots: await getHeadshots(sub, ids) };
}

/** `GET /api/headshots<query>` as `user`. */
export const list = (user: TestUser, query = '') =>
  api(inject('localStack').gatewayUrl, user.idToken, 'GET', `/api/headshots${query}`);

/** One page of the gallery with `filter`, from `cursor`; expects 200. */
export async function listPage(user: TestUser, filter: GalleryFilter, cursor?: string | null): Promise<Page> {
  const params = new URLSearchParams({ filter });
  if (cursor) params.set('cursor', cursor);
  const res = await list(user, `?${params}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

/** Follows `nextCursor` to the end; returns every page. */
export async function allPages(user: TestUser, filter: GalleryFilter): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await listPage(user, filter, cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

/** Every key under `prefix` in the uploads or results bucket, across ListObjectsV2 pages. */
export async function objectKeys(bucket: 'uploads' | 'results', prefix: string): Promise<string[]> {
  const config = storageSettings();
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

/** Every item of the user's partition but the gallery's stats item, by kind (the part of SK before '#'). */
export async function itemsByKind(sub: string): Promise<Record<string, Record<string, unknown>[]>> {
  const { Items = [] } = await documentClient().send(
    new QueryCommand({
      TableName: storageSettings().TABLE_NAME,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `USER#${sub}` },
      ConsistentRead: true,
    }),
  );
  const kinds: Record<string, Record<string, unknown>[]> = {};
  for (const item of Items) {
    // The gallery's stats item follows the headshots (functions/adapters/headshots/stats.ts) and is made by the
    // first read of the gallery: what these tests watch is the rest.
    if (item.SK === GALLERY_STATS_SK) continue;
    const kind = String(item.SK).split('#')[0]!;
    (kinds[kind] ??= []).push(item);
  }
  return kinds;
}
