import { sweepStrandedGenerations, type SweepResult } from '../use-cases/sweep-generations';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `generation-sweeper`, invoked every 5 minutes by an EventBridge Scheduler schedule (locally by the local
 * stack's stand-in for it; in tests directly): compensates every generation still not terminal once no execution can
 * be working on it (its deadline plus the slot's worst case, the finishing steps and a margin:
 * domain/generation-deadline.ts), so no reserved credit is ever stranded (docs/architecture.md §8).
 *
 * @returns `{ examined, compensated }` (the ids of the generations it refunded)
 */
export const handler = withLambdaContext<void, SweepResult>(async () => {
  const result = await sweepStrandedGenerations();
  if (result.compensated.length > 0) logger.warn('Sweeper compensated stranded generations', { ...result });
  else logger.info('Sweep done', { examined: result.examined });
  return result;
});
