import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../../config/storage';
import { documentClient } from './aws';
import { userPk } from './keys';

/**
 * A photo set marked on an account for a while — `PK = USER#<sub>`, `SK = QUOTA#<kind>#<hash>` with `type`, the time
 * it was marked (ISO 8601, under `markedAtAttribute`) and `expiresAt` (epoch seconds, the table's TTL attribute).
 * Written once for the likeness cap's failed sets and the provider refusals' sets set aside. Under the quota prefix,
 * so the end of an account deletion removes them with the counters; TTL deletes up to days late (DynamoDB's TTL
 * documentation), so a read checks `expiresAt` itself.
 */
export interface PhotoSetMark {
  /** The sort key's kind, e.g. `failed-photo-set`. */
  kind: string;
  /** The item's `type` attribute, e.g. `likenessSet`. */
  type: string;
  /** The attribute that records when it was marked, e.g. `failedAt`. */
  markedAtAttribute: string;
}

const markKey = (mark: PhotoSetMark, sub: string, hash: string) => ({
  PK: userPk(sub),
  SK: `QUOTA#${mark.kind}#${hash}`,
});

/**
 * Marks the photo set `hash` of `sub` until `expiresAt` (epoch seconds), recording `nowMs` (epoch ms); a later mark
 * of the same set replaces it.
 */
export async function putPhotoSetMark(
  mark: PhotoSetMark,
  sub: string,
  hash: string,
  expiresAt: number,
  nowMs: number,
): Promise<void> {
  const table = storageSettings().TABLE_NAME;
  await documentClient().send(
    new PutCommand({
      TableName: table,
      Item: {
        ...markKey(mark, sub, hash),
        type: mark.type,
        [mark.markedAtAttribute]: new Date(nowMs).toISOString(),
        expiresAt,
      },
    }),
  );
}

/** Whether the photo set `hash` of `sub` is marked at `nowMs` (epoch ms; a strongly consistent read). */
export async function hasPhotoSetMark(
  mark: PhotoSetMark,
  sub: string,
  hash: string,
  nowMs: number,
): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: storageSettings().TABLE_NAME,
      Key: markKey(mark, sub, hash),
      ConsistentRead: true,
    }),
  );
  return Item !== undefined && Number(Item.expiresAt) > Math.floor(nowMs / 1000);
}
