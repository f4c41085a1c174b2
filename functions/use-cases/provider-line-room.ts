import { positionOf } from '../adapters/provider-queue/positions';
import { deadlineMs, freeShare, headStartMs, queueLimits } from '../adapters/provider-queue/settings';
import { readState } from '../adapters/provider-queue/state';
import { currentPriority } from '../adapters/provider-queue/tickets';
import type { AccountRef } from '../domain/ledger-account';
import { logger } from '../common/logger';
import { averageCallMs, etaSeconds, type QueueLimits, type QueueState } from '../domain/provider-queue';
import { assertWaitFitsDeadline, laneSlotsAhead } from '../domain/provider-queue-lanes';
import { FREE_LANE_OFFSET_MS, orderKey } from '../domain/provider-queue-order';
import { slotsAhead } from '../domain/provider-queue-positions';

/**
 * Whether the provider line can still serve a new generation before its deadline (docs/decisions/019-paid-first.md):
 * checked before anything is spent, so a start the line cannot serve is refused up front with the time to try again,
 * instead of waiting until its deadline and being refunded.
 */

/** What the check needs: the customer's standing, the line's positions and state, and the settings. */
export interface ProviderLineRoomPorts {
  currentPriority: typeof currentPriority;
  /** The position (1 = next up) a generation with this order key would have (adapters/provider-queue/positions.ts). */
  positionOf: (orderKey: number, generationId: string) => Promise<number>;
  readState: (consistent: boolean) => Promise<QueueState>;
  queueLimits: () => QueueLimits;
  /** GENERATION_DEADLINE_MINUTES in ms. */
  deadlineMs: () => number;
  /** PROVIDER_PRIORITY_HEAD_START_SECONDS in ms. */
  headStartMs: () => number;
  /** PROVIDER_FREE_SHARE, 0-1. */
  freeShare: () => number;
}

const adapters: ProviderLineRoomPorts = {
  currentPriority,
  positionOf,
  readState,
  queueLimits,
  deadlineMs,
  headStartMs,
  freeShare,
};

/**
 * Refuses a start whose slots the line would not admit before the generation's deadline: its lane's slots ahead
 * (the paid generations ahead of a paid start; for a free one the free generations ahead and the paid ones admitted
 * meanwhile: domain `laneSlotsAhead`), the estimated wait for its last slot's call (domain `etaSeconds`) plus one
 * average call, against GENERATION_DEADLINE_MINUTES. Two position reads and one state read (eventually consistent:
 * an estimate), whatever the line's length. A refusal is logged with its lane and estimate.
 *
 * @param payer whose purchases decide the lane: the caller's `sub`, or the team paying for a team generation
 * @param slots the generation's slots (6, or 1 for a regeneration)
 * @param nowMs epoch ms
 * @throws {QuotaExceededError} `provider-line` with the time to try again (429 + `Retry-After`; nothing spent)
 */
export async function assertLineHasRoom(
  payer: AccountRef,
  slots: number,
  nowMs: number,
  ports: ProviderLineRoomPorts = adapters,
): Promise<void> {
  const priority = await ports.currentPriority(payer);
  const lane = priority === 'free' ? 'free' : 'paid';
  const own = orderKey(nowMs, priority, ports.headStartMs());
  // A generation id after every other at the same key: the one counted is the start being decided.
  const probe = '~';
  const [mine, paidAll, freeAll, state] = await Promise.all([
    ports.positionOf(own, probe),
    ports.positionOf(nowMs, probe),
    ports.positionOf(nowMs + FREE_LANE_OFFSET_MS, probe),
    ports.readState(false),
  ]);
  const paid = slotsAhead(lane === 'paid' ? mine : paidAll);
  const free =
    lane === 'free' ? slotsAhead(mine) - slotsAhead(paidAll) : slotsAhead(freeAll) - slotsAhead(paidAll);
  const ahead = laneSlotsAhead(lane, { paid, free: Math.max(0, free) }, slots, ports.freeShare());
  const limits = ports.queueLimits();
  const waitSeconds = etaSeconds(state, limits, ahead, nowMs) + averageCallMs(state) / 1000;
  try {
    assertWaitFitsDeadline(waitSeconds, ports.deadlineMs() / 1000);
  } catch (error) {
    logger.info('A start was refused: the line would not serve it before its deadline', {
      lane,
      waitSeconds,
    });
    throw error;
  }
}
