// Sends a request to the target through the guarded connector, following redirects itself so that every
// hop is checked again (target policy here, address policy in the connector).
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { createGuardedConnector } from './guarded-connector.js';
import type { ResolvedProxyOptions } from './proxy-options.js';
import { ProxyRefusal, isProxyRefusal } from './refusal.js';

export interface UpstreamRequest {
  target: URL;
  method: string;
  headers: Record<string, string | string[]>;
  /** The page's body, streamed; `null` when the request has none. */
  body: Readable | null;
  signal: AbortSignal;
  /**
   * True once the credentials were dropped because a redirect led to another origin (followed by the proxy, or by
   * the page through it): they stay dropped for the rest of the chain, as in browsers.
   */
  credentialsDropped: boolean;
}

/** The statuses fetch follows (Fetch §4.4), and so does the proxy. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a body, dropped when a redirect turns the request into a bodiless GET (Fetch §4.4). */
const BODY_HEADERS = ['content-length', 'content-type', 'content-encoding', 'content-language', 'content-location'];

/** Request headers that carry credentials, which never follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** `request` with its credentials dropped. */
export function withoutCredentials(request: UpstreamRequest): UpstreamRequest {
  const headers = { ...request.headers };
  for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { ...request, headers, credentialsDropped: true };
}

/** The method of the request that follows a redirect (Fetch §4.4): only 303, and 301/302 after POST, change it. */
function followUpMethod(method: string, status: number): string {
  if (status === 303 && method !== 'GET' && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

/** The next hop of a redirect the proxy can follow, or `undefined` to hand the 3xx to the page as it is. */
function redirectedRequest(request: UpstreamRequest, status: number, location: unknown): UpstreamRequest | undefined {
  if (!REDIRECT_STATUSES.has(status) || typeof location !== 'string') return undefined;
  if (!URL.canParse(location, request.target)) return undefined;
  const method = followUpMethod(request.method, status);
  // A follow-up that keeps the method must resend the body, which has been streamed away and not kept: the page follows instead.
  if (method === request.method && request.body !== null) return undefined;
  const target = new URL(location, request.target);
  const headers = { ...request.headers };
  let { body } = request;
  if (method !== request.method) {
    body = null;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  const next = { ...request, target, method, headers, body };
  // As browsers do: credentials meant for one origin do not follow a redirect to another.
  return target.origin === request.target.origin ? next : withoutCredentials(next);
}

/** The error's `code` when it has one (undici's `HTTPParserError` may have an undefined one). */
function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

function shuttingDown(): ProxyRefusal {
  return new ProxyRefusal('upstream_unreachable', 'The proxy is shutting down; send the request again once it is back.');
}

/** Turns a failed exchange into the refusal the page sees. */
function refusalFor(error: unknown, target: URL): unknown {
  if (isProxyRefusal(error) || errorCode(error) === 'UND_ERR_ABORTED' || (error as Error)?.name === 'AbortError') return error;
  const code = errorCode(error);
  if (code === 'UND_ERR_DESTROYED') return shuttingDown(); // a request that arrived after close()
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ProxyRefusal('upstream_timeout', `${target.origin} did not answer in time; try again later, or check that the API is up.`, { cause: error });
  }
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new ProxyRefusal('upstream_unreachable', `Could not reach ${target.origin} (${detail}); check the URL and that the API is up.`, { cause: error });
}

/**
 * Throws away a response body the page will not see. `dump` reads a little of it so a short body does not
 * cost the connection; a destroyed body emits an error, which nobody else listens for.
 */
export function discardBody(response: Dispatcher.ResponseData): void {
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
    });
  }

  /**
   * The final response, after following up to `maxRedirects` redirects, with the URL it came from and whether the
   * credentials were dropped on the way. Throws a `ProxyRefusal`.
   */
  async send(request: UpstreamRequest): Promise<{ response: Dispatcher.ResponseData; url: URL; credentialsDropped: boolean }> {
    let current = request;
    for (let hop = 0; ; hop += 1) {
      const response = await this.#exchange(current);
      const next = this.#options.maxRedirects === 0 ? undefined : redirectedRequest(current, response.statusCode, response.headers.location);
      if (next === undefined) return { response, url: current.target, credentialsDropped: current.credentialsDropped };
      discardBody(response);
      if (hop >= this.#options.maxRedirects) {
        throw new ProxyRefusal('too_many_redirects', `${request.target.href} redirected more than ${this.#options.maxRedirects} times.`);
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

  async #exchange(request: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    try {
      return await this.#agent.request({
        origin: request.target.origin,
        path: request.target.pathname + request.target.search,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
      });
    } catch (error) {
      throw refusalFor(error, request.target);
    }
  }
}
