// The AbortSignal a caller passes to `send` or `attempt`: checked before anything is sent, and its reason put into
// words for messages.
import { ConfigError } from '../core/errors.js';

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
