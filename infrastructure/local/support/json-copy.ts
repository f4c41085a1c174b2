/**
 * `JSON.parse(JSON.stringify(value))` without the text in between, for the local Lambda runtime, which hands events
 * and results across "the wire" as Lambda does (infrastructure/local/stand-ins/lambda/runtime.ts).
 *
 * The result is the value the round trip gives — `toJSON` called, `undefined`, functions and symbols dropped from
 * objects and `null` in arrays, non-finite numbers `null`, `-0` 0, boxed primitives unboxed, only own enumerable
 * string keys, fresh objects and arrays that share nothing with the input, a `TypeError` for a BigInt or a cycle —
 * except that strings are not escaped and parsed again: a string is immutable, so the same string is the copy. An
 * HTTP handler's result is mostly one string (the response body, tens of KB of JSON), which the round trip escaped
 * and unescaped on every request.
 */

/** A copy and the size in bytes its JSON text would have at most (an upper bound, exact only for pure ASCII). */
export interface JsonCopy {
  /** What `JSON.parse(JSON.stringify(value))` returns; `null` when that text would be `undefined`. */
  value: unknown;
  /**
   * At least the UTF-8 length of `JSON.stringify(value)` in bytes: every string counted as if each code unit were
   * escaped to its longest form (`\uXXXX`, 6 bytes) unless it is plain printable ASCII, numbers at their longest.
   */
  maxBytes: number;
}

/** Longest JSON text of a finite number (`-1.2345678901234567e-308`). */
const MAX_NUMBER_CHARS = 24;
/** Printable ASCII without `"` and `\`: one byte each in JSON text. */
const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** An upper bound of the UTF-8 length of `JSON.stringify(text)`. */
function maxStringBytes(text: string): number {
  // Escaped (`\"`, `\n`: 2; control characters and lone surrogates: `\uXXXX`, 6) or UTF-8 (at most 3 per code unit).
  return (PLAIN_ASCII.test(text) ? text.length : text.length * 6) + 2;
}

/**
 * Copies `value` as `JSON.parse(JSON.stringify(value))` would, sharing its strings (see the module comment).
 *
 * @throws {TypeError} for a BigInt or a circular structure, as `JSON.stringify` does
 */
export function jsonCopy(value: unknown): JsonCopy {
  const ancestors = new Set<object>();
  let maxBytes = 0;

  function copy(key: string, input: unknown): unknown {
    let v = input;
    if ((typeof v === 'object' && v !== null) || typeof v === 'bigint') {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') v = (toJSON as (this: unknown, key: string) => unknown).call(v, key);
    }
    if (v instanceof Number) v = Number(v);
    else if (v instanceof String) v = String(v);
    else if (v instanceof Boolean) v = v.valueOf();
    switch (typeof v) {
      case 'string':
        maxBytes += maxStringBytes(v);
        return v;
      case 'number':
        maxBytes += MAX_NUMBER_CHARS;
        return Number.isFinite(v) ? v + 0 : null;
      case 'boolean':
        maxBytes += 5;
        return v;
      case 'bigint':
        throw new TypeError('Do not know how to serialize a BigInt');
      case 'object':
        if (v === null) {
          maxBytes += 4;
          return null;
        }
        break;
      default:
        // undefined, a function or a symbol: left out of objects, null in arrays (the caller decides).
        return undefined;
    }
    const object = v as object;
    if (ancestors.has(object)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(object);
    try {
      maxBytes += 2;
      if (Array.isArray(object)) {
        const out: unknown[] = new Array<unknown>(object.length);
        for (let i = 0; i < object.length; i++) {
          const item = copy(String(i), (object as unknown[])[i]);
          out[i] = item === undefined ? null : item;
          if (item === undefined) maxBytes += 4;
          maxBytes += 1;
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(object)) {
        const item = copy(name, (object as Record<string, unknown>)[name]);
        if (item === undefined) continue;
        maxBytes += maxStringBytes(name) + 2;
        // JSON.parse makes `__proto__` an own property like any other key, not the prototype.
        if (name === '__proto__')
          Object.defineProperty(out, name, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[name] = item;
      }
      return out;
    } finally {
      ancestors.delete(object);
    }
  }

  const copied = copy('', value);
  if (copied === undefined) return { value: null, maxBytes: 4 };
  return { value: copied, maxBytes };
}
