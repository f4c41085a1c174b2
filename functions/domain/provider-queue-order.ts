/**
 * The order of the provider line and the keys that hold it (docs/architecture.md §4, docs/decisions/010-provider-queue.md).
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

/**
 * The widths of the place-in-line counters, in ms, coarsest first: one counter of waiting generations per 10 s, per
 * 1 s, per 100 ms and per 1 ms of order key (each level in its own partition). A generation's place is the sum of the
 * counters before its own at each level, within its bucket of the level above — at most
 * (deadline + head start) / 10 s counters at the top and 10 or 100 at the others, whatever the number waiting, and
 * however densely a burst packs their keys.
 */
export const PLACE_LEVELS_MS: readonly number[] = [10_000, 1_000, 100, 1];

/** The start of the bucket of `key` at a level `widthMs` wide, epoch ms. */
export function placeBucket(key: number, widthMs = PLACE_LEVELS_MS[0]!): number {
  return Math.floor(key / widthMs) * widthMs;
}

/** The sort key of a counter of waiting generations: `B#<bucket start, 15 digits>` (its level is its partition). */
export function bucketSk(bucketStart: number): string {
  return `B#${pad(bucketStart, 15)}`;
}

/**
 * The counters to read for the place of `key`: per level, the range of bucket sort keys strictly before the key's own
 * bucket, from the start of its bucket at the level above (the top level: from `oldest`). A range that is empty is
 * left out.
 */
export function counterRanges(key: number, oldest: number): { levelMs: number; from: string; to: string }[] {
  return PLACE_LEVELS_MS.flatMap((levelMs, i) => {
    const parent = i === 0 ? placeBucket(oldest, levelMs) : placeBucket(key, PLACE_LEVELS_MS[i - 1]!);
    const last = placeBucket(key, levelMs) - levelMs;
    return last < parent ? [] : [{ levelMs, from: bucketSk(parent), to: bucketSk(last) }];
  });
}

/** The counters a generation with order key `key` adds 1 to while it waits: its bucket at every level. */
export function counterKeys(key: number): { levelMs: number; sk: string }[] {
  return PLACE_LEVELS_MS.map((levelMs) => ({ levelMs, sk: bucketSk(placeBucket(key, levelMs)) }));
}

/** The sort key of a waiting generation's place entry: `P#<orderKey, 15 digits>#<generationId>`. */
export function placeSk(input: { orderKey: number; generationId: string }): string {
  return `P#${pad(input.orderKey, 15)}#${input.generationId}`;
}

/**
 * The oldest order key still in line at `now`, epoch ms: every generation's slots leave the line by its deadline,
 * and a priority key is at most the head start older than its start. Counters of older buckets are never read (and
 * expire by TTL).
 */
export function oldestLiveKey(now: number, deadlineMs: number, headStartMs: number): number {
  return Math.max(0, now - deadlineMs - headStartMs - PLACE_LEVELS_MS[0]!);
}

/**
 * The place in line the wizard shows: 1 = next up, k = k − 1 generations ahead. `before` = waiting generations of
 * the counters before the generation's own ({@link counterRanges}); `sameBucketAhead` = those with the same order key
 * (to the ms) ahead of it.
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
