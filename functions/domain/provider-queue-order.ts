/**
 * The order of the provider queue and the keys that hold it (docs/architecture.md §4, docs/decisions/010-provider-queue.md).
 * First come, first served BY GENERATION: a generation's slots all carry its order key, so the generation at the head
 * gets its slots before the next one starts, and customer k's set is complete about k × 6 / C minutes after a burst.
 * Paid generations first (docs/decisions/019-paid-first.md): a free generation's key is in a lane of its own, behind
 * every paid one ({@link FREE_LANE_OFFSET_MS}; the dispatcher lets free work through at its bounded share). Within
 * the paid lane a customer in good standing with a "Priority generation" pack gets a head start: their generation's
 * key is its start minus the head start, so it goes ahead of other paid generations that started less than the head
 * start before it — and never ahead of one that started earlier than that (its wait is bounded: it ages into the front).
 * Pure: the adapters build their keys here.
 */

import { namedError } from './named-error';

/**
 * A customer's class in the queue (docs/decisions/019-paid-first.md): `priority` while they are in good standing with a
 * Popular or Pro pack, `standard` while they are with any other pack (Starter), `free` for an account with sign-up
 * credits only. `priority` and `standard` share the paid lane; `free` has its own, behind it.
 */
export type QueuePriority = 'priority' | 'standard' | 'free';

/**
 * What a free generation's order key adds to its start, epoch ms (10^14 ms, about 3,170 years): every free key sorts
 * after every paid one, in the same 15-digit sort keys ({@link ticketSk}), so the line's partition holds two lanes —
 * paid keys below this, free keys from it — and the positions count every paid generation ahead of a free one.
 */
export const FREE_LANE_OFFSET_MS = 100_000_000_000_000;

/** Whether an order key (epoch ms) is in the free lane ({@link FREE_LANE_OFFSET_MS}). */
export function isFreeKey(orderKey: number): boolean {
  return orderKey >= FREE_LANE_OFFSET_MS;
}

/** The time an order key stands for, epoch ms: the key without its lane's offset (items' TTLs count from it). */
export function keyTime(orderKey: number): number {
  return isFreeKey(orderKey) ? orderKey - FREE_LANE_OFFSET_MS : orderKey;
}

/** PROVIDER_PRIORITY_HEAD_START_SECONDS when unset: 5 minutes. */
export const DEFAULT_PRIORITY_HEAD_START_SECONDS = 300;

/**
 * The order key of a generation's slots, epoch ms: its execution's start, minus `headStartMs` for a priority
 * customer, plus {@link FREE_LANE_OFFSET_MS} for a free one (its own lane, behind every paid generation; the
 * dispatcher lets it through at its share: domain/provider-queue-lanes.ts). Smaller goes first. The same generation at
 * the same standing always gets the same key, so a slot back in the queue after a 429 returns to its old place.
 */
export function orderKey(startedAt: string | number, priority: QueuePriority, headStartMs: number): number {
  const start = new Date(startedAt).getTime();
  if (!Number.isFinite(start)) throw new RangeError(`Not a start time: ${String(startedAt)}`);
  if (priority === 'free') return start + FREE_LANE_OFFSET_MS;
  return Math.max(0, start - (priority === 'priority' ? headStartMs : 0));
}

/**
 * Whether generation `a` is ahead of `b` in the queue (ties: the older generation id, a ULID, first).
 * A free generation is overtaken only by priority generations that started less than the head start after it.
 */
export function isAhead(
  a: { orderKey: number; generationId: string },
  b: { orderKey: number; generationId: string },
): boolean {
  return a.orderKey !== b.orderKey ? a.orderKey < b.orderKey : a.generationId < b.generationId;
}

/**
 * The longest a generation can be held back by priority generations that started after it, in ms: the head start.
 * After it, every new arrival — priority or not — queues behind it.
 */
export function agingBoundMs(priority: QueuePriority, headStartMs: number): number {
  return priority === 'priority' ? 0 : headStartMs;
}

const pad = (n: number, width: number) => String(Math.trunc(n)).padStart(width, '0');

/**
 * The sort key of one slot's ticket: `T#<orderKey, 15 digits>#<generationId>#<slot, 2 digits>` — Query order is queue
 * order (generation by generation, a generation's slots in slot order). The same slot always gets the same key, so a
 * retried EnterLine overwrites its ticket instead of queueing twice.
 */
export function ticketSk(input: { orderKey: number; generationId: string; slot: number }): string {
  return `T#${pad(input.orderKey, 15)}#${input.generationId}#${pad(input.slot, 2)}`;
}

/**
 * The first sort key of the free lane ({@link FREE_LANE_OFFSET_MS}): paid tickets sort below it, free ones from it, so
 * the dispatcher reads each lane's head with one key condition.
 */
export const FREE_LANE_SK = `T#${pad(FREE_LANE_OFFSET_MS, 15)}`;

/** The order key a ticket's sort key ({@link ticketSk}) carries, epoch ms. */
export function ticketOrderKey(sk: string): number {
  return Number(sk.split('#')[1]);
}

/** One slot entering the queue (EnterLine's input, with its Task token). */
export interface QueueEntry {
  /** The waiting Task's token (`$$.Task.Token`): the dispatcher resumes the Task with it. */
  taskToken: string;
  generationId: string;
  userId: string;
  slot: number;
  /** The slot's index in its generation's Map: index 0 registers the generation's position. */
  round: number;
  /** The slot's provider calls so far (0 for its first): one lease per call. */
  call: number;
  /** When the generation's execution started (ISO 8601): its order key and deadline count from here. */
  startedAt: string;
}

/** One waiting slot's ticket as the dispatcher reads it (its item: {@link ticketSk}). */
export interface QueueTicket {
  /** The order key of its generation, epoch ms ({@link orderKey}). */
  orderKey: number;
  taskToken: string;
  generationId: string;
  userId: string;
  slot: number;
  call: number;
  /** The generation's deadline, epoch ms: past it the ticket is never admitted. */
  deadline: number;
  /**
   * When its EnterLine put it, epoch ms: of two tickets of one call (a retried EnterLine after the customer's standing
   * changed puts the second under another order key) the later one carries the Task that still waits.
   */
  enqueuedAt: number;
}

/** No call of the generation may start any more: its deadline passed. The slot is refunded. */
export class AdmissionDeadlineError extends namedError('AdmissionDeadline') {}

/**
 * The deadline of an entry's ticket, epoch ms: its generation's start + `deadlineMs` (GENERATION_DEADLINE_MINUTES).
 *
 * @throws {AdmissionDeadlineError} when it has passed at `now`: the slot is not enqueued
 */
export function ticketDeadline(
  entry: Pick<QueueEntry, 'generationId' | 'slot' | 'startedAt'>,
  deadlineMs: number,
  now: number,
): number {
  const deadline = Date.parse(entry.startedAt) + deadlineMs;
  if (now >= deadline) {
    throw new AdmissionDeadlineError(
      `Generation ${entry.generationId} passed its deadline before slot ${entry.slot} could be generated`,
    );
  }
  return deadline;
}

/**
 * Whether an entry registers its generation's position: only the generation's first slot (Map index 0) on its first
 * call, so a generation is counted once.
 */
export function registersPosition(entry: Pick<QueueEntry, 'round' | 'call'>): boolean {
  return entry.round === 0 && entry.call === 0;
}

/**
 * The longest the next EnterLine's Task may wait in the queue, in whole seconds (its `TimeoutSecondsPath`): until
 * the generation's `deadline` (epoch ms), at least 1 — past the deadline EnterLine refuses at once.
 */
export function enqueueTimeoutSeconds(deadline: number, now: number): number {
  return Math.max(1, Math.ceil((deadline - now) / 1000));
}

/**
 * The lease id (and sort key) of one provider call: `L#<generationId>#<slot>#<call>`, `call` counting the slot's
 * calls from 0. Deterministic, and put only if absent: a retried EnterLine of the same call can never hold two.
 */
export function leaseId(input: { generationId: string; slot: number; call: number }): string {
  return `L#${input.generationId}#${pad(input.slot, 2)}#${pad(input.call, 3)}`;
}
