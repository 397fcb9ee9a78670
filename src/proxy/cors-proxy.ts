// One proxy request from start to end: preflight or checks, the upstream exchange, the streamed relay.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { pipeline } from 'node:stream';
import { FORBIDDEN_METHODS } from '../core/http-syntax.js';
import { ByteLimit } from './byte-limit.js';
import { addCorsHeaders, isPreflight, preflightHeaders } from './cors-headers.js';
import { checkFetchDestination } from './fetch-destination.js';
import type { OriginPolicy } from './origin-policy.js';
import { downstreamResponseHeaders, passedThisProxy, upstreamRequestHeaders } from './header-filter.js';
import { flattenHeaders, headerValues, pairHeaders, type HeaderList } from './header-list.js';
import { resolveProxyOptions, type ProxyOptions, type ResolvedProxyOptions } from './proxy-options.js';
import { formatByteSize, formatDuration, formatSizeOverLimit } from './readable-units.js';
import { PROXY_ERROR_HEADER, PROXY_FINAL_URL_HEADER, ProxyRefusal, WITHOUT_THE_PROXY, isProxyRefusal, refusalRecord } from './refusal.js';
import { proxyReferenceFor, targetFromRequestPath } from './target-url.js';
import { REDIRECT_STATUSES, UpstreamClient, discardBody, withoutCredentials, type UpstreamRequest, type UpstreamResponse } from './upstream-client.js';

/** A reason phrase Node will write as is (as Latin-1 bytes). */
const WRITABLE_REASON = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The API's reason phrase, to write as the bytes it sent: an empty one stays empty (Node would write its own), and
 * undici's UTF-8 decoding is undone. `undefined` (Node's standard phrase) when the bytes are lost: they were not UTF-8.
 */
function reasonPhrase(statusText: string): string | undefined {
  if (statusText.includes('\ufffd')) return undefined;
  const bytes = Buffer.from(statusText, 'utf8').toString('latin1');
  return WRITABLE_REASON.test(bytes) ? bytes : undefined;
}

/** True when the response to `method` with `status` cannot carry a body, whatever its `Content-Length` says (RFC 9110 §6.4.1). */
function responseIsBodiless(method: string, status: number): boolean {
  return method === 'HEAD' || status === 204 || status === 304;
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/** Headers Node would refuse to write (upstream servers are not always strict) are left out, not fatal. */
function writableHeaders(headers: HeaderList): HeaderList {
  return headers.filter(([name, value]) => {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      return true;
    } catch {
      return false; // an invalid header cannot be relayed faithfully anyway
    }
  });
}

/** An empty write, which sends the head written so far (see `#relay`). */
const NO_BYTES = Buffer.alloc(0);

/**
 * The CORS proxy as a Node request listener: `http.createServer(proxy.handle)`. Create one per server
 * and `close()` it with the server to release upstream connections (`server.close()` alone waits for every
 * relay in flight, which a streamed response can hold open forever: call `server.closeAllConnections()` too).
 */
export class CorsProxy {
  readonly #options: ResolvedProxyOptions;
  readonly #upstream: UpstreamClient;
  /** Set by close(): the health check then says the proxy is going, so a load balancer stops sending to it. */
  #closing = false;

  /** Throws `ConfigError` for invalid options. */
  constructor(options: ProxyOptions = {}) {
    this.#options = resolveProxyOptions(options);
    this.#upstream = new UpstreamClient(this.#options);
  }

  /** One-line summaries of the effective policy, for logs. */
  get summary(): { origins: string; targets: string; limits: string } {
    const { origins, targets, addresses, maxRequestBytes, maxResponseBytes, timeout, maxRedirects } = this.#options;
    return {
      origins: origins.description,
      targets: addresses.description === '' ? targets.description : `${targets.description}, ${addresses.description}`,
      limits: `request body ${maxRequestBytes} bytes, response body ${maxResponseBytes} bytes, timeout ${timeout} ms, ${maxRedirects} redirects`,
    };
  }

  /** Node `request` listener. Never throws; every failure becomes a JSON refusal or a closed connection. */
  readonly handle = (request: IncomingMessage, response: ServerResponse): void => {
    const asked: AskedTarget = { target: undefined };
    this.#handle(request, response, asked).catch((error: unknown) => this.#fail(request, response, error, asked));
  };

  /**
   * Releases upstream connections. Requests still being relayed are cut off: a page waiting for headers gets an
   * `upstream_unreachable` refusal, a body being streamed stops. Later requests get the same refusal.
   */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#upstream.close();
  }

  async #handle(request: IncomingMessage, response: ServerResponse, asked: AskedTarget): Promise<void> {
    // A load balancer's health check, which sends no Origin: the bare root names no target, so nothing needs checking.
    if ((request.method === 'GET' || request.method === 'HEAD') && request.url === '/') {
      writeHealthCheck(response, this.#closing);
      return;
    }
    const origin = request.headers.origin ?? allowedOwnOrigin(request, this.#options.origins);
    const originAllowed = this.#options.origins.allows(origin);
    if (isPreflight(request)) {
      response.writeHead(204, preflightHeaders(request, originAllowed)).end();
      return;
    }
    // Each hop of a loop (a target that is this proxy, by any name) would hold two more connections, 1,000 deep.
    // Checked before the origin: an inner hop carries none, and would be refused for that, less clearly.
    if (passedThisProxy(request.headers.via)) {
      throw new ProxyRefusal('target_not_allowed', 'The request has already passed through a try-it-proxy (its Via header says so): a proxy does not relay to itself or to another try-it-proxy; send it to the API.');
    }
    // Relayed as a plain GET, a handshake would get the API's answer to one, and a connection left waiting.
    if (isWebSocketHandshake(request)) {
      throw new ProxyRefusal('websocket_not_supported', 'This proxy does not relay WebSocket connections. Connect to the API directly (ws:// or wss://): browsers do not apply CORS to WebSockets, so they need no proxy.');
    }
    if (!originAllowed) {
      throw new ProxyRefusal('origin_not_allowed', `${refusedPages(request, origin)} not allowed to use this proxy; it serves ${this.#options.origins.description}.`);
    }
    checkFetchDestination(request.headers);
    const method = request.method ?? 'GET';
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) throw methodRefusal(method);
    const { target, omitCredentials } = targetFromRequestPath(request.url);
    asked.target = target;
    this.#options.targets.check(target);
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > this.#options.maxRequestBytes) throw this.#requestTooLarge(declared);

    const sent: UpstreamRequest = {
      target,
      method,
      // Not `request.headers`, which joins or drops repeated lines and leaves out one named `__proto__`.
      headers: upstreamRequestHeaders(pairHeaders(request.rawHeaders), this.#options),
      body: hasBody(request) ? this.#pageBody(request, response) : null,
      signal: abortedWhenClosed(response),
      credentialsDropped: false,
    };
    // The follow-up of a redirect to another origin handed to the page: the page's fetch kept its credentials.
    const { response: upstream, url, credentialsDropped } = await this.#upstream.send(omitCredentials ? withoutCredentials(sent) : sent);
    const relayed = { origin, method, path: request.url!, url, redirected: url.href !== target.href, credentialsDropped };
    this.#relay(upstream, response, relayed, { originHeader: request.headers.origin, asked: target });
  }

  /** The page's request body on its way upstream, held to `maxRequestBytes`, and to `timeout` for each pause in it. */
  #pageBody(request: IncomingMessage, response: ServerResponse): ByteLimit {
    const { maxRequestBytes, timeout } = this.#options;
    const limit = new ByteLimit(maxRequestBytes, () => this.#requestTooLarge(undefined));
    // The body broke off: the page went away, or sent what Node's parser refused (and the connection was dropped).
    // Passed on as it is, undici would fail with it as if the API could not be reached, and the log would say so.
    request.on('error', () => limit.destroy(new DOMException('The page closed the connection before its request body was sent.', 'AbortError')));
    request.pipe(limit);
    whenBodyPauses(request, limit, timeout, () => {
      // undici fails the upstream request with this error, which becomes the page's answer. An answer already
      // started can only be cut off; one already sent leaves Node waiting for the rest of the body: the connection goes.
      limit.destroy(new ProxyRefusal('upstream_timeout', `The request body paused for more than ${formatDuration(timeout)}, so the proxy abandoned the request to the API; send it again.`));
      if (response.headersSent) request.socket.destroy();
    });
    return limit;
  }

  /** `size`: the body's declared length; `undefined` for a body of undeclared length, which stopped at the limit. */
  #requestTooLarge(size: number | undefined): ProxyRefusal {
    const { maxRequestBytes } = this.#options;
    const what = size === undefined ? `larger than this proxy accepts (${formatByteSize(maxRequestBytes)})` : sizeOverLimit(size, maxRequestBytes, 'accepts');
    return new ProxyRefusal('request_too_large', `The request body is ${what}. Send a smaller body, or ${WITHOUT_THE_PROXY}.`);
  }

  /**
   * Streams the upstream response to the page: status, filtered headers plus CORS (and, after redirects, the
   * final URL; on a redirect handed to the page, a `Location` back through the proxy), then the body.
   */
  #relay(upstream: UpstreamResponse, response: ServerResponse, request: RelayedRequest, subject: RefusalSubject): void {
    const { maxResponseBytes } = this.#options;
    // The Content-Length of a HEAD, 204 or 304 response describes a body that is not sent: nothing to cap or stream.
    const bodiless = responseIsBodiless(request.method, upstream.statusCode);
    const [length] = headerValues(upstream.headers, 'content-length'); // undici refuses a repeated one
    const declared = length === undefined ? undefined : Number(length);
    if (declared !== undefined && declared > maxResponseBytes && !bodiless) {
      discardBody(upstream);
      throw responseTooLarge(request.url, `is ${sizeOverLimit(declared, maxResponseBytes, 'relays')}`);
    }
    let relayed = downstreamResponseHeaders(upstream.headers, this.#options);
    // Browsers follow a `Location` repeated with one value (lines that differ fail the response): each line goes
    // through the proxy, or the page's fetch would follow it around the proxy. Lines that differ are left as they are.
    if (REDIRECT_STATUSES.has(upstream.statusCode) && new Set(headerValues(relayed, 'location')).size === 1) {
      relayed = relayed.map(([name, value]) => [name, name.toLowerCase() === 'location' ? locationThroughProxy(value, request) : value]);
    }
    const headers = writableHeaders(relayed);
    if (request.redirected) headers.push([PROXY_FINAL_URL_HEADER, request.url.href]);
    const streamed = !bodiless && !(declared !== undefined && Number.isFinite(declared));
    writeHeadLines(response, upstream.statusCode, reasonPhrase(upstream.statusText ?? ''), withoutBuffering(addCorsHeaders(headers, request.origin), streamed));
    if (bodiless) {
      // Not piped: undici fails the empty body of a 204 or 304 that declares a length (allowed for 304, RFC 9110 §8.6).
      discardBody(upstream);
      response.end();
      return;
    }
    // Past this point the status is sent: a body that turns out too large or fails can only be cut off.
    const onDone = (error: Error | null): void => {
      if (!error) return;
      response.destroy();
      if (isProxyRefusal(error)) this.#tellRefusal(error, request.method, subject.originHeader, subject.asked);
    };
    const toPage = (body: AsyncIterable<Buffer>): Promise<void> => writeToPage(body, response, this.#options.timeout);
    // undici holds a body to its declared length, so only an undeclared length needs counting on the way.
    if (!streamed) {
      pipeline(upstream.body, toPage, onDone);
    } else {
      // Sent now, not with the first bytes of the body as Node would: a stream (server-sent events) may send its
      // first event much later, and the page shows the status and headers as soon as they come. An empty write, not
      // flushHeaders(), which writes the head as UTF-8: header bytes past ASCII would be encoded twice.
      response.write(NO_BYTES);
      // Only the operator's log hears of this one (the page sees the body break off), but it reads the same.
      const limit = new ByteLimit(maxResponseBytes, () => responseTooLarge(request.url, `is larger than this proxy relays (${formatByteSize(maxResponseBytes)}), so it was cut off there`));
      pipeline(upstream.body, limit, toPage, onDone);
    }
  }

  #fail(request: IncomingMessage, response: ServerResponse, error: unknown, asked: AskedTarget): void {
    if (response.headersSent || response.destroyed) {
      // Cut off: the page sees a body that broke off, and the operator why.
      response.destroy();
      if (isProxyRefusal(error)) this.#tellRefusal(error, request.method, request.headers.origin, asked.target);
      return;
    }
    const refusal = isProxyRefusal(error)
      ? error
      : errorIsAbort(error)
        ? undefined
        : new ProxyRefusal('internal_error', 'The proxy failed unexpectedly; the request may not have reached the API.', { cause: error });
    if (refusal === undefined) {
      response.destroy();
      return;
    }
    try {
      writeRefusal(request, response, refusal);
    } catch {
      // Nothing can be said on this response any more (a host server left it unwritable): end it rather than hang.
      response.destroy();
    }
    this.#tellRefusal(refusal, request.method, request.headers.origin, asked.target);
  }

  /** Tells `onRefusal`, for the operator's log: never the target's path or query, nor a header. */
  #tellRefusal(refusal: ProxyRefusal, method: string | undefined, origin: string | undefined, target: URL | undefined): void {
    this.#options.onRefusal?.(refusalRecord(refusal, { method: method ?? 'GET', origin, target }));
  }
}

/** `12 MiB, more than this proxy accepts (10 MiB)`: how far over the limit a body is. */
function sizeOverLimit(size: number, limit: number, verb: 'accepts' | 'relays'): string {
  const readable = formatSizeOverLimit(size, limit);
  return `${readable.size}, more than this proxy ${verb} (${readable.limit})`;
}

/** The refusal of a response body over `maxResponseBytes`; `what` says by how much, as far as is known. */
function responseTooLarge(from: URL, what: string): ProxyRefusal {
  // The origin alone, as in every message the page shows: a path or query may hold a key.
  return new ProxyRefusal('response_too_large', `The response from ${from.origin} ${what}. Ask the API for less (a smaller page of results, if it offers one), or ${WITHOUT_THE_PROXY}.`);
}

/** The refusal of a method browsers never send (`FORBIDDEN_METHODS`). */
export function methodRefusal(method: string): ProxyRefusal {
  return new ProxyRefusal('method_not_allowed', `${method} requests cannot be proxied (browsers do not send them either).`);
}

/** The target a request named, once read: the refusal record names its origin. */
interface AskedTarget {
  target: URL | undefined;
}

/** What the relay needs to know of the page's request. */
interface RelayedRequest {
  /** The page's origin (for a page on the proxy's own origin, worked out from `Host`). */
  origin: string | undefined;
  method: string;
  /** The proxy request's path, which says the style (query or prefix) the page used. */
  path: string;
  /** The URL the response came from. */
  url: URL;
  /** True when the proxy followed redirects to reach `url`. */
  redirected: boolean;
  /** True when the request reached `url` without the page's credentials. */
  credentialsDropped: boolean;
}

/** What an `onRefusal` record says of a relayed request: the `Origin` header as sent, and the target asked for. */
interface RefusalSubject {
  originHeader: string | undefined;
  asked: URL;
}

/**
 * The `Location` of a redirect the proxy hands to the page, pointing back through the proxy. Left as it was, the
 * page's fetch would follow it straight to the API, where CORS fails and none of the proxy's checks apply (or, for a
 * relative one, to a path of the proxy that names no target). A value that is no URL stays as it is.
 * The page's fetch sees a redirect from the proxy to itself and keeps `Authorization`: when the credentials must not
 * follow (another origin, or dropped earlier in the chain), the reference says so.
 */
function locationThroughProxy(location: string, request: RelayedRequest): string {
  if (!URL.canParse(location, request.url)) return location;
  const next = new URL(location, request.url);
  return proxyReferenceFor(next, request.path, request.credentialsDropped || next.origin !== request.url.origin);
}

/**
 * Writes the response body to the page. undici's body timeout does not run while the page's backpressure pauses
 * the body, so a page that stops reading would hold the upstream connection for ever: a write that stays blocked
 * for `timeout` ms ends the relay, on both sides.
 */
async function writeToPage(body: AsyncIterable<Buffer>, response: ServerResponse, timeout: number): Promise<void> {
  for await (const chunk of body) {
    if (!response.write(chunk)) await drained(response, timeout);
  }
  response.end();
}

/**
 * Calls `onPause` once the page has sent nothing of its request body for `timeout` ms. undici's timers do not run
 * while it waits for the body to write, so a page that stalls its upload would otherwise hold the upstream
 * connection until Node's `requestTimeout`, or for ever. Time the proxy itself does not read (`limit` full while
 * the API is still being reached or is slow to take the body) is not the page's pause: undici's timers cover that.
 */
function whenBodyPauses(request: IncomingMessage, limit: ByteLimit, timeout: number, onPause: () => void): void {
  const timer = setTimeout(() => {
    if (!limit.destroyed && limit.writableNeedDrain) timer.refresh();
    else onPause();
  }, timeout);
  // Node emits neither `end` nor `close` for a request whose body a refusal left unread: the timer then runs its course,
  // and must not keep a process that closed the proxy alive that long.
  timer.unref();
  const reset = (): void => void timer.refresh();
  const stop = (): void => {
    clearTimeout(timer);
    request.off('data', reset);
  };
  request.on('data', reset);
  request.once('end', stop);
  request.once('close', stop);
}

/**
 * `headers`, with `X-Accel-Buffering: no` on a stream (a body of undeclared length) unless the API said otherwise:
 * nginx in front of the proxy would hold it until it ends or fills nginx's buffers, and server-sent events would
 * reach the page late. Added after the CORS headers, so not exposed: the page sees only what the API sent.
 */
function withoutBuffering(headers: HeaderList, streamed: boolean): HeaderList {
  if (!streamed || headerValues(headers, 'x-accel-buffering').length > 0) return headers;
  return [...headers, ['x-accel-buffering', 'no']];
}

/** Resolves when `response` drains; rejects when it closes first or stays blocked for `timeout` ms. */
function drained(response: ServerResponse, timeout: number): Promise<void> {
  if (response.destroyed) return Promise.reject(new Error('The page closed the connection.'));
  return new Promise((resolve, reject) => {
    const settle = (error?: Error): void => {
      clearTimeout(timer);
      response.off('drain', onDrain);
      response.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = (): void => settle();
    const onClose = (): void => settle(new Error('The page closed the connection.'));
    const timer = setTimeout(() => settle(new Error(`The page read nothing for ${timeout} ms.`)), timeout);
    response.on('drain', onDrain);
    response.on('close', onClose);
  });
}

function errorIsAbort(error: unknown): boolean {
  return (error as Error)?.name === 'AbortError' || (error as { code?: string })?.code === 'UND_ERR_ABORTED';
}

/** An `AbortSignal` that fires when the page's connection closes before the response is complete. */
function abortedWhenClosed(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** A refusal as `{"error":{"code","message"}}` with its headers, readable by any page so the console can explain it. */
export function refusalMessage(refusal: ProxyRefusal, origin: string | undefined, closeConnection: boolean): { headers: HeaderList; body: string } {
  const body = JSON.stringify(refusal.toBody());
  const headers: HeaderList = [
    ['content-type', 'application/json; charset=utf-8'],
    ['content-length', String(Buffer.byteLength(body))],
    ['cache-control', 'no-store'],
    [PROXY_ERROR_HEADER, refusal.reason],
  ];
  if (closeConnection) headers.push(['connection', 'close']);
  return { headers: addCorsHeaders(headers, origin), body };
}

/** The answer to a health check: that the proxy is up (or, once closing, going), and nothing of its configuration. */
function writeHealthCheck(response: ServerResponse, closing: boolean): void {
  const body = closing ? 'try-it-proxy is shutting down.\n' : 'try-it-proxy is running. Send /?url=<encoded absolute URL> or /<absolute URL>.\n';
  const headers: HeaderList = [
    ['content-type', 'text/plain; charset=utf-8'],
    ['content-length', String(Buffer.byteLength(body))],
    ['cache-control', 'no-store'],
  ];
  writeHeadLines(response, closing ? 503 : 200, undefined, addCorsHeaders(headers, undefined)).end(body);
}

/**
 * A WebSocket opening handshake: its `Upgrade`, or its `Sec-WebSocket-Key` alone, as a front that drops hop-by-hop
 * headers (nginx by default) passes it on. No page's fetch can send a `Sec-` header.
 */
function isWebSocketHandshake(request: IncomingMessage): boolean {
  const protocols = (request.headers.upgrade ?? '').split(',').map((protocol) => protocol.trim().split('/')[0]!.toLowerCase());
  return protocols.includes('websocket') || request.headers['sec-websocket-key'] !== undefined;
}

/** Writes a refusal (see `refusalMessage`). */
export function writeRefusal(request: IncomingMessage, response: ServerResponse, refusal: ProxyRefusal): void {
  // An unread request body would otherwise be read to its end just to keep the connection alive.
  // So is a WebSocket client's, which would otherwise wait on the connection for a handshake that never comes.
  const { headers, body } = refusalMessage(refusal, request.headers.origin, !request.complete || isWebSocketHandshake(request));
  writeHeadLines(response, refusal.status, undefined, headers).end(body);
}

/**
 * Writes the status and every header line as listed. Node sends a flat list as the lines themselves, but only while
 * nothing set a header before: a host server may have (Express sets X-Powered-By), and the lines are then added to
 * those one by one, repeats kept.
 */
function writeHeadLines(response: ServerResponse, status: number, reason: string | undefined, headers: HeaderList): ServerResponse {
  if (response.getHeaderNames().length === 0) return response.writeHead(status, reason, flattenHeaders(headers));
  for (const [name, value] of headers) response.appendHeader(name, value);
  return response.writeHead(status, reason);
}

/** The pages an `origin_not_allowed` refusal is about, as the reader knows them. */
function refusedPages(request: IncomingMessage, origin: string | undefined): string {
  // An opaque origin: "Pages on null" would read as a bug.
  if (origin === 'null') return 'Pages with no origin of their own (Origin: null: a file:// page, a sandboxed frame, a data: URL) are';
  if (origin !== undefined) return `Pages on ${origin} are`;
  if (fromOwnOrigin(request)) return `Pages on this proxy's own origin (host ${request.headers.host}), whose GET and HEAD requests browsers send without an Origin header, are`;
  return 'Requests without an Origin header are';
}

// `Sec-Fetch-Site: same-origin` comes from a browser (no page can set a Sec- header) for a page on this origin.
function fromOwnOrigin(request: IncomingMessage): boolean {
  return request.headers['sec-fetch-site'] === 'same-origin' && request.headers.host !== undefined;
}

/**
 * The origin of a page on the proxy's own origin, when allowed: browsers send its GET and HEAD requests without an
 * Origin header, and the Host header names its host. Behind a TLS-terminating reverse proxy the scheme is not known
 * here, so either may be the allowed one.
 */
function allowedOwnOrigin(request: IncomingMessage, origins: OriginPolicy): string | undefined {
  if (!fromOwnOrigin(request)) return undefined;
  const candidates = ['https', 'http'].map((scheme) => `${scheme}://${request.headers.host}`).filter((origin) => URL.canParse(origin));
  return candidates.map((origin) => new URL(origin).origin).find((origin) => origins.allows(origin));
}
