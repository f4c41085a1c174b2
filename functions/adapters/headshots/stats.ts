import { DeleteCommand, GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import { AccountDeletedError } from '../../domain/errors';
import type { GalleryStats } from '../../domain/gallery';
import { documentClient } from '../support/aws';
import { GALLERY_STATS_SK, headshotSk, PROFILE_SK, userPk } from '../support/keys';
import { queryPages, updateIf } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';

/**
 * The gallery's totals as counters on ONE stats item beside the headshots (docs/architecture.md §2, data model), so
 * `GET /api/headshots` never counts the partition: its first page's Query reads the stats item together with the
 * page (adapters/keys.ts `GALLERY_STATS_SK` sorts at the head of the newest-first range), later pages read it with one
 * GetItem.
 *
 * The stats item (`USER#<sub>` / `HEADSHOT$STATS`, `type` `galleryStats`):
 * - `headshotCount`, `favoriteCount`: whole numbers, changed with `ADD` in the SAME transaction that saves, favorites
 *   or deletes a headshot ({@link galleryCounterUpdate}), so they can never drift from the items;
 * - `galleryVersion`: `ADD 1` in each of those transactions (an optimistic lock for the backfill);
 * - `galleryCounted`: true once the counters are known to be exact.
 *
 * Backfill (a user whose headshots were saved before this item existed, or after "delete all my data", which deletes
 * it): while `galleryCounted` is absent the counters are not trusted. The first read makes sure the item exists
 * (`ADD galleryVersion 0`, in a transaction with a check that the user item exists and its account is neither
 * deleted nor being deleted: otherwise it only counts, and a deleted account's token gets 410
 * `AccountDeletedError`), counts the partition once and writes the totals with `galleryCounted = true` only if
 * `galleryVersion` is still the one it started from and the item is still there — a headshot saved, favorited or
 * deleted meanwhile, or all of them deleted, makes it count again. Idempotent and safe under concurrency.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The stats item's `type`. */
export const GALLERY_STATS_TYPE = 'galleryStats';
const HEADSHOT_PREFIX = headshotSk('');
/** Tries of the backfill before it answers with its own count without storing it (another writer kept winning). */
const BACKFILL_ATTEMPTS = 3;

const table = () => storageSettings().TABLE_NAME;
const statsKey = (sub: string) => ({ PK: userPk(sub), SK: GALLERY_STATS_SK });

/** A change of the gallery's totals: +1/-1 headshots, +1/-1/0 favorites. */
export interface GalleryDelta {
  headshots: number;
  favorites: number;
}

/**
 * The transaction item that applies `delta` to `sub`'s counters (and bumps `galleryVersion`), creating the stats
 * item if needed; put it in the TransactWriteItems that writes the headshot itself. It has no condition: it never
 * makes the transaction fail.
 */
export function galleryCounterUpdate(sub: string, delta: GalleryDelta): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: statsKey(sub),
      UpdateExpression:
        'SET #type = :type ADD headshotCount :headshots, favoriteCount :favorites, galleryVersion :one',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': GALLERY_STATS_TYPE,
        ':headshots': delta.headshots,
        ':favorites': delta.favorites,
        ':one': 1,
      },
    },
  };
}

/** True for the stats item as a Query of the gallery's key range returns it. */
export function isGalleryStatsItem(item: Record<string, unknown>): boolean {
  return item.SK === GALLERY_STATS_SK;
}

/** The totals of a stats item as read, or `undefined` when there is none or its counters are not exact yet. */
export function exactStats(item: Record<string, unknown> | undefined): GalleryStats | undefined {
  if (item?.galleryCounted !== true) return undefined;
  return { total: Number(item.headshotCount ?? 0), favorites: Number(item.favoriteCount ?? 0) };
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

async function readStatsItem(sub: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: table(), Key: statsKey(sub), ConsistentRead: true }),
  );
  return Item;
}

/** The user item's guard for creating the stats item: it exists and its account is not (being) deleted. */
function activeUserCheck(sub: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: table(),
      Key: { PK: userPk(sub), SK: PROFILE_SK },
      ConditionExpression:
        'attribute_exists(PK) AND attribute_not_exists(deletingAt) AND attribute_not_exists(deletedAt)',
    },
  };
}

/**
 * Creates the stats item if it is missing (no counters yet), in one transaction with {@link activeUserCheck}: a
 * still-valid token of a deleted account, one whose deletion is under way (which deletes the stats item) or a
 * caller without a user item must not leave a stats item behind.
 *
 * @returns its `galleryVersion`, or `'refused'` when the user item refused (nothing was written)
 * @throws {AccountDeletedError} (410) when the account was deleted: the user item is its tombstone
 */
async function openStatsItem(sub: string): Promise<number | 'refused'> {
  try {
    await transactWrite([
      activeUserCheck(sub),
      {
        Update: {
          TableName: table(),
          Key: statsKey(sub),
          UpdateExpression: 'SET #type = :type ADD galleryVersion :zero',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': GALLERY_STATS_TYPE, ':zero': 0 },
        },
      },
    ]);
  } catch (error) {
    if (cancellationCodes(error)?.[0] !== 'ConditionalCheckFailed') throw error;
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: table(),
        Key: { PK: userPk(sub), SK: PROFILE_SK },
        ProjectionExpression: 'deletedAt',
      }),
    );
    if (Item?.deletedAt) throw new AccountDeletedError();
    return 'refused';
  }
  // A transaction returns no attributes; the version read now is the one a counter transaction since would change.
  return Number((await readStatsItem(sub))?.galleryVersion ?? 0);
}

/**
 * Removes the counters the user item held before the stats item existed (nothing reads them any more). Once per
 * user, beside the backfill; a user item without them is left alone.
 */
async function dropUserItemCounters(sub: string): Promise<void> {
  await updateIf({
    Key: { PK: userPk(sub), SK: PROFILE_SK },
    UpdateExpression: 'REMOVE headshotCount, favoriteCount, galleryVersion, galleryCounted',
    ConditionExpression: 'attribute_exists(galleryVersion)',
  });
}

/** Stores counted totals, only if the stats item is still there and no counter transaction ran since `version`. */
async function storeCounted(sub: string, stats: GalleryStats, version: number): Promise<boolean> {
  return updateIf({
    Key: statsKey(sub),
    UpdateExpression: 'SET headshotCount = :total, favoriteCount = :favorites, galleryCounted = :true',
    ConditionExpression: 'galleryVersion = :version',
    ExpressionAttributeValues: {
      ':total': stats.total,
      ':favorites': stats.favorites,
      ':true': true,
      ':version': version,
    },
  });
}

/**
 * The backfill (see the module comment), starting from the stats item as last read (`undefined`: none).
 *
 * @returns the counted totals
 */
async function backfillGalleryStats(
  sub: string,
  read: Record<string, unknown> | undefined,
): Promise<GalleryStats> {
  let item = read;
  for (let attempt = 1; ; attempt++) {
    const known = exactStats(item);
    if (known) return known;
    const opening = item?.galleryVersion === undefined;
    const version = opening ? await openStatsItem(sub) : Number(item!.galleryVersion);
    if (version === 'refused') return countHeadshots(sub);
    const [counted] = await Promise.all([
      countHeadshots(sub),
      ...(opening && attempt === 1 ? [dropUserItemCounters(sub)] : []),
    ]);
    if (attempt >= BACKFILL_ATTEMPTS || (await storeCounted(sub, counted, version))) return counted;
    item = await readStatsItem(sub);
  }
}

/**
 * `sub`'s gallery totals: one strongly consistent GetItem of the stats item; counted once and stored when they are
 * not exact yet (see the module comment).
 *
 * @throws {AccountDeletedError} when they are not stored yet and the account was deleted
 */
export async function readGalleryStats(sub: string): Promise<GalleryStats> {
  return statsFromItem(sub, await readStatsItem(sub));
}

/**
 * The totals of a stats item already read (by a page's Query, strongly consistent; `undefined`: none was there),
 * backfilled when they are not exact.
 *
 * @throws {AccountDeletedError} when they are not exact and the account was deleted
 */
export async function statsFromItem(
  sub: string,
  item: Record<string, unknown> | undefined,
): Promise<GalleryStats> {
  return exactStats(item) ?? (await backfillGalleryStats(sub, item));
}

/**
 * Deletes `sub`'s stats item, for changes made outside the counter transactions: deleting all of a user's headshots
 * with BatchWriteItem. Call it after the headshots are gone: the next read counts again, and a backfill that counted
 * before finds its item gone and does not store its count. No-op without one.
 */
export async function deleteGalleryStats(sub: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: statsKey(sub) }));
}
