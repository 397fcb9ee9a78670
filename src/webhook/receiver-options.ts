// What both webhook receivers take (the Node request handler and the Fetch one), checked once when a handler is built.
import { ConfigError } from '../core/errors.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { receiverSigners, type ReceiverSecret, type WebhookSigner } from './signature.js';
import { kindOf } from './value-kind.js';

/** The options `createWebhookHandler` and `createWebhookFetchHandler` share, besides `onEvent` and `onRefused`. */
export interface WebhookVerificationOptions {
  /** The channel's secret; while it is rotated, a list of the new one and the old (a signature by either is accepted). */
  secret: ReceiverSecret;
  /**
   * Largest body read, in bytes; a bigger one is answered `413`, and what is past the limit is never read.
   * @default 1048576
   */
  maxBodySize?: number | undefined;
  /**
   * Milliseconds after its `sent_at` that an event is still accepted, so that a captured request cannot be replayed
   * later; an older one, or one dated more than 5 minutes ahead of this server's clock, is answered `400` and never
   * reaches `onEvent`. Every retry resends the first attempt's `sent_at`: keep this above the sender's whole retry
   * schedule (3 minutes with the default retry policy and timeout), or late retries are refused. Off when undefined.
   * @default undefined
   * @example 600_000 // 10 minutes
   */
  maxAge?: number | undefined;
  /**
   * Milliseconds the whole body may take to arrive, from when the handler starts reading it; a body not complete by
   * then is answered `408` and the rest is not read. It bounds a client that sends the headers and then drips the
   * body, or stops sending it while keeping the connection open: an HTTP/2 server sets no timeout of its own, and
   * HTTP/1's `requestTimeout` is 5 minutes. Only the body: a slow `onEvent` is not timed. The channel sends a small
   * body at once; raise this for a large `maxBodySize` over slow links. `Infinity` turns it off (the server's own
   * timeouts then apply, if any).
   * @default 10000
   * @example 30_000 // 30 seconds
   */
  bodyTimeout?: number | undefined;
}

/** A request a handler refused before `onEvent`: the status it answers and why (also the answer's `error`). */
export interface WebhookRefusal {
  /**
   * `401` for the signature, `400` for a body that is no webhook event or (with `maxAge`) is out of date, `413` for a
   * body over `maxBodySize`, `408` for a body that did not arrive within `bodyTimeout`, `405` for a GET or HEAD (no
   * delivery comes without a body).
   */
  status: 400 | 401 | 405 | 408 | 413;
  reason: string;
}

/** The options once checked. `onEvent` and `onRefused` are called through the options object, as given. */
export interface ReceiverSettings {
  readonly signers: readonly WebhookSigner[];
  readonly maxBodySize: number;
  readonly maxAge: number | undefined;
  /** `Infinity` when off: no timer is set. */
  readonly bodyTimeout: number;
}

/** What both handlers tell `onError` of a request whose client went away before its whole body came. */
export const ABORTED_BEFORE_BODY = 'the request was aborted before its body arrived';

const RECEIVER_FIELDS = ['secret', 'onEvent', 'onRefused', 'onError', 'maxBodySize', 'maxAge', 'bodyTimeout'];
const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_BODY_TIMEOUT = 10_000;
// setTimeout's largest delay: a longer one fires at once.
const LONGEST_TIMER = 2 ** 31 - 1;

/** Checks a receiver's `options`, named `optionsName` in errors ("createWebhookHandler options"); `ConfigError` otherwise. */
export function receiverSettings(options: unknown, optionsName: string): ReceiverSettings {
  const input = expectPlainObject(options, optionsName);
  // A misspelt secret still holds it: only the value's type is shown. A misspelt maxAge would turn replay protection off.
  expectKnownFields(input, RECEIVER_FIELDS, optionsName, kindOf);
  const signers = receiverSigners(input.secret, 'secret');
  if (typeof input.onEvent !== 'function') throw new ConfigError('onEvent', input.onEvent, 'must be a function (event, context) => void');
  if (input.onRefused !== undefined && typeof input.onRefused !== 'function') {
    throw new ConfigError('onRefused', input.onRefused, 'must be a function ({ status, reason }, context) => void, or left out');
  }
  if (input.onError !== undefined && typeof input.onError !== 'function') {
    throw new ConfigError('onError', input.onError, 'must be a function (error, context) => void, or left out');
  }
  // null is refused, not read as "the default", as maxAge's is: written for "no limit", it would keep the limit silently.
  const maxBodySize = (input.maxBodySize === undefined ? DEFAULT_MAX_BODY : input.maxBodySize) as number;
  if (!Number.isInteger(maxBodySize) || maxBodySize <= 0) throw new ConfigError('maxBodySize', maxBodySize, 'must be a positive integer of bytes');
  const { maxAge } = input;
  if (maxAge !== undefined && (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge <= 0)) {
    throw new ConfigError('maxAge', maxAge, 'must be a positive number of milliseconds, e.g. 600000 for 10 minutes (omit it to accept events of any age)');
  }
  const bodyTimeout = (input.bodyTimeout === undefined ? DEFAULT_BODY_TIMEOUT : input.bodyTimeout) as number;
  // Infinity for no limit, as maxGrowth's "no cap": 0 is a number of milliseconds elsewhere in this package (close({ timeout: 0 })).
  if (typeof bodyTimeout !== 'number' || !(bodyTimeout > 0) || (bodyTimeout > LONGEST_TIMER && bodyTimeout !== Infinity)) {
    throw new ConfigError('bodyTimeout', bodyTimeout, `must be a positive number of milliseconds, at most ${LONGEST_TIMER} (about 24 days), e.g. 30000 for 30 seconds, or Infinity for no limit (omit it for the default, ${DEFAULT_BODY_TIMEOUT})`);
  }
  return { signers, maxBodySize, maxAge, bodyTimeout };
}

/**
 * Tells the operator of an error a handler answers `500` for (what `onEvent` or `onRefused` threw, a body parser that
 * read the body first): through `onError` when given; else on the console, unless Express's `next(error)` takes it
 * (`viaNext`), whose error handler logs it. Never throws: the request is answered either way.
 */
export function reportHandlerError<Context>(onError: ((error: unknown, context: Context) => unknown) | undefined, error: unknown, context: Context, viaNext: boolean): void {
  const onErrorFailed = (thrown: unknown) => console.error('Webhook handler failed:', error, '\nand its onError threw:', thrown);
  try {
    // An async onError that rejects (a log sink that is down) would be an unhandled rejection, which ends the process.
    if (onError) Promise.resolve(onError(error, context)).catch(onErrorFailed);
    else if (!viaNext) console.error('Webhook handler failed:', error);
  } catch (thrown) {
    onErrorFailed(thrown);
  }
}
