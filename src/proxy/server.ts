// The proxy as a ready HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CorsProxy } from './cors-proxy.js';
import { answerParserRefusals } from './parser-refusals.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { PROXY_OPTION_FIELDS, millisecondsOption, type ProxyOptions } from './proxy-options.js';

/**
 * An HTTP server that runs the CORS proxy. Closing the server also closes the proxy's upstream connections.
 * `server.close()` waits for the relays in flight, as Node's servers do; a streamed response may never end, so
 * call `server.closeAllConnections()` after it to cut them off (`startProxy().close()` does both).
 * Throws `ConfigError` for invalid options.
 *
 * @example
 * const server = createProxyServer({ allowOrigins: ['https://docs.example.com'] });
 * server.listen(8787, '127.0.0.1');
 */
export function createProxyServer(options: ProxyOptions = {}): Server {
  const proxy = new CorsProxy(options); // validates `options`, `onRefusal` included
  return serverFor(proxy, options.onRefusal);
}

function serverFor(proxy: CorsProxy, onRefusal: ProxyOptions['onRefusal']): Server {
  const server = createServer(proxy.handle);
  answerParserRefusals(server, onRefusal);
  server.once('close', () => void proxy.close());
  return server;
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

export interface StartProxyOptions extends ProxyOptions {
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
export async function startProxy(given: StartProxyOptions = {}): Promise<RunningProxy> {
  const options = expectPlainObject(given, 'proxy options') as StartProxyOptions;
  expectKnownFields(options as Record<string, unknown>, [...PROXY_OPTION_FIELDS, 'port', 'host', 'keepAliveTimeout'], 'proxy options');
  const { port = 8787, host = '127.0.0.1', keepAliveTimeout, ...proxyOptions } = options;
  const idle = keepAliveTimeout === undefined ? undefined : millisecondsOption('keepAliveTimeout', keepAliveTimeout, 0);
  const proxy = new CorsProxy(proxyOptions);
  const server = serverFor(proxy, proxyOptions.onRefusal);
  if (idle !== undefined) keepIdleConnections(server, idle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
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

async function closeAll(server: Server, proxy: CorsProxy): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  // `server.close()` waits for open connections, and a relayed stream (server-sent events, say) never ends by itself.
  server.closeAllConnections();
  await Promise.all([closed, proxy.close()]);
}
