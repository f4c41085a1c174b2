import { sweepStrandedGenerations, type SweepResult } from '../use-cases/sweep-generations';
import { expireHeadshots, type ExpiryResult } from '../use-cases/expire-headshots';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `generation-sweeper`, invoked every 5 minutes by an EventBridge Scheduler schedule (locally by the local
 * stack's stand-in for it; in tests directly): compensates every generation still not terminal once no execution can
 * be working on it (its deadline plus the slot's worst case, the finishing steps and a margin:
 * domain/generation-deadline.ts), so no reserved credit is ever stranded (docs/architecture.md §8); then deletes the
 * headshots whose retention period has ended (docs/decisions/011-retention.md).
 *
 * @returns `{ examined, compensated, expired }`: the ids of the generations it refunded, and what retention deleted
 */
export const handler = withLambdaContext<void, SweepResult & { expired: ExpiryResult }>(async () => {
  const result = await sweepStrandedGenerations();
  if (result.compensated.length > 0) logger.warn('Sweeper compensated stranded generations', { ...result });
  else logger.info('Sweep done', { examined: result.examined });
  const expired = await expireHeadshots();
  if (expired.generations > 0) logger.info('Headshots past their retention deleted', { ...expired });
  return { ...result, expired };
});
