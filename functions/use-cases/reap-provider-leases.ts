import { wakeDispatcher } from '../adapters/provider-queue/callbacks';
import { reclaimExpired } from '../adapters/provider-queue/leases';
import { dropStalePositions } from '../adapters/provider-queue/positions';
import { deadlineMs, headStartMs } from '../adapters/provider-queue/settings';
import { readHead } from '../adapters/provider-queue/tickets';
import { logger } from '../common/logger';
import { oldestLiveKey } from '../domain/provider-queue-positions';

/**
 * The provider queue's reaper (docs/architecture.md §4): the safety net for a crashed lease holder and a lost
 * wake-up message.
 */

/** What the reaper needs from the outside world: the leases, the position entries, the line, wake-up messages. */
export interface ReapProviderLeasesPorts {
  reclaimExpired: typeof reclaimExpired;
  dropStalePositions: typeof dropStalePositions;
  /** The line's first `limit` tickets (one Query of the line's partition, at most `limit` items). */
  readHead: typeof readHead;
  wakeDispatcher: typeof wakeDispatcher;
  /** GENERATION_DEADLINE_MINUTES in ms. */
  deadlineMs: () => number;
  /** PROVIDER_PRIORITY_HEAD_START_SECONDS in ms. */
  headStartMs: () => number;
}

const adapters: ReapProviderLeasesPorts = {
  reclaimExpired,
  dropStalePositions,
  readHead,
  wakeDispatcher,
  deadlineMs,
  headStartMs,
};

/**
 * Every minute: gives back the leases of crashed holders (past `leaseUntil`: their execution stopped or timed out
 * between admission and release), drops the position entries of generations older than any still in the queue
 * (domain `oldestLiveKey`), and wakes the dispatcher when there is something to admit — a permit it gave back, or a
 * ticket in the line — so a lost wake-up message holds the queue a minute at most. An idle queue costs one Query of
 * the line a minute, not a wake-up message and a dispatch (issue 34: the reaper woke the dispatcher every minute).
 *
 * @param now epoch ms (tests)
 * @returns leases given back, position entries dropped, and whether it woke the dispatcher
 * @throws whatever a port throws (the next minute's run tries again)
 */
export async function reapProviderLeases(
  now = Date.now(),
  ports: ReapProviderLeasesPorts = adapters,
): Promise<{ reclaimed: number; dropped: number; woke: boolean }> {
  const reclaimed = await ports.reclaimExpired(now);
  if (reclaimed > 0) logger.warn('Reclaimed provider leases of crashed holders', { reclaimed });
  const dropped = await ports.dropStalePositions(oldestLiveKey(now, ports.deadlineMs(), ports.headStartMs()));
  // A freed permit wakes it without reading the line: the dispatch reads the line itself.
  const woke = reclaimed > 0 || (await ports.readHead(1)).length > 0;
  if (woke) await ports.wakeDispatcher('tick');
  return { reclaimed, dropped, woke };
}
