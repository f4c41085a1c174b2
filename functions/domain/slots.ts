import { GENERATION_COST } from './credits';

/**
 * A generation's image slots (docs/architecture.md §4, "1 credit = 1 headshot"): one slot per credit reserved, each
 * producing one headshot or refunding its credit. Pure: the workflow's Map, the refunds and the tests share it.
 */

/** Headshots one generation produces: one per credit reserved (docs/architecture.md §4, "1 credit = 1 headshot"). */
export const HEADSHOTS_PER_GENERATION = GENERATION_COST;

/** The image slots of a generation, `[0, 1, …, 5]`: the items the workflow's Map iterates over. */
export const SLOTS: readonly number[] = Array.from({ length: HEADSHOTS_PER_GENERATION }, (_, i) => i);

/**
 * Headshots (and credits) of a one-slot generation: "Regenerate (1 credit)" makes one new headshot with the same
 * style, background and references through the same workflow (docs/architecture.md §4, "1 credit = 1 headshot").
 */
export const REGENERATE_SLOTS: readonly number[] = [0];

/** The idempotency reference of the refund of one undelivered slot: `<generationId>#slot-<n>`. */
export function slotRefundRef(generationId: string, slot: number): string {
  return `${generationId}#slot-${slot}`;
}

/** The slots of a generation of `slotCount` slots (6, or 1 for a regeneration) that produced no headshot. */
export function missingSlots(
  savedSlots: Iterable<number>,
  { slotCount = HEADSHOTS_PER_GENERATION }: { slotCount?: number } = {},
): number[] {
  const saved = new Set(savedSlots);
  return SLOTS.slice(0, slotCount).filter((slot) => !saved.has(slot));
}
