import { reapProviderLeases } from '../use-cases/reap-provider-leases';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-lease-reaper`, every minute (EventBridge Scheduler; locally the scheduler stand-in): gives back
 * the leases of crashed holders, drops stale position entries, and wakes the dispatcher — the safety net for a lost
 * wake-up message (use-cases/reap-provider-leases.ts).
 *
 * @returns `{ reclaimed, dropped }` leases given back, position entries dropped
 */
export const handler = withLambdaContext(async () => reapProviderLeases());
