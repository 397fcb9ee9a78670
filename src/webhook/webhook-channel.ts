// One webhook destination: validated config, the exact request it sends, and one attempt at sending it.
import type { Socket } from 'node:net';
import { inspect, type InspectOptionsStylized } from 'node:util';
import { Agent, BalancedPool, Client, Pool, RoundRobinPool, buildConnector, type Dispatcher } from 'undici';
import { ConfigError, InvalidArgumentError, describeValue } from '../core/errors.js';
import { CLIENT_OWNED_HEADERS, headerValueProblem, isByteString, isHeaderName, isMethod } from '../core/http-syntax.js';
import { contentTypeOf } from '../core/json-body.js';
import { MAX_TIMER, expectKnownFields, expectPlainObject } from '../core/validation.js';
import { AttemptDeadline, type AttemptStopper } from './attempt-deadline.js';
import { WebhookAttemptError, type AttemptFailureKind } from './attempt-failure.js';
import type { AttemptsInFlight } from './attempts-in-flight.js';
import { describeAbortReason, signalOption } from './caller-signal.js';
import { connectionFailure, describeCause } from './connection-failure.js';
import { hiddenTargetParts, parseDestination, urlForMessages } from './destination-url.js';
import { payloadJson } from './payload-json.js';
import { credentialFragments, isTextual, readRefusalBody, refusalExcerpt } from './refusal-excerpt.js';
import { RequestSlots } from './request-slots.js';
import { parseRetryAfter } from './retry-policy.js';
import { onAbort } from './shared-abort-listener.js';
import { SIGNATURE_HEADER, WebhookSigner, checkedSecret } from './signature.js';
import { kindOf, withArticle } from './value-kind.js';
import type { WebhookMessage } from './webhook-message.js';

/** The spec's webhook channel configuration (B1). */
export interface WebhookChannelConfig {
  /**
   * Destination, an absolute http(s) URL. Its path and query are sent exactly as written, so a URL that a parser
   * would rewrite (a `.` or `..` segment, a backslash, a space or another character that needs percent-encoding)
   * is refused with the spelling to use.
   */
  url: string;
  /**
   * HMAC-SHA256 secret. When set, every request carries `X-Signature: sha256=<hex>`; left out, requests go unsigned.
   * Given as `undefined` or `''`, what an environment variable that is not set (or set to nothing) reads as, it throws
   * `ConfigError` rather than send unsigned without a word.
   */
  secret?: string | undefined;
  /**
   * HTTP method; one that carries a body.
   * @default 'POST'
   */
  method?: string | undefined;
  /**
   * Static headers sent on every request, e.g. `{ Authorization: 'Bearer …' }`. `X-Signature` is reserved, and the
   * framing headers (`Host`, `Content-Length`, `Connection`…) belong to the HTTP client. A `Content-Type` here
   * replaces the default `application/json`. A plain object: a `Headers` or a `Map` throws `ConfigError` (pass
   * `Object.fromEntries(headers)`). A value that reads `undefined`, or a scheme followed by `undefined` or `null`
   * (`Bearer undefined`, as a template string writes an unset variable), throws `ConfigError`; so does a value of
   * `null` alone, except in `Origin`, where it is the opaque origin.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Milliseconds one attempt may take, from connecting to the response status. It is also the HTTP client's
   * connect, headers and body timeout, so undici's own defaults (10 s to connect, 300 s for headers) never cut an
   * attempt short.
   * @default 30000
   */
  timeout?: number | undefined;
  /**
   * An undici dispatcher to send through (a `ProxyAgent`, custom TLS…). Default: a keep-alive `Agent` of its own.
   * The channel's `timeout` still bounds every attempt, but a dispatcher of yours keeps its own connect timeout.
   * Redirects are not followed through it either, even with undici's redirect interceptor. Anything but an undici
   * Dispatcher (a `node:http` Agent) throws `ConfigError`, and so does one bound to one origin (`new Client(origin)`,
   * `new Pool(origin)`), which would send every delivery to that origin instead of `url`.
   */
  dispatcher?: Dispatcher | undefined;
  /**
   * Requests this channel has in flight at once, across all its sends; each holds a connection while in flight.
   * Sends beyond it wait for a free slot, in the order they came, and the `timeout` of each attempt starts only when
   * its request goes out. A caller's signal and the Notifier's `close()` timeout still end a send while it waits. With
   * a `dispatcher` that limits its connections (`new Agent({ connections: 2 })`), set this no higher, or requests wait
   * in the dispatcher's queue instead, on the clock of their timeout.
   * @default 32
   */
  maxConcurrent?: number | undefined;
}

/** The entity a notification is about: the body's `notifiable`. */
export interface Notifiable {
  type: string;
  id: string | number;
}

/** The JSON body the channel sends (spec B3). */
export interface WebhookBody<Data = Record<string, unknown>> {
  event: string;
  /** ISO 8601 UTC, when the delivery started; the same on every retry. */
  sent_at: string;
  notifiable: Notifiable;
  data: Data;
}

/** One delivery's request, built once so that every attempt sends the same bytes with the same signature. */
export interface PreparedDelivery {
  readonly event: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** What `attempt` takes besides the delivery. */
export interface AttemptOptions {
  /** Aborts the attempt; see `WebhookChannel.attempt`. */
  signal?: AbortSignal | undefined;
}

/**
 * How one attempt ended. Never a rejection (but for an invalid `signal`, or a delivery without its body or headers):
 * failures are values the retry policy looks at.
 */
export type AttemptOutcome =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly kind: AttemptFailureKind; readonly status: number | undefined; readonly retryAfter: number | undefined; readonly error: WebhookAttemptError };

const DEFAULT_TIMEOUT = 30_000;
// Enough to let a short error page finish so the connection is reused, and to read what a refusal's body says;
// beyond either, the connection is dropped.
const RESPONSE_DRAIN_LIMIT = 64 * 1024;
const RESPONSE_DRAIN_GRACE = 1_000;
const UNDICI_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'CONNECT', 'TRACE']);
const STANDARD_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'CONNECT', 'TRACE']);
// Framing and connection headers are the HTTP client's; setting them by hand breaks the request.
// `Expect` too: undici manages 100-continue itself.
const CLIENT_HEADERS = new Set([...CLIENT_OWNED_HEADERS, 'expect']);

// Set by WebhookChannel's static block, the one place with access to its private attempt.
let stoppableAttempt: (channel: WebhookChannel, delivery: PreparedDelivery, caller: AbortSignal | undefined, inFlight: AttemptsInFlight) => Promise<AttemptOutcome>;

/**
 * One attempt for the Notifier: as `channel.attempt(delivery, { signal: caller })`, but held in `inFlight` while it
 * runs, so that the notifier's `close()` timeout can abort it too; the failure says which of the two did. Not part of
 * the package's API; `delivery` comes from `prepare()`, so it is not checked again.
 */
export function attemptForNotifier(channel: WebhookChannel, delivery: PreparedDelivery, caller: AbortSignal | undefined, inFlight: AttemptsInFlight): Promise<AttemptOutcome> {
  return stoppableAttempt(channel, delivery, caller, inFlight);
}

// The errors of attempts stopped before their request went out (see nothingWasSent).
const unsentAttempts = new WeakSet<WebhookAttemptError>();

/**
 * True when `outcome` is an attempt stopped before its request went out: by a signal already aborted, or while it
 * waited for a free slot. The Notifier does not count it as an attempt made. Not part of the package's API.
 */
export function nothingWasSent(outcome: AttemptOutcome): boolean {
  return !outcome.ok && unsentAttempts.has(outcome.error);
}

/** The spec's `webhook.New`: `new WebhookChannel({ url, secret, headers, timeout })`. Bad config throws `ConfigError`. */
export class WebhookChannel {
  readonly url: string;
  readonly method: string;
  readonly timeout: number;
  /** Requests in flight at once, at most; see `WebhookChannelConfig.maxConcurrent`. */
  readonly maxConcurrent: number;
  /** The configured headers, validated. */
  readonly headers: Readonly<Record<string, string>>;
  readonly #signer: WebhookSigner | undefined;
  readonly #injectedDispatcher: Dispatcher | undefined;
  // The URL split once into what undici needs: the top-level `request(url)` would parse (and rewrite) it every call.
  readonly #origin: string;
  readonly #path: string;
  // Method and address for messages, without what often carries secrets (see urlForMessages).
  readonly #target: string;
  // undici wants whole milliseconds for its own timeouts; rounding up keeps them from firing before the deadline.
  readonly #clientTimeout: number;
  // What a receiver's answer must not repeat in a message: the secret, header values, the URL's hidden parts.
  readonly #credentials: readonly string[];
  readonly #slots: RequestSlots;
  #own: OwnAgent | undefined;

  static {
    stoppableAttempt = (channel, delivery, caller, inFlight) => channel.#stoppableRequest(delivery, caller, inFlight);
  }

  constructor(config: WebhookChannelConfig) {
    const input = validConfig(config);
    const { origin, path } = parseDestination(input.url);
    this.url = input.url as string;
    this.#origin = origin;
    this.#path = path;
    this.method = validMethod(input.method);
    this.#target = `${this.method} ${urlForMessages(origin + path)}`;
    this.headers = validHeaders(input.headers);
    this.timeout = validTimeout(input.timeout);
    this.#clientTimeout = Math.ceil(this.timeout);
    const secret = validSecret(input);
    this.#signer = secret === undefined ? undefined : new WebhookSigner(secret);
    this.#injectedDispatcher = validDispatcher(input.dispatcher);
    this.maxConcurrent = validMaxConcurrent(input.maxConcurrent);
    this.#slots = new RequestSlots(this.maxConcurrent);
    this.#credentials = credentialFragments(secret, this.headers, hiddenTargetParts(path));
  }

  /** True when requests carry `X-Signature`. */
  get signed(): boolean {
    return this.#signer !== undefined;
  }

  /**
   * Serialises and signs one delivery. Throws `ConfigError` when the message has no event name or its payload is
   * not a JSON-serialisable object.
   */
  async prepare(notifiable: Notifiable, message: WebhookMessage, sentAt: Date = new Date()): Promise<PreparedDelivery> {
    const event = message.eventName;
    if (typeof event !== 'string' || event.length === 0) {
      throw new ConfigError('message.event', event, 'must be a non-empty string; build the message with newMessage().event(name)');
    }
    const { type, id } = validNotifiable(notifiable);
    const sentAtIso = validSentAt(sentAt);
    // The spec's B3 body, written by hand around the checked payload: the same bytes JSON.stringify gives the object.
    const json = `{"event":${JSON.stringify(event)},"sent_at":"${sentAtIso}","notifiable":{"type":${JSON.stringify(type)},"id":${JSON.stringify(id)}},"data":${payloadJson(message.data)}}`;
    const bytes = Buffer.from(json, 'utf8');
    // No prototype, so that every configured name is an own key, `__proto__` included; assignment would drop it.
    const headers: Record<string, string> = Object.create(null);
    if (contentTypeOf(this.headers) === undefined) headers['Content-Type'] = 'application/json';
    for (const name of Object.keys(this.headers)) headers[name] = this.headers[name]!;
    if (this.#signer) headers[SIGNATURE_HEADER] = await this.#signer.sign(bytes);
    return { event, body: bytes, headers };
  }

  /**
   * Sends `delivery` once. 2xx is success; anything else, a network error or a timeout is a failure. With
   * `maxConcurrent` requests of the channel in flight, it first waits for one of them to end.
   * @param options.signal aborts the attempt: one in flight ends at once, a failure of kind `aborted`; with a signal
   * already aborted, or one that aborts while the attempt waits for a free slot, nothing is sent. Nothing stays on
   * the signal once the attempt ends. `options` other than `{ signal }` with an AbortSignal reject with
   * `ConfigError`; a `delivery` not shaped as `prepare()` returns one
   * (`{ event, body, headers }`, the body bytes) rejects with `InvalidArgumentError`. One kept in a queue and read back
   * is sent as it is, headers and signature included. A `Notifier` sends through the channel's own attempt, which its
   * `close()` timeout can abort, not through this method: a subclass that overrides it changes direct calls only.
   * @example
   * const outcome = await channel.attempt(delivery, { signal: AbortSignal.timeout(5_000) });
   */
  attempt(delivery: PreparedDelivery, options?: AttemptOptions): Promise<AttemptOutcome> {
    const malformed = deliveryProblem(delivery);
    if (malformed) return Promise.reject(malformed);
    let signal: AbortSignal | undefined;
    try {
      signal = signalOption(options, 'options');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#stoppableRequest(delivery, signal, undefined);
  }

  /**
   * Closes the channel's own connections once their responses are drained. Sending again reopens. A dispatcher you
   * passed is left alone.
   */
  async close(): Promise<void> {
    const own = this.#own;
    this.#own = undefined;
    await own?.agent.close(); // an undici Agent closes gracefully: requests in progress, bodies included, finish first
  }

  /**
   * What `JSON.stringify(channel)` writes: the URL as error messages show it and the header names with their values
   * hidden, since both are often credentials. The `url` and `headers` fields themselves stay whole.
   */
  toJSON(): { url: string; method: string; timeout: number; maxConcurrent: number; headers: Record<string, string>; signed: boolean } {
    // fromEntries defines each name as an own key, `__proto__` included.
    const headers = Object.fromEntries(Object.keys(this.headers).map((name) => [name, '…']));
    return { url: urlForMessages(this.url), method: this.method, timeout: this.timeout, maxConcurrent: this.maxConcurrent, headers, signed: this.signed };
  }

  /** What `console.log(channel)` and `util.inspect` show: `toJSON()`'s form, so no secret reaches a log. */
  [inspect.custom](depth: number, options: InspectOptionsStylized, show: typeof inspect): string {
    const name = options.stylize('WebhookChannel', 'special');
    if (depth < 0) return `[${name}]`;
    return `${name} ${show(this.toJSON(), { ...options, depth: options.depth == null ? options.depth : options.depth - 1 })}`;
  }

  async #stoppableRequest(delivery: PreparedDelivery, caller: AbortSignal | undefined, inFlight: AttemptsInFlight | undefined): Promise<AttemptOutcome> {
    if (caller?.aborted) return this.#aborted('caller', caller.reason, 'before');
    if (inFlight?.aborted) return this.#aborted('close', inFlight.reason, 'before');
    const deadline = new AttemptDeadline(this.timeout);
    const stopWatchingCaller = caller && onAbort(caller, () => deadline.cancel('caller', caller.reason));
    const inFlightSlot = inFlight?.add(deadline);
    try {
      // A free slot is taken at once; only a wait for one costs a promise.
      const slotTaken = this.#slots.tryTake() || (await this.#slots.waitFor(deadline));
      // Cancelled while waiting, or in the turn between being handed a slot and taking it up: nothing was sent.
      if (!slotTaken || deadline.aborted) {
        if (slotTaken) this.#slots.release();
        return this.#aborted(deadline.cancelledBy!.stopper, deadline.cancelledBy!.reason, 'waiting');
      }
      // A body drained in the background still holds its connection: the slot is free once it is done.
      const drain: DrainHold = { until: undefined };
      try {
        deadline.start();
        return await this.#request(delivery, deadline, drain);
      } finally {
        if (drain.until === undefined) this.#slots.release();
        else void drain.until.finally(() => this.#slots.release());
      }
    } finally {
      stopWatchingCaller?.();
      if (inFlightSlot !== undefined) inFlight!.remove(inFlightSlot);
    }
  }

  async #request(delivery: PreparedDelivery, deadline: AttemptDeadline, drain: DrainHold): Promise<AttemptOutcome> {
    const own = this.#injectedDispatcher === undefined ? (this.#own ??= newOwnAgent(this.#clientTimeout)) : undefined;
    if (own === undefined) return this.#send(this.#injectedDispatcher!, delivery, deadline, undefined, drain);
    own.attempts += 1;
    try {
      return await this.#send(own.agent, delivery, deadline, own, drain);
    } finally {
      own.attempts -= 1;
      dropGivenUpConnects(own);
    }
  }

  async #send(dispatcher: Dispatcher, delivery: PreparedDelivery, deadline: AttemptDeadline, own: OwnAgent | undefined, drain: DrainHold): Promise<AttemptOutcome> {
    let sending: Promise<Dispatcher.ResponseData>;
    try {
      sending = dispatcher.request({
        origin: this.#origin,
        path: this.#path,
        method: this.method as Dispatcher.HttpMethod,
        headers: delivery.headers,
        body: delivery.body,
        signal: deadline,
        // Per request, so that they apply to an injected dispatcher too; the deadline fires first.
        headersTimeout: this.#clientTimeout,
        bodyTimeout: this.#clientTimeout,
        // A dispatcher of yours composed with undici's redirect interceptor would otherwise follow a 307 with the
        // signed body to another host; 0 makes the interceptor pass the request through. undici's types no longer
        // list the option, though its core still accepts 0.
        ...({ maxRedirections: 0 } as object),
      });
    } catch (cause) {
      // A dispatcher of yours that throws instead of rejecting: a failed attempt like any other, not a rejection.
      deadline.clear();
      const error = new WebhookAttemptError('network', `${this.#target} was not sent: the dispatcher threw ${describeCause(cause)}.`, { cause });
      return { ok: false, kind: error.kind, status: undefined, retryAfter: undefined, error };
    }
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await deadline.within(sending);
    } catch (cause) {
      deadline.clear();
      return deadline.cancelledBy ? this.#aborted(deadline.cancelledBy.stopper, deadline.cancelledBy.reason, 'in flight') : this.#failure(cause, deadline.aborted);
    }
    deadline.clear();
    if (response === undefined) {
      // Still connecting: undici never sends it after the abort, but would keep connecting until its connect
      // timeout, holding close() and the process that long. Our own agent drops the connect once no attempt
      // still running can use it (see dropGivenUpConnects); a dispatcher of yours gives up at its own timeout.
      if (own) own.givenUp += 1;
      sending.then((late) => late.body.destroy(), () => {}).finally(() => {
        if (own) own.givenUp -= 1;
      });
      return deadline.cancelledBy ? this.#aborted(deadline.cancelledBy.stopper, deadline.cancelledBy.reason, 'in flight') : this.#failure(undefined, true);
    }
    const status = response.statusCode;
    const success = status >= 200 && status < 300;
    const redirect = status >= 300 && status < 400;
    // A refusal's text is read for its message, and waited for; any other body is drained in the background.
    const explained = !success && !redirect && isTextual(response.headers['content-type']);
    if (!explained) drain.until = discard(response.body);
    if (success) return { ok: true, status };
    const { location } = response.headers;
    // A 3xx without a Location (304, a bare 300) points nowhere: the message must not send anyone looking for a URL.
    const message = !redirect
      ? `${this.#target} answered ${status}${explained ? await this.#saying(response, deadline) : ''}.`
      : location === undefined
        ? `${this.#target} answered ${status}, a 3xx without a Location; only a 2xx is success.`
        : `${this.#target} answered ${status} (a redirect to ${this.#redirectTarget(location)}); redirects are not followed, so a signed payload never reaches a host that was not configured. Configure the final URL.`;
    const error = new WebhookAttemptError(redirect ? 'redirect' : 'status', message, { status });
    return { ok: false, kind: error.kind, status, retryAfter: parseRetryAfter(response.headers['retry-after']), error };
  }

  // `, saying "invalid signature: …"` (or nothing): receivers explain a refusal in its body. The body is read within
  // the drain's bounds (64 KiB, 1 s), and no longer than the caller's signal or close()'s timeout allow.
  async #saying(response: Dispatcher.ResponseData, deadline: AttemptDeadline): Promise<string> {
    const body = await readRefusalBody(response.body, RESPONSE_DRAIN_LIMIT, RESPONSE_DRAIN_GRACE, deadline);
    const said = refusalExcerpt(body, response.headers['content-type'], this.#credentials);
    return said === undefined ? '' : `, saying "${said}"`;
  }

  // Location often repeats the configured URL, secrets included: shown like the channel's own address.
  #redirectTarget(location: string | string[]): string {
    if (typeof location !== 'string') return 'several Locations at once';
    return URL.canParse(location, this.#origin) ? urlForMessages(new URL(location, this.#origin).href) : 'an address that does not parse';
  }

  // A timeout when the deadline passed or when the HTTP client's own timeout fired first (an injected dispatcher's
  // can be shorter than the channel's); anything else failed on the way (see connectionFailure).
  #failure(cause: unknown, deadlinePassed: boolean): AttemptOutcome {
    const answerSooner = 'or have the receiver answer 202 at once and work afterwards.';
    // A dispatcher of yours may hold requests in a queue of its own, unsent, on the clock of their timeout.
    const queuedThere = this.#injectedDispatcher ? ` If the dispatcher you passed limits its connections, keep the channel's maxConcurrent (now ${this.maxConcurrent}) no higher, or requests wait in its queue, unsent, while their timeout runs.` : '';
    const error = deadlinePassed
      ? new WebhookAttemptError('timeout', `${this.#target} did not answer within ${this.timeout} ms; raise the channel's timeout, ${answerSooner}${queuedThere}`, { cause })
      : UNDICI_TIMEOUTS.has(String((cause as { code?: unknown } | undefined)?.code))
        ? new WebhookAttemptError('timeout', `${this.#target} timed out: ${describeCause(cause)}; ${this.#injectedDispatcher ? 'raise the timeouts of the dispatcher you passed' : "raise the channel's timeout"}, ${answerSooner}`, { cause })
        : connectionFailure(cause, { target: this.#target, protocol: this.#origin.startsWith('https:') ? 'https:' : 'http:', maxConcurrent: this.maxConcurrent });
    return { ok: false, kind: error.kind, status: undefined, retryAfter: undefined, error };
  }

  // The Notifier words its close() timeout itself, with the milliseconds; the signal's reason is the cause either way.
  // `when`: in flight, before the attempt began, or while it waited for a free slot.
  #aborted(stopper: AttemptStopper, reason: unknown, when: 'in flight' | 'before' | 'waiting'): AttemptOutcome {
    const waiting = `while it waited for one of the channel's requests in flight to end (maxConcurrent: ${this.maxConcurrent})`;
    let message: string;
    if (stopper === 'close') {
      message =
        when === 'in flight' ? `${this.#target} was aborted in flight by the notifier's close() timeout.`
        : when === 'waiting' ? `${this.#target} was not sent: the notifier's close() timeout ran out ${waiting}.`
        : `${this.#target} was not sent: the notifier's close() timeout had run out.`;
    } else {
      const described = describeAbortReason(reason);
      const because = described === undefined ? '' : ` (reason: ${described})`;
      message =
        when === 'in flight' ? `${this.#target} was aborted in flight by the caller's signal${because}.`
        : when === 'waiting' ? `${this.#target} was not sent: the caller's signal aborted it ${waiting}${because}.`
        : `${this.#target} was not sent: the caller's signal was already aborted${because}.`;
    }
    const error = new WebhookAttemptError('aborted', message, { cause: reason });
    if (when !== 'in flight') unsentAttempts.add(error);
    return { ok: false, kind: error.kind, status: undefined, retryAfter: undefined, error };
  }
}

// The channel's own agent, with its connections still being opened and what decides whether they are still wanted:
// attempts running on it, and requests whose attempt already ended (aborted or timed out) while they were queued.
interface OwnAgent {
  readonly agent: Agent;
  readonly connecting: Set<Socket>;
  attempts: number;
  givenUp: number;
}

function newOwnAgent(clientTimeout: number): OwnAgent {
  const connecting = new Set<Socket>();
  // The connect timeout is the channel's too: undici's 10 s default would end a longer attempt early.
  // undici's connector returns the socket it opens, though its types say void; without one, nothing is tracked and a
  // given-up connect simply runs to its timeout.
  const connectOnce = buildConnector({ timeout: clientTimeout }) as unknown as (options: buildConnector.Options, callback: buildConnector.Callback) => Socket | undefined;
  const connect: buildConnector.connector = (options, callback) => {
    let done = false;
    let socket: Socket | undefined = undefined;
    socket = connectOnce(options, (...result) => {
      done = true;
      if (socket) connecting.delete(socket);
      callback(...result);
    });
    if (socket && !done) connecting.add(socket);
  };
  return { agent: new Agent({ keepAliveTimeout: 10_000, connect }), connecting, attempts: 0, givenUp: 0 };
}

// A connection being opened only for given-up requests is of no use to anyone: end it now (undici then fails those
// requests) rather than at the connect timeout, which would hold close() and the process for up to the whole
// channel timeout. Only when no attempt is running, since a running one may be waiting for the same connection.
function dropGivenUpConnects(own: OwnAgent): void {
  if (own.attempts > 0 || own.givenUp === 0 || own.connecting.size === 0) return;
  for (const socket of own.connecting) socket.destroy(new Error('connection abandoned: every attempt waiting for it has ended'));
}

const CONFIG_FIELDS = ['url', 'secret', 'method', 'headers', 'timeout', 'dispatcher', 'maxConcurrent'];
const DEFAULT_MAX_CONCURRENT = 32;
const SEND_UNSIGNED = 'leave the secret field out to send unsigned requests';
// A value, or the credentials after a scheme, that a template string wrote for a variable it did not have.
const MISSING_VALUE = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+ +)?(undefined|null)$/;

function validConfig(config: unknown): Record<string, unknown> {
  // The URL passed where the config belongs is the likeliest slip, and the URL is a credential: shown shortened.
  if (typeof config === 'string' || config instanceof URL) {
    throw new ConfigError('webhook', urlForMessages(String(config)), 'must be an object with at least a url: pass { url } rather than the URL itself');
  }
  const input = expectPlainObject(config, 'webhook');
  // A misspelt secret or url still holds the credential: only the value's type is shown.
  expectKnownFields(input, CONFIG_FIELDS, 'webhook', kindOf);
  return input;
}

/**
 * Why `delivery` is not one to send: without its bytes or headers it would go out as an empty or unsigned request.
 * Only its kind goes in the error, never its headers (credentials, a signature).
 */
function deliveryProblem(delivery: unknown): InvalidArgumentError | undefined {
  const { event, body, headers } = (typeof delivery === 'object' && delivery !== null ? delivery : {}) as Record<string, unknown>;
  const wellFormed =
    typeof event === 'string' &&
    body instanceof Uint8Array &&
    typeof headers === 'object' &&
    headers !== null &&
    Object.values(headers).every((value) => typeof value === 'string');
  if (wellFormed) return undefined;
  const kind = typeof delivery === 'object' && delivery !== null ? 'an object without a string event, a Buffer body and string headers' : kindOf(delivery);
  return new InvalidArgumentError('delivery', kind, 'must be { event, body, headers } as prepare() returns it (a body read back from a queue: Buffer.from(…))', kind);
}

/**
 * The secret to sign with, or `undefined` when the field is left out. Given but `undefined` or empty is what
 * `process.env.WEBHOOK_SECRET` reads as when the variable is not set (or set to nothing): refused rather than
 * sending unsigned without a word, which a receiver would only answer 401.
 */
function validSecret(input: Record<string, unknown>): string | undefined {
  if (!('secret' in input)) return undefined;
  const { secret } = input;
  if (secret === undefined) {
    throw new ConfigError('webhook.secret', secret, `is undefined, which is what an environment variable that is not set reads as (secret: process.env.WEBHOOK_SECRET); set the variable or pass the secret, or ${SEND_UNSIGNED}`);
  }
  if (secret === '') {
    throw new ConfigError('webhook.secret', secret, `is an empty string, which is what an environment variable set to nothing reads as; set the variable to the secret, or ${SEND_UNSIGNED}`);
  }
  return checkedSecret(secret, 'webhook.secret', 'must be a non-empty string; omit it to send unsigned requests');
}

// Checked here: anything else (a node:http Agent is the likely mix-up) would fail every attempt, and a dispatcher
// bound to one origin would send every delivery, signed and with the configured headers, to that origin instead.
function validDispatcher(dispatcher: unknown): Dispatcher | undefined {
  if (dispatcher === undefined) return undefined;
  const { request, dispatch } = (typeof dispatcher === 'object' && dispatcher !== null ? dispatcher : {}) as { request?: unknown; dispatch?: unknown };
  if (typeof request !== 'function' || typeof dispatch !== 'function') {
    const kind = typeof dispatcher === 'object' && dispatcher !== null ? dispatcher.constructor?.name : undefined;
    const problem = 'must be an undici Dispatcher such as new Agent() or new ProxyAgent(url) from "undici" (a node:http Agent is not one)';
    if (kind && kind !== 'Object') throw new ConfigError('webhook.dispatcher', dispatcher, problem, withArticle(kind));
    throw new ConfigError('webhook.dispatcher', dispatcher, problem);
  }
  const bound = oneOriginClass(dispatcher as object);
  if (bound !== undefined) {
    const kind = withArticle(bound);
    throw new ConfigError(
      'webhook.dispatcher',
      kind,
      `is bound to one origin: ${kind} sends every request to the origin it was made for and ignores the channel's url, so the signed payload and the configured headers would go there; pass new Agent(…) or new ProxyAgent(…) from "undici" instead, which take the same connection options (connections, pipelining, connect)`,
      kind,
    );
  }
  return dispatcher as Dispatcher;
}

// undici's dispatchers made for one origin (new Client(origin), new Pool(origin)…), which send a request there
// whatever its own origin says.
const ONE_ORIGIN_CLASSES = [Client, Pool, BalancedPool, RoundRobinPool];
// The same by name, for those of another copy of undici (an app's own version); PoolBase is what the pools share.
const ONE_ORIGIN_NAMES = new Set(['Client', 'H2CClient', 'Pool', 'PoolBase', 'BalancedPool', 'RoundRobinPool']);

/** The class name of `dispatcher` when it is (or extends) one of undici's one-origin dispatchers. */
function oneOriginClass(dispatcher: object): string | undefined {
  const own = String(dispatcher.constructor?.name || 'Dispatcher');
  if (ONE_ORIGIN_CLASSES.some((kind) => dispatcher instanceof kind)) return own;
  for (let prototype: unknown = Object.getPrototypeOf(dispatcher); prototype !== null && typeof prototype === 'object'; prototype = Object.getPrototypeOf(prototype)) {
    const name: unknown = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && ONE_ORIGIN_NAMES.has(name)) return own;
  }
  return undefined;
}

function validMethod(method: unknown): string {
  if (method === undefined) return 'POST';
  if (typeof method !== 'string' || !isMethod(method)) throw new ConfigError('webhook.method', method, 'must be an HTTP method such as POST or PUT');
  // Like fetch: standard methods are case-insensitive, custom ones are sent as written.
  const normalised = STANDARD_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : method;
  if (BODYLESS_METHODS.has(normalised)) throw new ConfigError('webhook.method', method, 'must be a method that carries a body (POST, PUT, PATCH…)');
  return normalised;
}

function validHeaders(headers: unknown): Readonly<Record<string, string>> {
  if (headers === undefined) return Object.freeze({});
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new ConfigError('webhook.headers', headers, 'must be an object of header names to string values');
  }
  // A Headers or a Map has no own enumerable entries: it would be read as {} and every request sent without them.
  // Another realm's Object.prototype (a vm context) is fine: like ours, it has no prototype itself.
  const prototype = Object.getPrototypeOf(headers);
  if (prototype !== null && Object.getPrototypeOf(prototype) !== null) {
    const kind = withArticle(String(prototype?.constructor?.name ?? 'Object'));
    throw new ConfigError('webhook.headers', kind, 'must be a plain object of header names to string values; pass Object.fromEntries(headers)', kind);
  }
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const field = `webhook.headers[${JSON.stringify(name)}]`;
    const lower = name.toLowerCase();
    // Header values are often credentials (a token read from a file, newline and all): errors say what is wrong
    // with one, never what it is.
    const hidden = typeof value === 'string' ? 'a value not shown' : describeValue(value);
    if (!isHeaderName(name)) throw new ConfigError(field, name, 'is not a valid HTTP header name');
    if (lower === SIGNATURE_HEADER.toLowerCase()) throw new ConfigError(field, hidden, 'is reserved: the channel sets X-Signature itself when a secret is configured', hidden);
    if (CLIENT_HEADERS.has(lower)) throw new ConfigError(field, hidden, 'is set by the HTTP client and cannot be configured', hidden);
    if (seen.has(lower)) throw new ConfigError(field, hidden, 'repeats a header name already given in another letter case', hidden);
    if (typeof value !== 'string') throw new ConfigError(field, hidden, 'must be a string', hidden);
    const problem = /[\r\n]$/.test(value) ? 'ends with a line break, as a value read from a file often does; trim it' : headerValueProblem(value);
    if (problem) throw new ConfigError(field, hidden, problem, hidden);
    const missing = MISSING_VALUE.exec(value.trim())?.[1];
    // `null` is a value of its own in Origin (an opaque origin); anywhere else it is as likely a slip as `undefined`.
    if (missing !== undefined && !(missing === 'null' && value.trim() === 'null' && lower === 'origin')) {
      const cause = missing === 'undefined'
        ? 'a template string such as `Bearer ${process.env.WEBHOOK_TOKEN}` writes that when the variable is not set; set the variable'
        : 'a template string writes that for a value that is null (a config entry that is missing); pass the value';
      throw new ConfigError(field, hidden, `has "${missing}" for its value (or for the credentials after a scheme, as in "Bearer ${missing}"): ${cause}, or leave the header out`, hidden);
    }
    // undici would refuse the value at send time, and every attempt would fail as unreachable.
    if (!isByteString(value)) {
      throw new ConfigError(field, hidden, 'contains a character above U+00FF, which HTTP headers cannot carry; percent-encode it or use ASCII', hidden);
    }
    seen.add(lower);
  }
  return Object.freeze({ ...(headers as Record<string, string>) });
}

// toISOString() throws a RangeError for an invalid Date, and writes a year past 9999 in a form ISO 8601 receivers refuse.
function validSentAt(sentAt: unknown): string {
  const iso = sentAt instanceof Date && !Number.isNaN(sentAt.getTime()) ? sentAt.toISOString() : undefined;
  if (iso === undefined || !/^\d{4}-/.test(iso)) throw new ConfigError('sentAt', sentAt, 'must be a valid Date between the years 0 and 9999');
  return iso;
}

function validMaxConcurrent(maxConcurrent: unknown): number {
  if (maxConcurrent === undefined) return DEFAULT_MAX_CONCURRENT;
  if (typeof maxConcurrent !== 'number' || !Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1) {
    throw new ConfigError('webhook.maxConcurrent', maxConcurrent, `must be a positive integer, the requests in flight at once (default ${DEFAULT_MAX_CONCURRENT})`);
  }
  return maxConcurrent;
}

function validTimeout(timeout: unknown): number {
  if (timeout === undefined) return DEFAULT_TIMEOUT;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMER) {
    throw new ConfigError('webhook.timeout', timeout, `must be a positive number of milliseconds up to ${MAX_TIMER}`);
  }
  return timeout;
}

function validNotifiable(notifiable: Notifiable): Notifiable {
  if (typeof notifiable !== 'object' || notifiable === null) throw new ConfigError('notifiable', notifiable, 'must be an object { type, id }');
  const { type, id } = notifiable;
  if (typeof type !== 'string' || type.length === 0) throw new ConfigError('notifiable.type', type, 'must be a non-empty string');
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    throw new ConfigError('notifiable.id', id, 'must be a string or a finite number');
  }
  return { type, id };
}

// A body that is not quoted (a success's, a redirect's, a refusal's that is not text) is never used: read a little
// so the connection can be reused, then drop it. This runs in the background once the outcome is known, so a slow
// body never delays it; the grace bounds a body that never ends, which would otherwise hold the connection, the
// process and close() until the server gave up. The timer is unreferenced: the open connection keeps the process
// alive until it fires, and nothing else should.
// Settles once the body is drained or dropped.
function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  const grace = setTimeout(() => body.destroy(), RESPONSE_DRAIN_GRACE).unref();
  return body.dump({ limit: RESPONSE_DRAIN_LIMIT }).then(
    () => clearTimeout(grace),
    () => clearTimeout(grace),
  );
}

/** Set by an attempt whose response body is drained in the background: its request slot is held until then. */
interface DrainHold {
  until: Promise<void> | undefined;
}

