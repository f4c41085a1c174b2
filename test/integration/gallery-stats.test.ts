import { BatchWriteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { describe, expect, inject, it } from 'vitest';
import { documentClient } from '../../functions/adapters/support/aws';
import { closeGeneration, newGenerationItem } from '../../functions/adapters/generations';
import {
  deleteAllHeadshotItems,
  deleteHeadshot,
  setFavorite,
} from '../../functions/adapters/headshots/changes';
import { getHeadshot, saveHeadshot } from '../../functions/adapters/headshots/records';
import {
  deleteHeadshotVersion,
  deleteHeadshotVersions,
  getHeadshotVersion,
  listHeadshotVersions,
  listVersionKeys,
  saveHeadshotVersion,
} from '../../functions/adapters/headshots/versions';
import { GenerationClosedError } from '../../functions/domain/generation-errors';
import { HeadshotDeletedError } from '../../functions/domain/headshot-versions';
import { galleryCounterUpdate, readGalleryStats } from '../../functions/adapters/headshots/stats';
import { deleteMyData } from '../../functions/use-cases/delete-my-data';
import { GALLERY_STATS_SK, generationSk, PROFILE_SK, userPk } from '../../functions/adapters/support/keys';
import { ensureUser } from '../../functions/adapters/user-creation';
import { storageSettings } from '../../functions/config/storage';
import { headshotImageKey, headshotThumbnailKey } from '../../functions/domain/object-keys';

/*
 * The gallery's totals are counters on a stats item beside the headshots, kept in the transactions that save,
 * favorite and delete headshots, and counted once for data written before they existed
 * (functions/adapters/headshots/stats.ts). Runs on DynamoDB Local (test/integration/global-setup.ts).
 */

inject('localStack');
const table = () => storageSettings().TABLE_NAME;

async function newUser(): Promise<string> {
  const sub = crypto.randomUUID();
  await ensureUser(sub, `${sub}@example.com`);
  return sub;
}

const item = async (sub: string, SK: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: table(), Key: { PK: userPk(sub), SK }, ConsistentRead: true }),
    )
  ).Item;

/** The counters of the stats item. */
async function counters(sub: string) {
  const Item = await item(sub, GALLERY_STATS_SK);
  return {
    headshotCount: Item?.headshotCount,
    favoriteCount: Item?.favoriteCount,
    galleryCounted: Item?.galleryCounted,
  };
}

/** Headshot items written straight to the table, as data from before the counters existed. */
async function seedLegacyHeadshots(sub: string, count: number, favoriteEvery: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => ulid());
  const generationId = ulid();
  await documentClient().send(
    new BatchWriteCommand({
      RequestItems: {
        [table()]: ids.map((id, i) => ({
          PutRequest: {
            Item: {
              PK: userPk(sub),
              SK: `HEADSHOT#${id}`,
              type: 'headshot',
              id,
              userId: sub,
              generationId,
              slot: i % 6,
              style: 'professional',
              background: 'studio',
              imageKey: headshotImageKey(sub, generationId, i),
              thumbnailKey: headshotThumbnailKey(sub, generationId, i),
              isFavorite: i % favoriteEvery === 0,
              creditsUsed: 1,
              createdAt: new Date().toISOString(),
            },
          },
        })),
      },
    }),
  );
  return ids;
}

async function openGeneration(sub: string): Promise<string> {
  const id = ulid();
  await documentClient().send(
    new BatchWriteCommand({
      RequestItems: {
        [table()]: [
          {
            PutRequest: {
              Item: newGenerationItem({
                id,
                sub,
                style: 'creative',
                background: 'office',
                referenceKeys: [],
                now: new Date().toISOString(),
              }),
            },
          },
        ],
      },
    }),
  );
  return id;
}

const save = (sub: string, generationId: string, slot: number) =>
  saveHeadshot({
    sub,
    generationId,
    slot,
    style: 'creative',
    background: 'office',
    imageKey: headshotImageKey(sub, generationId, slot),
    thumbnailKey: headshotThumbnailKey(sub, generationId, slot),
  });

describe('gallery counters', () => {
  it('backfills data from before the counters once, then reads the counters', async () => {
    const sub = await newUser();
    await seedLegacyHeadshots(sub, 12, 4);
    expect(await counters(sub)).toEqual({
      headshotCount: undefined,
      favoriteCount: undefined,
      galleryCounted: undefined,
    });
    expect(await readGalleryStats(sub)).toEqual({ total: 12, favorites: 3 });
    expect(await counters(sub)).toEqual({ headshotCount: 12, favoriteCount: 3, galleryCounted: true });

    // From now on the counters are the answer: an item written behind their back is not counted again.
    await seedLegacyHeadshots(sub, 1, 1);
    expect(await readGalleryStats(sub)).toEqual({ total: 12, favorites: 3 });
  });

  it('overwrites counter changes made before the backfill with the exact count', async () => {
    const sub = await newUser();
    await seedLegacyHeadshots(sub, 5, 5);
    // Saves that ran before the first read only ADDed to absent counters: 1 is not the gallery's size.
    await documentClient().send(
      new UpdateCommand(galleryCounterUpdate(sub, { headshots: 1, favorites: 0 }).Update!),
    );
    expect(await readGalleryStats(sub)).toEqual({ total: 5, favorites: 1 });
    expect(await counters(sub)).toEqual({ headshotCount: 5, favoriteCount: 1, galleryCounted: true });
  });

  it('follows saves, favorites (idempotent) and deletes in their own transactions', async () => {
    const sub = await newUser();
    expect(await readGalleryStats(sub)).toEqual({ total: 0, favorites: 0 });
    const generationId = await openGeneration(sub);
    const saved = await Promise.all([0, 1, 2, 3].map((slot) => save(sub, generationId, slot)));
    // A repeated save of a slot saves nothing and counts nothing.
    expect((await save(sub, generationId, 0)).saved).toBe(false);
    expect(await readGalleryStats(sub)).toEqual({ total: 4, favorites: 0 });

    const [a, b, c] = saved.map((s) => s.headshotId);
    expect((await setFavorite(sub, a!, true))?.isFavorite).toBe(true);
    expect((await setFavorite(sub, a!, true))?.isFavorite).toBe(true);
    await setFavorite(sub, b!, true);
    expect(await readGalleryStats(sub)).toEqual({ total: 4, favorites: 2 });
    await setFavorite(sub, b!, false);
    await setFavorite(sub, b!, false);
    expect(await readGalleryStats(sub)).toEqual({ total: 4, favorites: 1 });
    expect(await setFavorite(sub, ulid(), true)).toBeUndefined();

    expect(await deleteHeadshot(sub, a!)).toBe(true);
    expect(await deleteHeadshot(sub, c!)).toBe(true);
    expect(await deleteHeadshot(sub, c!)).toBe(false);
    expect(await readGalleryStats(sub)).toEqual({ total: 2, favorites: 0 });
    expect(await counters(sub)).toEqual({ headshotCount: 2, favoriteCount: 0, galleryCounted: true });
  });

  it('keeps versions beside the gallery: a save counts on its headshot only, needs it and an open generation, and deletes take them', async () => {
    const sub = await newUser();
    const generationId = await openGeneration(sub);
    const [{ headshotId: root }, { headshotId: other }] = await Promise.all([
      save(sub, generationId, 0),
      save(sub, generationId, 1),
    ]);
    const edits = await Promise.all([0, 1, 2, 3].map(() => openGeneration(sub)));
    const saveVersion = (headshotId: string, editGenerationId: string) =>
      saveHeadshotVersion({
        sub,
        headshotId,
        generationId: editGenerationId,
        slot: 0,
        edit: { kind: 'upscale' },
        transparent: false,
        imageKey: headshotImageKey(sub, editGenerationId, 0),
        thumbnailKey: headshotThumbnailKey(sub, editGenerationId, 0),
        likeness: 90,
        provider: 'openai',
      });
    const v1 = await saveVersion(root, edits[0]!);
    expect(v1.saved).toBe(true);
    // A retried task finds the slot saved: the same version, nothing counted twice.
    expect(await saveVersion(root, edits[0]!)).toEqual({ versionId: v1.versionId, saved: false });
    const v2 = await saveVersion(root, edits[1]!);
    expect((await listHeadshotVersions(sub, root)).map((v) => v.id)).toEqual([v1.versionId, v2.versionId]);
    expect((await getHeadshot(sub, root))?.versionCount).toBe(2);
    expect((await item(sub, generationSk(edits[0]!)))?.slots).toEqual({ 0: v1.versionId });
    expect(await readGalleryStats(sub)).toEqual({ total: 2, favorites: 0 });
    expect(await getHeadshotVersion(sub, root, v1.versionId)).toMatchObject({
      headshotId: root,
      edit: { kind: 'upscale' },
      transparent: false,
      creditsUsed: 1,
    });
    expect(await getHeadshotVersion(crypto.randomUUID(), root, v1.versionId)).toBeUndefined();

    expect(await deleteHeadshotVersion(sub, root, v1.versionId)).toBe(true);
    expect(await deleteHeadshotVersion(sub, root, v1.versionId)).toBe(false);
    expect((await getHeadshot(sub, root))?.versionCount).toBe(1);

    // A deleted headshot refuses the save, writing nothing; so does a closed generation.
    await deleteHeadshot(sub, other);
    await expect(saveVersion(other, edits[2]!)).rejects.toBeInstanceOf(HeadshotDeletedError);
    expect((await item(sub, generationSk(edits[2]!)))?.slots).toEqual({});
    expect(await listHeadshotVersions(sub, other)).toEqual([]);
    await closeGeneration(sub, edits[3]!);
    await expect(saveVersion(root, edits[3]!)).rejects.toBeInstanceOf(GenerationClosedError);

    expect(await deleteHeadshotVersions(sub, root)).toBe(1);
    await saveVersion(root, edits[2]!);
    expect(await deleteAllHeadshotItems(sub)).toBe(1);
    expect(await listVersionKeys(sub)).toEqual([]);
    expect(await readGalleryStats(sub)).toEqual({ total: 0, favorites: 0 });
  });

  it('counts concurrent favorite toggles exactly', async () => {
    const sub = await newUser();
    const generationId = await openGeneration(sub);
    const saved = await Promise.all([0, 1, 2, 3, 4, 5].map((slot) => save(sub, generationId, slot)));
    await readGalleryStats(sub);
    const ids = saved.map((s) => s.headshotId);
    await Promise.all([...ids, ...ids].map((id, i) => setFavorite(sub, id, i % 3 !== 0)));
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': 'HEADSHOT#' },
        ConsistentRead: true,
      }),
    );
    const favorites = (Items ?? []).filter((item) => item.isFavorite === true).length;
    expect(await readGalleryStats(sub)).toEqual({ total: 6, favorites });
  });

  it('replaces the counters an existing user item held with a count, and removes them there', async () => {
    const sub = await newUser();
    await seedLegacyHeadshots(sub, 7, 2);
    // Counters from before the stats item, stale on purpose: they must not be taken over.
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: { PK: userPk(sub), SK: PROFILE_SK },
        UpdateExpression:
          'SET headshotCount = :n, favoriteCount = :n, galleryVersion = :n, galleryCounted = :true',
        ExpressionAttributeValues: { ':n': 99, ':true': true },
      }),
    );
    expect(await readGalleryStats(sub)).toEqual({ total: 7, favorites: 4 });
    expect(await counters(sub)).toEqual({ headshotCount: 7, favoriteCount: 4, galleryCounted: true });
    const profile = await item(sub, PROFILE_SK);
    expect(profile).toMatchObject({ PK: userPk(sub), email: `${sub}@example.com` });
    for (const name of ['headshotCount', 'favoriteCount', 'galleryVersion', 'galleryCounted'])
      expect(profile).not.toHaveProperty(name);
  });

  it('counts again after all of a user’s data is deleted', async () => {
    const sub = await newUser();
    await seedLegacyHeadshots(sub, 3, 1);
    expect(await readGalleryStats(sub)).toEqual({ total: 3, favorites: 3 });
    expect(await deleteMyData(sub)).toMatchObject({ headshots: 3 });
    expect(await item(sub, GALLERY_STATS_SK)).toBeUndefined();
    expect(await readGalleryStats(sub)).toEqual({ total: 0, favorites: 0 });
    const generationId = await openGeneration(sub);
    await save(sub, generationId, 0);
    expect(await readGalleryStats(sub)).toEqual({ total: 1, favorites: 0 });
  });

  it('counts for a user without a user item and writes nothing: neither a stats item nor a user item', async () => {
    const sub = crypto.randomUUID();
    await seedLegacyHeadshots(sub, 2, 1);
    expect(await readGalleryStats(sub)).toEqual({ total: 2, favorites: 2 });
    expect(await item(sub, GALLERY_STATS_SK)).toBeUndefined();
    expect(await item(sub, PROFILE_SK)).toBeUndefined();
  });

  it('only counts while the account is being deleted, and refuses a deleted account (410), writing nothing', async () => {
    const sub = await newUser();
    await seedLegacyHeadshots(sub, 2, 2);
    const mark = (name: 'deletingAt' | 'deletedAt') =>
      documentClient().send(
        new UpdateCommand({
          TableName: table(),
          Key: { PK: userPk(sub), SK: PROFILE_SK },
          UpdateExpression: 'SET #at = :now',
          ExpressionAttributeNames: { '#at': name },
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      );
    await mark('deletingAt');
    expect(await readGalleryStats(sub)).toEqual({ total: 2, favorites: 1 });
    expect(await item(sub, GALLERY_STATS_SK)).toBeUndefined();
    await mark('deletedAt');
    await expect(readGalleryStats(sub)).rejects.toMatchObject({ name: 'AccountDeletedError' });
    expect(await item(sub, GALLERY_STATS_SK)).toBeUndefined();
  });
});
