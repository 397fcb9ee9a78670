// Checks for values that come from a site's configuration (often hand-written JSON). Each failure is a
// `ConfigError` that names the field and shows the bad value.
import { ConfigError } from './errors.js';

/**
 * The object's own fields, copied into an object without a prototype: a field the config leaves out reads as
 * `undefined` even on a page where something has added that name to `Object.prototype`.
 */
export function expectPlainObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(field, value, 'must be an object');
  }
  if (!isPlainObject(value)) throw notPlainObject(value, field);
  const own: Record<string, unknown> = Object.create(null);
  for (const [key, fieldValue] of Object.entries(value)) setOwnProperty(own, key, fieldValue);
  return own;
}

/**
 * Written as `{ … }` (in any frame) or made with `Object.create(null)`. A Headers or a Map keeps its entries where
 * `Object.entries` does not look, and other objects may inherit fields: read by own keys, those would be lost.
 */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as object | null;
  // Another frame's Object.prototype is not ours, but like ours it has no prototype itself.
  return !(Symbol.iterator in value) && (prototype === null || Object.getPrototypeOf(prototype) === null);
}

/** Worded as the request checks word a Headers or a Map given as `request.headers`. */
function notPlainObject(value: object, field: string): ConfigError {
  const kind = value.constructor?.name;
  const shown = kind && kind !== 'Object' ? `a ${kind}` : 'an object made from a prototype';
  if (Symbol.iterator in value) {
    const name = field.slice(field.lastIndexOf('.') + 1);
    return new ConfigError(field, value, `must be a plain object: ${shown} has no own keys to read its entries from, so they would be lost; pass a plain object instead: Object.fromEntries(${name})`, shown);
  }
  return new ConfigError(field, value, `must be a plain object: only the own fields of ${shown} would be read, and what it inherits lost; pass a plain object ({ … }) instead`, shown);
}

/** Assignment that a key named `__proto__` cannot turn into a change of prototype. */
export function setOwnProperty<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function expectString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new ConfigError(field, value, 'must be a string');
  return value;
}

export function expectBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new ConfigError(field, value, 'must be true or false');
  return value;
}

export function expectPositiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigError(field, value, 'must be a positive whole number');
  }
  return value;
}

/**
 * The longest delay `setTimeout` and `AbortSignal.timeout` keep: 2^31 − 1 ms, about 24.8 days. Browsers and Node fire
 * a longer one at once, so a timeout a user configures must stay within it.
 */
export const MAX_TIMER = 2 ** 31 - 1;

/** Milliseconds for a timer: a positive whole number no longer than `MAX_TIMER`. */
export function expectTimerMilliseconds(value: unknown, field: string): number {
  const milliseconds = expectPositiveInteger(value, field);
  if (milliseconds > MAX_TIMER) {
    throw new ConfigError(field, value, `must be at most ${MAX_TIMER} ms (about 24.8 days), the longest delay a timer can wait; a longer one would end at once`);
  }
  return milliseconds;
}

/** An array without holes: `.map` and `.forEach` skip a hole, which would then come back as an `undefined` entry. */
export function expectArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ConfigError(field, value, 'must be an array');
  for (let index = 0; index < value.length; index += 1) {
    if (!(index in value)) throw new ConfigError(`${field}[${index}]`, undefined, 'is missing: the array has a hole here (as two commas in a row leave); remove it', 'nothing');
  }
  return value;
}

/**
 * A misspelt option is a silent no-op unless we refuse unknown fields, so we refuse them.
 * @param describe where a misspelt field may hold a credential (`secrett`, `uri`): what the error says instead of
 * the value, in its message and in `value`.
 */
export function expectKnownFields(input: Record<string, unknown>, known: readonly string[], field: string, describe?: (value: unknown) => string): void {
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      const shown = describe?.(input[key]);
      // JSON written by hand often gets the case wrong (`corsproxy`, `MaxItems`), and the list alone hides the fix.
      const meant = known.find((name) => name.toLowerCase() === key.toLowerCase());
      const hint = meant ? `; names are case-sensitive: write ${meant}` : '';
      throw new ConfigError(`${field}.${key}`, shown ?? input[key], `is not a known field${hint}; known fields: ${known.join(', ')}`, shown);
    }
  }
}
