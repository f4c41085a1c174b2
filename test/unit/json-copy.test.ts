import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../../infrastructure/local/support/json-copy';

/** What the local Lambda runtime's copy must equal: the JSON round trip Lambda puts events and results through. */
const roundTrip = (value: unknown): unknown => {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
};

class Money {
  constructor(readonly cents: number) {}
  toJSON(key: string) {
    return { cents: this.cents, key };
  }
}

const sparse: unknown[] = [1];
sparse[3] = 'four';

const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;

const values: Record<string, unknown> = {
  'an HTTP result': {
    statusCode: 200,
    headers: { 'content-type': 'application/json', 'x-n': 3 },
    body: JSON.stringify({ items: [{ id: 'a', url: 'http://x/?a=1&b="2"' }], next: null }),
    cookies: ['a=1', 'b=2'],
  },
  'dropped and nulled values': {
    gone: undefined,
    fn: () => 1,
    sym: Symbol('s'),
    list: [undefined, () => 1, Symbol('t'), NaN, Infinity, -Infinity, -0],
    nan: NaN,
    minusZero: -0,
  },
  'toJSON and dates': { at: new Date(Date.UTC(2026, 10, 23)), price: new Money(1500), list: [new Money(1)] },
  'boxed primitives': {
    // eslint-disable-next-line @typescript-eslint/no-wrapper-object-types
    n: new Number(4) as Number,
    // eslint-disable-next-line @typescript-eslint/no-wrapper-object-types
    s: new String('x') as String,
    // eslint-disable-next-line @typescript-eslint/no-wrapper-object-types
    b: new Boolean(false) as Boolean,
  },
  'maps, sets, regexps and a sparse array': { m: new Map([[1, 2]]), s: new Set([1]), r: /x/g, sparse },
  'integer-like keys': { b: 1, 2: 'two', a: 2, 1: 'one' },
  'an own __proto__ key': withProto,
  'unicode, escapes and lone surrogates': { text: 'é "q" \\ \n\u0001 \ud800 😀', 'ké\n': 1 },
  'shared references (not a cycle)': (() => {
    const shared = { x: 1 };
    return { a: shared, b: [shared, shared] };
  })(),
  'top-level primitives': ['s', 1, true, null],
  'a top-level undefined': undefined,
  'a top-level function': () => 1,
  'a top-level toJSON': new Date(0),
};

describe('jsonCopy (the local Lambda runtime carrying events and results)', () => {
  for (const [name, value] of Object.entries(values)) {
    it(`gives what the JSON round trip gives: ${name}`, () => {
      const { value: copy, maxBytes } = jsonCopy(value);
      expect(copy).toStrictEqual(roundTrip(value));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(roundTrip(value)));
      expect(maxBytes).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(value) ?? 'null'));
    });
  }

  it('shares no object or array with the input', () => {
    const inner = { a: [1, { b: 2 }] };
    const input = { inner, list: [inner] };
    const copy = jsonCopy(input).value as typeof input;
    expect(copy).not.toBe(input);
    expect(copy.inner).not.toBe(inner);
    expect(copy.inner.a).not.toBe(inner.a);
    expect(copy.list[0]).not.toBe(copy.inner);
    (copy.inner.a[1] as { b: number }).b = 9;
    expect((inner.a[1] as { b: number }).b).toBe(2);
  });

  it('keeps an own __proto__ key as data, never as the prototype', () => {
    const copy = jsonCopy(withProto).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('throws what JSON.stringify throws for a BigInt and for a cycle', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => jsonCopy(cycle)).toThrow(/circular/);
  });

  it('bounds the size from above, exactly for plain ASCII', () => {
    const body = 'x'.repeat(1000);
    const { maxBytes } = jsonCopy(body);
    expect(maxBytes).toBe(Buffer.byteLength(JSON.stringify(body)));
    const escaped = '"'.repeat(1000);
    expect(jsonCopy(escaped).maxBytes).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(escaped)));
  });
});
