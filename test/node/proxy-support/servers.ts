// Real servers for the proxy tests, on loopback only. Nothing here ever addresses a non-loopback host.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { startProxy, type ConnectTarget, type RunningProxy, type StartProxyOptions } from '../../../src/proxy/index.js';

export interface TestServer {
  server: Server;
  port: number;
  /** `http://<host>:<port>` with no trailing slash. */
  origin: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral port of a loopback address. */
export async function listen(handler: RequestListener, host: '127.0.0.1' | '::1' = '127.0.0.1', port = 0): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    origin: host === '::1' ? `http://[::1]:${actual}` : `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What an echo server saw of one request. */
export interface Echo {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodyBytes: number;
}

/** Answers every request with a JSON description of it, after reading the whole body. */
export function echoHandler(extraHeaders: Record<string, string | string[]> = {}): RequestListener {
  return (req, res) => {
    let bodyBytes = 0;
    req.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on('end', () => {
      const echo: Echo = { method: req.method!, url: req.url!, headers: req.headers, bodyBytes };
      res.writeHead(200, { 'content-type': 'application/json', ...extraHeaders });
      res.end(JSON.stringify(echo));
    });
  };
}

/** A server that must never be reached; `hits` counts requests and connections that got through anyway. */
export class Canary {
  hits = 0;
  readonly servers: TestServer[] = [];

  static async start(): Promise<Canary> {
    const canary = new Canary();
    const v4 = await listen(canary.#handler, '127.0.0.1');
    canary.servers.push(v4);
    canary.#watch(v4.server);
    // Same port on ::1 where IPv6 loopback exists, so `[::1]` targets would land here too.
    const v6 = await listen(canary.#handler, '::1', v4.port).catch(() => undefined);
    if (v6) {
      canary.servers.push(v6);
      canary.#watch(v6.server);
    }
    return canary;
  }

  get port(): number {
    return this.servers[0]!.port;
  }

  get hasIpv6(): boolean {
    return this.servers.length === 2;
  }

  readonly #handler = (_req: IncomingMessage, res: ServerResponse): void => {
    res.end('canary reached');
  };

  #watch(server: Server): void {
    server.on('connection', () => (this.hits += 1));
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.close()));
  }
}

/** An `allowPrivate` predicate that lets exactly one loopback port through, so a canary stays refused. */
export function allowOnlyLoopbackPort(port: number): (target: ConnectTarget) => boolean {
  return (target) => target.addressClass === 'loopback' && target.port === port;
}

/** The proxy on an ephemeral loopback port. */
export function startTestProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  return startProxy({ port: 0, host: '127.0.0.1', ...options });
}

/** The page origin the tests send by default; allowed by the default `'loopback'` origin policy. */
export const PAGE_ORIGIN = 'http://localhost:8000';

export interface ProxiedResponse {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  text: string;
  json<T = unknown>(): T;
}

/** Sends one request to the proxy (`path`, e.g. `/http://…` or `/?url=…`, follows its URL verbatim) and reads the whole answer. */
export async function viaProxy(
  proxy: Pick<RunningProxy, 'url'>,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Dispatcher.DispatchOptions['body']; origin?: string | null } = {},
): Promise<ProxiedResponse> {
  const origin = init.origin === undefined ? PAGE_ORIGIN : init.origin;
  const headers = { ...(origin === null ? {} : { origin }), ...init.headers };
  const response = await undiciRequest(proxy.url + path.replace(/^\//, ''), {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers,
    body: init.body ?? null,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
}

/** The refusal code of a proxy answer, checking that it came from the proxy itself. */
export function refusalCode(response: ProxiedResponse): string | undefined {
  const header = response.headers['x-try-it-proxy-error'];
  if (header === undefined) return undefined;
  const body = response.json<{ error: { code: string; message: string } }>();
  if (body.error.code !== header) throw new Error(`header ${String(header)} and body ${body.error.code} disagree`);
  return body.error.code;
}

/**
 * Writes `text` on a new loopback connection to `port` and reads until the server closes it, or until `limitMs`
 * pass (the connection is then destroyed, and `closedByServer` is false). `end: false` keeps the client's side open.
 */
export async function rawExchange(port: number, text: string, { end = true, limitMs = 10_000 } = {}): Promise<{ received: string; closedByServer: boolean }> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let received = '';
  let closedByServer = true;
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined); // a server that resets the connection: what came before is the answer
  const limit = setTimeout(() => {
    closedByServer = false;
    socket.destroy();
  }, limitMs);
  if (end) socket.end(text);
  else socket.write(text);
  await once(socket, 'close');
  clearTimeout(limit);
  return { received, closedByServer };
}
