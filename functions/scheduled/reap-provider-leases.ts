import { reapProviderLeases } from '../use-cases/reap-provider-leases';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `provider-lease-reaper`, every minute (EventBridge Scheduler; locally the scheduler stand-in): gives back
 * the leases of crashed holders, drops stale position entries, and wakes the dispatcher when it freed a lease or the
 * line is not empty — the safety net for a lost wake-up message (use-cases/reap-provider-leases.ts).
 *
 * @returns `{ reclaimed, dropped, woke }` leases given back, position entries dropped, whether it woke the dispatcher
 */
export const handler = withLambdaContext(async () => reapProviderLeases());
