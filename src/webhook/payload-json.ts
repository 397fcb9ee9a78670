// The body's `data` as JSON, refusing what JSON.stringify would silently change: a receiver must get the data the
// caller gave, and `data` must be an object (the receiver helper answers 400 to anything else, on every retry).
import { ConfigError, describeValue } from '../core/errors.js';
import { withArticle } from './value-kind.js';

const FIELD = 'message.payload';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `data` as compact JSON. Throws `ConfigError`, naming the offending path and what to pass instead, when `data` does
 * not serialise to an object (a Date, an array, a `toJSON()` returning a string…) or when serialising would lose or
 * change a value: a Map or Set (JSON writes `{}`), an ArrayBuffer, DataView or typed array, a WeakRef, an invalid
 * Date, NaN or Infinity (`null`), boxed ones too, a BigInt (boxed too), a function, a symbol,
 * `undefined` in an array (`null`), a cycle. An `undefined` property is left out, as JSON.stringify does: it means
 * "absent".
 */
export function payloadJson(data: unknown): string {
  // Where each object sits in the payload, for messages that name the path; only objects are ever holders.
  const paths = new Map<unknown, string>();
  function check(this: unknown, key: string, value: unknown): unknown {
    const holder = paths.get(this);
    const path = holder === undefined ? FIELD : holder + pathStep(this, key);
    if (holder === undefined) {
      // The top level, after toJSON(): what the receiver will find in `data`.
      const problem = notAnObject(data, value);
      if (problem) throw new ConfigError(FIELD, data, problem);
    }
    // Before toJSON(): an invalid Date's gives null.
    const original = holder === undefined ? data : (this as Record<string, unknown>)[key];
    const problem = original instanceof Date && Number.isNaN(original.getTime()) ? 'is an invalid Date, which JSON writes as null; send null or a valid date' : lossyValueProblem(value, Array.isArray(this));
    if (problem) throw new ConfigError(path, value, problem);
    if (typeof value === 'object' && value !== null) paths.set(value, path);
    return value;
  }
  try {
    return JSON.stringify(data, check);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    // A cycle, or what a toJSON() method or a getter threw.
    throw new ConfigError(FIELD, data, `must be JSON-serialisable (${thrownWords(error)})`);
  }
}

// On one line (Node draws a cycle over several); a thrown value that is no Error (`throw 'closed'`), described.
function thrownWords(error: unknown): string {
  if (!(error instanceof Error)) return `serialising it threw ${describeValue(error)}, from a toJSON() method or a getter in it`;
  return error.message.includes('\n') ? error.message.replace(/\s+/g, ' ') : error.message;
}

function notAnObject(given: unknown, serialised: unknown): string | undefined {
  const shape = 'must serialise to a JSON object (a map of string keys to values)';
  if (typeof serialised !== 'object' || serialised === null || Array.isArray(serialised)) {
    const what = Array.isArray(serialised) ? 'an array' : serialised === null || serialised === undefined ? String(serialised) : `a ${typeof serialised}`;
    const source = given === serialised ? 'it is' : `its toJSON() gives`;
    const kind = given !== serialised && typeof given === 'object' && given !== null ? ` (${withArticle(given.constructor?.name ?? 'Object')})` : '';
    return `${shape}, but ${source} ${what}${kind}; wrap it in an object, e.g. payload({ value })`;
  }
  return undefined;
}

// Why JSON would lose or change `value`, with what to send instead.
function lossyValueProblem(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? undefined : 'is not a finite number, which JSON writes as null; send null or a string instead';
    case 'bigint':
      return 'is a BigInt, which JSON cannot hold; send String(value), or Number(value) when it is small enough';
    case 'function':
    case 'symbol':
      return `is a ${typeof value}, which JSON leaves out; a payload holds data only`;
    case 'undefined':
      return inArray ? 'is undefined inside an array, which JSON writes as null; use null' : undefined;
    case 'object':
      if (value instanceof Map) return 'is a Map, which JSON writes as {}; pass Object.fromEntries(map) instead';
      if (value instanceof Set) return 'is a Set, which JSON writes as {}; pass [...set] instead';
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) {
        // A Buffer never gets here: its toJSON() gives { type: 'Buffer', data: [bytes] }, which JSON keeps.
        const written = value instanceof ArrayBuffer || value instanceof SharedArrayBuffer || value instanceof DataView ? '{}' : 'an object keyed "0", "1"…';
        return `is ${withArticle(value.constructor.name)}, which JSON writes as ${written}; send Buffer.from(bytes).toString('base64') or Array.from(value)`;
      }
      if (value instanceof Number && !Number.isFinite(value.valueOf())) return 'is a boxed non-finite number, which JSON writes as null; send null or a string instead';
      if (value instanceof BigInt) return 'is a boxed BigInt (Object(bigint)), which JSON cannot hold; send String(value), or Number(value) when it is small enough';
      if (value instanceof WeakMap || value instanceof WeakSet || value instanceof WeakRef || value instanceof RegExp || value instanceof Error || value instanceof Promise) {
        return `is ${withArticle(value.constructor.name)}, which JSON writes as {}; convert it to a string or a plain object`;
      }
      return undefined;
    default:
      return undefined;
  }
}

function pathStep(holder: unknown, key: string): string {
  if (Array.isArray(holder)) return `[${key}]`;
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
