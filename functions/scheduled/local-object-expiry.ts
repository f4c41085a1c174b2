import { expireLocalObjects } from '../use-cases/expire-objects';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `local-object-expiry`, local stack only, every hour (the scheduler stand-in): the data buckets'
 * lifecycle expiration rules applied to the local S3, which has none (use-cases/expire-objects.ts).
 *
 * @returns objects deleted, by rule prefix
 */
export const handler = withLambdaContext(() => expireLocalObjects());
