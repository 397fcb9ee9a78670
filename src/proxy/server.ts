// The proxy as a ready HTTP server.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CorsProxy } from './cors-proxy.js';
import { answerParserRefusals } from './parser-refusals.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { PROXY_OPTION_FIELDS, millisecondsOption, type ProxyOptions } from './proxy-options.js';

/** `createProxyServer`'s options: the proxy's, and how long its server keeps idle connections. */
export interface ProxyServerOptions extends ProxyOptions {
  /**
   * Milliseconds an idle keep-alive connection stays open after a response. Behind a load balancer or reverse proxy
   * that reuses connections, set it above that one's idle timeout (AWS ALB 60 s, Google Cloud 600 s), or it may send
   * a request on a connection the proxy is closing and answer 502. Node's `headersTimeout` and `requestTimeout` are
   * raised to outlast it where they are shorter. At most 2147483647.
   * @default 5000 (Node's default)
   * @example 65000
   */
  keepAliveTimeout?: number;
}

/**
 * An HTTP server that runs the CORS proxy. Closing the server also closes the proxy's upstream connections.
 * `server.close()` waits for the relays in flight, as Node's servers do; a streamed response may never end, so
 * call `server.closeAllConnections()` after it to cut them off (`startProxy().close()` does both).
 * Throws `ConfigError` for invalid options.
 *
 * @example
 * const server = createProxyServer({ allowOrigins: ['https://docs.example.com'], keepAliveTimeout: 65_000 });
 * server.listen(8787, '127.0.0.1');
 */
export function createProxyServer(options: ProxyServerOptions = {}): Server {
  return proxyServer(options, []).server;
}

/**
 * The proxy and its server, from options validated once: the proxy's own, `keepAliveTimeout`, and `extraFields`
 * (`startProxy`'s `port` and `host`), which the caller reads.
 */
function proxyServer(given: ProxyServerOptions, extraFields: readonly string[]): { proxy: CorsProxy; server: Server } {
  // Checked here, not by CorsProxy, so a misspelt field is named among every field this function takes.
  const options = expectPlainObject(given, 'proxy options') as Record<string, unknown>;
  expectKnownFields(options, [...PROXY_OPTION_FIELDS, 'keepAliveTimeout', ...extraFields], 'proxy options');
  const idle = options.keepAliveTimeout === undefined ? undefined : millisecondsOption('keepAliveTimeout', options.keepAliveTimeout, 0);
  const proxyOptions = Object.fromEntries(Object.entries(options).filter(([field]) => (PROXY_OPTION_FIELDS as readonly string[]).includes(field))) as ProxyOptions;
  const proxy = new CorsProxy(proxyOptions); // validates the rest, `onRefusal` included
  const server = createServer(proxy.handle);
  continueOnceBodyRead(server, proxy.handle);
  answerParserRefusals(server, proxyOptions.onRefusal);
  server.once('close', () => void proxy.close());
  if (idle !== undefined) keepIdleConnections(server, idle);
  return { proxy, server };
}

/**
 * Answers `Expect: 100-continue` once the proxy starts reading the body, that is once its checks passed. Node would
 * answer it before the request listener runs, and the client (curl, for a body over 1 MiB) would then send a body the
 * proxy goes on to refuse (too large, or from an origin not allowed), and perhaps lose the refusal in a reset.
 */
function continueOnceBodyRead(server: Server, handle: RequestListener): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    // Node reads (resumes) an unread body itself once a refusal is sent: too late to invite it.
    request.once('resume', () => {
      if (!response.headersSent) response.writeContinue();
    });
    handle(request, response);
  });
}

/**
 * Keeps idle connections open `milliseconds` after a response. Node closes a new connection that sends nothing once
 * `headersTimeout` passes (answering 408), and a load balancer opens connections before it needs them: that timeout
 * must outlast the keep-alive too, and Node requires `requestTimeout` to be at least `headersTimeout`.
 */
function keepIdleConnections(server: Server, milliseconds: number): void {
  server.keepAliveTimeout = milliseconds;
  server.headersTimeout = Math.max(server.headersTimeout, milliseconds + 1_000);
  server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);
}

export interface StartProxyOptions extends ProxyServerOptions {
  /**
   * TCP port to listen on; `0` picks a free one (read it from the result).
   * @default 8787
   */
  port?: number;
  /**
   * Address to listen on. The default keeps the proxy private to this machine; put it behind a TLS
   * reverse proxy (or pass `0.0.0.0`) to serve other machines.
   * @default '127.0.0.1'
   */
  host?: string;
}

export interface RunningProxy {
  server: Server;
  /** The port actually listened on. */
  port: number;
  /** Base URL of the proxy, e.g. `http://127.0.0.1:8787/`. */
  url: string;
  /** The effective origin and target policies and the limits, one line each, as the proxy enforces them (`CorsProxy.summary`). */
  summary: CorsProxy['summary'];
  /**
   * Stops accepting connections, cuts off every request still open (a streamed response included), and resolves
   * once the server and its upstream connections have closed. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** Creates the proxy server and listens; resolves once it accepts connections. */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const { proxy, server } = proxyServer(options, ['port', 'host']);
  const { port = 8787, host = '127.0.0.1' } = options;
  // An IPv6 address as URLs (and the proxy's own url) write it: listen() would look `[::1]` up as a name, and fail.
  const listenHost = /^\[.*\]$/.test(host) ? host.slice(1, -1) : host;
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, port, host));
    server.once('error', failed);
    server.listen(port, listenHost, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: address.port,
    url: `http://${urlHost}:${address.port}/`,
    summary: proxy.summary,
    // Once: a second `server.close()` would fail with "Server is not running" (a signal handler and an exit hook, say).
    close: () => (closing ??= closeAll(server, proxy)),
  };
}

/**
 * Node's "listen EADDRINUSE: address already in use 127.0.0.1:8787", said with what to do. The error keeps its
 * `code` and is the `cause`, for code that tells the cases apart.
 */
function listenError(error: NodeJS.ErrnoException, port: number, host: string): Error {
  const fix =
    error.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is in use (another try-it-proxy, or another program): stop that one, or choose another port (try-it-proxy: --port or PORT), 0 for a free one`
      : error.code === 'EACCES'
        ? `port ${port} on ${host} needs privileges this process lacks (ports below 1024 do on most systems): choose a port from 1024 up (try-it-proxy: --port or PORT), or 0 for a free one`
        : undefined;
  if (fix === undefined) return error;
  return Object.assign(new Error(`The proxy cannot listen: ${fix}.`, { cause: error }), { code: error.code });
}

async function closeAll(server: Server, proxy: CorsProxy): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  // `server.close()` waits for open connections, and a relayed stream (server-sent events, say) never ends by itself.
  server.closeAllConnections();
  await Promise.all([closed, proxy.close()]);
}
