import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { storageSettings } from '../config/storage';
import { documentClient } from './support/aws';
import { generationSk, userPk } from './support/keys';
import { hasPhotoSetMark, putPhotoSetMark, type PhotoSetMark } from './support/photo-set-marks';
import { queryAll } from './support/query';

/**
 * Provider refusals in the single table (functions/domain/provider-refusals.ts decides; this counts):
 *
 * - on the generation item, `providerRefusals`: a string set of `<slot>.<call>`, so a repeated task counts once;
 * - per account, one item per refused call, `PK = USER#<sub>`, `SK = QUOTA#provider-refusal#<generationId>#<slot>.<call>`
 *   with `at` (epoch ms) and `expiresAt` (TTL, a day past the window): the rolling window is the items whose `at` is
 *   inside it (TTL deletes late, so `at` decides);
 * - a photo set set aside, `SK = QUOTA#refused-photo-set#<hash>` with `expiresAt` (TTL; also checked on read).
 *
 * All under the quota prefix, so the end of an account deletion removes them with the counters.
 */

const table = () => storageSettings().TABLE_NAME;
const REFUSAL_PREFIX = 'QUOTA#provider-refusal#';
const REFUSED_SET: PhotoSetMark = {
  kind: 'refused-photo-set',
  type: 'refusedSet',
  markedAtAttribute: 'refusedAt',
};

/** One refused provider call: whose, which generation, slot and call (0-based), and when (epoch ms). */
export interface Refusal {
  sub: string;
  generationId: string;
  slot: number;
  call: number;
  at: number;
}

/** What the account's and the generation's refusals are after one more ({@link recordProviderRefusal}). */
export interface RefusalCounts {
  /** The generation's refused calls so far (a call counted once). */
  generationRefusals: number;
  /** When each of the account's refusals still stored was counted, epoch ms (any order). */
  accountRefusalTimes: number[];
  /** The generation's photo set (domain/likeness-cap.ts `referenceSetHash`); absent on older generations. */
  referenceSetHash: string | undefined;
}

/**
 * Counts one refused call on its generation and its account (a repeat of the same call counts once, keeping its first
 * time), then reads the account's refusals.
 *
 * @param windowMs the rolling window (the item's TTL lets it go a day after it leaves it)
 */
export async function recordProviderRefusal(refusal: Refusal, windowMs: number): Promise<RefusalCounts> {
  const { sub, generationId, slot, call, at } = refusal;
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      UpdateExpression: 'ADD providerRefusals :refusal',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':refusal': new Set([`${slot}.${call}`]) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  await documentClient()
    .send(
      new PutCommand({
        TableName: table(),
        Item: {
          PK: userPk(sub),
          SK: `${REFUSAL_PREFIX}${generationId}#${slot}.${call}`,
          type: 'quota',
          at,
          expiresAt: Math.ceil((at + windowMs) / 1000) + 86_400,
        },
        ConditionExpression: 'attribute_not_exists(SK)',
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
  const refusals = Attributes?.providerRefusals as Set<string> | undefined;
  const hash = Attributes?.referenceSetHash;
  return {
    generationRefusals: refusals?.size ?? 0,
    accountRefusalTimes: await accountRefusalTimes(sub),
    referenceSetHash: typeof hash === 'string' ? hash : undefined,
  };
}

/** When each of the account's stored refusals was counted, epoch ms (strongly consistent; any order). */
export async function accountRefusalTimes(sub: string): Promise<number[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': REFUSAL_PREFIX },
    ProjectionExpression: '#at',
    ExpressionAttributeNames: { '#at': 'at' },
    ConsistentRead: true,
  });
  return items.map((item) => Number(item.at)).filter(Number.isFinite);
}

/**
 * Sets a photo set aside until `untilMs` (epoch ms): starts with it are refused until then.
 *
 * @param nowMs when (epoch ms), recorded as `refusedAt`
 */
export async function markPhotoSetRefused(
  sub: string,
  hash: string,
  untilMs: number,
  nowMs = Date.now(),
): Promise<void> {
  await putPhotoSetMark(REFUSED_SET, sub, hash, Math.ceil(untilMs / 1000), nowMs);
}

/** Whether the photo set is set aside at `nowMs` (epoch ms; strongly consistent). */
export async function isPhotoSetRefused(sub: string, hash: string, nowMs = Date.now()): Promise<boolean> {
  return hasPhotoSetMark(REFUSED_SET, sub, hash, nowMs);
}
