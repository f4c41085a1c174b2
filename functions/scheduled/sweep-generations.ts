import { sweepGenerations, type SweepResult } from '../use-cases/sweep-generations';
import type { ExpiryResult } from '../use-cases/expire-headshots';
import { withLambdaContext } from '../common/lambda-context';

/**
 * Function `generation-sweeper`, invoked every 5 minutes by an EventBridge Scheduler schedule (locally by the local
 * stack's stand-in for it; in tests directly): compensates every generation still not terminal once no execution can
 * be working on it (its deadline plus the slot's worst case, the finishing steps and a margin:
 * domain/generation-deadline.ts), so no reserved credit is ever stranded (docs/architecture.md §8); then deletes the
 * headshots whose retention period has ended (docs/decisions/011-retention.md). See use-cases/sweep-generations.ts.
 *
 * @returns `{ examined, compensated, expired }`: the ids of the generations it refunded, and what retention deleted
 */
export const handler = withLambdaContext<void, SweepResult & { expired: ExpiryResult }>(() =>
  sweepGenerations(),
);
