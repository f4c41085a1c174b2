import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { encodeTime } from 'ulid';
import { storageSettings } from '../config/storage';
import {
  dayWindowStart,
  failedSetExpiresAt,
  generationStartMs,
  PROVIDER_CALL_WINDOW_SECONDS,
  PROVIDER_CALLS_RULE,
  type LedgerDelta,
  type LikenessCapLimits,
  type LikenessStop,
} from '../domain/likeness-cap';
import type { LedgerReason } from '../domain/credits';
import { documentClient } from './support/aws';
import { hasPhotoSetMark, putPhotoSetMark, type PhotoSetMark } from './support/photo-set-marks';
import { generationSk, ledgerSk, quotaSk, userPk } from './support/keys';

/**
 * The likeness cap in the single table (functions/domain/likeness-cap.ts decides; this counts):
 *
 * - the day's provider-call counter, one item per user and UTC day — `PK = USER#<sub>`,
 *   `SK = QUOTA#provider-calls#<dayStart>` with `allowance` (calls the day's paid credits buy), `calls` (calls
 *   counted) and `expiresAt` (TTL, a day after the day ends) — moved only by conditional writes, so parallel slots
 *   can never pass the allowance together;
 * - on the generation item, `likenessRejections` (a string set of `<slot>.<attempt>`, so a repeated task counts once)
 *   and, once stopped, `likenessStop` (`mismatch` | `limit` | `refused`) with `likenessStoppedAt`;
 * - a failed reference set, `SK = QUOTA#failed-photo-set#<hash>` with `expiresAt` (TTL; also checked on read, since
 *   TTL deletes late).
 */

const table = () => storageSettings().TABLE_NAME;

const counterKey = (sub: string, windowStart: number) => ({
  PK: userPk(sub),
  SK: quotaSk(PROVIDER_CALLS_RULE, windowStart),
});
const FAILED_SET: PhotoSetMark = {
  kind: 'failed-photo-set',
  type: 'likenessSet',
  markedAtAttribute: 'failedAt',
};
const isConditionFailure = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

/**
 * The ledger entries written since `windowStart` (epoch seconds), oldest first: ledger sort keys are ULIDs, so the
 * day is one key range (strongly consistent Query, all pages).
 */
export async function ledgerSince(sub: string, windowStart: number): Promise<LedgerDelta[]> {
  const entries: LedgerDelta[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': userPk(sub),
          ':from': ledgerSk(encodeTime(windowStart * 1000, 10)),
          ':to': ledgerSk('~'),
        },
        ProjectionExpression: 'delta, reason, #ref',
        ExpressionAttributeNames: { '#ref': 'ref' },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      entries.push({
        delta: Number(item.delta),
        reason: item.reason as LedgerReason,
        ref: String(item.ref),
      });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return entries;
}

/**
 * Sets the day's allowance of provider calls (the day of `nowMs`) and returns the calls already counted in it.
 *
 * @param allowance calls, a whole number ≥ 0 (domain `providerCallAllowance`)
 */
export async function setProviderCallAllowance(
  sub: string,
  allowance: number,
  nowMs = Date.now(),
): Promise<{ calls: number }> {
  const windowStart = dayWindowStart(nowMs);
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: counterKey(sub, windowStart),
      UpdateExpression:
        'SET allowance = :allowance, #type = :type, expiresAt = if_not_exists(expiresAt, :expiresAt)',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':allowance': allowance,
        ':type': 'quota',
        ':expiresAt': windowStart + 2 * PROVIDER_CALL_WINDOW_SECONDS,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return { calls: Number(Attributes?.calls ?? 0) };
}

/**
 * Counts one provider call of the generation against its day's allowance, or refuses it. A day without an
 * allowance (a generation started before the cap existed) is counted, never refused.
 *
 * @returns false when the day's calls are used up (nothing counted)
 */
export async function reserveProviderCall(sub: string, generationId: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: table(),
        Key: counterKey(sub, dayWindowStart(generationStartMs(generationId))),
        UpdateExpression: 'ADD calls :one',
        ConditionExpression:
          'attribute_not_exists(allowance) OR attribute_not_exists(calls) OR calls < allowance',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Gives back one counted call the provider did not bill (never below zero; a failure leaves it counted). */
export async function returnProviderCall(sub: string, generationId: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: table(),
        Key: counterKey(sub, dayWindowStart(generationStartMs(generationId))),
        UpdateExpression: 'ADD calls :minus',
        ConditionExpression: 'calls >= :one',
        ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/**
 * Records one failed likeness check of the generation (`slot`'s `attempt`-th call, 0-based): a repeat of the same
 * one counts once.
 *
 * @returns the generation's failed checks so far and its reference set's hash (absent on older generations)
 */
export async function recordLikenessRejection(
  sub: string,
  generationId: string,
  slot: number,
  attempt: number,
): Promise<{ rejections: number; referenceSetHash: string | undefined }> {
  const { Attributes } = await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      UpdateExpression: 'ADD likenessRejections :rejection',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':rejection': new Set([`${slot}.${attempt}`]) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const rejections = Attributes?.likenessRejections as Set<string> | undefined;
  const hash = Attributes?.referenceSetHash;
  return { rejections: rejections?.size ?? 0, referenceSetHash: typeof hash === 'string' ? hash : undefined };
}

/** Stops the generation's provider calls for `reason` (the first reason stays). */
export async function stopGenerationCalls(
  sub: string,
  generationId: string,
  reason: LikenessStop,
): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      UpdateExpression:
        'SET likenessStop = if_not_exists(likenessStop, :reason), likenessStoppedAt = if_not_exists(likenessStoppedAt, :now)',
      ConditionExpression: 'attribute_exists(SK)',
      ExpressionAttributeValues: { ':reason': reason, ':now': new Date().toISOString() },
    }),
  );
}

/** Why the generation stopped calling the provider, if it did (strongly consistent). */
export async function generationStop(sub: string, generationId: string): Promise<LikenessStop | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: { PK: userPk(sub), SK: generationSk(generationId) },
      ProjectionExpression: 'likenessStop',
      ConsistentRead: true,
    }),
  );
  const stop = Item?.likenessStop;
  return stop === 'mismatch' || stop === 'limit' || stop === 'refused' ? stop : undefined;
}

/** Whether the day's provider calls of the generation are used up (strongly consistent). */
export async function providerCallsUsedUp(sub: string, generationId: string): Promise<boolean> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: table(),
      Key: counterKey(sub, dayWindowStart(generationStartMs(generationId))),
      ConsistentRead: true,
    }),
  );
  if (typeof Item?.allowance !== 'number') return false;
  return Number(Item.calls ?? 0) >= Item.allowance;
}

/** Remembers a reference set whose headshots kept failing, for `failedSetDays` days. */
export async function markReferenceSetFailed(
  sub: string,
  hash: string,
  limits: LikenessCapLimits,
  nowMs = Date.now(),
): Promise<void> {
  await putPhotoSetMark(FAILED_SET, sub, hash, failedSetExpiresAt(nowMs, limits), nowMs);
}

/** Whether the reference set is remembered as failing (and not expired). */
export async function isReferenceSetFailed(sub: string, hash: string, nowMs = Date.now()): Promise<boolean> {
  return hasPhotoSetMark(FAILED_SET, sub, hash, nowMs);
}
