import { expireObjects } from '../adapters/object-expiry';
import { logger } from '../common/logger';
import { OBJECT_EXPIRY_RULES, type ObjectExpiryRule } from '../domain/retention';

/** What the local buckets' expiry needs from the outside world: one lifecycle rule applied to S3. */
export interface ExpireObjectsPorts {
  /** Deletes the rule's objects whose expiry is at or before `now`; returns how many. */
  expireObjects: (rule: ObjectExpiryRule, now: Date) => Promise<number>;
}

const adapters: ExpireObjectsPorts = { expireObjects: (rule, now) => expireObjects(rule, now) };

/**
 * The data buckets' lifecycle expiration rules (functions/domain/retention.ts `OBJECT_EXPIRY_RULES`, which the CDK
 * stack deploys as S3 lifecycle rules) applied by hand to the local stack's S3, which has none: uploads go after
 * 7 days there too. Every rule is applied in turn; a failing one stops the run (the next hourly run starts over).
 *
 * @param now the clock (tests)
 * @returns objects deleted, by rule prefix
 */
export async function expireLocalObjects(
  now = new Date(),
  ports: ExpireObjectsPorts = adapters,
): Promise<{ deleted: Record<string, number> }> {
  const deleted: Record<string, number> = {};
  for (const rule of OBJECT_EXPIRY_RULES) deleted[rule.prefix] = await ports.expireObjects(rule, now);
  if (Object.values(deleted).some((n) => n > 0)) logger.info('Expired objects deleted', { deleted });
  return { deleted };
}
