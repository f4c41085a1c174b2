import { DeleteObjectsCommand, ListObjectsV2Command, type ObjectIdentifier } from '@aws-sdk/client-s3';
import { BatchWriteCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';
import {
  BEST_MATCH_LIMIT,
  bestMatchCursor,
  bestMatchOffset,
  byBestMatch,
  decodeCursor,
  encodeCursor,
  filterExpressionOf,
  GALLERY_PAGE_SIZE,
  type GalleryFilter,
  type TableKey,
} from '../domain/gallery';
import { logger } from '../common/logger';
import { documentClient, s3Client } from './aws';
import type { HeadshotRecord } from './generations';
import { headshotSk, userPk } from './keys';

/**
 * The gallery's reads and bulk writes (docs/architecture.md §2-§3): pages of a user's headshots, presigned image URLs, and
 * the bulk deletes that "delete my data" uses (adapters/user-data.ts; favorite and delete one:
 * adapters/headshot-changes.ts; totals: adapters/gallery-stats.ts).
 *
 * Every operation takes the caller's `sub` and touches only the `USER#<sub>` partition and the `uploads/<sub>/` and
 * `results/<sub>/` prefixes, so another user's id simply finds nothing.
 */

const HEADSHOT_PREFIX = headshotSk('');
/** Items evaluated per Query call when a filter is applied (the filter runs after the read). */
const FILTERED_BATCH = 250;
/**
 * Query calls one page may make before it answers with what it has and a cursor where it stopped: a bound on one
 * request's time (50 × 250 = 12,500 headshots examined) for a filter that matches almost nothing in a huge gallery.
 */
const MAX_QUERY_CALLS = 50;
/** DynamoDB BatchWriteItem takes at most 25 requests. */
const BATCH_WRITE_SIZE = 25;
/** S3 DeleteObjects takes at most 1,000 keys. */
const DELETE_OBJECTS_SIZE = 1000;

const table = () => loadConfig().TABLE_NAME;

function toHeadshot(item: Record<string, unknown>): HeadshotRecord {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as unknown as HeadshotRecord;
}

/** One page of a user's gallery. */
export interface HeadshotPage {
  /** Newest first, at most {@link GALLERY_PAGE_SIZE}. */
  items: HeadshotRecord[];
  /** Opaque: pass it back as `cursor` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

/**
 * One page of `sub`'s headshots matching `filter`, newest first (ULID sort keys, `ScanIndexForward: false`).
 *
 * A FilterExpression is applied after DynamoDB reads `Limit` items, so one Query call can return fewer matches than
 * asked for. This keeps calling from `LastEvaluatedKey` until it holds one match more than a page (which proves a
 * next page exists) or the partition ends; the cursor is then the key of the page's last item, so no item is ever
 * skipped or repeated. Without a filter each call asks for exactly the items still needed. A page can be short
 * only when a filter matched almost nothing in {@link MAX_QUERY_CALLS} calls: it then carries the cursor where the
 * reading stopped. Reads are strongly consistent, so a page reflects a favorite toggled just before.
 *
 * @param cursor a `nextCursor` of an earlier page (validated: see {@link decodeCursor})
 * @throws {InvalidCursorError} for a cursor that was altered or belongs to another user
 */
export async function listHeadshotPage(
  sub: string,
  filter: GalleryFilter,
  cursor?: string,
): Promise<HeadshotPage> {
  const pk = userPk(sub);
  let startKey: TableKey | undefined = cursor
    ? decodeCursor(cursor, { pk, skPrefix: HEADSHOT_PREFIX })
    : undefined;
  const condition = filterExpressionOf(filter);
  const wanted = GALLERY_PAGE_SIZE + 1;
  const found: Record<string, unknown>[] = [];
  let calls = 0;
  do {
    const need = wanted - found.length;
    const input: QueryCommandInput = {
      TableName: table(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': HEADSHOT_PREFIX, ...condition?.values },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: condition ? Math.max(need, FILTERED_BATCH) : need,
      ...(condition
        ? { FilterExpression: condition.expression, ExpressionAttributeNames: condition.names }
        : {}),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    };
    const page = await documentClient().send(new QueryCommand(input));
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey as TableKey | undefined;
    calls++;
  } while (found.length < wanted && startKey && calls < MAX_QUERY_CALLS);

  if (found.length > GALLERY_PAGE_SIZE) {
    const items = found.slice(0, GALLERY_PAGE_SIZE);
    const last = items[items.length - 1]!;
    return {
      items: items.map(toHeadshot),
      nextCursor: encodeCursor({ PK: String(last.PK), SK: String(last.SK) }),
    };
  }
  return {
    items: found.map(toHeadshot),
    nextCursor: startKey ? encodeCursor({ PK: startKey.PK, SK: startKey.SK }) : null,
  };
}

/**
 * One page of `sub`'s headshots matching `filter`, best match first (domain/gallery.ts `byBestMatch`): reads the
 * matching headshots (Query, at most {@link BEST_MATCH_LIMIT}), orders them, and pages by offset. A gallery is a few
 * hundred items at most, so one ordered read beats an index that every likeness write would have to maintain.
 *
 * @param cursor a `nextCursor` of an earlier best-match page
 * @throws {InvalidCursorError} for a cursor that is not a best-match one
 */
export async function listBestMatchPage(
  sub: string,
  filter: GalleryFilter,
  cursor?: string,
): Promise<HeadshotPage> {
  const offset = cursor ? bestMatchOffset(cursor) : 0;
  const condition = filterExpressionOf(filter);
  const found: Record<string, unknown>[] = [];
  let startKey: TableKey | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': HEADSHOT_PREFIX, ...condition?.values },
        ScanIndexForward: false,
        ...(condition
          ? { FilterExpression: condition.expression, ExpressionAttributeNames: condition.names }
          : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey as TableKey | undefined;
  } while (startKey && found.length < BEST_MATCH_LIMIT);
  const ordered = found.slice(0, BEST_MATCH_LIMIT).map(toHeadshot).sort(byBestMatch);
  const items = ordered.slice(offset, offset + GALLERY_PAGE_SIZE);
  const next = offset + GALLERY_PAGE_SIZE;
  return { items, nextCursor: next < ordered.length ? bestMatchCursor(next) : null };
}

/** Reads one of `sub`'s headshots (strongly consistent); `undefined` when there is none with that id. */
export async function getHeadshot(sub: string, id: string): Promise<HeadshotRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: headshotSk(id) },
      ConsistentRead: true,
    }),
  );
  return Item ? toHeadshot(Item) : undefined;
}

/** The results-bucket prefix of `sub`'s headshot images. */
export function resultsPrefix(sub: string): string {
  return `results/${sub}/`;
}

/** The keys of a headshot's two images, refusing any key outside the owner's own results prefix. */
export function ownImageKeys(sub: string, headshot: HeadshotRecord): string[] {
  return [headshot.imageKey, headshot.thumbnailKey].filter((key) => {
    const own = typeof key === 'string' && key.startsWith(resultsPrefix(sub)) && !key.includes('..');
    if (!own) logger.warn('Headshot image key outside the owner prefix left alone', { id: headshot.id, key });
    return own;
  });
}

/**
 * Deletes objects by key, up to 1,000 per DeleteObjects call.
 *
 * @returns how many keys were deleted
 * @throws Error naming the first key S3 could not delete (the caller may simply retry: deleting is idempotent)
 */
export async function deleteObjects(bucket: string, keys: readonly string[]): Promise<number> {
  for (let i = 0; i < keys.length; i += DELETE_OBJECTS_SIZE) {
    const objects: ObjectIdentifier[] = keys.slice(i, i + DELETE_OBJECTS_SIZE).map((Key) => ({ Key }));
    const result = await s3Client().send(
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
    );
    const failed = result.Errors ?? [];
    if (failed.length > 0) {
      throw new Error(
        `S3 could not delete ${failed.length} object(s), e.g. ${failed[0]?.Key}: ${failed[0]?.Code} ${failed[0]?.Message}`,
      );
    }
  }
  return keys.length;
}

/** Rounds {@link deletePrefix} makes before it gives up on objects S3 keeps refusing to delete. */
const DELETE_PREFIX_ROUNDS = 5;

/**
 * Deletes every object under `prefix`: ListObjectsV2 pages of up to 1,000 keys, each deleted with one
 * DeleteObjects call before the next page is listed. A DeleteObjects call that fails (a 5xx, or keys in its
 * `Errors`) does not stop the sweep: the rest is deleted, then the prefix is listed and swept again, up to
 * {@link DELETE_PREFIX_ROUNDS} rounds with backoff, until nothing is left (deleting is idempotent; S3 may answer a
 * multi-delete with per-key `InternalError` or `SlowDown`).
 *
 * @returns how many distinct objects were deleted
 * @throws the last S3 error when objects are still left after the last round
 */
export async function deletePrefix(bucket: string, prefix: string): Promise<number> {
  const seen = new Set<string>();
  for (let round = 1; ; round++) {
    let failure: unknown;
    let token: string | undefined;
    do {
      const page = await s3Client().send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix,
          MaxKeys: DELETE_OBJECTS_SIZE,
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
      keys.forEach((key) => seen.add(key));
      try {
        await deleteObjects(bucket, keys);
      } catch (error) {
        failure = error;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    if (failure === undefined) return seen.size;
    if (round >= DELETE_PREFIX_ROUNDS) throw failure;
    logger.warn('Some objects could not be deleted; sweeping the prefix again', { prefix, round });
    await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** round));
  }
}

/**
 * Deletes items by key with BatchWriteItem, 25 per call, sending back whatever DynamoDB leaves in
 * `UnprocessedItems` with capped exponential backoff and full jitter.
 *
 * @throws Error when some items are still unprocessed after 8 tries (a retry of the whole operation finishes it)
 */
export async function batchDelete(keys: readonly TableKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += BATCH_WRITE_SIZE) {
    let requests = keys.slice(i, i + BATCH_WRITE_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 1; requests.length > 0; attempt++) {
      if (attempt > 8)
        throw new Error(`DynamoDB left ${requests.length} delete(s) unprocessed after 8 tries`);
      if (attempt > 1) {
        const capMs = Math.min(2_000, 50 * 2 ** attempt);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * capMs));
      }
      const result = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [table()]: requests } }),
      );
      requests = (result.UnprocessedItems?.[table()] ?? []) as typeof requests;
    }
  }
}
