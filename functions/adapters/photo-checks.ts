import { BatchGetCommand, PutCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import type { StoredFraming } from '../domain/framing';
import { decodeDescriptor, DESCRIPTOR_MODEL, encodeDescriptor } from '../domain/likeness';
import type { PhotoFacts } from '../domain/photo-checks';
import { PHOTO_CHECK_RETENTION_DAYS } from '../domain/retention';
import { documentClient } from './support/aws';
import { photoCheckSk, userPk } from './support/keys';
import { batchDelete, keyOf, queryAll } from './support/query';

/**
 * The photo-check cache (docs/architecture.md §2, §8): one item per checked upload, `PK = USER#<sub>`,
 * `SK = PHOTOCHECK#<upload key>`, holding the vision module's facts about the photo and the object's ETag. A re-check
 * of the same object (same ETag) reads the item instead of running the models, so it costs nothing; a replaced
 * object has another ETag and is analysed again. Items expire with the uploads (TTL `expiresAt`).
 * The item also keeps where the largest face's landmarks are (`framing`), so PrepareReferences crops the reference
 * photos from what the check learned instead of running the face models again.
 * Each item names the model of its descriptor (`descriptorModel`, functions/domain/likeness.ts `DESCRIPTOR_MODEL`):
 * an item of another model, or without the name (written before models were named: Human's faceres), is treated as
 * absent, so the photo is analysed again by the current model — descriptors of two models are never compared.
 */

/** How long a cached check is kept, in seconds: a day longer than uploads live (domain/retention.ts). */
export const PHOTO_CHECK_TTL_SECONDS = PHOTO_CHECK_RETENTION_DAYS * 24 * 3600;

interface PhotoCheckItem {
  PK: string;
  SK: string;
  type: 'photo-check';
  etag: string;
  facts: Omit<PhotoFacts, 'descriptor'>;
  /** The face descriptor as base64 float32 (512 B instead of 2.5 KB of JSON numbers). */
  descriptor?: string;
  /** The model that made the item's facts and descriptor (absent on items written before models were named). */
  descriptorModel?: string;
  /** The largest face's framing landmarks (absent without a face, and on items written before they were kept). */
  framing?: StoredFraming;
  createdAt: string;
  expiresAt: number;
}

const table = () => storageSettings().TABLE_NAME;

/** What a photo check stored about one upload. */
export interface CachedPhotoCheck {
  facts: PhotoFacts;
  /** The largest face's framing landmarks; absent without a face, or on checks stored before they were kept. */
  framing?: StoredFraming;
}

/**
 * The cached checks of the given uploads whose ETag still matches, made by the current descriptor model.
 *
 * @returns checks by upload key (keys without a current entry are absent)
 */
export async function cachedPhotoChecks(
  sub: string,
  uploads: readonly { key: string; etag: string }[],
): Promise<Map<string, CachedPhotoCheck>> {
  const found = new Map<string, CachedPhotoCheck>();
  if (uploads.length === 0) return found;
  let keys: Record<string, unknown>[] | undefined = uploads.map(({ key }) => ({
    PK: userPk(sub),
    SK: photoCheckSk(key),
  }));
  const etags = new Map(uploads.map((u) => [u.key, u.etag]));
  // BatchGetItem may leave keys unprocessed under load: ask again for those (at most 10 keys, a few rounds).
  for (let round = 0; keys && keys.length > 0 && round < 5; round++) {
    const answer: BatchGetCommandOutput = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [table()]: { Keys: keys } } }),
    );
    for (const item of (answer.Responses?.[table()] ?? []) as PhotoCheckItem[]) {
      const key = item.SK.slice('PHOTOCHECK#'.length);
      if (etags.get(key) !== item.etag || item.descriptorModel !== DESCRIPTOR_MODEL) continue;
      found.set(key, {
        facts: {
          ...item.facts,
          ...(item.descriptor ? { descriptor: decodeDescriptor(item.descriptor) } : {}),
        },
        ...(item.framing ? { framing: item.framing } : {}),
      });
    }
    keys = answer.UnprocessedKeys?.[table()]?.Keys;
  }
  return found;
}

/**
 * The cached facts of the given uploads whose ETag still matches (see {@link cachedPhotoChecks}).
 *
 * @returns facts by upload key (keys without a current entry are absent)
 */
export async function cachedPhotoFacts(
  sub: string,
  uploads: readonly { key: string; etag: string }[],
): Promise<Map<string, PhotoFacts>> {
  const checks = await cachedPhotoChecks(sub, uploads);
  return new Map([...checks].map(([key, { facts }]) => [key, facts]));
}

/**
 * Stores the facts of one upload at its ETag (replacing an older entry).
 *
 * @param framing the largest face's framing landmarks (see {@link CachedPhotoCheck}), when the photo has a face
 */
export async function savePhotoFacts(
  sub: string,
  key: string,
  etag: string,
  facts: PhotoFacts,
  framing?: StoredFraming,
  now = new Date(),
): Promise<void> {
  const { descriptor, ...rest } = facts;
  const item: PhotoCheckItem = {
    PK: userPk(sub),
    SK: photoCheckSk(key),
    type: 'photo-check',
    etag,
    facts: rest,
    ...(descriptor ? { descriptor: encodeDescriptor(descriptor) } : {}),
    descriptorModel: DESCRIPTOR_MODEL,
    ...(framing ? { framing } : {}),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + PHOTO_CHECK_TTL_SECONDS,
  };
  await documentClient().send(new PutCommand({ TableName: table(), Item: item }));
}

/** Deletes every cached photo check of `sub` (they hold face descriptors: biometric data goes with the photos). */
export async function deletePhotoChecks(sub: string): Promise<void> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': photoCheckSk('') },
    ProjectionExpression: 'PK, SK',
    ConsistentRead: true,
  });
  await batchDelete(items.map(keyOf));
}
