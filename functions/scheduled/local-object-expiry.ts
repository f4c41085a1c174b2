import { expireObjects } from '../adapters/object-expiry';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';
import { OBJECT_EXPIRY_RULES } from '../domain/retention';

/**
 * Function `local-object-expiry`, local stack only, every hour (the scheduler stand-in): the data buckets'
 * lifecycle expiration rules (functions/domain/retention.ts `OBJECT_EXPIRY_RULES`, which the CDK stack deploys as S3
 * lifecycle rules) applied to the local S3, which has none — uploads go after 7 days there too.
 *
 * @returns objects deleted, by rule prefix
 */
export const handler = withLambdaContext(async () => {
  const deleted: Record<string, number> = {};
  for (const rule of OBJECT_EXPIRY_RULES) deleted[rule.prefix] = await expireObjects(rule);
  if (Object.values(deleted).some((n) => n > 0)) logger.info('Expired objects deleted', { deleted });
  return { deleted };
});
