// Routes a notification to its channels, retries failed attempts under the retry policy, and reports every
// outcome: in the result of `send` and as events. Nothing is thrown away and nothing rejects unhandled.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ConfigError, WebhookDeliveryError, describeValue } from '../core/errors.js';
import { MAX_TIMER, expectKnownFields, expectPlainObject } from '../core/validation.js';
import type { AttemptFailure, WebhookAttemptError } from './attempt-failure.js';
import { describeAbortReason, signalOption } from './caller-signal.js';
import { AttemptsInFlight } from './attempts-in-flight.js';
import { RetryPolicy, type RetryOptions } from './retry-policy.js';
import { onAbort } from './shared-abort-listener.js';
import { classOrKindOf } from './value-kind.js';
import { WebhookChannel, attemptForNotifier, nothingWasSent, type Notifiable, type PreparedDelivery } from './webhook-channel.js';
import { WebhookMessage } from './webhook-message.js';

export interface NotifierOptions {
  /** Retry policy for failed attempts; see `RetryOptions` for the defaults. */
  retry?: RetryOptions | undefined;
}

/** What `send` delivers: the channels to use and the message for the webhook channel. */
export interface WebhookNotification {
  /** Names of registered channels to deliver through. */
  via(notifiable: Notifiable): readonly string[];
  /** The message, built with `newMessage().event(name).payload(map)`. */
  toWebhook(notifiable: Notifiable): WebhookMessage | Promise<WebhookMessage>;
}

/** What `send` takes besides the notifiable and the notification. */
export interface SendOptions {
  /**
   * Cancels the send: an attempt in flight is aborted at once, one waiting for a free slot of its channel (see
   * `maxConcurrent`) leaves unsent, a retry wait ends, no further attempt is made. Each
   * delivery it ends is a failed result and a `failed` event with the body; a signal already aborted sends nothing.
   * @example
   * await notifier.send(user, notification, { signal: AbortSignal.timeout(10_000) });
   */
  signal?: AbortSignal | undefined;
}

/** One channel's outcome of a `send`. */
export interface DeliveryResult {
  channel: string;
  ok: boolean;
  /** HTTP status of the last attempt, when the receiver answered. */
  status?: number;
  /** Attempts made; 0 when the delivery could not start (unknown channel, bad message, closed notifier, signal already aborted). */
  attempts: number;
  /** Set when `ok` is false; its `cause` is the last attempt's error. */
  error?: WebhookDeliveryError;
}

/** After each attempt. */
export interface AttemptEvent {
  channel: string;
  notifiable: Notifiable;
  event: string;
  /** 1 for the first attempt. */
  attempt: number;
  ok: boolean;
  status?: number;
  error?: WebhookAttemptError;
  /** Milliseconds until the next attempt; absent when none follows. */
  retryIn?: number;
}

/** A delivery succeeded. */
export interface SentEvent {
  channel: string;
  notifiable: Notifiable;
  event: string;
  status: number;
  attempts: number;
}

/**
 * A delivery failed for good. `body` is the exact JSON that was (or would have been) sent, to store and replay. A send
 * refused at once (closed notifier, unknown channel, toWebhook() throwing) fires none when a `failed` listener made it
 * while hearing of another such refusal (at once, or after an await or a timer it started), nor past the 100th send
 * refused after close(): their results say so, and a listener that sends again is not called again, endlessly.
 */
export interface FailedEvent {
  channel: string;
  notifiable: Notifiable;
  event?: string;
  status?: number;
  attempts: number;
  error: WebhookDeliveryError;
  body?: string;
}

/** One of your `attempt`, `sent` or `failed` listeners threw. */
export interface ListenerErrorEvent {
  /** The event whose listener threw. */
  source: 'attempt' | 'sent' | 'failed';
  /** What it threw. */
  error: unknown;
}

export interface NotifierEventMap {
  attempt: AttemptEvent;
  sent: SentEvent;
  failed: FailedEvent;
  error: ListenerErrorEvent;
}

/** What it returns is ignored, but for a promise's rejection: that goes where a throw goes (see `on`). */
type Listener<K extends keyof NotifierEventMap> = (event: NotifierEventMap[K]) => void;

const EVENT_NAMES = 'must be "attempt", "sent", "failed" or "error"';

/**
 * Set while `failed` listeners hear of a send refused at once, and in every callback and await they start from
 * there: a send made in it is a re-queue of the refused one (see Notifier's #refuseAtOnce).
 */
const hearingRefusal = new AsyncLocalStorage<true>();
/** How many sends refused after close() are reported as `failed` events: enough for any shutdown, finite for a loop. */
const MAX_CLOSED_REFUSALS_REPORTED = 100;

/**
 * @example
 * const notifier = new Notifier({ retry: { attempts: 5 } });
 * notifier.registerChannel('webhook', new WebhookChannel({ url, secret }));
 * const results = await notifier.send({ type: 'user', id: 42 }, {
 *   via: () => ['webhook'],
 *   toWebhook: () => newMessage().event('user.created').payload({ email: 'a@example.com' }),
 * });
 */
export class Notifier {
  readonly retry: RetryPolicy;
  readonly #channels = new Map<string, WebhookChannel>();
  // Deliveries in flight, and close() calls waiting for that count to reach zero.
  #inFlight = 0;
  #idleWaiters: Array<() => void> = [];
  readonly #listeners: { [K in keyof NotifierEventMap]: Set<Listener<K>> } = { attempt: new Set(), sent: new Set(), failed: new Set(), error: new Set() };
  // Aborted when close()'s timeout runs out, with #attemptsInFlight: attempts in flight, retry waits and toWebhook()
  // waits end at once, and those deliveries are reported failed. `#closeTimeout` is the timeout that ran out.
  readonly #closing = new AbortController();
  readonly #attemptsInFlight = new AttemptsInFlight();
  #closeTimeout = 0;
  #closed = false;
  // How many sends refused after close() `failed` events have told of (see #refuseAtOnce).
  #closedRefusalsReported = 0;

  constructor(options: NotifierOptions = {}) {
    const input = expectPlainObject(options, 'Notifier options');
    expectKnownFields(input, ['retry'], 'Notifier options');
    this.retry = new RetryPolicy(input.retry as RetryOptions | undefined);
  }

  /** Registers `channel` under `name`, the name `via()` returns. A name can be registered once. */
  registerChannel(name: string, channel: WebhookChannel): this {
    if (typeof name !== 'string' || name.length === 0) throw new ConfigError('channel name', name, 'must be a non-empty string');
    if (!(channel instanceof WebhookChannel)) {
      // Only its kind: a channel from another copy of this package holds its URL and headers, credentials both.
      const kind = classOrKindOf(channel);
      const fix = kind === 'a WebhookChannel' ? ' from the copy of try-it-console this Notifier comes from (two copies are installed; deduplicate them)' : '';
      throw new ConfigError(`channel ${JSON.stringify(name)}`, kind, `must be a WebhookChannel${fix}`, kind);
    }
    if (this.#channels.has(name)) throw new ConfigError('channel name', name, 'is already registered; use another name');
    this.#channels.set(name, channel);
    return this;
  }

  /**
   * Delivers `notification` through each channel its `via()` names (duplicates once), concurrently, with retries.
   * Resolves with one result per channel once every delivery has ended; failures are results, not rejections. It
   * rejects only when the notification has no `via()` function, or `via()` itself throws or returns something other
   * than a list, since there is then no channel to report against, or when `options` is not `{ signal }` with an
   * AbortSignal (a misspelt field, or the signal passed bare: `ConfigError`, before anything is sent).
   * @param options.signal cancels every delivery of this send: an attempt in flight is aborted at once (an `attempt`
   * event of kind `aborted`, never retried), a retry wait ends, no further attempt is made. Each delivery it ends is
   * a failed result (`attempts` made so far, 0 when the signal was already aborted and nothing was sent) and a
   * `failed` event with the body. Nothing stays on the signal once the send ends, so one can serve many sends.
   */
  async send(notifiable: Notifiable, notification: WebhookNotification, options?: SendOptions): Promise<DeliveryResult[]> {
    const signal = signalOption(options, 'options');
    if (typeof notification !== 'object' || notification === null) throw new ConfigError('notification', notification, 'must be an object { via, toWebhook }');
    if (typeof notification.via !== 'function') throw new ConfigError('notification.via', notification.via, 'must be a function returning the names of the channels to use, e.g. () => ["webhook"]');
    const names: unknown = notification.via(notifiable);
    if (!Array.isArray(names)) throw new ConfigError('via()', names, 'must return a list of channel names');
    if (names.length === 1) return [await this.#deliver(String(names[0]), notifiable, notification, signal)];
    const unique = [...new Set(names.map(String))];
    return Promise.all(unique.map((name) => this.#deliver(name, notifiable, notification, signal)));
  }

  /**
   * Listens for `attempt`, `sent`, `failed` or `error`. A listener that throws (or an async one that rejects) never
   * disturbs deliveries: what it threw goes to the `error` listeners, as `{ source, error }`. With no `error`
   * listener, or when one throws too, it is rethrown on its own as an uncaught exception, which ends the process by
   * default, as an `EventEmitter` `error` event with no listener does.
   */
  on<K extends keyof NotifierEventMap>(name: K, listener: Listener<K>): this {
    if (!Object.hasOwn(this.#listeners, name)) throw new ConfigError('event name', name, EVENT_NAMES);
    if (typeof listener !== 'function') throw new ConfigError(`${name} listener`, listener, 'must be a function');
    this.#listeners[name].add(listener);
    return this;
  }

  /** Removes a listener `on` added; one that was never added is no change. An unknown event name throws, as in `on`. */
  off<K extends keyof NotifierEventMap>(name: K, listener: Listener<K>): this {
    if (!Object.hasOwn(this.#listeners, name)) throw new ConfigError('event name', name, EVENT_NAMES);
    this.#listeners[name].delete(listener);
    return this;
  }

  /**
   * Stops accepting sends, waits for every delivery in flight (retries included, and sends waiting for a free slot of
   * their channel), then closes the channels' connections. Without `timeout`, that can take each attempt's whole
   * channel timeout (30 s by default) and every retry delay.
   * @param options.timeout bounds the wait, in milliseconds: once it runs out, attempts still in flight are aborted,
   * attempts waiting for a free slot and retries still waiting are not made and toWebhook() promises still pending
   * are no longer awaited. Each delivery it ends is reported failed (result and `failed` event, with the body), never
   * dropped; its error says close()'s timeout ended it, so it is told apart from a send cancelled by the caller's
   * signal. close() then resolves once the channels have closed their connections.
   * @example
   * process.on('SIGTERM', () => void notifier.close({ timeout: 5_000 }).then(() => process.exit(0)));
   */
  async close(options: { timeout?: number | undefined } = {}): Promise<void> {
    // A misspelt `timout` would wait for every retry, perhaps minutes, without a word.
    const input = expectPlainObject(options, 'close options');
    expectKnownFields(input, ['timeout'], 'close options');
    const { timeout } = input;
    // Above MAX_TIMER, setTimeout would fire at once and cut every waiting retry short.
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout >= 0 && timeout <= MAX_TIMER)) {
      throw new ConfigError('close timeout', timeout, `must be a number of milliseconds from 0 to ${MAX_TIMER} (about 24.8 days); leave it out to wait for every retry`);
    }
    this.#closed = true;
    const timer = timeout === undefined ? undefined : setTimeout(() => this.#closeTimedOut(timeout), timeout);
    try {
      while (this.#inFlight > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
    } finally {
      clearTimeout(timer);
    }
    await Promise.allSettled([...new Set(this.#channels.values())].map((channel) => channel.close()));
  }

  // The first close() whose timeout runs out stops every delivery; a later one finds them stopped already.
  #closeTimedOut(timeout: number): void {
    if (this.#closing.signal.aborted) return;
    this.#closeTimeout = timeout;
    const reason = new DOMException(`notifier.close()'s timeout of ${timeout} ms ran out`, 'TimeoutError');
    this.#closing.abort(reason);
    this.#attemptsInFlight.abort(reason);
  }

  async #deliver(name: string, notifiable: Notifiable, notification: WebhookNotification, signal: AbortSignal | undefined): Promise<DeliveryResult> {
    this.#inFlight += 1;
    try {
      return await this.#prepareAndAttempt(name, notifiable, notification, signal);
    } finally {
      this.#inFlight -= 1;
      if (this.#inFlight === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  async #prepareAndAttempt(name: string, notifiable: Notifiable, notification: WebhookNotification, signal: AbortSignal | undefined): Promise<DeliveryResult> {
    const channel = this.#channels.get(name);
    const refused = { channel: name, notifiable, attempts: 0 };
    if (this.#closed) return this.#refuseAtOnce(refused, `The notifier is closed; channel ${JSON.stringify(name)} was not used.`);
    if (!channel) {
      const known = [...this.#channels.keys()].map((n) => JSON.stringify(n)).join(', ') || 'none';
      return this.#refuseAtOnce(refused, `No channel is registered as ${JSON.stringify(name)} (registered: ${known}); call notifier.registerChannel(${JSON.stringify(name)}, channel) first.`);
    }
    let message: WebhookMessage | Promise<WebhookMessage>;
    try {
      message = messageOf(notification, notifiable);
    } catch (cause) {
      return this.#refuseAtOnce(refused, unbuilt(name, cause), cause);
    }
    let delivery: PreparedDelivery;
    try {
      if (message instanceof Promise) {
        const stoppedBy = await settledOrStopped(message, [signal, this.#closing.signal]);
        if (stoppedBy !== undefined) {
          const by = stoppedBy === signal ? "the caller's signal" : "close()'s timeout";
          return this.#fail(refused, `The webhook for channel ${JSON.stringify(name)} was not sent: toWebhook() had not returned its message when ${by} ended the wait.`, stoppedBy.reason);
        }
        message = await message;
      }
      delivery = await channel.prepare(notifiable, message);
    } catch (cause) {
      return this.#fail(refused, unbuilt(name, cause), cause);
    }
    // Built all the same, so that the failed event hands back the body that would have been sent.
    if (signal?.aborted) return this.#cancelled(unsent(name, notifiable, delivery), signal);
    // Signing takes a turn of the event loop, in which close()'s timeout may run out.
    if (this.#closing.signal.aborted) {
      const summary = `${webhookThrough(delivery.event, name)} was not sent: close()'s timeout (${this.#closeTimeout} ms) ran out before its first attempt.`;
      return this.#fail(unsent(name, notifiable, delivery), summary, this.#closing.signal.reason);
    }
    return this.#attemptUntilDone(name, channel, notifiable, delivery, signal);
  }

  async #attemptUntilDone(name: string, channel: WebhookChannel, notifiable: Notifiable, delivery: PreparedDelivery, signal: AbortSignal | undefined): Promise<DeliveryResult> {
    const base = { channel: name, notifiable, event: delivery.event };
    const closing = this.#closing.signal;
    let last: { readonly error: WebhookAttemptError; readonly status: number | undefined } | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await attemptForNotifier(channel, delivery, signal, this.#attemptsInFlight);
      if (outcome.ok) {
        if (this.#listening('attempt')) this.#emit('attempt', { ...base, attempt, ok: true, status: outcome.status });
        if (this.#listening('sent')) this.#emit('sent', { ...base, status: outcome.status, attempts: attempt });
        return { channel: name, ok: true, status: outcome.status, attempts: attempt };
      }
      // Stopped before its request went out (waiting for a free slot of the channel's): no attempt was made.
      if (nothingWasSent(outcome)) return this.#stoppedBeforeSending(base, delivery, attempt - 1, last, outcome.error, signal);
      last = { error: outcome.error, status: outcome.status };
      if (signal?.aborted) {
        // Not retried, whatever the policy would say, so it is not asked.
        this.#emit('attempt', { ...base, attempt, ok: false, ...optional('status', outcome.status), error: outcome.error });
        return this.#cancelled({ ...base, attempts: attempt, status: outcome.status, body: bodyText(delivery) }, signal, outcome.error);
      }
      if (outcome.kind === 'aborted') {
        // Besides the caller's signal, only close()'s timeout aborts an attempt; not retried either.
        this.#emit('attempt', { ...base, attempt, ok: false, error: outcome.error });
        const summary = `${webhookThrough(delivery.event, name)} failed after ${attemptCount(attempt)}: close()'s timeout (${this.#closeTimeout} ms) aborted the attempt in flight.`;
        return this.#fail({ ...base, attempts: attempt, body: bodyText(delivery) }, summary, outcome.error);
      }
      const failure: AttemptFailure = { channel: name, attempt, kind: outcome.kind, status: outcome.status, retryAfter: outcome.retryAfter, error: outcome.error };
      let retryIn: number | undefined;
      let notRetried = '';
      // A predicate that throws stops the retries; said in the failure, or a bug in it would silently turn them off.
      const predicateThrew = (error: unknown) => {
        notRetried = ` Not retried: retry.shouldRetry threw ${describeThrown(error)}; fix it to answer for every kind of failure.`;
      };
      try {
        retryIn = !closing.aborted && this.retry.shouldRetry(failure, predicateThrew) ? this.retry.delayAfter(failure) : undefined;
      } catch (error) {
        // The policy could not answer (a shouldRetry that returned a Promise): no retry, and the failure says why.
        notRetried = ` Not retried: ${(error as Error)?.message ?? String(error)}`;
      }
      this.#emit('attempt', { ...base, attempt, ok: false, ...optional('status', outcome.status), error: outcome.error, ...optional('retryIn', retryIn) });
      // Re-read after the wait: either signal may abort between the timer firing and the next attempt.
      const stillWaiting = retryIn !== undefined && (await this.#wait(retryIn, signal)) && !signal?.aborted && !closing.aborted;
      if (!stillWaiting) {
        const failed = { ...base, attempts: attempt, status: outcome.status, body: bodyText(delivery) };
        if (signal?.aborted) return this.#cancelled(failed, signal, outcome.error);
        const closed = closing.aborted ? ' The notifier closed before the next retry.' : '';
        const summary = `${webhookThrough(delivery.event, name)} failed after ${attemptCount(attempt)}: ${outcome.error.message}${closed}${notRetried}`;
        return this.#fail(failed, summary, outcome.error);
      }
    }
  }

  // The caller's signal or close()'s timeout stopped an attempt before its request went out: the delivery ends with
  // the attempts `made`, and the last of them, if any, is the failure to report.
  #stoppedBeforeSending(
    base: { channel: string; notifiable: Notifiable; event: string },
    delivery: PreparedDelivery,
    made: number,
    last: { readonly error: WebhookAttemptError; readonly status: number | undefined } | undefined,
    stopped: WebhookAttemptError,
    signal: AbortSignal | undefined,
  ): DeliveryResult {
    const failed = { ...base, attempts: made, status: last?.status, body: bodyText(delivery) };
    if (signal?.aborted) return this.#cancelled(failed, signal, last?.error, stopped);
    const ranOut = `close()'s timeout (${this.#closeTimeout} ms) ran out`;
    const summary = last === undefined
      ? `${webhookThrough(base.event, base.channel)} was not sent: ${ranOut} before its first attempt.`
      : `${webhookThrough(base.event, base.channel)} failed after ${attemptCount(made)}: ${last.error.message} ${ranOut} before the next attempt went out.`;
    return this.#fail(failed, summary, last?.error ?? stopped);
  }

  // True when the delay passed; false when close() or the caller's signal cut it short. It stops watching both
  // either way: a caller's signal may outlive thousands of sends.
  #wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    const stop = this.#closing.signal;
    if (stop.aborted || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const end = (passed: boolean) => {
        clearTimeout(timer);
        stopWatchingClose();
        stopWatchingCaller?.();
        resolve(passed);
      };
      const cut = () => end(false);
      const timer = setTimeout(end, ms, true);
      const stopWatchingClose = onAbort(stop, cut);
      const stopWatchingCaller = signal && onAbort(signal, cut);
    });
  }

  // The caller's signal ended the delivery: a failure like any other, reported with the body.
  // `waiting`: the attempt the signal stopped while it waited for a free request slot of its channel, which says so.
  #cancelled(details: Omit<FailedEvent, 'error'>, signal: AbortSignal, last?: WebhookAttemptError, waiting?: WebhookAttemptError): DeliveryResult {
    const { attempts } = details;
    const reason = describeAbortReason(signal.reason);
    const where = waiting ? ', the next waiting for a free request slot of the channel (see maxConcurrent)' : last?.kind === 'aborted' ? ', the last aborted in flight' : '';
    const because = reason === undefined ? '' : ` (reason: ${reason})`;
    const lastFailure = last === undefined || last.kind === 'aborted' ? '' : ` The last attempt failed: ${last.message}`;
    const summary = `${webhookThrough(details.event!, details.channel)} was cancelled by the caller's signal after ${attemptCount(attempts)}${where}${because}.${lastFailure}`;
    return this.#fail(details, summary, last ?? waiting ?? signal.reason);
  }

  #fail(details: Omit<FailedEvent, 'error'>, message: string, cause?: unknown): DeliveryResult {
    const error = new WebhookDeliveryError(message, { ...optional('status', details.status), attempts: details.attempts, cause });
    this.#emit('failed', { ...details, error });
    return { channel: details.channel, ok: false, ...optional('status', details.status), attempts: details.attempts, error };
  }

  /**
   * A send refused before anything was awaited (closed notifier, unknown channel, toWebhook() throwing). A `failed`
   * listener that sends again, as a naive re-queue does, would hear of its own refusal and send again, at once (until
   * the stack overflows) or after an await or a timer (forever). So a refusal made by a listener hearing of another,
   * at once or in anything it started, is only returned, to the listener that sent it; no `failed` event repeats it.
   * Sends refused after close() from elsewhere are reported up to a bound: past it, a queue of the app's own that
   * sends again whatever failed would loop.
   */
  #refuseAtOnce(details: Omit<FailedEvent, 'error'>, message: string, cause?: unknown): DeliveryResult {
    const unreported = (why: string): DeliveryResult => ({ channel: details.channel, ok: false, attempts: 0, error: new WebhookDeliveryError(`${message} ${why}`, { attempts: 0, cause }) });
    if (hearingRefusal.getStore()) {
      return unreported('Sent from a "failed" listener hearing of another refused send: not reported as a "failed" event, which would call that listener again, endlessly.');
    }
    if (this.#closed && this.#closedRefusalsReported++ >= MAX_CLOSED_REFUSALS_REPORTED) {
      return unreported(`Not reported as a "failed" event: the first ${MAX_CLOSED_REFUSALS_REPORTED} sends refused after close() were, and more would be a loop (a queue that sends again whatever failed).`);
    }
    return hearingRefusal.run(true, () => this.#fail(details, message, cause));
  }

  #listening(name: keyof NotifierEventMap): boolean {
    return this.#listeners[name].size > 0;
  }

  #emit<K extends keyof NotifierEventMap>(name: K, event: NotifierEventMap[K]): void {
    // A copy, as EventEmitter does: a listener added by a listener waits for the next event instead of running now
    // (one that adds another each time would never let this loop end).
    for (const listener of [...this.#listeners[name]]) {
      try {
        const returned: unknown = listener(event);
        // An async listener (`async (event) => { await db.insert(event) }`) rejects instead of throwing: unwatched,
        // that would be an unhandled rejection that passes the `error` listeners by.
        if (returned instanceof Promise) returned.catch((error: unknown) => this.#listenerThrew(name, error));
      } catch (error) {
        this.#listenerThrew(name, error);
      }
    }
  }

  // Never inside a delivery: to the `error` listeners, else (or when they throw) as an uncaught exception.
  #listenerThrew(source: keyof NotifierEventMap, error: unknown): void {
    if (source !== 'error' && this.#listening('error')) {
      this.#emit('error', { source, error });
      return;
    }
    process.nextTick(() => {
      throw error;
    });
  }
}

/**
 * Waits for `message` to settle, or for the first of `stops` to abort: that signal is returned then. A toWebhook
 * whose promise never settles would otherwise hold close() forever, whatever its timeout.
 */
async function settledOrStopped(message: Promise<unknown>, stops: ReadonlyArray<AbortSignal | undefined>): Promise<AbortSignal | undefined> {
  // Either way: a rejection is read where the message is awaited, and one after a stop must not go unhandled.
  const settled = message.then(() => undefined, () => undefined);
  const signals = stops.filter((stop): stop is AbortSignal => stop !== undefined);
  const stopped = signals.find((stop) => stop.aborted);
  if (stopped) return stopped;
  let unwatch: Array<() => void> = [];
  try {
    return await new Promise<AbortSignal | undefined>((resolve) => {
      unwatch = signals.map((stop) => onAbort(stop, () => resolve(stop)));
      void settled.then(resolve);
    });
  } finally {
    for (const stop of unwatch) stop();
  }
}

/** `Webhook "invoice.paid" through channel "webhook"`: how the message of a built delivery's failure begins. */
function webhookThrough(event: string, channel: string): string {
  return `Webhook ${JSON.stringify(event)} through channel ${JSON.stringify(channel)}`;
}

/** `1 attempt`, `3 attempts`. */
function attemptCount(attempts: number): string {
  return `${attempts} attempt${attempts === 1 ? '' : 's'}`;
}

/** The body a failed delivery hands back, to store and replay: read only once it failed, never for a success. */
function bodyText(delivery: PreparedDelivery): string {
  return delivery.body.toString('utf8');
}

/** What the `failed` event of a built delivery stopped before its first attempt tells. */
function unsent(channel: string, notifiable: Notifiable, delivery: PreparedDelivery): Omit<FailedEvent, 'error'> {
  return { channel, notifiable, event: delivery.event, attempts: 0, body: bodyText(delivery) };
}

function unbuilt(name: string, cause: unknown): string {
  return `The webhook for channel ${JSON.stringify(name)} could not be built: ${(cause as Error)?.message ?? String(cause)}`;
}

// Synchronous when toWebhook is, which is the common case: no extra turn of the event loop per delivery.
function messageOf(notification: WebhookNotification, notifiable: Notifiable): WebhookMessage | Promise<WebhookMessage> {
  if (typeof notification.toWebhook !== 'function') throw new ConfigError('notification.toWebhook', notification.toWebhook, 'must be a function returning newMessage()…');
  const message = notification.toWebhook(notifiable);
  return message instanceof Promise ? message.then(checkedMessage) : checkedMessage(message);
}

function checkedMessage(message: unknown): WebhookMessage {
  if (!(message instanceof WebhookMessage)) throw new ConfigError('toWebhook()', message, 'must return a message built with newMessage()');
  return message;
}

// `TypeError: Cannot read properties of undefined (reading 'status')`, or the thrown value, described, when it is no Error.
function describeThrown(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
}

// Keeps absent values absent, so results and events carry no `status: undefined` keys.
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
