/**
 * The order of the provider line and the keys that hold it (docs/architecture.md §4, docs/decisions/007-provider-queue.md).
 * First come, first served BY GENERATION: a generation's slots all carry its order key, so the generation at the head
 * gets its slots before the next one starts, and customer k's set is complete about k × 6 / C minutes after a burst.
 * A customer in good standing with a "Priority generation" pack gets a head start: their generation's key is its
 * start minus the head start, so it goes ahead of free generations that started less than the head start before it —
 * and never ahead of one that started earlier than that (a free generation's wait is bounded: it ages into the front).
 * Pure: the adapters build their keys here.
 */

import { grantsPriority } from './packs';

/** A customer's class in the line: `priority` while they are in good standing with a Popular or Pro pack. */
export type LinePriority = 'priority' | 'standard';

/** PROVIDER_PRIORITY_HEAD_START_SECONDS when unset: 5 minutes. */
export const DEFAULT_PRIORITY_HEAD_START_SECONDS = 300;

/**
 * The order key of a generation's slots, epoch ms: its execution's start, minus `headStartMs` for a priority
 * customer. Smaller goes first. The same generation always gets the same key, so a slot back in line after a 429
 * returns to its old place (ahead of younger generations).
 */
export function orderKey(startedAt: string | number, priority: LinePriority, headStartMs: number): number {
  const start = new Date(startedAt).getTime();
  if (!Number.isFinite(start)) throw new RangeError(`Not a start time: ${String(startedAt)}`);
  return Math.max(0, start - (priority === 'priority' ? headStartMs : 0));
}

/**
 * Whether generation `a` is ahead of `b` in the line (ties: the older generation id, a ULID, first).
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
export function agingBoundMs(priority: LinePriority, headStartMs: number): number {
  return priority === 'priority' ? 0 : headStartMs;
}

const pad = (n: number, width: number) => String(Math.trunc(n)).padStart(width, '0');

/**
 * The sort key of one slot's ticket: `T#<orderKey, 15 digits>#<generationId>#<slot, 2 digits>` — Query order is line
 * order (generation by generation, a generation's slots in slot order). The same slot always gets the same key, so a
 * retried EnterLine overwrites its ticket instead of queueing twice.
 */
export function ticketSk(input: { orderKey: number; generationId: string; slot: number }): string {
  return `T#${pad(input.orderKey, 15)}#${input.generationId}#${pad(input.slot, 2)}`;
}

/**
 * The lease id (and sort key) of one provider call: `L#<generationId>#<slot>#<call>`, `call` counting the slot's
 * calls from 0. Deterministic, and put only if absent: a retried EnterLine of the same call can never hold two.
 */
export function leaseId(input: { generationId: string; slot: number; call: number }): string {
  return `L#${input.generationId}#${pad(input.slot, 2)}#${pad(input.call, 3)}`;
}

/** Width of a place-in-line bucket of order keys, in ms: counters per bucket make the place exact and cheap. */
export const PLACE_BUCKET_MS = 10_000;

/** The bucket of an order key: its start, epoch ms. */
export function placeBucket(key: number): number {
  return Math.floor(key / PLACE_BUCKET_MS) * PLACE_BUCKET_MS;
}

/** The sort key of a bucket's counter of waiting generations: `B#<bucket start, 15 digits>`. */
export function bucketSk(key: number): string {
  return `B#${pad(placeBucket(key), 15)}`;
}

/** The sort key of a waiting generation's place entry: `P#<orderKey, 15 digits>#<generationId>`. */
export function placeSk(input: { orderKey: number; generationId: string }): string {
  return `P#${pad(input.orderKey, 15)}#${input.generationId}`;
}

/**
 * The oldest order key still in line at `now`, epoch ms: every generation's slots leave the line by its deadline,
 * and a priority key is at most the head start older than its start. Counters of older buckets are never read (and
 * expire by TTL), so computing a place reads at most (deadline + head start) / {@link PLACE_BUCKET_MS} counters.
 */
export function oldestLiveKey(now: number, deadlineMs: number, headStartMs: number): number {
  return Math.max(0, now - deadlineMs - headStartMs - PLACE_BUCKET_MS);
}

/**
 * The place in line the wizard shows: 1 = next up, k = k − 1 generations ahead. `before` = waiting generations of
 * the buckets before the generation's own; `sameBucketAhead` = those of its own bucket ahead of it.
 */
export function placeInLine(before: number, sameBucketAhead: number): number {
  return 1 + Math.max(0, before) + Math.max(0, sameBucketAhead);
}

/** One purchase as its item stores it (docs/architecture.md §2). */
export interface PurchaseStanding {
  packId: string;
  /** Credits granted. */
  credits: number;
  /** Cents charged after promotion codes; `0` for a 100 %-off purchase; absent on old items (taken as paid). */
  amountTotal?: number;
  /** Credits taken back by refunds and disputes. */
  creditsReversed?: number;
  /** `completed`, `refunded` or `disputed`. */
  status?: string;
}

/**
 * The customer's current class in the line, from their purchase items, looked up every time a slot enters the line:
 * `priority` when at least one purchase of a "Priority generation" pack (domain/packs.ts) was paid for (not 100 %
 * off) and is not fully refunded — unless any of their payments is disputed (a chargeback takes priority away from the
 * account, whatever else it bought).
 */
export function priorityStanding(purchases: readonly PurchaseStanding[]): LinePriority {
  if (purchases.some((p) => p.status === 'disputed')) return 'standard';
  const paid = purchases.some(
    (p) => grantsPriority(p.packId) && p.amountTotal !== 0 && (p.creditsReversed ?? 0) < p.credits,
  );
  return paid ? 'priority' : 'standard';
}
