/**
 * What the customer wears in a headshot (issue 36, docs/product-spec.md §2 Generator wizard): an outfit chosen
 * independently of the style and the background, as the API spells it. Pure: the contracts, the prompts, the gallery's
 * filters, the analytics funnel and the edits share one list.
 */

/**
 * The outfits a customer can pick, as the API spells them. `own-clothing` keeps what the customer wears in their
 * reference photos (the default, and what every generation made before outfits existed is treated as).
 */
export const OUTFITS = ['own-clothing', 'suit-and-tie', 'blazer', 'shirt', 'knitwear'] as const;
/** One of {@link OUTFITS}. */
export type Outfit = (typeof OUTFITS)[number];

/** The outfit of a generation that names none (older records, older clients): the customer's own clothing. */
export const DEFAULT_OUTFIT: Outfit = 'own-clothing';
