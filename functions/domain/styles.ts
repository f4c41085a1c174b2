/**
 * What a customer may ask a generation for (docs/product-spec.md §2 Generator wizard, steps 2 and 3): a style and a
 * background, as the API spells them. Pure: the contracts, the prompts and the gallery's filters share one list.
 */

/** The three styles of docs/product-spec.md §2 step 2, as the API spells them. */
export const STYLES = ['professional', 'business-casual', 'creative'] as const;
/** One of {@link STYLES}. */
export type Style = (typeof STYLES)[number];

/** The four backgrounds of docs/product-spec.md §2 step 3, as the API spells them. */
export const BACKGROUNDS = ['office', 'studio', 'outdoor', 'gradient'] as const;
/** One of {@link BACKGROUNDS}. */
export type Background = (typeof BACKGROUNDS)[number];
