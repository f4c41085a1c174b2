import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../../config';
import type { GalleryStats } from '../../domain/gallery';
import { documentClient } from '../aws';
import { headshotSk, PROFILE_SK, userPk } from '../keys';
import { queryPages, updateIf } from '../support/query';

/**
 * The gallery's totals as counters on the user item (docs/architecture.md, data model), so `GET /api/headshots`
 * reads them with one GetItem instead of counting the partition on every request.
 *
 * Attributes of the user item (`USER#<sub>` / `PROFILE`):
 * - `headshotCount`, `favoriteCount`: whole numbers, changed with `ADD` in the SAME transaction that saves, favorites
 *   or deletes a headshot ({@link galleryCounterUpdate}), so they can never drift from the items;
 * - `galleryVersion`: `ADD 1` in each of those transactions (an optimistic lock for the backfill);
 * - `galleryCounted`: true once the counters are known to be exact.
 *
 * Backfill (data written before the counters existed, or after "delete all my data"): while `galleryCounted` is
 * absent the counters are not trusted. The first read counts the partition once (the COUNT query this replaces) and
 * writes the totals with `galleryCounted = true` only if `galleryVersion` has not moved since it read the item —
 * a headshot saved, favorited or deleted meanwhile makes it count again. Idempotent and safe under concurrency.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const HEADSHOT_PREFIX = headshotSk('');
/** Tries of the backfill before it answers with its own count without storing it (another writer kept winning). */
const BACKFILL_ATTEMPTS = 3;

const table = () => loadConfig().TABLE_NAME;
const profileKey = (sub: string) => ({ PK: userPk(sub), SK: PROFILE_SK });

/** A change of the gallery's totals: +1/-1 headshots, +1/-1/0 favorites. */
export interface GalleryDelta {
  headshots: number;
  favorites: number;
}

/**
 * The transaction item that applies `delta` to `sub`'s counters (and bumps `galleryVersion`); put it in the
 * TransactWriteItems that writes the headshot itself. It has no condition: it never makes the transaction fail.
 */
export function galleryCounterUpdate(sub: string, delta: GalleryDelta): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: profileKey(sub),
      UpdateExpression: 'ADD headshotCount :headshots, favoriteCount :favorites, galleryVersion :one',
      ExpressionAttributeValues: { ':headshots': delta.headshots, ':favorites': delta.favorites, ':one': 1 },
    },
  };
}

/**
 * Marks `sub`'s counters as not exact (the next {@link readGalleryStats} counts again). For changes made outside
 * the counter transactions: deleting all of a user's headshots with BatchWriteItem. No-op without a user item.
 */
export async function invalidateGalleryStats(sub: string): Promise<void> {
  await updateIf({
    Key: profileKey(sub),
    UpdateExpression: 'REMOVE galleryCounted ADD galleryVersion :one',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':one': 1 },
  });
}

/**
 * Counts the partition: one `Select: 'COUNT'` Query over `HEADSHOT#` with the favorite filter, through every
 * `LastEvaluatedKey` — `ScannedCount` sums to the total, `Count` to the favorites. Strongly consistent.
 */
export async function countHeadshots(sub: string): Promise<GalleryStats> {
  let total = 0;
  let favorites = 0;
  for await (const page of queryPages({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: '#isFavorite = :true',
    ExpressionAttributeNames: { '#isFavorite': 'isFavorite' },
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': HEADSHOT_PREFIX, ':true': true },
    Select: 'COUNT',
    ConsistentRead: true,
  })) {
    total += page.ScannedCount ?? 0;
    favorites += page.Count ?? 0;
  }
  return { total, favorites };
}

interface CounterAttributes {
  headshotCount?: number;
  favoriteCount?: number;
  galleryVersion?: number;
  galleryCounted?: boolean;
}

async function readCounters(sub: string): Promise<CounterAttributes | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: profileKey(sub),
      ProjectionExpression: 'headshotCount, favoriteCount, galleryVersion, galleryCounted',
      ConsistentRead: true,
    }),
  );
  return Item as CounterAttributes | undefined;
}

/** Stores counted totals, only if no counter transaction ran since `version` was read. */
async function storeCounted(sub: string, stats: GalleryStats, version: number | undefined): Promise<boolean> {
  return updateIf({
    Key: profileKey(sub),
    UpdateExpression: 'SET headshotCount = :total, favoriteCount = :favorites, galleryCounted = :true',
    ConditionExpression:
      version === undefined
        ? 'attribute_exists(PK) AND attribute_not_exists(galleryVersion)'
        : 'attribute_exists(PK) AND galleryVersion = :version',
    ExpressionAttributeValues: {
      ':total': stats.total,
      ':favorites': stats.favorites,
      ':true': true,
      ...(version === undefined ? {} : { ':version': version }),
    },
  });
}

/**
 * `sub`'s gallery totals: one strongly consistent GetItem of the user item's counters; counted once and stored
 * when they are not exact yet (see the module comment). A user without a user item gets a count, not stored.
 */
export async function readGalleryStats(sub: string): Promise<GalleryStats> {
  for (let attempt = 1; ; attempt++) {
    const counters = await readCounters(sub);
    if (counters?.galleryCounted === true) {
      return { total: Number(counters.headshotCount ?? 0), favorites: Number(counters.favoriteCount ?? 0) };
    }
    const counted = await countHeadshots(sub);
    if (!counters || attempt >= BACKFILL_ATTEMPTS) return counted;
    if (await storeCounted(sub, counted, counters.galleryVersion)) return counted;
  }
}
