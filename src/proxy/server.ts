// The proxy as a ready HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CorsProxy } from './cors-proxy.js';
import { answerParserRefusals } from './parser-refusals.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { PROXY_OPTION_FIELDS, type ProxyOptions } from './proxy-options.js';

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
  return serverFor(new CorsProxy(options));
}

function serverFor(proxy: CorsProxy): Server {
  const server = createServer(proxy.handle);
  answerParserRefusals(server);
  server.once('close', () => void proxy.close());
  return server;
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
   * once the server and its upstream connections have closed.
   */
  close(): Promise<void>;
}

/** Creates the proxy server and listens; resolves once it accepts connections. */
export async function startProxy(given: StartProxyOptions = {}): Promise<RunningProxy> {
  const options = expectPlainObject(given, 'proxy options') as StartProxyOptions;
  expectKnownFields(options as Record<string, unknown>, [...PROXY_OPTION_FIELDS, 'port', 'host'], 'proxy options');
  const { port = 8787, host = '127.0.0.1', ...proxyOptions } = options;
  const proxy = new CorsProxy(proxyOptions);
  const server = serverFor(proxy);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    port: address.port,
    url: `http://${urlHost}:${address.port}/`,
    summary: proxy.summary,
    close: async () => {
      const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      // `server.close()` waits for open connections, and a relayed stream (server-sent events, say) never ends by itself.
      server.closeAllConnections();
      await Promise.all([closed, proxy.close()]);
    },
  };
}
