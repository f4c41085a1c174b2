/**
 * The dashboard's filter and order, kept in the URL (docs/product-spec.md §2), and the greeting's name. Pure.
 */

/**
 * The filters, as the API (`GET /api/headshots?filter=`) and the URL (`/dashboard?filter=`) spell them: the styles,
 * then the outfits (issue 36; functions/domain/gallery.ts).
 */
export const GALLERY_FILTERS = [
  'all',
  'favorites',
  'professional',
  'business-casual',
  'creative',
  'own-clothing',
  'suit-and-tie',
  'blazer',
  'shirt',
  'knitwear',
] as const;
export type GalleryFilter = (typeof GALLERY_FILTERS)[number];

/** The gallery's orders, as the API (`sort=`) and the URL (`/dashboard?sort=`) spell them. */
export const GALLERY_SORTS = ['newest', 'best-match'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/** One choice kept in a URL search param: its dropdown options and how to read and write it. */
interface UrlChoice<T extends string> {
  /** The dropdown's options, in the order of the choices, with their labels. */
  options: readonly { value: T; label: string }[];
  /** The choice named by the URL; anything missing or unknown is the default. */
  fromSearch: (search: URLSearchParams) => T;
  /** The search params with the choice; the default leaves the param out (a clean URL). */
  withSearch: (search: URLSearchParams, value: T) => URLSearchParams;
}

/** A choice kept in `?name=`, one of `choices` (labelled by `labels`), `fallback` when absent. */
function urlChoice<T extends string>(
  name: string,
  choices: readonly T[],
  labels: Record<T, string>,
  fallback: T,
): UrlChoice<T> {
  return {
    options: choices.map((value) => ({ value, label: labels[value] })),
    fromSearch: (search) => {
      const value = search.get(name);
      return (choices as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
    },
    withSearch: (search, value) => {
      const next = new URLSearchParams(search);
      if (value === fallback) next.delete(name);
      else next.set(name, value);
      return next;
    },
  };
}

// The filter labels are the spec's, verbatim.
const filterChoice = urlChoice(
  'filter',
  GALLERY_FILTERS,
  {
    all: 'All Headshots',
    favorites: 'Favorites Only',
    professional: 'Professional Style',
    'business-casual': 'Business Casual',
    creative: 'Creative Style',
    'own-clothing': 'Outfit: Own Clothes',
    'suit-and-tie': 'Outfit: Suit and Tie',
    blazer: 'Outfit: Blazer',
    shirt: 'Outfit: Shirt',
    knitwear: 'Outfit: Knitwear',
  },
  'all',
);

const sortChoice = urlChoice(
  'sort',
  GALLERY_SORTS,
  { newest: 'Newest first', 'best-match': 'Best match' },
  'newest',
);

/** The filter dropdown's options, in order, with the spec's labels verbatim. */
export const FILTER_OPTIONS = filterChoice.options;

/** The filter named by the URL's `?filter=`; anything missing or unknown is `all`. */
export const filterFromSearch: (search: URLSearchParams) => GalleryFilter = filterChoice.fromSearch;

/** The search params for a filter: `all` is the default, so it leaves `?filter=` out (a clean /dashboard URL). */
export const searchWithFilter: (search: URLSearchParams, filter: GalleryFilter) => URLSearchParams =
  filterChoice.withSearch;

/** The sort dropdown's options, in order. */
export const SORT_OPTIONS = sortChoice.options;

/** The order named by the URL's `?sort=`; anything missing or unknown is `newest`. */
export const sortFromSearch: (search: URLSearchParams) => GallerySort = sortChoice.fromSearch;

/** The search params for an order: `newest` is the default, so it leaves `?sort=` out. */
export const searchWithSort: (search: URLSearchParams, sort: GallerySort) => URLSearchParams =
  sortChoice.withSearch;

/** The greeting's name: the part of the e-mail before the '@' (docs/product-spec.md §2). */
export function nameFromEmail(email: string | undefined | null): string {
  if (!email) return '';
  const at = email.indexOf('@');
  return at === -1 ? email : email.slice(0, at);
}
