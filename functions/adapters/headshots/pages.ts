import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
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
  type GallerySort,
  type GalleryStats,
  type TableKey,
} from '../../domain/gallery';
import { documentClient } from '../support/aws';
import { GALLERY_STATS_SK, headshotSk, userPk } from '../support/keys';
import { toHeadshot, type HeadshotRecord } from './records';
import { GALLERY_STATS_TYPE, isGalleryStatsItem, readGalleryStats, statsFromItem } from './stats';

/** The gallery's pages of a user's headshots (docs/architecture.md §3 `GET /api/headshots`). */

const HEADSHOT_PREFIX = headshotSk('');
/** Items evaluated per Query call when a filter is applied (the filter runs after the read). */
const FILTERED_BATCH = 250;
/**
 * Query calls one page may make before it answers with what it has and a cursor where it stopped: a bound on one
 * request's time (50 × 250 = 12,500 headshots examined) for a filter that matches almost nothing in a huge gallery.
 */
const MAX_QUERY_CALLS = 50;

const table = () => storageSettings().TABLE_NAME;

/** One page of a user's gallery. */
export interface HeadshotPage {
  /** Newest first, at most {@link GALLERY_PAGE_SIZE}. */
  items: HeadshotRecord[];
  /** Opaque: pass it back as `cursor` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

/** A page of the gallery with the gallery's totals (`GET /api/headshots`). */
export interface GalleryPageRecord extends HeadshotPage {
  stats: GalleryStats;
}

/**
 * One page of `sub`'s gallery in `sort` order with the whole gallery's totals (./stats.ts). The first newest-first
 * page is ONE Query: the key range `HEADSHOT#` … `HEADSHOT$STATS` read newest first starts with the stats item.
 * Other pages read the stats item with one GetItem beside their Query.
 *
 * @throws {InvalidCursorError} for a cursor that was altered, belongs to another user or to the other sort
 * @throws {AccountDeletedError} for a deleted account (its gallery's counters are gone: ./stats.ts)
 */
export async function readGalleryPage(
  sub: string,
  query: { filter: GalleryFilter; sort: GallerySort; cursor?: string | undefined },
): Promise<GalleryPageRecord> {
  const { filter, sort, cursor } = query;
  if (sort === 'newest' && !cursor) {
    const { statsItem, ...page } = await readNewestPage(sub, filter);
    return { ...page, stats: await statsFromItem(sub, statsItem) };
  }
  const list = sort === 'best-match' ? listBestMatchPage : listHeadshotPage;
  const [page, stats] = await Promise.all([list(sub, filter, cursor), readGalleryStats(sub)]);
  return { ...page, stats };
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
  const startKey = cursor ? decodeCursor(cursor, { pk, skPrefix: HEADSHOT_PREFIX }) : undefined;
  const { statsItem: _none, ...page } = await readNewestPage(sub, filter, startKey);
  return page;
}

/**
 * {@link listHeadshotPage}'s reading. Without `startKey` (the first page) the Query's key range also holds the stats
 * item, which sorts first newest first: it is asked for (`Limit` + 1, or kept by the filter through its `type`) and
 * returned apart as `statsItem` (`undefined` when the user has none yet).
 */
async function readNewestPage(
  sub: string,
  filter: GalleryFilter,
  from?: TableKey,
): Promise<HeadshotPage & { statsItem?: Record<string, unknown> }> {
  const pk = userPk(sub);
  const withStats = from === undefined;
  let startKey = from;
  const condition = filterExpressionOf(filter);
  const wanted = GALLERY_PAGE_SIZE + 1;
  const found: Record<string, unknown>[] = [];
  let statsItem: Record<string, unknown> | undefined;
  let calls = 0;
  do {
    const need = wanted - found.length + (withStats && calls === 0 ? 1 : 0);
    const input: QueryCommandInput = {
      TableName: table(),
      ...(withStats
        ? {
            KeyConditionExpression: 'PK = :pk AND SK BETWEEN :prefix AND :stats',
            ExpressionAttributeValues: {
              ':pk': pk,
              ':prefix': HEADSHOT_PREFIX,
              ':stats': GALLERY_STATS_SK,
              ...condition?.values,
              ...(condition ? { ':statsType': GALLERY_STATS_TYPE } : {}),
            },
          }
        : {
            KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
            ExpressionAttributeValues: { ':pk': pk, ':prefix': HEADSHOT_PREFIX, ...condition?.values },
          }),
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: condition ? Math.max(need, FILTERED_BATCH) : need,
      ...(condition
        ? {
            FilterExpression: withStats
              ? `(${condition.expression}) OR #type = :statsType`
              : condition.expression,
            ExpressionAttributeNames: withStats ? { ...condition.names, '#type': 'type' } : condition.names,
          }
        : {}),
      ...(startKey ? { ExclusiveStartKey: startKey } : {}),
    };
    const page = await documentClient().send(new QueryCommand(input));
    for (const item of page.Items ?? []) {
      if (isGalleryStatsItem(item)) statsItem = item;
      else found.push(item);
    }
    startKey = page.LastEvaluatedKey as TableKey | undefined;
    calls++;
  } while (found.length < wanted && startKey && calls < MAX_QUERY_CALLS);

  if (found.length > GALLERY_PAGE_SIZE) {
    const items = found.slice(0, GALLERY_PAGE_SIZE);
    const last = items[items.length - 1]!;
    return {
      items: items.map(toHeadshot),
      nextCursor: encodeCursor({ PK: String(last.PK), SK: String(last.SK) }),
      statsItem,
    };
  }
  return {
    items: found.map(toHeadshot),
    nextCursor: startKey ? encodeCursor({ PK: startKey.PK, SK: startKey.SK }) : null,
    statsItem,
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
