import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { reclaimExpired } from '../adapters/provider-queue/leases';
import { logger } from '../common/logger';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-lease-reaper`, every minute (EventBridge Scheduler; locally the scheduler stand-in): gives back
 * the leases of crashed holders (past `leaseUntil`), drops stale place entries, and wakes the dispatcher — the
 * safety net for a lost wake-up (adapters/provider-queue/leases.ts).
 *
 * @returns `{ reclaimed }` leases given back
 */
export const handler = withLambdaContext(async () => {
  const reclaimed = await reclaimExpired();
  if (reclaimed > 0) logger.warn('Reclaimed provider leases of crashed holders', { reclaimed });
  await wakeDispatcher('tick');
  return { reclaimed };
});
