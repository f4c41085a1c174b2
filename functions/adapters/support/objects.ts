import { DeleteObjectsCommand, ListObjectsV2Command, type ObjectIdentifier } from '@aws-sdk/client-s3';
import { logger } from '../../common/logger';
import { s3Client } from './aws';

/** Bulk deletes in S3, written once for every adapter: by key, and everything under a prefix. */

/** S3 DeleteObjects takes at most 1,000 keys. */
const DELETE_OBJECTS_SIZE = 1000;

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
