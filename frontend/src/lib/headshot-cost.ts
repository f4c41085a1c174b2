import { CREDITS_PER_HEADSHOT } from '../../../functions/domain/credits';

/**
 * What one headshot costs, as the pricing page and the landing's pricing section say it (docs/product-spec.md §2
 * "Pricing page", issue 35 "Money copy from one source"): read from the rule the server charges by
 * (functions/domain/credits.ts CREDITS_PER_HEADSHOT, priced per generation by domain/generation-cost.ts), so the
 * marketing line cannot promise 1 credit where the wizard charges 2.
 */

const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/** 'Each headshot costs 1 credit, or 2 in high resolution'. */
export const COST_PER_HEADSHOT_LINE = `Each headshot costs ${credits(CREDITS_PER_HEADSHOT.standard)}, or ${CREDITS_PER_HEADSHOT.high} in high resolution`;
