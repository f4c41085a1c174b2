import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { storageSettings } from '../config/storage';
import { lifecycleExpiry, type ObjectExpiryRule } from '../domain/retention';
import { s3Client } from './support/aws';
import { deleteObjects } from './support/objects';

/**
 * Applies one S3 lifecycle expiration rule by hand (for an S3 without lifecycle rules: the local stack's s3rver):
 * lists the rule's prefix, ListObjectsV2 pages of up to 1,000 keys, and deletes every object whose expiry
 * ({@link lifecycleExpiry}) is at or before `now`.
 *
 * @param within a narrower prefix inside the rule's (tests: their own objects only); default the rule's prefix
 * @returns how many objects were deleted
 * @throws {Error} when `within` is not inside the rule's prefix
 */
export async function expireObjects(
  rule: ObjectExpiryRule,
  now = new Date(),
  within = rule.prefix,
): Promise<number> {
  if (!within.startsWith(rule.prefix))
    throw new Error(`${within} is outside the rule's prefix ${rule.prefix}`);
  const bucket =
    rule.bucket === 'uploads' ? storageSettings().UPLOADS_BUCKET : storageSettings().RESULTS_BUCKET;
  let deleted = 0;
  let token: string | undefined;
  do {
    const page = await s3Client().send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: within,
        MaxKeys: 1000,
        ContinuationToken: token,
      }),
    );
    const expired = (page.Contents ?? [])
      .filter((o) => o.Key && o.LastModified && lifecycleExpiry(o.LastModified, rule.days) <= now)
      .map((o) => o.Key!);
    deleted += await deleteObjects(bucket, expired);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return deleted;
}
