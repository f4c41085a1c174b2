import { CREDITS_PER_HEADSHOT } from '../../../../../functions/domain/credits';
import { generationCost } from '../../../../../functions/domain/generation-cost';
import { CANVAS_SIZES } from '../../../../../functions/domain/headshot-variants';
import { HEADSHOTS_PER_GENERATION } from '../../../../../functions/domain/slots';

/**
 * The high-resolution option of step 3 (docs/product-spec.md §2 step 3, docs/decisions/009-high-resolution.md): the
 * server decides the price (domain generationCost, the rule it charges by) and whether it is offered (`GET /api/me`
 * `highResolution`); these are its words and figures as the wizard shows them.
 */

const high = CANVAS_SIZES.flexible.high;
const standard = CANVAS_SIZES.flexible.standard;

/** Credits of a 6-headshot generation at high resolution (12). */
const HIGH_RESOLUTION_COST = generationCost({ resolution: 'high' });

/** The option's words (product-spec §2 step 3, verbatim). */
export const HIGH_RESOLUTION_TEXT = {
  label: 'High resolution',
  price: `+${CREDITS_PER_HEADSHOT.high - CREDITS_PER_HEADSHOT.standard} credit per headshot`,
  description: `Print-ready: each portrait and original at ${high.width} × ${high.height} px instead of ${standard.width} × ${standard.height}. ${HIGH_RESOLUTION_COST} credits for ${HEADSHOTS_PER_GENERATION} headshots.`,
  needCredits: (credits: number) =>
    `You need ${HIGH_RESOLUTION_COST} credits to generate high-resolution headshots, but you only have ${credits}.`,
} as const;
