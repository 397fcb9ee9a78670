// The AbortSignal a caller passes to `send` or `attempt`: checked before anything is sent, and its reason put into
// words for messages.
import { ConfigError } from '../core/errors.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';

/**
 * The `signal` of `{ signal }` given as `field`, or undefined. A `ConfigError` otherwise: a misspelt field or the
 * signal passed bare would leave the send impossible to cancel, without a word.
 */
export function signalOption(options: unknown, field: string): AbortSignal | undefined {
  if (options === undefined) return undefined;
  if (options instanceof AbortSignal) throw new ConfigError(field, options, 'must be an object { signal }: pass { signal } rather than the signal itself', 'an AbortSignal');
  const input = expectPlainObject(options, field);
  expectKnownFields(input, ['signal'], field);
  return checkedSignal(input.signal, `${field}.signal`);
}

/** `value` when it is an AbortSignal or undefined; otherwise a `ConfigError` naming `field`. */
export function checkedSignal(value: unknown, field: string): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new ConfigError(field, value, 'must be an AbortSignal, e.g. from new AbortController() or AbortSignal.timeout()');
}

/** The signal's reason for a message: an Error's message or a string; `undefined` for anything else or when empty. */
export function describeAbortReason(reason: unknown): string | undefined {
  const text = reason instanceof Error ? reason.message : reason;
  return typeof text === 'string' && text.length > 0 ? text : undefined;
}
