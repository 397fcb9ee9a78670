// What the API receives is what the page sent, and what the page receives is what the API sent, field line by field
// line: the things an object keyed by header name loses (repeats, order, the names' case, a field named __proto__),
// reason phrases, and methods Node's server takes aside. Every server is on loopback; one port is allowed explicitly.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { CorsProxy, type RunningProxy, type StartProxyOptions } from '../../src/proxy/index.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, startTestProxy, type TestServer } from './proxy-support/servers.js';

/** Node's `rawHeaders` as `name: value` lines. */
function lines(rawHeaders: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) result.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  return result;
}

/**
 * Sends `head` (request line and header lines, CRLF-terminated, no blank line) on a new connection to the proxy,
 * asking it to close after answering, and returns everything it wrote (within 10 s), bytes as Latin-1 characters. The
 * socket is not half-closed first: Node's server drops a request whose client has ended its side.
 */
async function exchange(proxy: RunningProxy, head: string): Promise<string> {
  const socket = connect(proxy.port, '127.0.0.1');
  // Bounded: a proxy that never answers fails the test instead of holding it.
  socket.setTimeout(10_000, () => socket.destroy());
  socket.setEncoding('latin1');
  let received = '';
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(`${head}Connection: close\r\n\r\n`, 'latin1');
  await once(socket, 'close');
  return received;
}

/** The header lines of an HTTP/1.1 message head as written, without the start line. */
function headLines(message: string): string[] {
  return message.slice(0, message.indexOf('\r\n\r\n')).split('\r\n').slice(1);
}

/** An API that answers every request with the bytes of `answer` (Latin-1), then closes, as no Node server could. */
async function listenRaw(answer: () => string): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer((socket) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('error', () => undefined); // the proxy may hang up on an answer it refuses
    socket.on('data', (chunk: string) => {
      head += chunk;
      if (head.includes('\r\n\r\n') && !socket.writableEnded) socket.end(answer(), 'latin1');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, port };
}

describe('proxy header fidelity, page to API', () => {
  let upstream: TestServer;
  let seen: string[] = [];
  const proxies: RunningProxy[] = [];

  before(async () => {
    upstream = await listen((req, res) => {
      seen = lines(req.rawHeaders).filter((line) => !/^(host|connection):/i.test(line)); // undici's own
      req.resume();
      req.on('end', () => res.end('ok'));
    });
  });
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await upstream.close();
  });

  const proxyWith = async (options: StartProxyOptions = {}): Promise<RunningProxy> => {
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(upstream.port), ...options });
    proxies.push(proxy);
    return proxy;
  };

  it('sends every header line as the page wrote it: repeats, order, name case, and a header named __proto__', async () => {
    const proxy = await proxyWith();
    const sent = [
      'X-Dup: a',
      '__proto__: kept',
      'Authorization: Bearer first', // Node keeps only the first of these in request.headers
      'X-Dup: b', // and joins these with ", " in the place of the first
      'Authorization: Bearer second',
      'User-Agent: one',
      'User-Agent: two',
      '1: a name JavaScript objects put first',
      'X-Mixed-Case: v',
      'X-Latin-1: caf\xe9', // a byte Node decodes as Latin-1
      'X-Empty: ',
    ];
    const answer = await exchange(proxy, `GET /${upstream.origin}/h HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\n${sent.join('\r\n')}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 /);
    // The proxy adds only its own Via line (RFC 9110 §7.6.3).
    assert.deepEqual(seen, [...sent, 'via: 1.1 try-it-proxy']);
  });

  it('sends repeated Cookie lines as they are when cookies are forwarded', async () => {
    const proxy = await proxyWith({ forwardCookies: true });
    await exchange(proxy, `GET /${upstream.origin}/c HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\nCookie: a=1\r\nX-Between: 1\r\nCookie: b=2\r\n`);
    assert.deepEqual(seen, ['Cookie: a=1', 'X-Between: 1', 'Cookie: b=2', 'via: 1.1 try-it-proxy']);
  });

  it('answers CONNECT with a readable method_not_allowed, as it does TRACE, instead of dropping the connection', async () => {
    const proxy = await proxyWith();
    seen = [];
    const answer = await exchange(proxy, `CONNECT 127.0.0.1:${upstream.port} HTTP/1.1\r\nHost: 127.0.0.1:${upstream.port}\r\nOrigin: ${PAGE_ORIGIN}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 405 /);
    assert.match(answer, /\r\nx-try-it-proxy-error: method_not_allowed\r\n/i);
    assert.match(answer, /\r\naccess-control-allow-origin: http:\/\/localhost:8000\r\n/i);
    assert.match(answer, /"code":"method_not_allowed"/);
    assert.deepEqual(seen, [], 'the API was reached');
  });
});

describe('proxy header fidelity, API to page', () => {
  let response = '';
  let api: Awaited<ReturnType<typeof listenRaw>>;
  let proxy: RunningProxy;

  before(async () => {
    api = await listenRaw(() => response);
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), forwardCookies: true });
  });
  after(async () => {
    await proxy.close();
    await new Promise((resolve) => api.server.close(resolve));
  });

  const relayed = (answer: string): Promise<string> => {
    response = answer;
    return exchange(proxy, `GET /${api.origin}/r HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\n`);
  };

  it('relays every header line as the API wrote it, a header named __proto__ included, and exposes each name once', async () => {
    const sent = [
      'Link: </page/2>; rel="next"',
      '__proto__: kept',
      'X-Case-Kept: v',
      'Set-Cookie: a=1; Path=/',
      'Link: </page/1>; rel="prev"',
      'Set-Cookie: b=2; Path=/',
      '1: first in an object, not here',
      'X-UTF-8: \xe2\x9c\x93', // the bytes of ✓
      'Content-Length: 2',
    ];
    const answer = await relayed(`HTTP/1.1 200 OK\r\n${sent.join('\r\n')}\r\n\r\nok`);
    const got = headLines(answer);
    assert.deepEqual(got.filter((line) => sent.includes(line)), sent);
    const exposed = got.find((line) => /^access-control-expose-headers:/i.test(line))!.replace(/^[^:]*: /, '').split(', ');
    assert.deepEqual(exposed, ['link', '__proto__', 'x-case-kept', 'set-cookie', '1', 'x-utf-8', 'content-length']);
    assert.ok(answer.endsWith('\r\n\r\nok'));
  });

  it('relays response headers as large as a browser reads (256 KiB), and calls larger ones too large, not unreachable', async () => {
    const large = `X-Large: ${'a'.repeat(100_000)}`; // more than Node's 16 KiB, which undici takes by default
    const relayedLarge = await relayed(`HTTP/1.1 200 OK\r\n${large}\r\nContent-Length: 2\r\n\r\nok`);
    assert.match(relayedLarge, /^HTTP\/1\.1 200 OK\r\n/);
    assert.ok(headLines(relayedLarge).includes(large));
    const tooLarge = await relayed(`HTTP/1.1 200 OK\r\nX-Huge: ${'a'.repeat(300_000)}\r\nContent-Length: 2\r\n\r\nok`);
    assert.match(tooLarge, /^HTTP\/1\.1 502 /);
    assert.match(tooLarge, /\r\nx-try-it-proxy-error: response_too_large\r\n/i);
    assert.match(tooLarge, /response headers from http:\/\/127\.0\.0\.1:\d+ are larger than this proxy \(or a browser\) reads \(256 KiB\)/);
  });

  it('relays the reason phrase as the API sent it: empty, missing, custom, or in UTF-8', async () => {
    for (const [status, expected] of [
      ['HTTP/1.1 200 ', 'HTTP/1.1 200 '], // no phrase: not Node's "OK"
      ['HTTP/1.1 299', 'HTTP/1.1 299 '], // nor its "unknown"
      ['HTTP/1.1 599 Custom Reason', 'HTTP/1.1 599 Custom Reason'],
      ['HTTP/1.1 404 Non trouv\xc3\xa9', 'HTTP/1.1 404 Non trouv\xc3\xa9'], // the same bytes, which a browser reads as it would from the API
    ]) {
      const answer = await relayed(`${status}\r\nContent-Length: 0\r\n\r\n`);
      assert.equal(answer.slice(0, answer.indexOf('\r\n')), expected, JSON.stringify(status));
    }
  });
});

describe('proxy mounted in a server of one’s own that sets headers first (as Express sets X-Powered-By)', () => {
  let api: Awaited<ReturnType<typeof listenRaw>>;
  let host: Server;
  let port: number;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(async () => {
    process.on('unhandledRejection', onUnhandled);
    const sent = ['Link: </page/2>; rel="next"', 'X-Dup: a', 'Link: </page/1>; rel="prev"', 'X-Dup: b', 'Content-Length: 2'];
    api = await listenRaw(() => `HTTP/1.1 200 OK\r\n${sent.join('\r\n')}\r\n\r\nok`);
    const proxy = new CorsProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), allowOrigins: [PAGE_ORIGIN] });
    host = createHttpServer((request, response) => {
      response.setHeader('X-Powered-By', 'Express');
      proxy.handle(request, response);
    });
    host.once('close', () => void proxy.close());
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    port = (host.address() as AddressInfo).port;
  });
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await new Promise((resolve) => host.close(resolve));
    await new Promise((resolve) => api.server.close(resolve));
  });

  it('relays every line, repeats kept, after the host’s own header, and answers a refusal readably', async () => {
    const answer = await exchange({ port } as RunningProxy, `GET /${api.origin}/r HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\n`);
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    const got = headLines(answer);
    assert.ok(got.includes('X-Powered-By: Express'), got.join('\n'));
    for (const line of ['Link: </page/2>; rel="next"', 'Link: </page/1>; rel="prev"', 'X-Dup: a', 'X-Dup: b']) {
      assert.equal(got.filter((each) => each === line).length, 1, line);
    }
    assert.ok(got.indexOf('Link: </page/2>; rel="next"') < got.indexOf('Link: </page/1>; rel="prev"'), 'repeats in order');
    assert.ok(answer.endsWith('\r\n\r\nok'));

    const refused = await exchange({ port } as RunningProxy, `GET /${api.origin}/r HTTP/1.1\r\nHost: proxy\r\nOrigin: https://elsewhere.example\r\n`);
    assert.match(refused, /^HTTP\/1\.1 403 /);
    assert.match(refused, /\r\nx-try-it-proxy-error: origin_not_allowed\r\n/i);
    assert.deepEqual(unhandled, []);
  });
});
