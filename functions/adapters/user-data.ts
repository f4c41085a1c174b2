import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';
import { mayStillRun, type TableKey } from '../domain/gallery';
import { GENERATION_ERROR_MESSAGES, isTerminal, type GenerationStatus } from '../domain/generation';
import { uploadPrefix } from '../domain/object-keys';
import { logger } from '../common/logger';
import { documentClient } from './aws';
import { invalidateGalleryStats } from './gallery-stats';
import { compensateGeneration } from './generations';
import { batchDelete, deletePrefix, resultsPrefix } from './headshots';
import { generationSk, headshotSk, photoCheckSk, userPk } from './keys';

/*
 * "Delete my data" (docs/architecture.md §3 `DELETE /me/data`): every photo, headshot, generation and photo check of
 * one user, in their own partition and under their own S3 prefixes. The account and the ledger stay (accounting).
 */

const HEADSHOT_PREFIX = headshotSk('');
const GENERATION_PREFIX = generationSk('');
const PHOTO_CHECK_PREFIX = photoCheckSk('');

const table = () => loadConfig().TABLE_NAME;

/**
 * The items of `sub` whose sort key starts with `prefix`, strongly consistent, every page: their keys and the
 * `attributes` asked for, or whole items with `'all'`.
 */
export async function queryUserPrefix(
  sub: string,
  prefix: string,
  attributes: string[] | 'all' = [],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const names =
    attributes === 'all'
      ? undefined
      : Object.fromEntries(['PK', 'SK', ...attributes].map((a) => [`#${a}`, a]));
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ...(names
          ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names }
          : {}),
        ExpressionAttributeValues: { ':pk': userPk(sub), ':prefix': prefix },
        ConsistentRead: true,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Thrown by {@link deleteUserData} while a generation of the user may still be running: nothing was deleted. */
export class GenerationInProgressError extends Error {
  override readonly name = 'GenerationInProgressError';
  constructor(readonly generationId: string) {
    super(`Generation ${generationId} is still running`);
  }
}

/** What {@link deleteUserData} removed. */
export interface DeletedData {
  /** Headshot items. */
  headshots: number;
  /** Generation items. */
  generations: number;
  /** S3 objects: uploads, their normalized copies, headshot images and thumbnails. */
  objects: number;
}

/**
 * Deletes every photo of `sub` and everything made from them (docs/product-spec.md §6, privacy): all headshot and generation items,
 * every object under `uploads/<sub>/` (uploads bucket) and `results/<sub>/` (results bucket). The user item, the
 * ledger, its idempotency markers and the purchases stay: they are the accounting of credits bought and spent.
 *
 * Refused while a generation may still be running, since its execution would go on writing images and refunds
 * for items that are gone. A generation that never reached a final status and is older than any execution can run
 * ({@link mayStillRun}) is compensated first — its undelivered slots refunded, exactly as the API's reconciliation
 * would — so no credit owed is lost with its item.
 *
 * Items go first, then objects: if a step fails, calling again finishes the job (every step is idempotent).
 *
 * @param now epoch ms (tests)
 * @throws {GenerationInProgressError} while a generation may still be running (nothing deleted)
 */
export async function deleteUserData(sub: string, now = Date.now()): Promise<DeletedData> {
  if (!/^[A-Za-z0-9-]+$/.test(sub)) throw new Error('Refusing to delete data of an unexpected user id');
  const generations = await queryUserPrefix(sub, GENERATION_PREFIX, ['id', 'status', 'createdAt']);
  for (const generation of generations) {
    const status = generation.status as GenerationStatus;
    if (isTerminal(status)) continue;
    const id = String(generation.id);
    if (mayStillRun(String(generation.createdAt), now)) throw new GenerationInProgressError(id);
    logger.warn('Compensating an unfinished generation before deleting the user data', { generationId: id });
    await compensateGeneration(sub, id, { code: 'TIMED_OUT', message: GENERATION_ERROR_MESSAGES.TIMED_OUT });
  }
  const headshots = await queryUserPrefix(sub, HEADSHOT_PREFIX);
  const keyOf = (item: Record<string, unknown>): TableKey => ({ PK: String(item.PK), SK: String(item.SK) });
  await batchDelete(headshots.map(keyOf));
  // BatchWriteItem has no room for the counters: they are counted again on the next read (one Query of nothing).
  if (headshots.length > 0) await invalidateGalleryStats(sub);
  await batchDelete(generations.map(keyOf));
  // The photo-check cache holds each photo's face descriptor: biometric data goes with the photos.
  await batchDelete((await queryUserPrefix(sub, PHOTO_CHECK_PREFIX)).map(keyOf));
  const { UPLOADS_BUCKET, RESULTS_BUCKET } = loadConfig();
  const [uploads, results] = await Promise.all([
    deletePrefix(UPLOADS_BUCKET, uploadPrefix(sub)),
    deletePrefix(RESULTS_BUCKET, resultsPrefix(sub)),
  ]);
  return { headshots: headshots.length, generations: generations.length, objects: uploads + results };
}
