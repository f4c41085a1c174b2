import { CREDITS_PER_HEADSHOT } from '../../../../../functions/domain/credits';
import { CANVAS_SIZES } from '../../../../../functions/domain/headshot-variants';
import { HEADSHOTS_PER_GENERATION } from './content';

/**
 * The high-resolution option of step 3 (docs/product-spec.md §2 step 3, docs/decisions/009-high-resolution.md): the
 * server decides the price (CREDITS_PER_HEADSHOT) and whether it is offered (`GET /api/me` `highResolution`); these
 * are its words and figures as the wizard shows them.
 */

const high = CANVAS_SIZES.flexible.high;
const standard = CANVAS_SIZES.flexible.standard;

/** Credits of a 6-headshot generation at high resolution (12). */
export const HIGH_RESOLUTION_COST = HEADSHOTS_PER_GENERATION * CREDITS_PER_HEADSHOT.high;

/** The option's words (product-spec §2 step 3, verbatim). */
export const HIGH_RESOLUTION_TEXT = {
  label: 'High resolution',
  price: `+${CREDITS_PER_HEADSHOT.high - CREDITS_PER_HEADSHOT.standard} credit per headshot`,
  description: `Print-ready: each portrait and original at ${high.width} × ${high.height} px instead of ${standard.width} × ${standard.height}. ${HIGH_RESOLUTION_COST} credits for ${HEADSHOTS_PER_GENERATION} headshots.`,
  generate: `Generate Headshots (${HIGH_RESOLUTION_COST} credits)`,
  needCredits: (credits: number) =>
    `You need ${HIGH_RESOLUTION_COST} credits to generate high-resolution headshots, but you only have ${credits}.`,
  insufficientToast: (credits: number) =>
    `Insufficient credits! You need ${HIGH_RESOLUTION_COST} credits but only have ${credits}.`,
} as const;
