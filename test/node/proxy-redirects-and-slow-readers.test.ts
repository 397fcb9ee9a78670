// Credentials and redirects the page follows through the proxy; a page that stops reading, or stops sending its
// body; upstream failures named in refusals. Every server is on loopback; the proxy may reach exactly the ports a test names.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import type { RequestListener } from 'node:http';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { ConfigError } from '../../src/core/errors.js';
import { RequestEngine } from '../../src/core/request-engine.js';
import { createProxyServer, type RunningProxy, type StartProxyOptions } from '../../src/proxy/index.js';
import {
  PAGE_ORIGIN,
  allowOnlyLoopbackPort,
  echoHandler,
  listen,
  refusalCode,
  startTestProxy,
  viaProxy,
  type Echo,
  type TestServer,
} from './proxy-support/servers.js';

const SECRET = 'Bearer SECRET-FOR-A';
const COOKIE = 'session=secret-for-a';

/** Polls `condition` every 20 ms, at most `attempts` times; true when it held. */
async function eventually(condition: () => boolean | Promise<boolean>, attempts: number): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return true;
    await delay(20);
  }
  return condition();
}

/** Connections open on `server`'s side. */
function openConnections(server: RunningProxy['server']): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/**
 * An API that redirects `/redirect?status=…&to=<url>` (after reading the body) and echoes anything else, recording
 * what it saw.
 */
async function redirectingApi(): Promise<TestServer & { seen: Array<Pick<Echo, 'url' | 'headers'>> }> {
  const seen: Array<Pick<Echo, 'url' | 'headers'>> = [];
  const echo = echoHandler();
  const server = await listen((req, res) => {
    const url = new URL(req.url!, 'http://api.invalid');
    if (url.pathname !== '/redirect') {
      req.on('end', () => seen.push({ url: req.url!, headers: req.headers }));
      echo(req, res);
      return;
    }
    req.resume();
    req.on('end', () => res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end());
  });
  return Object.assign(server, { seen });
}

/** A URL on the first of `servers` that redirects with `status` through each of the others in turn, to the last one's `/landing`. */
function redirectChain(status: number, servers: TestServer[]): string {
  let url = `${servers.at(-1)!.origin}/landing`;
  for (const server of servers.slice(0, -1).reverse()) url = `${server.origin}/redirect?status=${status}&to=${encodeURIComponent(url)}`;
  return url;
}

/** The proxy path for `target` in each request style. */
function styles(target: string): Array<[string, string]> {
  return [
    ['prefix', `/${target}`],
    ['query', `/?url=${encodeURIComponent(target)}`],
    ['bare query', `/?${target}`],
  ];
}

/** Sends through the proxy with Node's fetch, which follows redirects as a browser's does (Fetch §4.4). */
/** Credentials under the names APIs use for keys, which a browser would not send to another origin unasked either. */
const API_KEYS = { 'x-api-key': 'key-1', api_key: 'key-2', 'private-token': 'key-3', 'x-auth-token': 'key-4' };

async function fetchThrough(proxy: RunningProxy, path: string, method: string): Promise<Response> {
  const body = method === 'GET' ? undefined : 'payload';
  const response = await fetch(proxy.url + path.slice(1), { method, body, headers: { origin: PAGE_ORIGIN, authorization: SECRET, cookie: COOKIE, ...API_KEYS, 'x-request-id': 'r-1', 'idempotency-key': 'once' } });
  await response.arrayBuffer();
  return response;
}

describe('proxy: credentials on redirects the page follows', () => {
  let a: Awaited<ReturnType<typeof redirectingApi>>;
  let b: Awaited<ReturnType<typeof redirectingApi>>;
  const proxies = new Map<number, RunningProxy>();

  before(async () => {
    a = await redirectingApi();
    b = await redirectingApi();
    const allowed = [allowOnlyLoopbackPort(a.port), allowOnlyLoopbackPort(b.port)];
    // forwardCookies, so that only the redirect rule can keep Cookie from B.
    const options: StartProxyOptions = { allowPrivate: (target) => allowed.some((allows) => allows(target)), forwardCookies: true };
    for (const maxRedirects of [5, 0]) proxies.set(maxRedirects, await startTestProxy({ ...options, maxRedirects }));
  });

  after(async () => {
    for (const proxy of proxies.values()) await proxy.close();
    await a.close();
    await b.close();
  });

  // GET and 302-after-POST the proxy follows itself (unless maxRedirects is 0); 307-after-POST and 302-after-PUT it
  // hands to the page, whose follow-up comes back to the proxy as a same-origin request, Authorization kept.
  const cases: Array<[number, string]> = [[307, 'GET'], [307, 'POST'], [302, 'GET'], [302, 'POST'], [302, 'PUT']];

  it('sends no Authorization or Cookie to another origin, whoever follows the redirect, in both styles', async () => {
    for (const [maxRedirects, proxy] of proxies) {
      for (const [status, method] of cases) {
        for (const [style, path] of styles(redirectChain(status, [a, b]))) {
          const label = `maxRedirects ${maxRedirects}, ${status} after ${method}, ${style} style`;
          b.seen.length = 0;
          const response = await fetchThrough(proxy, path, method);
          assert.equal(response.status, 200, label);
          assert.equal(b.seen.length, 1, label);
          assert.equal(b.seen[0]!.url, '/landing', label);
          assert.equal(b.seen[0]!.headers['authorization'], undefined, `${label}: B got A's Authorization`);
          assert.equal(b.seen[0]!.headers['cookie'], undefined, `${label}: B got A's Cookie`);
          for (const name of Object.keys(API_KEYS)) assert.equal(b.seen[0]!.headers[name], undefined, `${label}: B got A's ${name}`);
          assert.equal(b.seen[0]!.headers['x-request-id'], 'r-1', `${label}: a header that is no credential goes on`);
          assert.equal(b.seen[0]!.headers['idempotency-key'], 'once', `${label}: a POST replayed keeps its duplicate protection`);
        }
      }
    }
  });

  it('keeps them on a redirect within one origin', async () => {
    for (const [maxRedirects, proxy] of proxies) {
      for (const [status, method] of cases) {
        for (const [style, path] of styles(redirectChain(status, [a, a]))) {
          const label = `maxRedirects ${maxRedirects}, ${status} after ${method}, ${style} style`;
          a.seen.length = 0;
          const response = await fetchThrough(proxy, path, method);
          assert.equal(response.status, 200, label);
          assert.equal(a.seen[0]?.headers['authorization'], SECRET, label);
          assert.equal(a.seen[0]?.headers['cookie'], COOKIE, label);
          for (const [name, value] of Object.entries(API_KEYS)) assert.equal(a.seen[0]?.headers[name], value, `${label}: ${name}`);
        }
      }
    }
  });

  it('keeps them dropped for the rest of the chain once it left the origin, back to it included, as browsers do', async () => {
    for (const [maxRedirects, proxy] of proxies) {
      for (const [status, method] of [[307, 'POST'], [302, 'GET']] as const) {
        for (const chain of [[a, b, b], [a, b, a]]) {
          const last = chain.at(-1)!;
          for (const [style, path] of styles(redirectChain(status, chain))) {
            const label = `maxRedirects ${maxRedirects}, ${status} after ${method}, ${chain.length} hops back to ${last === a ? 'A' : 'B'}, ${style} style`;
            last.seen.length = 0;
            const response = await fetchThrough(proxy, path, method);
            assert.equal(response.status, 200, label);
            assert.equal(last.seen[0]?.headers['authorization'], undefined, label);
            assert.equal(last.seen[0]?.headers['cookie'], undefined, label);
          }
        }
      }
    }
  });

  it('drops them on a request carrying the mark, whatever its value, and still reads the target', async () => {
    const proxy = proxies.get(5)!;
    const target = `${a.origin}/landing?x=1&y=2`;
    for (const path of [
      `/try-it-proxy-credentials=omit/${target}`,
      `/try-it-proxy-credentials=/${target}`,
      `/?url=${encodeURIComponent(target)}&try-it-proxy-credentials=omit`,
      `/?try-it-proxy-credentials&url=${encodeURIComponent(target)}`,
    ]) {
      const response = await viaProxy(proxy, path, { headers: { authorization: SECRET, cookie: COOKIE } });
      const echo = response.json<Echo>();
      assert.equal(echo.url, '/landing?x=1&y=2', path);
      assert.equal(echo.headers['authorization'], undefined, path);
      assert.equal(echo.headers['cookie'], undefined, path);
    }
  });

  it('shows the console the real final target of a redirect to another origin, in every corsProxy form', async () => {
    for (const [maxRedirects, proxy] of proxies) {
      for (const corsProxy of [proxy.url, `${proxy.url}?url={url}`, `${proxy.url}?url=`, `${proxy.url}?`]) {
        const engine = new RequestEngine({
          config: { corsProxy },
          pageOrigin: PAGE_ORIGIN,
          // A browser adds the page's Origin itself; Node's fetch stands in for it here.
          fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: PAGE_ORIGIN } }),
        });
        const label = `maxRedirects ${maxRedirects}, ${corsProxy}`;
        b.seen.length = 0;
        const landing = `${b.origin}/landing?q=a%26b`;
        const url = `${a.origin}/redirect?status=307&to=${encodeURIComponent(landing)}`;
        const response = await engine.send({ method: 'POST', url, body: 'payload', headers: { authorization: SECRET } });
        assert.equal(response.status, 200, label);
        assert.equal(response.redirectedTo, landing, label);
        assert.equal(b.seen[0]?.headers['authorization'], undefined, label);
      }
    }
  });
});

describe('proxy: a page that stops reading', () => {
  /** An API streaming `Content-Length` or chunked bytes as fast as its reader takes them; `open` counts its connections. */
  async function endlessApi(declareLength: boolean): Promise<TestServer & { open(): number; written(): number }> {
    let open = 0;
    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const limit = 1024 * 1024 * 1024; // far more than every buffer on the way holds
    const server = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', ...(declareLength ? { 'content-length': String(limit) } : {}) });
      const pump = (): void => {
        // Bounded: each call writes until the reader pushes back, and never past `limit`.
        while (written + chunk.length <= limit) {
          written += chunk.length;
          if (!res.write(chunk)) return;
        }
      };
      res.on('drain', pump);
      pump();
    });
    server.server.on('connection', (socket: Socket) => {
      open += 1;
      socket.on('close', () => (open -= 1));
    });
    return Object.assign(server, { open: () => open, written: () => written });
  }

  for (const declareLength of [true, false]) {
    it(`closes both sides once a write to the page stays blocked for the timeout (${declareLength ? 'declared length' : 'chunked'})`, async () => {
      const api = await endlessApi(declareLength);
      const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), timeout: 200, maxResponseBytes: 2 * 1024 * 1024 * 1024 });
      const page = connect(proxy.port, '127.0.0.1');
      try {
        await once(page, 'connect');
        page.pause(); // reads nothing, ever
        page.write(`GET /${api.origin}/download HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\n\r\n`);
        assert.ok(await eventually(() => api.written() > 0, 500), 'the API never started sending');
        // Generous: the proxy cuts at 200 ms of blocked writing; only a proxy that never cuts waits this long.
        assert.ok(await eventually(() => api.open() === 0, 1000), `the upstream connection is still open after ${api.written()} bytes`);
        assert.ok(await eventually(async () => (await openConnections(proxy.server)) === 0, 500), 'the page connection is still open');
      } finally {
        page.destroy();
        await proxy.close();
        await api.close();
      }
    });
  }

  it('relays the whole body to a page that reads with short pauses', async () => {
    const total = 8 * 1024 * 1024;
    const api = await listen((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      res.end(Buffer.alloc(total, 'y'));
    });
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), timeout: 10_000 });
    try {
      const response = await request(`${proxy.url}${api.origin}/`, { headers: { origin: PAGE_ORIGIN } });
      let received = 0;
      for await (const chunk of response.body) {
        received += (chunk as Buffer).length;
        await delay(5);
      }
      assert.equal(received, total);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('refuses a timeout longer than a Node timer can wait', () => {
    assert.throws(() => createProxyServer({ timeout: 2 ** 31 }), (error: unknown) => error instanceof ConfigError && error.field === 'timeout');
    createProxyServer({ timeout: 2 ** 31 - 1 }).close();
  });
});

describe('proxy: a page that stops sending its request body', () => {
  /** An API that answers with `handler`; `requests` counts what reached it, `open` its open connections. */
  async function watchedApi(handler: RequestListener): Promise<TestServer & { requests(): number; open(): number }> {
    let requests = 0;
    let open = 0;
    const server = await listen((req, res) => {
      requests += 1;
      handler(req, res);
    });
    server.server.on('connection', (socket: Socket) => {
      open += 1;
      socket.on('close', () => (open -= 1));
    });
    return Object.assign(server, { requests: () => requests, open: () => open });
  }

  /** A raw page connection to the proxy that records what it receives and when it closes. */
  function page(proxy: RunningProxy): { socket: Socket; received(): string; closed(): boolean } {
    const socket = connect(proxy.port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    return { socket, received: () => received, closed: () => closed };
  }

  /** Request headers declaring a 100-byte body, and the first 10 bytes of it; the rest never comes. */
  const stalledUpload = (api: TestServer): string =>
    `POST /${api.origin}/upload HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\nContent-Length: 100\r\n\r\n0123456789`;

  it('answers upstream_timeout and closes both connections once the body pauses for the timeout', async () => {
    const api = await watchedApi((req, res) => {
      req.resume();
      req.on('end', () => res.end('whole body read'));
    });
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), timeout: 300 });
    const client = page(proxy);
    try {
      client.socket.write(stalledUpload(api));
      assert.ok(await eventually(() => api.requests() === 1, 500), 'the request never reached the API');
      // Bounded waits, not timings: a proxy without the body timer holds both for Node's requestTimeout (300 s).
      assert.ok(await eventually(() => client.closed(), 500), 'the page connection is still open');
      assert.ok(await eventually(() => api.open() === 0, 500), 'the upstream connection is still open');
      assert.match(client.received(), /^HTTP\/1\.1 504 /);
      assert.match(client.received(), /\r\nx-try-it-proxy-error: upstream_timeout\r\n/i);
      assert.match(client.received(), /request body paused for more than 300 ms/);
    } finally {
      client.socket.destroy();
      await proxy.close();
      await api.close();
    }
  });

  it('closes the connection of a page whose body pauses after the API has already answered', async () => {
    const api = await watchedApi((_req, res) => res.end('answered early'));
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), timeout: 300 });
    // No idle limit on the connection, as a server of one's own running CorsProxy may have: only the body timer can end it.
    proxy.server.keepAliveTimeout = 0;
    const client = page(proxy);
    try {
      client.socket.write(stalledUpload(api));
      assert.ok(await eventually(() => client.received().endsWith('answered early'), 500), `no answer: ${client.received()}`);
      assert.match(client.received(), /^HTTP\/1\.1 200 /);
      assert.ok(await eventually(() => client.closed(), 500), 'the page connection is still open');
      assert.ok(await eventually(() => api.open() === 0, 500), 'the upstream connection is still open');
    } finally {
      client.socket.destroy();
      await proxy.close();
      await api.close();
    }
  });

  it('relays a body that arrives with pauses shorter than the timeout, however long it takes in all', async () => {
    const api = await watchedApi(echoHandler());
    // Pauses of a tenth of the timeout, for more than the timeout in all: only a timer per pause lets this through.
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), timeout: 1000 });
    try {
      const chunks = Readable.from((async function* () {
        for (let i = 0; i < 12; i += 1) {
          yield Buffer.from('0123456789');
          await delay(100);
        }
      })());
      const response = await viaProxy(proxy, `/${api.origin}/upload`, { method: 'POST', body: chunks });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.json<Echo>().bodyBytes, 120);
    } finally {
      await proxy.close();
      await api.close();
    }
  });
});

describe('proxy: upstream failures in refusals', () => {
  it('names what went wrong when the error has no code', async () => {
    // undici's HTTPParserError for conflicting framing has a `code` property that is undefined.
    const api = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nAAAAA'));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const port = (api.address() as AddressInfo).port;
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(port) });
    try {
      const response = await viaProxy(proxy, `/http://127.0.0.1:${port}/`);
      assert.equal(refusalCode(response), 'upstream_unreachable');
      const { message } = response.json<{ error: { message: string } }>().error;
      assert.doesNotMatch(message, /undefined/);
      assert.match(message, /Transfer-Encoding|Content-Length/, message);
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => api.close(() => resolve()));
    }
  });
});
