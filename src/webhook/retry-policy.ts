// When a failed webhook attempt is tried again, and after how long.
import { ConfigError } from '../core/errors.js';
import { MAX_TIMER, expectKnownFields, expectPlainObject } from '../core/validation.js';
import type { AttemptFailure } from './attempt-failure.js';
import { parseHttpDate } from './http-date.js';

/** Every field is optional; the defaults are in `RetryPolicy.defaults`. */
export interface RetryOptions {
  /**
   * Attempts in total, the first one included. `1` disables retries.
   * @default 5
   */
  attempts?: number | undefined;
  /**
   * Milliseconds before the first retry, and the floor of every delay, a receiver's `Retry-After` included.
   * @default 1000
   */
  minDelay?: number | undefined;
  /**
   * Ceiling of the exponential backoff, in milliseconds.
   * @default 60000
   */
  maxDelay?: number | undefined;
  /**
   * Spread retries randomly so that many senders failing together do not retry together. With jitter, the wait
   * before retry `n` is uniform between `minDelay` and `min(maxDelay, minDelay * 2^n)`; without it, it is
   * `min(maxDelay, minDelay * 2^(n-1))`.
   * @default true
   */
  jitter?: boolean | undefined;
  /**
   * A receiver's `Retry-After` (seconds or an HTTP date) replaces the backoff delay, up to this many milliseconds.
   * It never shortens the wait below `minDelay`: `Retry-After: 0` waits `minDelay`, so a receiver answering 429 with
   * it cannot drive a tight retry loop.
   * @default 60000
   */
  maxRetryAfter?: number | undefined;
  /**
   * Return `false` to stop retrying this delivery, e.g. `(failure) => failure.status !== 410`. The answer is read
   * as JavaScript reads a condition: any falsy value (`false`, `0`, `undefined`…) stops, any truthy one retries.
   * A predicate that throws counts as `false`, and the delivery's failure says what it threw. It must answer
   * synchronously: an async function throws `ConfigError` at construction, and a Promise returned at run time stops
   * the retries of that delivery, which is reported failed with the reason. Yours replaces the default entirely:
   * add `failure.kind !== 'certificate'` to it to keep certificate failures unretried.
   * @default (failure) => failure.kind !== 'certificate' (every failure is retried, but a receiver's TLS certificate
   * from an issuer this process does not trust, which no retry changes)
   */
  shouldRetry?: ((failure: AttemptFailure) => boolean) | undefined;
}

/** Validated retry settings plus the backoff arithmetic. Invalid options throw `ConfigError`. */
export class RetryPolicy {
  static readonly defaults = Object.freeze({ attempts: 5, minDelay: 1_000, maxDelay: 60_000, jitter: true, maxRetryAfter: 60_000 });

  readonly attempts: number;
  readonly minDelay: number;
  readonly maxDelay: number;
  readonly jitter: boolean;
  readonly maxRetryAfter: number;
  readonly #shouldRetry: (failure: AttemptFailure) => boolean;
  readonly #random: () => number;

  /** @param random source of jitter in [0, 1); injectable so tests can pin it. */
  constructor(options: RetryOptions = {}, random: () => number = Math.random) {
    const input = expectPlainObject(options, 'retry');
    expectKnownFields(input, RETRY_FIELDS, 'retry');
    const merged = { ...RetryPolicy.defaults, ...withoutUndefined(input) } as typeof RetryPolicy.defaults & RetryOptions;
    if (!Number.isInteger(merged.attempts) || merged.attempts < 1 || merged.attempts > 100) {
      throw new ConfigError('retry.attempts', merged.attempts, 'must be an integer from 1 to 100');
    }
    for (const field of ['minDelay', 'maxDelay', 'maxRetryAfter'] as const) {
      const value = merged[field];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_TIMER) {
        throw new ConfigError(`retry.${field}`, value, `must be a number of milliseconds from 0 to ${MAX_TIMER}`);
      }
    }
    if (merged.maxDelay < merged.minDelay) {
      // Only minDelay given: the default ceiling is what is in the way, and the error must say so.
      const problem = input.maxDelay === undefined ? `is ${merged.maxDelay} by default, below retry.minDelay (${merged.minDelay}); set retry.maxDelay too, to at least ${merged.minDelay}` : `must not be below retry.minDelay (${merged.minDelay})`;
      throw new ConfigError('retry.maxDelay', merged.maxDelay, problem);
    }
    if (typeof merged.jitter !== 'boolean') throw new ConfigError('retry.jitter', merged.jitter, 'must be true or false');
    const { shouldRetry } = merged;
    if (shouldRetry !== undefined && typeof shouldRetry !== 'function') {
      throw new ConfigError('retry.shouldRetry', shouldRetry, 'must be a function (failure) => boolean');
    }
    // Its Promise would always read as "retry": refused now rather than found out from the retries.
    if (isAsyncFunction(shouldRetry)) throw new ConfigError('retry.shouldRetry', shouldRetry, ASYNC_PREDICATE, 'an async function');
    this.attempts = merged.attempts;
    this.minDelay = merged.minDelay;
    this.maxDelay = merged.maxDelay;
    this.jitter = merged.jitter;
    this.maxRetryAfter = merged.maxRetryAfter;
    this.#shouldRetry = shouldRetry ?? retryAllButCertificates;
    this.#random = random;
  }

  /**
   * True when `failure` gets another attempt: attempts remain and the predicate agrees. Throws `ConfigError` when
   * the predicate returns a Promise or another thenable, which cannot be read as an answer: the notifier then makes
   * no retry and puts the error's message in the delivery's failure.
   * @param onThrow told what the predicate threw, when it throws (which counts as `false`).
   */
  shouldRetry(failure: AttemptFailure, onThrow?: (error: unknown) => void): boolean {
    if (failure.attempt >= this.attempts) return false;
    let answer: unknown;
    try {
      answer = this.#shouldRetry(failure);
    } catch (error) {
      onThrow?.(error);
      return false;
    }
    if (isThenable(answer)) {
      // Nobody awaits it: a rejection must not end the process as an unhandled one.
      Promise.resolve(answer).catch(() => {});
      throw new ConfigError('retry.shouldRetry', answer, ASYNC_PREDICATE, answer instanceof Promise ? 'a Promise' : 'a thenable');
    }
    return Boolean(answer);
  }

  /** Milliseconds to wait after `failure` before the next attempt. */
  delayAfter(failure: AttemptFailure): number {
    if (failure.retryAfter !== undefined) return Math.max(this.minDelay, Math.min(failure.retryAfter, this.maxRetryAfter));
    const retry = failure.attempt; // the first retry follows the first attempt
    if (!this.jitter) return Math.min(this.maxDelay, this.minDelay * 2 ** (retry - 1));
    const ceiling = Math.min(this.maxDelay, this.minDelay * 2 ** retry);
    return Math.round(this.minDelay + this.#random() * (ceiling - this.minDelay));
  }
}

/**
 * A `Retry-After` header in milliseconds: delta-seconds or an HTTP date in any of the three forms of RFC 9110
 * (IMF-fixdate, RFC 850, asctime; all GMT). A past date is 0. `undefined` when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | readonly string[] | undefined, now: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_TIMER);
  const date = parseHttpDate(text, now);
  if (date === undefined) return undefined;
  return Math.min(Math.max(0, date - now), MAX_TIMER);
}

const RETRY_FIELDS = ['attempts', 'minDelay', 'maxDelay', 'jitter', 'maxRetryAfter', 'shouldRetry'];

// A certificate from an issuer this process does not trust (self-signed, a private CA) is refused on every retry:
// retrying only delays the report. An expired or misnamed one may mend between attempts, and is retried.
function retryAllButCertificates(failure: AttemptFailure): boolean {
  return failure.kind !== 'certificate';
}
const ASYNC_PREDICATE = 'must answer true or false synchronously; a Promise would always read as "retry". Decide from the failure alone, or look up what it needs before sending';

function isAsyncFunction(value: unknown): boolean {
  return typeof value === 'function' && Object.prototype.toString.call(value) === '[object AsyncFunction]';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function withoutUndefined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
