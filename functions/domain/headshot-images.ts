/**
 * The images a generation delivers (docs/product-spec.md §9): their size, their thumbnail's, and the provider whose
 * headshots are previews. Pure: the image providers, the variants and the offline stand-in share these numbers.
 */

/** Side of every headshot, in pixels (docs/product-spec.md §9: 1024x1024). */
export const HEADSHOT_SIDE = 1024;
/** Longest side of a headshot's thumbnail, in pixels. */
export const THUMBNAIL_SIDE = 384;
/**
 * The name of the offline image provider (functions/adapters/image-providers/local.ts): its headshots are previews,
 * composites of the customer's own photos, and say so (the API's `preview`, a "PREVIEW" mark in the image).
 */
export const LOCAL_PROVIDER = 'local';
