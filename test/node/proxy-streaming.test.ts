// Bodies stream through the proxy in both directions, within size caps, and a hanging upstream times out.
// Streaming is proven by order, not by time: the far side must see the first byte while the near side
// has produced only part of the body, which a proxy that buffered the whole body could never do.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { get, type IncomingMessage, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import type { RunningProxy, StartProxyOptions } from '../../src/proxy/index.js';
import { closedPort } from '../closed-port.mjs';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, refusalCode, startTestProxy, viaProxy, type TestServer } from './proxy-support/servers.js';

const MiB = 1024 * 1024;
const BODY_BYTES = 50 * MiB;
const CHUNK = Buffer.alloc(64 * 1024, 'try-it-console ');

/** A 50 MB body made on demand; `produced` says how much of it has been handed out so far. */
class GeneratedBody {
  produced = 0;
  readonly hash = createHash('sha256');

  stream(): Readable {
    const self = this;
    return Readable.from((function* () {
      while (self.produced < BODY_BYTES) {
        self.produced += CHUNK.length;
        self.hash.update(CHUNK);
        yield CHUNK;
      }
    })());
  }
}

/** A GET through the proxy read with node:http, to its end. */
async function bodilessAnswer(url: string): Promise<IncomingMessage> {
  const request = get(url, { headers: { origin: PAGE_ORIGIN } });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.resume();
  await once(response, 'end');
  return response;
}

async function proxyInFrontOf(handler: RequestListener, options: StartProxyOptions = {}): Promise<{ upstream: TestServer; proxy: RunningProxy; close(): Promise<void> }> {
  const upstream = await listen(handler);
  const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(upstream.port), ...options });
  return { upstream, proxy, close: async () => { await proxy.close(); await upstream.close(); } };
}

describe('proxy streaming', () => {
  it('streams a 50 MB request body: the API sees its first byte long before the page has sent the last', async () => {
    const body = new GeneratedBody();
    let producedAtFirstByte = -1;
    let received = 0;
    const hash = createHash('sha256');
    const setup = await proxyInFrontOf((req, res) => {
      req.on('data', (chunk: Buffer) => {
        if (producedAtFirstByte === -1) producedAtFirstByte = body.produced;
        received += chunk.length;
        hash.update(chunk);
      });
      req.on('end', () => res.end(String(received)));
    }, { maxRequestBytes: 64 * MiB });
    try {
      const response = await request(`${setup.proxy.url}${setup.upstream.origin}/upload`, {
        method: 'POST',
        headers: { origin: PAGE_ORIGIN, 'content-type': 'application/octet-stream' },
        body: body.stream(),
      });
      assert.equal(response.statusCode, 200);
      assert.equal(await response.body.text(), String(BODY_BYTES));
      assert.equal(hash.digest('hex'), body.hash.digest('hex'), 'the body changed on the way');
      assert.ok(producedAtFirstByte > 0 && producedAtFirstByte < BODY_BYTES / 2, `first byte arrived after ${producedAtFirstByte} bytes were produced`);
    } finally {
      await setup.close();
    }
  });

  it('relays the status and headers of a stream before its first byte, as server-sent events need', { timeout: 10_000 }, async () => {
    let sendEvent!: () => void;
    const setup = await proxyInFrontOf((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      sendEvent = () => response.end('data: late\n\n');
    });
    try {
      const client = get(`${setup.proxy.url}${setup.upstream.origin}/events`, { headers: { origin: PAGE_ORIGIN } });
      // The API has sent no event yet: only the headers can have come.
      const [response] = (await once(client, 'response')) as [IncomingMessage];
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-type'], 'text/event-stream');
      sendEvent();
      let body = '';
      for await (const chunk of response) body += chunk;
      assert.equal(body, 'data: late\n\n');
    } finally {
      await setup.close();
    }
  });

  it('asks a reverse proxy in front (nginx) not to buffer a stream, unseen by the page; a body of known length, or the API’s own choice, is left alone', async () => {
    const setup = await proxyInFrontOf((request, response) => {
      if (request.url === '/events') response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: one\n\n');
      else if (request.url === '/own') response.writeHead(200, { 'content-type': 'text/event-stream', 'x-accel-buffering': 'yes' }).end('data: one\n\n');
      else response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
    });
    try {
      const events = await viaProxy(setup.proxy, `/${setup.upstream.origin}/events`);
      assert.equal(events.headers['x-accel-buffering'], 'no');
      assert.doesNotMatch(String(events.headers['access-control-expose-headers']), /x-accel-buffering/i);
      const own = await viaProxy(setup.proxy, `/${setup.upstream.origin}/own`);
      assert.equal(own.headers['x-accel-buffering'], 'yes');
      assert.match(String(own.headers['access-control-expose-headers']), /x-accel-buffering/i);
      const known = await viaProxy(setup.proxy, `/${setup.upstream.origin}/known`);
      assert.equal(known.headers['x-accel-buffering'], undefined);
    } finally {
      await setup.close();
    }
  });

  it('sends the head of a stream early with its bytes as they came: UTF-8 in a reason phrase or header is not encoded twice', async () => {
    const asBytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1'); // Node writes each character as a byte
    const setup = await proxyInFrontOf((_request, response) => {
      response.writeHead(200, asBytes('Très bien'), { 'content-type': 'text/plain', 'x-note': asBytes('café ✓') });
      response.end('streamed');
    });
    try {
      const client = get(`${setup.proxy.url}${setup.upstream.origin}/utf8`, { headers: { origin: PAGE_ORIGIN } });
      const [response] = (await once(client, 'response')) as [IncomingMessage];
      response.resume();
      assert.equal(Buffer.from(response.statusMessage!, 'latin1').toString('utf8'), 'Très bien');
      assert.equal(Buffer.from(response.headers['x-note'] as string, 'latin1').toString('utf8'), 'café ✓');
      assert.equal(response.headers['transfer-encoding'], 'chunked', 'relayed as a stream, its length unknown');
    } finally {
      await setup.close();
    }
  });

  it('streams a 50 MB response body: the page sees its first byte long before the API has written the last', async () => {
    let written = 0;
    const sent = createHash('sha256');
    const setup = await proxyInFrontOf((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const writeMore = (): void => {
        while (written < BODY_BYTES) {
          written += CHUNK.length;
          sent.update(CHUNK);
          if (!res.write(CHUNK)) return void res.once('drain', writeMore);
        }
        res.end();
      };
      writeMore();
    }, { maxResponseBytes: 64 * MiB });
    try {
      const response = await request(`${setup.proxy.url}${setup.upstream.origin}/download`, { headers: { origin: PAGE_ORIGIN } });
      let writtenAtFirstByte = -1;
      let received = 0;
      const hash = createHash('sha256');
      for await (const chunk of response.body) {
        if (writtenAtFirstByte === -1) writtenAtFirstByte = written;
        received += (chunk as Buffer).length;
        hash.update(chunk as Buffer);
      }
      assert.equal(received, BODY_BYTES);
      assert.equal(hash.digest('hex'), sent.digest('hex'), 'the body changed on the way');
      assert.ok(writtenAtFirstByte > 0 && writtenAtFirstByte < BODY_BYTES / 2, `first byte arrived after ${writtenAtFirstByte} bytes were written`);
    } finally {
      await setup.close();
    }
  });
});

describe('proxy size caps and timeout', () => {
  let hits = 0;
  let setup: Awaited<ReturnType<typeof proxyInFrontOf>>;
  const big = Buffer.alloc(2048, 'x');

  before(async () => {
    setup = await proxyInFrontOf((req, res) => {
      hits += 1;
      const url = new URL(req.url!, 'http://upstream.test');
      if (url.pathname === '/hang') return; // accepts, never answers
      if (url.pathname === '/stall') return void res.writeHead(200).write('partial');
      if (url.pathname === '/declared') return void res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      // The length of the body a 200 would have carried (RFC 9110 §8.6), and one a 204 should not declare at all.
      if (url.pathname === '/not-modified') return void res.writeHead(304, { 'content-length': String(big.length), etag: '"v1"' }).end();
      if (url.pathname === '/no-content') return void res.writeHead(204, { 'content-length': String(big.length) }).end();
      if (url.pathname === '/chunked') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(big.subarray(0, 600));
        res.write(big.subarray(600));
        return void res.end();
      }
      req.resume();
      req.on('end', () => res.end('ok'));
    }, { maxRequestBytes: 1024, maxResponseBytes: 1024, timeout: 300 });
  });
  after(() => setup.close());

  const target = (path: string): string => `/${setup.upstream.origin}${path}`;

  it('refuses a declared request body over the cap before contacting the API', async () => {
    const before = hits;
    const response = await viaProxy(setup.proxy, target('/upload'), { method: 'POST', body: big });
    assert.equal(response.status, 413);
    assert.equal(refusalCode(response), 'request_too_large');
    assert.equal(hits, before);
  });

  it('refuses a chunked request body once it grows past the cap', async () => {
    const response = await viaProxy(setup.proxy, target('/upload'), { method: 'POST', body: Readable.from([big.subarray(0, 600), big.subarray(600)]) });
    assert.equal(response.status, 413);
    assert.equal(refusalCode(response), 'request_too_large');
  });

  it('accepts a body at the cap', async () => {
    const response = await viaProxy(setup.proxy, target('/upload'), { method: 'POST', body: big.subarray(0, 1024) });
    assert.equal(response.status, 200);
    assert.equal(response.text, 'ok');
  });

  it('refuses a declared response body over the cap', async () => {
    const response = await viaProxy(setup.proxy, target('/declared'));
    assert.equal(response.status, 502);
    assert.equal(refusalCode(response), 'response_too_large');
  });

  it('relays a HEAD, 204 or 304 response whose declared length is over the cap: no body follows it', async () => {
    const head = await viaProxy(setup.proxy, target('/declared'), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(refusalCode(head), undefined);
    assert.equal(head.headers['content-length'], String(big.length));
    // Read with node:http, which knows these statuses carry no body; undici's client takes the declared length at its word.
    const notModified = await bodilessAnswer(`${setup.proxy.url}${target('/not-modified').slice(1)}`);
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.headers['etag'], '"v1"');
    assert.equal(notModified.headers['x-try-it-proxy-error'], undefined);
    const noContent = await bodilessAnswer(`${setup.proxy.url}${target('/no-content').slice(1)}`);
    assert.equal(noContent.statusCode, 204);
    assert.equal(noContent.headers['x-try-it-proxy-error'], undefined);
  });

  it('cuts off an undeclared response body that grows past the cap', async () => {
    await assert.rejects(viaProxy(setup.proxy, target('/chunked')));
  });

  it('answers 504 upstream_timeout when the API never sends headers', async () => {
    const response = await viaProxy(setup.proxy, target('/hang'));
    assert.equal(response.status, 504);
    assert.equal(refusalCode(response), 'upstream_timeout');
  });

  it('cuts off a body that stalls longer than the timeout', async () => {
    await assert.rejects(viaProxy(setup.proxy, target('/stall')));
  });

  it('answers 502 upstream_unreachable when nothing listens on the target port', async () => {
    const closed = await closedPort();
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(closed) });
    try {
      const response = await viaProxy(proxy, `/http://127.0.0.1:${closed}/`);
      assert.equal(response.status, 502);
      assert.equal(refusalCode(response), 'upstream_unreachable');
      assert.match(response.text, /ECONNREFUSED/);
    } finally {
      await proxy.close();
    }
  });

  it('says an API that answered with something other than HTTP, or dropped the connection unanswered, is up: not "could not reach"', async () => {
    const answers: Record<string, (socket: Socket) => void> = {
      garbage: (socket) => socket.end('NOT HTTP AT ALL\r\n\r\n'),
      lengths: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\nok'),
      dropped: (socket) => socket.destroy(),
    };
    let answer = answers.garbage!;
    // Each connection gets the answer under test once its request has come.
    const api = createNetServer((socket) => socket.once('data', () => answer(socket)));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const { port } = api.address() as AddressInfo;
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(port) });
    try {
      const messages: Record<string, string> = {};
      for (const [name, write] of Object.entries(answers)) {
        answer = write;
        const response = await viaProxy(proxy, `/http://127.0.0.1:${port}/`);
        assert.deepEqual([response.status, refusalCode(response)], [502, 'upstream_unreachable'], name);
        messages[name] = response.json<{ error: { message: string } }>().error.message;
      }
      assert.match(messages.garbage!, new RegExp(`^http://127\\.0\\.0\\.1:${port} sent something other than a valid HTTP/1\\.1 response \\(.+\\); fix the API's response, or what stands in front of it\\.$`));
      assert.match(messages.lengths!, /sent something other than a valid HTTP\/1\.1 response \((?:HPE_\w+|UND_ERR_RES_CONTENT_LENGTH_MISMATCH)\)/);
      // A close (UND_ERR_SOCKET), or a reset when the request was still unread (ECONNRESET).
      assert.match(messages.dropped!, new RegExp(`^http://127\\.0\\.0\\.1:${port} accepted the connection, then closed it without answering \\((?:UND_ERR_SOCKET|ECONNRESET)\\); look in the API's log for a failure on this request\\. If the API serves https on port ${port}, write https://\\.$`));
    } finally {
      await proxy.close();
      await new Promise((resolve) => api.close(resolve));
    }
  });
});
