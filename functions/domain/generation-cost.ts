import { CREDITS_PER_HEADSHOT } from './credits';
import type { Resolution } from './headshot-variants';
import { HEADSHOTS_PER_GENERATION } from './slots';

/**
 * What a generation costs, the one rule the server charges by and every screen states (issue 35 "Money copy from one
 * source"): the wizard's option, button, credits card, notice and toast, and the start's ledger spend all call
 * {@link generationCost}, so they cannot disagree.
 */

/** What decides a generation's cost. */
export interface GenerationCostInput {
  /** The canvas of every slot; default `standard` (docs/decisions/009-high-resolution.md). */
  resolution?: Resolution;
  /** Headshots it makes: 6 for a generation, 1 for a regeneration (docs/architecture.md §4). */
  slotCount?: number;
}

/**
 * Credits a generation reserves (and refunds per undelivered headshot): its slots × the credits one headshot costs at
 * its resolution (functions/domain/credits.ts CREDITS_PER_HEADSHOT: 1 standard, 2 high; docs/product-spec.md §2
 * step 3 and §9). 6 for a standard generation, 12 at high resolution, 1 for a standard regeneration.
 *
 * @throws {RangeError} for a slot count that is not a positive whole number.
 */
export function generationCost({
  resolution = 'standard',
  slotCount = HEADSHOTS_PER_GENERATION,
}: GenerationCostInput = {}): number {
  if (!Number.isSafeInteger(slotCount) || slotCount <= 0)
    throw new RangeError(`Invalid slot count: ${slotCount}`);
  return slotCount * CREDITS_PER_HEADSHOT[resolution];
}
