import { isUlid } from './object-keys';
import { STYLES, type Style } from './styles';
import { DEFAULT_OUTFIT, OUTFITS, type Outfit } from './outfits';

/**
 * Rules of the gallery (docs/product-spec.md §2 Dashboard, docs/architecture.md §2-§3): the filters a user can pick, how each one reads as a
 * DynamoDB filter, the page size, and the opaque cursor that carries a page's position. Pure: no I/O.
 */

/** Headshots per page of `GET /api/headshots`. */
export const GALLERY_PAGE_SIZE = 30;

/**
 * The dashboard's filter dropdown (docs/product-spec.md §2), as the API spells it: `all` (All Headshots), `favorites` (Favorites
 * Only), one per style (Professional Style, Business Casual, Creative Style) and one per outfit (issue 36: Own
 * Clothing, Suit and Tie, Blazer, Shirt, Knitwear; domain/outfits.ts, whose names differ from the styles').
 */
export const GALLERY_FILTERS = ['all', 'favorites', ...STYLES, ...OUTFITS] as const;
export type GalleryFilter = (typeof GALLERY_FILTERS)[number];

/**
 * The gallery's orders: `newest` (the default, by creation) and `best-match` (highest likeness to the customer
 * first; headshots made before likeness was measured come last, newest first among equals).
 */
export const GALLERY_SORTS = ['newest', 'best-match'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/** Headshots `best-match` orders at most (a gallery of a few hundred is typical; the rest follows newest first). */
export const BEST_MATCH_LIMIT = 2000;

/** Orders headshots best match first: likeness descending (missing last), then newest first (ULID ids). */
export function byBestMatch<T extends { id: string; likeness?: number }>(a: T, b: T): number {
  return (b.likeness ?? -1) - (a.likeness ?? -1) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** The cursor of a `best-match` page: the offset into the ordered list (`b:<offset>`). */
export function bestMatchCursor(offset: number): string {
  return `b:${offset}`;
}

/**
 * The offset a `best-match` cursor carries.
 *
 * @throws {InvalidCursorError} when it is not one
 */
export function bestMatchOffset(cursor: string): number {
  const match = /^b:(\d{1,5})$/.exec(cursor);
  if (!match) throw new InvalidCursorError();
  return Number(match[1]);
}

/** The longest cursor accepted, in characters (a real one is about 120). */
export const MAX_CURSOR_LENGTH = 512;

/** What a headshot needs for {@link matchesFilter}. */
export interface FilterableHeadshot {
  style: Style | string;
  /** Absent on headshots made before outfits: the customer's own clothing. */
  outfit?: Outfit | string;
  isFavorite: boolean;
}

const isOutfit = (filter: GalleryFilter): filter is Outfit => (OUTFITS as readonly string[]).includes(filter);

/** True when a headshot belongs in the view `filter` (the same rule {@link filterExpressionOf} gives DynamoDB). */
export function matchesFilter(headshot: FilterableHeadshot, filter: GalleryFilter): boolean {
  if (filter === 'all') return true;
  if (filter === 'favorites') return headshot.isFavorite === true;
  if (isOutfit(filter)) return (headshot.outfit ?? DEFAULT_OUTFIT) === filter;
  return headshot.style === filter;
}

/** A DynamoDB `FilterExpression` with its names and values. */
export interface FilterExpression {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The DynamoDB filter of a view: none for `all`, `#isFavorite = :isFavorite` (true) for `favorites`,
 * `#style = :style` for a style, and `#outfit = :outfit` for an outfit (own clothing also matches headshots without
 * one). Names are always aliased, so reserved words cannot break the expression.
 */
export function filterExpressionOf(filter: GalleryFilter): FilterExpression | undefined {
  if (filter === 'all') return undefined;
  if (filter === 'favorites') {
    return {
      expression: '#isFavorite = :isFavorite',
      names: { '#isFavorite': 'isFavorite' },
      values: { ':isFavorite': true },
    };
  }
  if (isOutfit(filter)) {
    // Headshots made before outfits have none: they wore the customer's own clothing.
    const expression =
      filter === DEFAULT_OUTFIT ? 'attribute_not_exists(#outfit) OR #outfit = :outfit' : '#outfit = :outfit';
    return { expression, names: { '#outfit': 'outfit' }, values: { ':outfit': filter } };
  }
  return { expression: '#style = :style', names: { '#style': 'style' }, values: { ':style': filter } };
}

/** A primary key of the single table (what DynamoDB returns as `LastEvaluatedKey` for a base-table Query). */
export interface TableKey {
  PK: string;
  SK: string;
}

/** Exactly `{ PK, SK }`, both strings, and no other field. */
function isTableKey(value: unknown): value is TableKey {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const { PK, SK } = value as Record<string, unknown>;
  return keys.length === 2 && typeof PK === 'string' && typeof SK === 'string';
}

/** Thrown by {@link decodeCursor} for a cursor this server did not hand to this caller, or one that was altered. */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  constructor() {
    super('The cursor is not valid. Start again from the first page.');
  }
}

/** The opaque cursor of a key: base64url of its JSON `{"PK":…,"SK":…}`. */
export function encodeCursor(key: TableKey): string {
  return Buffer.from(JSON.stringify({ PK: key.PK, SK: key.SK }), 'utf8').toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Reads a cursor back into the key to start after, accepting only a key of the expected partition whose sort key
 * is `skPrefix` followed by a ULID, with no other fields. So a cursor can never start a Query in another user's
 * partition or at another kind of item, whatever the client sends.
 *
 * @param expected `pk`: the caller's partition (`USER#<sub>`); `skPrefix`: the item kind (`HEADSHOT#`)
 * @param isTail whether what follows `skPrefix` is what that kind's key holds there (a ULID unless told)
 * @throws {InvalidCursorError} when the cursor is not base64url, not JSON, has other or extra fields, or names
 *   another partition or item kind
 */
export function decodeCursor(
  cursor: string,
  expected: { pk: string; skPrefix: string },
  isTail: (tail: string) => boolean = isUlid,
): TableKey {
  if (cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) throw new InvalidCursorError();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!isTableKey(parsed)) throw new InvalidCursorError();
  const { PK, SK } = parsed;
  if (
    PK !== expected.pk ||
    !SK.startsWith(expected.skPrefix) ||
    !isTail(SK.slice(expected.skPrefix.length))
  ) {
    throw new InvalidCursorError();
  }
  // Re-encoding must give the same text: rejects non-canonical base64 that decodes to the same bytes.
  if (encodeCursor({ PK, SK }) !== cursor) throw new InvalidCursorError();
  return { PK, SK };
}

/** Gallery totals: every headshot of the user, and those marked favorite. */
export interface GalleryStats {
  total: number;
  favorites: number;
}
