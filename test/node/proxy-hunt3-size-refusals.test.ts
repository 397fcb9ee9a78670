// The proxy's refusals for its own limits, as the person at the console reads them: sizes and durations in the units
// people use (10 MiB, 30 seconds, not 10485760 bytes or 30000 ms), the body's own size when it is known, and a way
// forward that does not need the proxy's operator. Every server is a real one on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { get, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createProxyServer, type ProxyRefusalRecord, type RunningProxy, type StartProxyOptions } from '../../src/proxy/index.js';
import { formatByteSize, formatDuration, formatSizeOverLimit } from '../../src/proxy/readable-units.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, rawExchange, refusalCode, startTestProxy, viaProxy, type TestServer } from './proxy-support/servers.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const WAY_FORWARD = 'send the request from your own machine, without the proxy: the code under Code does.';

/** The refusal's message, after checking the code in its header and body. */
function refusalMessageOf(response: { status: number; headers: Record<string, unknown>; json<T>(): T }, code: string): string {
  assert.equal(refusalCode(response as Parameters<typeof refusalCode>[0]), code);
  return response.json<{ error: { message: string } }>().error.message;
}

/** The JSON refusal in a raw HTTP answer. */
function messageInRawAnswer(answer: string): string {
  const body = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  return (JSON.parse(body) as { error: { message: string } }).error.message;
}

async function proxyInFrontOf(handler: RequestListener, options: StartProxyOptions = {}): Promise<{ api: TestServer; proxy: RunningProxy; close(): Promise<void> }> {
  const api = await listen(handler);
  const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), ...options });
  return { api, proxy, close: async () => { await proxy.close(); await api.close(); } };
}

/** An API that answers `/sized?bytes=N` with N bytes and a Content-Length, and `/streamed?bytes=N` without one. */
const sizedBodies: RequestListener = (req, res) => {
  const url = new URL(req.url!, 'http://api');
  const bytes = Number(url.searchParams.get('bytes'));
  res.on('error', () => undefined); // the proxy stops reading a body it refuses
  req.resume();
  if (url.pathname === '/sized') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
  } else {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
  }
  res.end(Buffer.alloc(bytes, 'x'));
};

describe('the proxy’s size refusals, as a docs reader reads them', () => {
  describe('a response over a small maxResponseBytes', () => {
    let setup: Awaited<ReturnType<typeof proxyInFrontOf>>;
    const records: ProxyRefusalRecord[] = [];
    before(async () => {
      setup = await proxyInFrontOf(sizedBodies, { maxResponseBytes: 1 * MiB, onRefusal: (record) => records.push(record) });
    });
    after(() => setup.close());

    it('gives the declared size and the limit in MiB, with a way forward, not raw byte counts', async () => {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/sized?bytes=${3 * MiB}`);
      assert.equal(response.status, 502);
      assert.equal(
        refusalMessageOf(response, 'response_too_large'),
        `The response from ${setup.api.origin} is 3 MiB, more than this proxy relays (1 MiB). Ask the API for less (a smaller page of results, if it offers one), or ${WAY_FORWARD}`,
      );
      assert.doesNotMatch(response.text, /1048576|3145728/);
    });

    it('gives exact bytes when size and limit would round to the same figure', async () => {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/sized?bytes=${MiB + 1}`);
      assert.match(refusalMessageOf(response, 'response_too_large'), /^The response from http:\/\/127\.0\.0\.1:\d+ is 1,048,577 bytes, more than this proxy relays \(1,048,576 bytes\)\. /);
    });

    it('names the origin only, never the path or query, which may hold a key', async () => {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/sized?bytes=${2 * MiB}&api_key=s3cret`);
      const message = refusalMessageOf(response, 'response_too_large');
      assert.doesNotMatch(message, /s3cret|\/sized/);
    });

    it('cuts off a body of undeclared length at the limit (its status is already sent) and tells onRefusal', async () => {
      records.length = 0;
      const proxyUrl = `${setup.proxy.url}${setup.api.origin}/streamed?bytes=${3 * MiB}`;
      const request = get(proxyUrl, { headers: { origin: PAGE_ORIGIN } });
      const [response] = (await once(request, 'response')) as [IncomingMessage];
      assert.equal(response.statusCode, 200);
      let received = 0;
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      const [error] = (await once(response, 'error')) as [Error & { code?: string }];
      assert.equal(error.code, 'ECONNRESET', 'the body was not cut off');
      assert.ok(received <= 1 * MiB, `relayed ${received} bytes, over the limit`);
      assert.deepEqual(records.map((record) => record.code), ['response_too_large']);
    });
  });

  it('says "50 MiB" for the default maxResponseBytes, and the response’s declared size', async () => {
    // The API declares 60 MiB and sends none of it: the proxy refuses on the declaration alone.
    const setup = await proxyInFrontOf((req, res) => {
      req.resume();
      res.on('error', () => undefined);
      res.writeHead(200, { 'content-length': String(60 * MiB) });
      res.write('x');
    });
    try {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/huge`);
      assert.match(refusalMessageOf(response, 'response_too_large'), / is 60 MiB, more than this proxy relays \(50 MiB\)\. /);
    } finally {
      await setup.close();
    }
  });

  describe('a request body over a small maxRequestBytes', () => {
    let setup: Awaited<ReturnType<typeof proxyInFrontOf>>;
    let hits = 0;
    before(async () => {
      setup = await proxyInFrontOf((req, res) => {
        hits += 1;
        req.resume();
        req.on('end', () => res.end('ok'));
      }, { maxRequestBytes: 1 * KiB });
    });
    after(() => setup.close());

    it('gives the declared size and the limit in KiB, with a way forward, before contacting the API', async () => {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/upload`, { method: 'POST', body: Buffer.alloc(1536, 'x') });
      assert.equal(response.status, 413);
      assert.equal(refusalMessageOf(response, 'request_too_large'), `The request body is 1.5 KiB, more than this proxy accepts (1 KiB). Send a smaller body, or ${WAY_FORWARD}`);
      assert.equal(hits, 0);
    });

    it('gives the limit in KiB for a body of undeclared length, whose size is not known', async () => {
      const body = Readable.from([Buffer.alloc(600, 'x'), Buffer.alloc(600, 'y')]);
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/upload`, { method: 'POST', body });
      assert.equal(response.status, 413);
      assert.equal(refusalMessageOf(response, 'request_too_large'), `The request body is larger than this proxy accepts (1 KiB). Send a smaller body, or ${WAY_FORWARD}`);
    });
  });

  it('says "10 MiB" for the default maxRequestBytes', async () => {
    let hits = 0;
    const setup = await proxyInFrontOf((req, res) => {
      hits += 1;
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    try {
      // Refused on the declared length: the body need not be sent.
      const head = `POST /${setup.api.origin}/upload HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\ncontent-length: ${12 * MiB}\r\n\r\n`;
      const { received } = await rawExchange(setup.proxy.port, head, { end: false });
      assert.match(received, /^HTTP\/1\.1 413 /);
      assert.match(messageInRawAnswer(received), /^The request body is 12 MiB, more than this proxy accepts \(10 MiB\)\. /);
      assert.equal(hits, 0);
    } finally {
      await setup.close();
    }
  });
});

describe('the proxy’s other refusals, as a docs reader reads them', () => {
  it('offers the snippet as the way past the headers limit of the proxy’s HTTP server', async () => {
    const proxy = await startTestProxy();
    try {
      const { received } = await rawExchange(proxy.port, `GET /http://127.0.0.1:9/items HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\nauthorization: Bearer ${'t'.repeat(20_000)}\r\n\r\n`);
      assert.match(received, /^HTTP\/1\.1 431 /);
      assert.equal(
        messageInRawAnswer(received),
        `The request's headers are larger than this proxy's HTTP server reads (16 KiB with the request line). Send fewer or shorter headers, or ${WAY_FORWARD} Whoever runs the proxy can raise its limit with node --max-http-header-size.`,
      );
    } finally {
      await proxy.close();
    }
  });

  it('gives a late request’s timeouts in seconds and minutes, not milliseconds', async () => {
    const server = createProxyServer();
    // A short headers timeout, so the test waits for Node's own check; 60 s for the whole request, which does not come.
    Object.assign(server, { headersTimeout: 1500, requestTimeout: 60_000, connectionsCheckingInterval: 50 });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const { received } = await rawExchange(port, 'GET /https://api.example.com/ HTTP/1.1\r\nhost: proxy\r\n', { end: false });
      assert.match(received, /^HTTP\/1\.1 408 /);
      assert.equal(messageInRawAnswer(received), 'The request did not arrive in time (its headers within 1.5 seconds, the whole request within 1 minute); send it again.');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('gives a paused request body’s timeout in seconds', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      req.resume();
      req.on('end', () => res.end('whole body read'));
    }, { timeout: 1000 });
    try {
      // Ten of the hundred bytes declared, then nothing.
      const { received } = await rawExchange(setup.proxy.port, `POST /${setup.api.origin}/upload HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\ncontent-length: 100\r\n\r\n0123456789`, { end: false });
      assert.match(received, /^HTTP\/1\.1 504 /);
      assert.equal(messageInRawAnswer(received), 'The request body paused for more than 1 second, so the proxy abandoned the request to the API; send it again.');
    } finally {
      await setup.close();
    }
  });

  it('says what to check when the redirects run past maxRedirects', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      req.resume();
      res.writeHead(302, { location: '/again' }).end();
    });
    try {
      const response = await viaProxy(setup.proxy, `/${setup.api.origin}/start`);
      assert.equal(response.status, 502);
      assert.equal(
        refusalMessageOf(response, 'too_many_redirects'),
        `The request to ${setup.api.origin} redirected more than 5 times, which usually means a loop: check the URL (https or http, the host name, a trailing slash) and the credentials.`,
      );
    } finally {
      await setup.close();
    }
  });
});

describe('readable units', () => {
  it('formats sizes in binary units, to one decimal, the unit chosen after rounding', () => {
    assert.deepEqual(
      [0, 1, 1023, 1024, 1536, 16 * KiB, 1024 * KiB - 1, 10 * MiB, 50 * MiB, 1536 * MiB, 1024 * 1024 * MiB].map(formatByteSize),
      ['0 bytes', '1 byte', '1023 bytes', '1 KiB', '1.5 KiB', '16 KiB', '1 MiB', '10 MiB', '50 MiB', '1.5 GiB', '1 TiB'],
    );
  });

  it('gives a size and its limit in exact bytes only when rounded they would read the same', () => {
    assert.deepEqual(formatSizeOverLimit(12 * MiB, 10 * MiB), { size: '12 MiB', limit: '10 MiB' });
    assert.deepEqual(formatSizeOverLimit(10 * MiB + 1, 10 * MiB), { size: '10,485,761 bytes', limit: '10,485,760 bytes' });
    assert.deepEqual(formatSizeOverLimit(1001, 1000), { size: '1001 bytes', limit: '1000 bytes' });
  });

  it('formats durations as milliseconds under a second, else seconds, minutes or hours', () => {
    assert.deepEqual(
      [200, 1000, 1500, 30_000, 60_000, 90_000, 300_000, 3_600_000, 7_200_000].map(formatDuration),
      ['200 ms', '1 second', '1.5 seconds', '30 seconds', '1 minute', '90 seconds', '5 minutes', '1 hour', '2 hours'],
    );
  });
});
