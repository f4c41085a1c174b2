import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { encodeCursor, type TableKey } from '../../domain/gallery';
import { decodeSharedCursor, TEAM_GALLERY_PAGE_SIZE, type SharedHeadshot } from '../../domain/team-shares';
import { documentClient } from '../support/aws';
import { memberSharedPrefix, SHARED_PREFIX, teamPk } from '../support/keys';
import { table } from './records';
import { toShare } from './shares';

/**
 * The team gallery's pages (`GET /api/teams/{teamId}/headshots`, docs/teams.md "Sharing and the team gallery"): the
 * team's `SHARED#<sub>#<headshotId>` items, one Query of its partition, member by member and each member's newest
 * headshot first. Reads only.
 */

/** Items read per Query call: a page and the one that proves a next page, or more when shares are left out. */
const BATCH = TEAM_GALLERY_PAGE_SIZE + 1;
/** Query calls one page may make before it answers with what it has and a cursor where it stopped. */
const MAX_QUERY_CALLS = 20;

/** One page of shares. */
export interface SharedPage {
  /** At most {@link TEAM_GALLERY_PAGE_SIZE}. */
  items: SharedHeadshot[];
  /** Opaque: the next page's `cursor`; `null` on the last page. */
  nextCursor: string | null;
}

/**
 * One page of the team's shares (of one member's when `member` is given) that `keep` accepts (the use case keeps
 * only current members' shares: domain/team-shares.ts `isCurrentShare`), strongly consistent. The cursor is the key
 * of the page's last item, so no share is skipped or repeated; a page is short only when `keep` refused almost
 * everything it read in {@link MAX_QUERY_CALLS} calls, and then carries the cursor where the reading stopped.
 *
 * @throws {InvalidCursorError} for a cursor that was altered, another team's or another member's
 */
export async function readSharedPage(
  teamId: string,
  query: { member?: string | undefined; cursor?: string | undefined },
  keep: (share: SharedHeadshot) => boolean,
): Promise<SharedPage> {
  const pk = teamPk(teamId);
  const prefix = query.member === undefined ? SHARED_PREFIX : memberSharedPrefix(query.member);
  let startKey: TableKey | undefined = query.cursor
    ? decodeSharedCursor(query.cursor, { pk, skPrefix: prefix })
    : undefined;
  const found: { key: TableKey; share: SharedHeadshot }[] = [];
  let calls = 0;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: BATCH,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const share = toShare(item);
      if (keep(share)) found.push({ key: { PK: String(item.PK), SK: String(item.SK) }, share });
    }
    startKey = page.LastEvaluatedKey as TableKey | undefined;
    calls++;
  } while (found.length <= TEAM_GALLERY_PAGE_SIZE && startKey && calls < MAX_QUERY_CALLS);

  if (found.length > TEAM_GALLERY_PAGE_SIZE) {
    const items = found.slice(0, TEAM_GALLERY_PAGE_SIZE);
    return { items: items.map((f) => f.share), nextCursor: encodeCursor(items.at(-1)!.key) };
  }
  return { items: found.map((f) => f.share), nextCursor: startKey ? encodeCursor(startKey) : null };
}
