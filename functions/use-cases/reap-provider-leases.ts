import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { reclaimExpired } from '../adapters/provider-queue/leases';
import { dropStalePositions } from '../adapters/provider-queue/positions';
import { deadlineMs, headStartMs } from '../adapters/provider-queue/settings';
import { logger } from '../common/logger';
import { oldestLiveKey } from '../domain/provider-queue-positions';

/**
 * The provider queue's reaper (docs/architecture.md §4): the safety net for a crashed lease holder and a lost
 * wake-up message.
 */

/** What the reaper needs from the outside world: the leases, the position entries, wake-up messages. */
export interface ReapProviderLeasesPorts {
  reclaimExpired: typeof reclaimExpired;
  dropStalePositions: typeof dropStalePositions;
  wakeDispatcher: typeof wakeDispatcher;
  /** GENERATION_DEADLINE_MINUTES in ms. */
  deadlineMs: () => number;
  /** PROVIDER_PRIORITY_HEAD_START_SECONDS in ms. */
  headStartMs: () => number;
}

const adapters: ReapProviderLeasesPorts = {
  reclaimExpired,
  dropStalePositions,
  wakeDispatcher,
  deadlineMs,
  headStartMs,
};

/**
 * Every minute: gives back the leases of crashed holders (past `leaseUntil`: their execution stopped or timed out
 * between admission and release), drops the position entries of generations older than any still in the queue
 * (domain `oldestLiveKey`), and wakes the dispatcher — so a lost wake-up message holds the queue a minute at most.
 *
 * @param now epoch ms (tests)
 * @returns leases given back and position entries dropped
 * @throws whatever a port throws (the next minute's run tries again)
 */
export async function reapProviderLeases(
  now = Date.now(),
  ports: ReapProviderLeasesPorts = adapters,
): Promise<{ reclaimed: number; dropped: number }> {
  const reclaimed = await ports.reclaimExpired(now);
  if (reclaimed > 0) logger.warn('Reclaimed provider leases of crashed holders', { reclaimed });
  const dropped = await ports.dropStalePositions(oldestLiveKey(now, ports.deadlineMs(), ports.headStartMs()));
  await ports.wakeDispatcher('tick');
  return { reclaimed, dropped };
}
