import fc from 'fast-check';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  filterExpressionOf,
  GALLERY_FILTERS,
  InvalidCursorError,
  matchesFilter,
} from '../../functions/domain/gallery';
import { galleryQuerySchema, updateHeadshotBody } from '../../functions/contracts';
import { OUTFITS } from '../../functions/domain/outfits';
import { STYLES } from '../../functions/domain/styles';
import { GALLERY_FILTERS as SPA_GALLERY_FILTERS } from '../../frontend/src/features/dashboard/utils/filters';
import { headshotPathSchema } from '../../functions/http/headshot-view';

const PK = 'USER#6d716c5a-579a-47d4-82f0-e1ea157c6776';
const expected = { pk: PK, skPrefix: 'HEADSHOT#' };

describe('gallery cursor', () => {
  it('round-trips a headshot key of the caller', () => {
    const key = { PK, SK: `HEADSHOT#${ulid()}` };
    const cursor = encodeCursor(key);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, expected)).toEqual(key);
  });

  it('round-trips any ULID (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), (time) => {
        const key = { PK, SK: `HEADSHOT#${ulid(time)}` };
        expect(decodeCursor(encodeCursor(key), expected)).toEqual(key);
      }),
    );
  });

  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sk = `HEADSHOT#${ulid()}`;

  it.each([
    ['not base64url', 'abc$def'],
    ['base64 padding', `${b64({ PK, SK: sk })}=`],
    ['not JSON', Buffer.from('not json').toString('base64url')],
    ['a JSON array', b64([PK, sk])],
    ['a missing SK', b64({ PK })],
    ['an extra field', b64({ PK, SK: sk, isFavorite: true })],
    ['a number for SK', b64({ PK, SK: 42 })],
    ['another user’s partition', b64({ PK: 'USER#someone-else', SK: sk })],
    ['another kind of item', b64({ PK, SK: `LEDGER#${ulid()}` })],
    ['a generation key', b64({ PK, SK: `GENERATION#${ulid()}` })],
    ['the profile', b64({ PK, SK: 'PROFILE' })],
    ['a SK that is not a ULID', b64({ PK, SK: 'HEADSHOT#zzz' })],
    ['a SK with a suffix', b64({ PK, SK: `${sk}#x` })],
    ['a flipped character', encodeCursor({ PK, SK: sk }).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))],
    ['an over-long text', 'A'.repeat(600)],
  ])('refuses %s', (_name, cursor) => {
    expect(() => decodeCursor(cursor, expected)).toThrow(InvalidCursorError);
  });
});

describe('gallery filters', () => {
  const headshots = [
    { id: 'a', style: 'professional', isFavorite: true, outfit: 'suit-and-tie' },
    { id: 'b', style: 'business-casual', isFavorite: false, outfit: 'knitwear' },
    { id: 'c', style: 'creative', isFavorite: true },
    { id: 'd', style: 'professional', isFavorite: false, outfit: 'own-clothing' },
  ];

  it.each([
    ['all', ['a', 'b', 'c', 'd']],
    ['favorites', ['a', 'c']],
    ['professional', ['a', 'd']],
    ['business-casual', ['b']],
    ['creative', ['c']],
    ['suit-and-tie', ['a']],
    ['knitwear', ['b']],
    ['blazer', []],
    // A headshot made before outfits (c) wore the customer's own clothing.
    ['own-clothing', ['c', 'd']],
  ] as const)('%s selects %j', (filter, ids) => {
    expect(headshots.filter((h) => matchesFilter(h, filter)).map((h) => h.id)).toEqual(ids);
  });

  it('maps every filter to the DynamoDB filter of the same rule', () => {
    expect(filterExpressionOf('all')).toBeUndefined();
    expect(filterExpressionOf('favorites')).toEqual({
      expression: '#isFavorite = :isFavorite',
      names: { '#isFavorite': 'isFavorite' },
      values: { ':isFavorite': true },
    });
    for (const style of ['professional', 'business-casual', 'creative'] as const) {
      expect(filterExpressionOf(style)).toEqual({
        expression: '#style = :style',
        names: { '#style': 'style' },
        values: { ':style': style },
      });
    }
    for (const outfit of ['suit-and-tie', 'blazer', 'shirt', 'knitwear'] as const) {
      expect(filterExpressionOf(outfit)).toEqual({
        expression: '#outfit = :outfit',
        names: { '#outfit': 'outfit' },
        values: { ':outfit': outfit },
      });
    }
    expect(filterExpressionOf('own-clothing')).toEqual({
      expression: 'attribute_not_exists(#outfit) OR #outfit = :outfit',
      names: { '#outfit': 'outfit' },
      values: { ':outfit': 'own-clothing' },
    });
    // The SPA keeps its own copy (it imports nothing of functions/): the two must name the same filters in one order.
    expect(GALLERY_FILTERS).toEqual([...SPA_GALLERY_FILTERS]);
    expect(GALLERY_FILTERS.slice(0, 2)).toEqual(['all', 'favorites']);
    expect(GALLERY_FILTERS.slice(2)).toEqual([...STYLES, ...OUTFITS]);
  });

  it('parses the query: filter defaults to all; unknown filters and empty cursors are refused', () => {
    expect(galleryQuerySchema.parse({})).toEqual({ filter: 'all', sort: 'newest' });
    expect(galleryQuerySchema.parse({ filter: 'creative', cursor: 'abc' })).toEqual({
      filter: 'creative',
      sort: 'newest',
      cursor: 'abc',
    });
    expect(galleryQuerySchema.safeParse({ filter: 'Creative' }).success).toBe(false);
    expect(galleryQuerySchema.safeParse({ filter: 'favourites' }).success).toBe(false);
    expect(galleryQuerySchema.safeParse({ cursor: '' }).success).toBe(false);
    expect(galleryQuerySchema.safeParse({ cursor: 'A'.repeat(513) }).success).toBe(false);
  });
});

describe('gallery request schemas', () => {
  it('PATCH takes exactly { isFavorite: boolean }', () => {
    expect(updateHeadshotBody.parse({ isFavorite: true })).toEqual({ isFavorite: true });
    for (const body of [
      undefined,
      {},
      { isFavorite: 'true' },
      { isFavorite: 1 },
      { isFavorite: true, x: 1 },
    ]) {
      expect(updateHeadshotBody.safeParse(body).success).toBe(false);
    }
  });

  it('the path id must be a ULID', () => {
    expect(headshotPathSchema.safeParse({ id: ulid() }).success).toBe(true);
    for (const id of ['', 'abc', '../x', `${ulid()}x`, ulid().toLowerCase()]) {
      expect(headshotPathSchema.safeParse({ id }).success).toBe(false);
    }
  });
});

describe('best-match order', () => {
  it('puts the highest likeness first, headshots without one last, newest first among equals', async () => {
    const { byBestMatch, bestMatchCursor, bestMatchOffset } = await import('../../functions/domain/gallery');
    const items = [
      { id: '01A', likeness: 70 },
      { id: '01B' },
      { id: '01C', likeness: 95 },
      { id: '01D', likeness: 70 },
      { id: '01E' },
    ];
    expect([...items].sort(byBestMatch).map((h) => h.id)).toEqual(['01C', '01D', '01A', '01E', '01B']);
    expect(bestMatchOffset(bestMatchCursor(60))).toBe(60);
    expect(() => bestMatchOffset('b:-1')).toThrow(/cursor/);
    expect(() => bestMatchOffset('eyJQSyI6')).toThrow(/cursor/);
    expect(galleryQuerySchema.parse({}).sort).toBe('newest');
    expect(galleryQuerySchema.safeParse({ sort: 'random' }).success).toBe(false);
  });
});
