import fc from 'fast-check';
import { BACKGROUNDS, STYLES } from '../../functions/domain/styles';
import { GALLERY_FILTERS } from '../../functions/domain/gallery';
import { CREDIT_PACKS } from '../../functions/domain/packs';
import { OUTFITS } from '../../functions/domain/outfits';

/**
 * fast-check arbitraries for requests a hostile or broken client may send: odd ids, odd queries, odd bodies and
 * odd headers. Each mixes plain random data with near-misses of what the API expects (the inputs that get past the
 * first checks and reach the deeper code).
 */

/** Path-segment values that have broken servers before. */
const ODD_IDS = [
  '',
  '.',
  '..',
  '...',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%2e%2e',
  '%2F',
  '%2f..%2f',
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
  '%C0%AE',
  '%u002e',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '"; DROP TABLE x; --',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(1024),
  'A'.repeat(26),
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  '01arz3ndektsv4rrffq69g5fav',
  '01ARZ3NDEKTSV4RRFFQ69G5FAVX',
  '01ARZ3NDEKTSV4RRFFQ69G5FA',
  '01ILOUNDEKTSV4RRFFQ69G5FAV',
  'ＵＬＩＤ',
  '😀',
  '\u202e',
  'cs_',
  'cs_test_',
  'cs_test_a1b2c3',
  'cs_test_' + 'x'.repeat(300),
  'cs_live_a/b',
  'pi_123',
  '*',
  '$LATEST',
  '${jndi:ldap://x}',
];

/** A path segment: odd values, random text, ULIDs (mostly of nothing), sent percent-encoded or raw. */
export function pathId(extra: readonly string[] = []): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ODD_IDS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 2, arbitrary: fc.ulid() },
    ...(extra.length ? [{ weight: 5, arbitrary: fc.constantFrom(...extra) }] : []),
  );
  return fc
    .tuple(value, fc.constantFrom('encoded', 'raw', 'raw'))
    .map(([v, how]) => (how === 'encoded' ? encodeURIComponent(v) : v))
    .filter((v) => !v.includes('/') && !v.includes('?') && !v.includes('#'));
}

/** A cursor-like value: random text, base64url of near-valid keys, or one of `valid`. */
export function cursorValue(pk: string, valid: readonly string[] = []): fc.Arbitrary<string> {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
  return fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.string({ maxLength: 700 }),
    fc.ulid().map((id) => b64({ PK: pk, SK: `HEADSHOT#${id}` })),
    fc.ulid().map((id) => b64({ PK: 'USER#someone-else', SK: `HEADSHOT#${id}` })),
    fc.ulid().map((id) => b64({ PK: pk, SK: `GENERATION#${id}` })),
    fc.ulid().map((id) => b64({ PK: pk, SK: `HEADSHOT#${id}`, extra: 1 })),
    fc.string().map((sk) => b64({ PK: pk, SK: `HEADSHOT#${sk}` })),
    fc.jsonValue().map(b64),
    fc.ulid().map((id) => `${b64({ PK: pk, SK: `HEADSHOT#${id}` })}=`),
    ...(valid.length ? [fc.constantFrom(...valid)] : []),
  );
}

/** A query string (with or without `?`): random pairs and near-valid `filter`/`cursor`, encoded or raw. */
export function queryString(known: Record<string, fc.Arbitrary<string>> = {}): fc.Arbitrary<string> {
  const keys = Object.keys(known);
  const pair = fc.oneof(
    fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 })),
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', ''), fc.string()),
    ...keys.map((k) => fc.tuple(fc.constant(k), known[k]!)),
  );
  return fc.tuple(fc.array(pair, { maxLength: 5 }), fc.boolean()).map(([pairs, raw]) => {
    if (pairs.length === 0) return '';
    const encode = raw ? (s: string) => s.replace(/[&#=\s]/g, encodeURIComponent) : encodeURIComponent;
    return `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`;
  });
}

/** Headers that vary the body's interpretation (content type, encoding) and a few hostile extras. */
export const bodyHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/octet-stream',
        'multipart/form-data; boundary=x',
        'image/jpeg',
        'application/json; charset=utf-16',
      ),
      'idempotency-key': fc.oneof(fc.string({ maxLength: 140 }), fc.stringMatching(/^[A-Za-z0-9_-]{8,128}$/)),
      'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1', 'evil'),
      'content-encoding': fc.constantFrom('gzip', 'identity'),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, v]) => !/[\r\n]/.test(v))));

/** Any JSON text, text that is not JSON, raw bytes, or nothing. `nearValid` adds route-specific near misses. */
export function body(nearValid?: fc.Arbitrary<unknown>): fc.Arbitrary<string | Uint8Array | undefined> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        'null',
        '[]',
        '""',
        '1e999',
        '\ufeff{}',
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    ...(nearValid ? [{ weight: 7, arbitrary: nearValid.map((v) => JSON.stringify(v)) }] : []),
  );
}

/** A value that is mostly right and sometimes any JSON. */
const sometimes = <T>(right: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: right }, fc.jsonValue());

/** Either exactly right (`valid`) or a near miss (`fuzzy`), about half and half. */
const validOrNot = (valid: fc.Arbitrary<unknown>, fuzzy: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 1, arbitrary: valid }, { weight: 1, arbitrary: fuzzy });

/** Near-valid `POST /api/uploads` bodies. */
export const uploadsBody: fc.Arbitrary<unknown> = validOrNot(
  fc.record({
    files: fc.array(
      fc.record({
        contentType: fc.constantFrom('image/jpeg', 'image/png', 'image/heic', 'image/webp'),
        size: fc.integer({ min: 1, max: 10 * 1024 * 1024 }),
      }),
      { minLength: 1, maxLength: 10 },
    ),
  }),
  fc.record(
    {
      files: sometimes(
        fc.array(
          fc.record(
            {
              contentType: sometimes(
                fc.constantFrom(
                  'image/jpeg',
                  'image/heic',
                  'IMAGE/PNG',
                  ' image/png ',
                  'image/svg+xml',
                  'image/',
                  'text/html',
                  'image/jpeg; charset=x',
                ),
              ),
              size: sometimes(
                fc.oneof(
                  fc.integer(),
                  fc.constantFrom(0, -1, 1, 10 * 1024 * 1024, 10 * 1024 * 1024 + 1, Number.MAX_SAFE_INTEGER),
                  fc.double(),
                ),
              ),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 12 },
        ),
      ),
      extra: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

/**
 * Near-valid `POST /api/generations` bodies built from reference keys worth trying: `real`, an upload of the
 * caller's that exists; `missing`, keys of the caller's shape that were never uploaded; `foreign`, keys that are not
 * the caller's uploads at all (another user's, normalized copies, traversal tricks).
 */
export function generationsBody(real: string, missing: readonly string[], foreign: readonly string[]) {
  const all = [real, ...missing, ...foreign];
  return validOrNot(
    fc.record({
      style: fc.constantFrom(...STYLES),
      background: fc.constantFrom(...BACKGROUNDS),
      referenceKeys: fc.oneof(
        fc.constant([real]),
        fc.constantFrom(...missing).map((k) => [real, k]),
        fc.constantFrom(...foreign).map((k) => [k, real]),
        fc.uniqueArray(fc.constantFrom(...all), { minLength: 1, maxLength: 4 }),
      ),
    }),
    fc.record(
      {
        style: sometimes(fc.constantFrom(...STYLES, 'Professional', 'casual', '')),
        background: sometimes(fc.constantFrom(...BACKGROUNDS, 'beach', '')),
        referenceKeys: sometimes(
          fc.array(fc.oneof(fc.constantFrom(...all), fc.string({ maxLength: 80 })), { maxLength: 12 }),
        ),
        credits: fc.integer(),
        userId: fc.string(),
      },
      { requiredKeys: [] },
    ),
  );
}

/** Near-valid `POST /api/checkout/sessions` bodies (including a client-chosen price, which must be ignored). */
export const checkoutBody: fc.Arbitrary<unknown> = fc.record(
  {
    packId: sometimes(fc.constantFrom(...CREDIT_PACKS.map((p) => p.id), 'gold', ' popular ', 'POPULAR', '')),
    price: fc.integer(),
    credits: fc.integer(),
    metadata: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

/** Near-valid `PATCH /api/headshots/{id}` bodies. */
export const favoriteBody: fc.Arbitrary<unknown> = validOrNot(
  fc.record({ isFavorite: fc.boolean() }),
  fc.record(
    {
      isFavorite: sometimes(fc.boolean()),
      style: fc.string(),
      userId: fc.string(),
    },
    { requiredKeys: [] },
  ),
);

/** Near-valid `POST /api/headshots/{id}/edits` bodies: every kind, and odd kinds, options, colours and versions. */
export const editBody: fc.Arbitrary<unknown> = validOrNot(
  fc.record({
    edit: fc.oneof(
      fc.record({
        kind: fc.constant('background'),
        background: fc.oneof(
          fc.record({ type: fc.constant('colour'), colour: fc.constantFrom('#1f6feb', '#FFFFFF') }),
          fc.constant({ type: 'transparent' }),
        ),
      }),
      fc.record({ kind: fc.constant('outfit'), outfit: fc.constantFrom(...OUTFITS) }),
      fc.constant({ kind: 'upscale' }),
    ),
  }),
  fc.record(
    {
      edit: fc.oneof(
        fc.record(
          {
            kind: fc.constantFrom('background', 'outfit', 'retouch', 'reframe', 'crop', ''),
            background: fc.record({ type: fc.constantFrom('colour', 'preset'), colour: fc.string() }),
            outfit: fc.string(),
            strength: fc.constantFrom('natural', 'heavy'),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
      versionId: sometimes(fc.string({ maxLength: 80 })),
      credits: fc.integer(),
    },
    { requiredKeys: [] },
  ),
);

/** The gallery filter values, valid and not. */
export const filterValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...GALLERY_FILTERS, 'ALL', 'favourites', ''),
  fc.string({ maxLength: 20 }),
);

/** Near-valid `POST /api/analytics/events` bodies: real batches, and batches with odd names, ids, props and sizes. */
export const analyticsBody: fc.Arbitrary<unknown> = validOrNot(
  fc.record({
    events: fc.array(
      fc.record({
        name: fc.constantFrom('page_view', 'sign_up', 'download', 'favorite'),
        ts: fc.constant(Date.now()),
        sessionId: fc.constant('session_fuzz_0001'),
        anonymousId: fc.constant('anon_fuzz_0001'),
        path: fc.string({ maxLength: 300 }),
        props: fc.dictionary(
          fc.string({ minLength: 1, maxLength: 10 }),
          fc.oneof(fc.string({ maxLength: 400 }), fc.integer(), fc.boolean(), fc.constant(null)),
          { maxKeys: 5 },
        ),
      }),
      { minLength: 1, maxLength: 10 },
    ),
  }),
  fc.record({
    events: sometimes(
      fc.array(
        fc.record({
          name: sometimes(fc.constantFrom('page_view', 'purchase_completed', '', 'PAGE_VIEW')),
          ts: sometimes(fc.oneof(fc.integer(), fc.double(), fc.constant(-1))),
          sessionId: sometimes(fc.constantFrom('short', 'session_fuzz_0001', '../../etc', 'a'.repeat(65))),
          anonymousId: sometimes(fc.constantFrom('anon_fuzz_0001', '', 'x y z 1234')),
          props: sometimes(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 25 })),
        }),
        { maxLength: 30 },
      ),
    ),
  }),
);
