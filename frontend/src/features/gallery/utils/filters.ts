/**
 * The dashboard's filter and order, kept in the URL (docs/product-spec.md §2), and the greeting's name. Pure.
 */

/** The filters, as the API (`GET /api/headshots?filter=`) and the URL (`/dashboard?filter=`) spell them. */
export const GALLERY_FILTERS = ['all', 'favorites', 'professional', 'business-casual', 'creative'] as const;
export type GalleryFilter = (typeof GALLERY_FILTERS)[number];

/** The dropdown's options, in order, with the spec's labels verbatim. */
export const FILTER_OPTIONS: readonly { value: GalleryFilter; label: string }[] = [
  { value: 'all', label: 'All Headshots' },
  { value: 'favorites', label: 'Favorites Only' },
  { value: 'professional', label: 'Professional Style' },
  { value: 'business-casual', label: 'Business Casual' },
  { value: 'creative', label: 'Creative Style' },
];

/** The filter named by the URL's `?filter=`; anything missing or unknown is `all`. */
export function filterFromSearch(search: URLSearchParams): GalleryFilter {
  return choiceFromSearch(search, 'filter', GALLERY_FILTERS, 'all');
}

/** The search params for a filter: `all` is the default, so it leaves `?filter=` out (a clean /dashboard URL). */
export function searchWithFilter(search: URLSearchParams, filter: GalleryFilter): URLSearchParams {
  return searchWithChoice(search, 'filter', filter, 'all');
}

/** The gallery's orders, as the API (`sort=`) and the URL (`/dashboard?sort=`) spell them. */
export const GALLERY_SORTS = ['newest', 'best-match'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/** The sort dropdown's options, in order. */
export const SORT_OPTIONS: readonly { value: GallerySort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'best-match', label: 'Best match' },
];

/** The order named by the URL's `?sort=`; anything missing or unknown is `newest`. */
export function sortFromSearch(search: URLSearchParams): GallerySort {
  return choiceFromSearch(search, 'sort', GALLERY_SORTS, 'newest');
}

/** The search params for an order: `newest` is the default, so it leaves `?sort=` out. */
export function searchWithSort(search: URLSearchParams, sort: GallerySort): URLSearchParams {
  return searchWithChoice(search, 'sort', sort, 'newest');
}

/** The value of `?name=` when it is one of `choices`, else `fallback`. */
function choiceFromSearch<T extends string>(
  search: URLSearchParams,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = search.get(name);
  return (choices as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
}

/** `search` with `?name=value`, or without `name` when `value` is the default (a clean URL). */
function searchWithChoice(
  search: URLSearchParams,
  name: string,
  value: string,
  fallback: string,
): URLSearchParams {
  const next = new URLSearchParams(search);
  if (value === fallback) next.delete(name);
  else next.set(name, value);
  return next;
}

/** The greeting's name: the part of the e-mail before the '@' (docs/product-spec.md §2). */
export function nameFromEmail(email: string | undefined | null): string {
  if (!email) return '';
  const at = email.indexOf('@');
  return at === -1 ? email : email.slice(0, at);
}
