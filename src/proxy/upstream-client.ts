// Sends a request to the target through the guarded connector, following redirects itself so that every
// hop is checked again (target policy here, address policy in the connector).
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { NOT_TLS_CODES, unansweredExplanation } from '../core/dropped-connection.js';
import { CREDENTIAL_HEADER_NAME } from '../core/history-config.js';
import { createGuardedConnector } from './guarded-connector.js';
import { flattenHeaders, headerValues, pairHeaders, withoutHeaders, type HeaderList } from './header-list.js';
import type { ResolvedProxyOptions } from './proxy-options.js';
import { formatByteSize } from './readable-units.js';
import { ProxyRefusal, isProxyRefusal } from './refusal.js';

export interface UpstreamRequest {
  target: URL;
  method: string;
  /** The page's header lines, filtered (`upstreamRequestHeaders`). */
  headers: HeaderList;
  /** The page's body, streamed; `null` when the request has none. */
  body: Readable | null;
  signal: AbortSignal;
  /**
   * True once the credentials were dropped because a redirect led to another origin (followed by the proxy, or by
   * the page through it): they stay dropped for the rest of the chain, as in browsers.
   */
  credentialsDropped: boolean;
}

/** The API's response, its header lines as it wrote them (names as written, repeats in order). */
export interface UpstreamResponse extends Omit<Dispatcher.ResponseData, 'headers'> {
  headers: HeaderList;
}

/** The statuses fetch follows (Fetch §4.4), and so does the proxy. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a body, dropped when a redirect turns the request into a bodiless GET (Fetch §4.4). */
const BODY_HEADERS = ['content-length', 'content-type', 'content-encoding', 'content-language', 'content-location'];

/**
 * The most response header bytes relayed: Chromium's own limit (`ERR_RESPONSE_HEADERS_TOO_BIG`), so an API a browser
 * can read directly is readable through the proxy too. undici's default, Node's 16 KiB, refuses less.
 */
const MAX_RESPONSE_HEADER_BYTES = 256 * 1024;

/**
 * `request` with its credentials dropped: Authorization, Cookie, and every header named as history names a credential
 * (X-API-Key, `api_key`, Private-Token…). A browser drops the first two on a redirect to another origin, and sends a
 * custom header there only once that origin's preflight allows it, which the proxy does not ask.
 */
export function withoutCredentials(request: UpstreamRequest): UpstreamRequest {
  return { ...request, headers: request.headers.filter(([name]) => !CREDENTIAL_HEADER_NAME.test(name) || IDEMPOTENCY_KEY.test(name)), credentialsDropped: true };
}

/** Named like a key, but no secret: a POST replayed after a redirect without it would lose its duplicate protection. */
const IDEMPOTENCY_KEY = /^(?:x-)?idempotency-key$/i;

/** The method of the request that follows a redirect (Fetch §4.4): only 303, and 301/302 after POST, change it. */
function followUpMethod(method: string, status: number): string {
  if (status === 303 && method !== 'GET' && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/** The next hop of a redirect the proxy can follow, or `undefined` to hand the 3xx to the page as it is. */
function redirectedRequest(request: UpstreamRequest, status: number, locations: readonly string[]): UpstreamRequest | undefined {
  // Several `Location` lines are ambiguous: the page gets them as they are.
  const location = locations.length === 1 ? locations[0]! : undefined;
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  if (!URL.canParse(location, request.target)) return undefined;
  const method = followUpMethod(request.method, status);
  // A follow-up that keeps the method must resend the body, which has been streamed away and not kept: the page follows instead.
  if (method === request.method && request.body !== null) return undefined;
  const target = new URL(location, request.target);
  let { headers, body } = request;
  if (method !== request.method) {
    body = null;
    headers = withoutHeaders(headers, BODY_HEADERS);
  }
  const next = { ...request, target, method, headers, body };
  // As browsers do: credentials meant for one origin do not follow a redirect to another.
  return target.origin === request.target.origin ? next : withoutCredentials(next);
}

/**
 * The refusal of a redirect from https to http, whoever would follow it: the proxy, or the page (a 3xx handed to the
 * page points back through the proxy, and its fetch follows at once, a 307's or 308's body included). Followed, the
 * request (every header but the credentials, and that body) would go, and its response come back, unencrypted, for
 * anyone on the way to read or change; a browser refuses it on an https page (mixed content). `undefined` otherwise.
 */
function downgradeRefusal(from: URL, status: number, locations: readonly string[]): ProxyRefusal | undefined {
  if (from.protocol !== 'https:' || !REDIRECT_STATUSES.has(status)) return undefined;
  const to = locations.filter((location) => URL.canParse(location, from)).map((location) => new URL(location, from)).find((url) => url.protocol === 'http:');
  if (to === undefined) return undefined;
  // Origins only, as in every message the page shows: a path or query may hold a key.
  return new ProxyRefusal(
    'insecure_redirect',
    `${from.origin} redirected to ${to.origin}, plain HTTP: this proxy does not follow a redirect from https to http, which would send the request and bring its response back unencrypted (browsers refuse it on https pages too). Have the API redirect to https://; to call the http:// URL anyway, send the request to that URL.`,
  );
}

/** The error's `code` when it has one (undici's `HTTPParserError` may have an undefined one). */
function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function shuttingDown(): ProxyRefusal {
  return new ProxyRefusal('upstream_unreachable', 'The proxy is shutting down; send the request again once it is back.');
}

/**
 * Node's codes for a certificate it does not trust (self-signed, expired, for another name…): the server is up, so
 * "could not reach" would send the reader looking in the wrong place.
 */
const UNTRUSTED_CERTIFICATE =
  /^(?:DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_REVOKED|CERT_UNTRUSTED|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** Turns a failed exchange into the refusal the page sees. */
function refusalFor(error: unknown, target: URL): unknown {
  if (isProxyRefusal(error) || errorCode(error) === 'UND_ERR_ABORTED' || (error as Error)?.name === 'AbortError') return error;
  const code = errorCode(error);
  if (code === 'UND_ERR_DESTROYED') return shuttingDown(); // a request that arrived after close()
  if (code === 'UND_ERR_HEADERS_OVERFLOW') {
    // The API answered: "could not reach" would send the reader looking in the wrong place.
    return new ProxyRefusal('response_too_large', `The response headers from ${target.origin} are larger than this proxy (or a browser) reads (${formatByteSize(MAX_RESPONSE_HEADER_BYTES)}).`, { cause: error });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ProxyRefusal('upstream_timeout', `${target.origin} did not answer in time; try again later, or check that the API is up.`, { cause: error });
  }
  if (code !== undefined && UNTRUSTED_CERTIFICATE.test(code)) {
    return new ProxyRefusal(
      'upstream_unreachable',
      `${target.origin} presented a TLS certificate that this proxy does not trust, as browsers would not (${code}). Give the API a certificate from a trusted authority; for a development server, start the proxy with NODE_EXTRA_CA_CERTS set to the file of the authority that signed it.`,
      { cause: error },
    );
  }
  if (code !== undefined && NOT_TLS_CODES.has(code) && target.protocol === 'https:') {
    return new ProxyRefusal(
      'upstream_unreachable',
      `${target.origin} did not answer the TLS handshake with TLS (${code}): it most likely serves plain HTTP on port ${target.port || '443'}. If so, write http://.`,
      { cause: error },
    );
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  // The API is up when it answered with something else than HTTP or dropped the connection: "check that it is up"
  // would send the reader looking in the wrong place.
  const unanswered = unansweredExplanation(target, code, { notHttp: isNotHttp(error, code), detail, server: 'the API' });
  if (unanswered !== undefined) return new ProxyRefusal('upstream_unreachable', unanswered, { cause: error });
  return new ProxyRefusal('upstream_unreachable', `Could not reach ${target.origin} (${detail}); check the URL and that the API is up.`, { cause: error });
}

/** undici's parser refused the answer (HPE_… codes, HTTPParserError), or its length contradicts its Content-Length. */
function isNotHttp(error: unknown, code: string | undefined): boolean {
  return (error as Error | undefined)?.name === 'HTTPParserError' || code?.startsWith('HPE_') === true || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
}

/**
 * Throws away a response body the page will not see. `dump` reads a little of it so a short body does not
 * cost the connection; a destroyed body emits an error, which nobody else listens for.
 */
export function discardBody(response: Pick<Dispatcher.ResponseData, 'body'>): void {
  response.body.dump().catch(() => undefined);
}

export class UpstreamClient {
  readonly #options: ResolvedProxyOptions;
  readonly #agent: Agent;

  constructor(options: ResolvedProxyOptions) {
    this.#options = options;
    this.#agent = new Agent({
      connect: createGuardedConnector({ policy: options.addresses, resolveHost: options.resolveHost, connectTimeout: options.timeout }),
      headersTimeout: options.timeout,
      bodyTimeout: options.timeout,
      maxHeaderSize: MAX_RESPONSE_HEADER_BYTES,
    });
  }

  /**
   * The final response, after following up to `maxRedirects` redirects, with the URL it came from and whether the
   * credentials were dropped on the way. Throws a `ProxyRefusal`.
   */
  async send(request: UpstreamRequest): Promise<{ response: UpstreamResponse; url: URL; credentialsDropped: boolean }> {
    let current = request;
    for (let hop = 0; ; hop += 1) {
      const response = await this.#exchange(current);
      const locations = headerValues(response.headers, 'location');
      const downgrade = downgradeRefusal(current.target, response.statusCode, locations);
      if (downgrade) {
        discardBody(response);
        throw downgrade;
      }
      const next = this.#options.maxRedirects === 0 ? undefined : redirectedRequest(current, response.statusCode, locations);
      if (next === undefined) return { response, url: current.target, credentialsDropped: current.credentialsDropped };
      discardBody(response);
      if (hop >= this.#options.maxRedirects) {
        // The origin alone: the page shows this, and a path or query may hold a key.
        throw new ProxyRefusal(
          'too_many_redirects',
          `The request to ${request.target.origin} redirected more than ${this.#options.maxRedirects} times, which usually means a loop: check the URL (https or http, the host name, a trailing slash) and the credentials.`,
        );
      }
      this.#options.targets.check(next.target);
      current = next;
    }
  }

  /**
   * Closes every upstream connection and fails the requests still using one. Not `Agent.close()`: that waits for
   * requests in flight, and a streamed response (server-sent events, a slow download) may never end.
   */
  async close(): Promise<void> {
    await this.#agent.destroy(shuttingDown());
  }

  async #exchange(request: UpstreamRequest): Promise<UpstreamResponse> {
    try {
      const response = await this.#agent.request({
        origin: request.target.origin,
        path: request.target.pathname + request.target.search,
        method: request.method as Dispatcher.HttpMethod,
        headers: flattenHeaders(request.headers),
        body: request.body,
        signal: request.signal,
        responseHeaders: 'raw',
      });
      // With `responseHeaders: 'raw'` undici gives the flat list of lines, whatever its types say.
      return { ...response, headers: pairHeaders(response.headers as unknown as string[]) };
    } catch (error) {
      throw refusalFor(error, request.target);
    }
  }
}
