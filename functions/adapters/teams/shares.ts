import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SharedHeadshot } from '../../domain/team-shares';
import { documentClient } from '../support/aws';
import {
  headshotSk,
  sharedSk,
  teamMemberSk,
  teamPk,
  userPk,
  userSharePrefix,
  userShareSk,
  versionSk,
} from '../support/keys';
import { queryAll } from '../support/query';
import { cancellationCodes, transactWrite } from '../support/transactions';
import { table } from './records';

/**
 * Shares of a member's headshots with a team (docs/teams.md "Sharing and the team gallery"): the team's
 * `SHARED#<sub>#<headshotId>` item, the member's own `SHARE#<headshotId>#<teamId>` record of it, and the member
 * item's `sharedCount`, always written together in one transaction whose conditions hold the rules on the table (the
 * member is still in the team since the join that was read; the headshot or version still exists), so a share can
 * never outlive its file nor count twice.
 */

/** Why a share's write was refused: the share changed meanwhile, the member left, or the file is gone. */
export type ShareRefusal = 'share' | 'member' | 'file';

/** A share's write whose condition failed ({@link ShareRefusal}): nothing was written. */
export class ShareRefusedError extends Error {
  override readonly name = 'ShareRefusedError';
  constructor(readonly refusal: ShareRefusal) {
    super(`Share refused: ${refusal}`);
  }
}

/** The member's record of one share: which team holds which of their headshots (and which version of it). */
export interface OwnShare {
  teamId: string;
  headshotId: string;
  versionId?: string;
  /** The share's `sharedAt` when this record was written with it. */
  sharedAt: string;
}

/** A SHARED# item decoded. */
export function toShare(item: Record<string, unknown>): SharedHeadshot {
  const { PK: _pk, SK: _sk, type: _type, ...rest } = item;
  return rest as unknown as SharedHeadshot;
}

/** A member's share of one headshot with a team (strongly consistent), or `undefined`. */
export async function getShare(
  teamId: string,
  sub: string,
  headshotId: string,
): Promise<SharedHeadshot | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: teamPk(teamId), SK: sharedSk(sub, headshotId) },
      ConsistentRead: true,
    }),
  );
  return Item ? toShare(Item) : undefined;
}

const memberKey = (share: Pick<SharedHeadshot, 'teamId' | 'sub'>) => ({
  PK: teamPk(share.teamId),
  SK: teamMemberSk(share.sub),
});
const ownKey = (share: Pick<SharedHeadshot, 'teamId' | 'sub' | 'headshotId'>) => ({
  PK: userPk(share.sub),
  SK: userShareSk(share.headshotId, share.teamId),
});

/** Runs a share's transaction, telling which of its conditions failed by the item's place (`refusals[i]`). */
async function shareTransaction(
  items: Parameters<typeof transactWrite>[0],
  refusals: readonly (ShareRefusal | undefined)[],
): Promise<void> {
  try {
    await transactWrite(items);
  } catch (error) {
    const codes = cancellationCodes(error) ?? [];
    const refusal = refusals.find((_, i) => codes[i] === 'ConditionalCheckFailed');
    if (refusal) throw new ShareRefusedError(refusal);
    throw error;
  }
}

/**
 * Puts a share: the team's item (new, or replacing the one read, whose `sharedAt` is `replaces`), the member's own
 * record, and — when `count` — `sharedCount + 1` on the member item; always only while the member is `joined` with
 * the `joinedAt` read, and while the headshot (and the shared version) exists.
 *
 * @throws {ShareRefusedError} `share` (changed since it was read), `member` (no longer in the team since that join),
 *   `file` (the headshot or version was deleted)
 */
export async function putShare(
  share: SharedHeadshot,
  options: { joinedAt: string; replaces: string | undefined; count: boolean },
): Promise<void> {
  const memberCondition = {
    TableName: table(),
    Key: memberKey(share),
    ConditionExpression: 'membership = :joined AND joinedAt = :joinedAt',
    ExpressionAttributeValues: { ':joined': 'joined', ':joinedAt': options.joinedAt },
  };
  const exists = (SK: string) => ({
    ConditionCheck: {
      TableName: table(),
      Key: { PK: userPk(share.sub), SK },
      ConditionExpression: 'attribute_exists(SK)',
    },
  });
  await shareTransaction(
    [
      {
        Put: {
          TableName: table(),
          Item: {
            PK: teamPk(share.teamId),
            SK: sharedSk(share.sub, share.headshotId),
            type: 'team-share',
            ...share,
          },
          ...(options.replaces === undefined
            ? { ConditionExpression: 'attribute_not_exists(SK)' }
            : {
                ConditionExpression: 'sharedAt = :read',
                ExpressionAttributeValues: { ':read': options.replaces },
              }),
        },
      },
      {
        Put: {
          TableName: table(),
          Item: {
            ...ownKey(share),
            type: 'user-share',
            teamId: share.teamId,
            headshotId: share.headshotId,
            ...(share.versionId === undefined ? {} : { versionId: share.versionId }),
            sharedAt: share.sharedAt,
          },
        },
      },
      options.count
        ? {
            Update: {
              ...memberCondition,
              UpdateExpression: 'ADD sharedCount :one',
              ExpressionAttributeValues: { ...memberCondition.ExpressionAttributeValues, ':one': 1 },
            },
          }
        : { ConditionCheck: memberCondition },
      exists(headshotSk(share.headshotId)),
      ...(share.versionId === undefined ? [] : [exists(versionSk(share.headshotId, share.versionId))]),
    ],
    ['share', undefined, 'member', 'file', 'file'],
  );
}

/**
 * Deletes a share: the team's item (only if it is still the one read: `sharedAt`), the member's own record, and —
 * when `count` is given — `sharedCount − 1` on the member item, while they are `joined` with that `joinedAt`.
 *
 * @throws {ShareRefusedError} `share` (changed or deleted meanwhile), `member` (left or joined again meanwhile)
 */
export async function deleteShare(
  share: Pick<SharedHeadshot, 'teamId' | 'sub' | 'headshotId' | 'sharedAt'>,
  count?: { joinedAt: string },
): Promise<void> {
  await shareTransaction(
    [
      {
        Delete: {
          TableName: table(),
          Key: { PK: teamPk(share.teamId), SK: sharedSk(share.sub, share.headshotId) },
          ConditionExpression: 'sharedAt = :read',
          ExpressionAttributeValues: { ':read': share.sharedAt },
        },
      },
      { Delete: { TableName: table(), Key: ownKey(share) } },
      ...(count === undefined
        ? []
        : [
            {
              Update: {
                TableName: table(),
                Key: memberKey(share),
                UpdateExpression: 'ADD sharedCount :minusOne',
                ConditionExpression: 'membership = :joined AND joinedAt = :joinedAt AND sharedCount > :zero',
                ExpressionAttributeValues: {
                  ':minusOne': -1,
                  ':joined': 'joined',
                  ':joinedAt': count.joinedAt,
                  ':zero': 0,
                },
              },
            },
          ]),
    ],
    ['share', undefined, 'member'],
  );
}

/**
 * The member's records of their shares (every team, current or left): of one headshot, or of all (`headshotId`
 * omitted), strongly consistent.
 */
export async function listOwnShares(sub: string, headshotId?: string): Promise<OwnShare[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': userSharePrefix(headshotId) },
    ProjectionExpression: 'teamId, headshotId, versionId, sharedAt',
    ConsistentRead: true,
  });
  return items.map((item) => ({
    teamId: String(item.teamId),
    headshotId: String(item.headshotId),
    ...(typeof item.versionId === 'string' ? { versionId: item.versionId } : {}),
    sharedAt: String(item.sharedAt),
  }));
}

/**
 * Deletes the member's record of a share whose team item is already gone (a removal that stopped part way), only if
 * it is still the record read (a share put again meanwhile writes a new one with its team item).
 */
export async function deleteOwnShare(sub: string, own: OwnShare): Promise<void> {
  try {
    await documentClient().send(
      new DeleteCommand({
        TableName: table(),
        Key: ownKey({ ...own, sub }),
        ConditionExpression: 'sharedAt = :read',
        ExpressionAttributeValues: { ':read': own.sharedAt },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}
