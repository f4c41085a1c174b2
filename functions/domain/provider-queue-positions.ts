/**
 * The position of a waiting generation in the provider queue, and the keys that count it (docs/architecture.md §4,
 * docs/decisions/010-provider-queue.md): one place entry per waiting generation and counters of waiting generations
 * at four levels of order key, so the wizard's position is exact at a fixed cost, whatever the queue's length.
 * Pure: adapters/provider-queue/positions.ts reads and writes the items.
 */

import { HEADSHOTS_PER_GENERATION } from './slots';

const pad = (n: number, width: number) => String(Math.trunc(n)).padStart(width, '0');

/**
 * The widths of the position counters, in ms, coarsest first: one counter of waiting generations per 10 s, per
 * 1 s, per 100 ms and per 1 ms of order key (each level in its own partition). A generation's position is the sum of the
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
 * The counters to read for the position of `key`: per level, the range of bucket sort keys strictly before the key's own
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
 * The oldest order key still in the queue at `now`, epoch ms: every generation's slots leave the queue by its deadline,
 * and a priority key is at most the head start older than its start. Counters of older buckets are never read (and
 * expire by TTL).
 */
export function oldestLiveKey(now: number, deadlineMs: number, headStartMs: number): number {
  return Math.max(0, now - deadlineMs - headStartMs - PLACE_LEVELS_MS[0]!);
}

/**
 * The position in the queue the wizard shows (the generation's `queue.position`): 1 = next up, k = k − 1 generations ahead. `before` = waiting generations of
 * the counters before the generation's own ({@link counterRanges}); `sameBucketAhead` = those with the same order key
 * (to the ms) ahead of it.
 */
export function queuePosition(before: number, sameBucketAhead: number): number {
  return 1 + Math.max(0, before) + Math.max(0, sameBucketAhead);
}

/** The waiting slots ahead of a generation at `position` (1 = next up): every generation ahead waits with all its slots. */
export function slotsAhead(position: number): number {
  return Math.max(0, position - 1) * HEADSHOTS_PER_GENERATION;
}
