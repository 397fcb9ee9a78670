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
  const own: Record<string, unknown> = Object.create(null);
  for (const [key, fieldValue] of Object.entries(value)) setOwnProperty(own, key, fieldValue);
  return own;
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

export function expectArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new ConfigError(field, value, 'must be an array');
  return value;
}

/** A misspelt option is a silent no-op unless we refuse unknown fields, so we refuse them. */
export function expectKnownFields(input: Record<string, unknown>, known: readonly string[], field: string): void {
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      throw new ConfigError(`${field}.${key}`, input[key], `is not a known field; known fields: ${known.join(', ')}`);
    }
  }
}
