import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { ulid } from 'ulid';
import { documentClient, s3Client } from '../../functions/adapters/support/aws';
import { batchPutItems, headshotSeedItem } from '../helpers/headshot-items';
import { newGenerationItem, type GenerationRecord } from '../../functions/adapters/generations';
import { saveHeadshot } from '../../functions/adapters/headshots/records';
import { finalizeGeneration } from '../../functions/use-cases/compensate-generation';
import { userPk, versionSk } from '../../functions/adapters/support/keys';
import { spendCredits } from '../../functions/adapters/ledger';
import { putObject } from '../../functions/adapters/storage';
import { storageSettings } from '../../functions/config/storage';
import { GENERATION_COST } from '../../functions/domain/credits';
import { headshotImageKey, headshotThumbnailKey } from '../../functions/domain/object-keys';

/**
 * Data a test needs before it attacks: headshots written the way the workflow writes them, and snapshots of
 * everything a user owns, to prove that an attack changed nothing.
 */

/**
 * A finished generation of `sub` with `slots` headshots (JPEG + WebP in the results bucket), made by the same
 * adapter calls as the workflow: the 6-credit spend with the generation item in one transaction, `saveHeadshot` per
 * slot, then Finalize (which refunds every empty slot). The user must have 6 credits.
 */
export async function seedGeneration(
  sub: string,
  slots: readonly number[],
): Promise<{ generation: GenerationRecord; headshotIds: string[] }> {
  const id = ulid();
  await spendCredits({
    sub,
    amount: GENERATION_COST,
    ref: id,
    related: {
      item: newGenerationItem({
        id,
        sub,
        style: 'creative',
        background: 'gradient',
        referenceKeys: [`uploads/${sub}/${ulid()}/0`],
        now: new Date().toISOString(),
      }),
    },
  });
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#345' } })
    .jpeg()
    .toBuffer();
  const thumbnail = await sharp(image).webp().toBuffer();
  const headshotIds: string[] = [];
  for (const slot of slots) {
    const imageKey = headshotImageKey(sub, id, slot);
    const thumbnailKey = headshotThumbnailKey(sub, id, slot);
    await putObject('results', imageKey, image, 'image/jpeg');
    await putObject('results', thumbnailKey, thumbnail, 'image/webp');
    const saved = await saveHeadshot({
      sub,
      generationId: id,
      slot,
      style: 'creative',
      background: 'gradient',
      imageKey,
      thumbnailKey,
    });
    headshotIds.push(saved.headshotId);
  }
  return { generation: await finalizeGeneration(sub, id), headshotIds };
}

/**
 * `count` bare headshot items for `sub`, shaped like `saveHeadshot` writes them, without images or a generation
 * (enough for listing and paging: the list only presigns the keys). Bypasses the ledger, so use it only for users
 * whose ledger the test does not reconcile against headshots (the invariant concerns credits only).
 */
export async function seedHeadshotItems(sub: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const items = Array.from({ length: count }, (_, i) => {
    const { id, item } = headshotSeedItem(sub, i, {
      style: (['professional', 'business-casual', 'creative'] as const)[i % 3]!,
      background: 'studio',
      isFavorite: i % 4 === 0,
      createdAt: new Date().toISOString(),
    });
    ids.push(id);
    return item;
  });
  await batchPutItems(storageSettings().TABLE_NAME, items);
  return ids;
}

/**
 * `count` bare version items of `sub`'s headshot `headshotId` (issue 36), shaped like `saveHeadshotVersion` writes
 * them (an upscale of the original, files under a fresh edit generation's folder), without images or the root's
 * `versionCount` (a list and a deletion need neither).
 *
 * @returns their ids, oldest first
 */
export async function seedVersionItems(sub: string, headshotId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => ulid());
  const items = ids.map((id) => {
    const generationId = ulid();
    return {
      PK: userPk(sub),
      SK: versionSk(headshotId, id),
      type: 'headshot-version',
      id,
      headshotId,
      userId: sub,
      generationId,
      slot: 0,
      edit: { kind: 'upscale' },
      transparent: false,
      imageKey: headshotImageKey(sub, generationId, 0),
      thumbnailKey: headshotThumbnailKey(sub, generationId, 0),
      creditsUsed: 1,
      createdAt: new Date().toISOString(),
    };
  });
  await batchPutItems(storageSettings().TABLE_NAME, items);
  return ids;
}

/** Everything a user owns: every item of their partition and every object under their S3 prefixes (with ETags). */
export interface OwnedSnapshot {
  items: Record<string, unknown>[];
  objects: { bucket: string; key: string; etag: string | undefined; size: number | undefined }[];
}

async function listObjects(bucket: string, prefix: string): Promise<OwnedSnapshot['objects']> {
  const objects: OwnedSnapshot['objects'] = [];
  let token: string | undefined;
  do {
    const page = await s3Client().send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) objects.push({ bucket, key: o.Key!, etag: o.ETag, size: o.Size });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

/** A strongly consistent snapshot of {@link OwnedSnapshot} for `sub`, sorted so two snapshots compare with toEqual. */
export async function snapshotOwned(sub: string): Promise<OwnedSnapshot> {
  const { TABLE_NAME, UPLOADS_BUCKET, RESULTS_BUCKET } = storageSettings();
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: TABLE_NAME,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': userPk(sub) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  const objects = [
    ...(await listObjects(UPLOADS_BUCKET, `uploads/${sub}/`)),
    ...(await listObjects(RESULTS_BUCKET, `results/${sub}/`)),
  ];
  items.sort((a, b) => String(a.SK).localeCompare(String(b.SK)));
  objects.sort((a, b) => `${a.bucket}/${a.key}`.localeCompare(`${b.bucket}/${b.key}`));
  return { items, objects };
}
