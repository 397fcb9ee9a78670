// What an API's response headers could do through the proxy beyond its own answer: make a browser's cache answer a
// proxy URL naming another API with this response, or send the page's fetch around the proxy. Every server is on
// loopback; the APIs answer with raw bytes, as no Node server would write them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import type { RunningProxy } from '../../src/proxy/index.js';
import { Canary, allowOnlyLoopbackPort, startTestProxy, viaProxy } from './proxy-support/servers.js';

/** An API that answers every request with `answer` (Latin-1 bytes), then closes. */
async function listenRaw(answer: string): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer((socket) => {
    let head = '';
    socket.setEncoding('latin1');
    socket.on('error', () => undefined);
    socket.on('data', (chunk: string) => {
      head += chunk;
      if (head.includes('\r\n\r\n') && !socket.writableEnded) socket.end(answer, 'latin1');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, port };
}

function values(header: string | string[] | undefined): string[] {
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

describe('proxy: response headers about the proxy’s URLs', () => {
  let api: Awaited<ReturnType<typeof listenRaw>>;
  let proxy: RunningProxy;

  before(async () => {
    // `No-Vary-Search: params` tells a browser cache (Chromium's HTTP cache since 2025) to answer this URL with any
    // query: through the proxy, whose query is `url=<target>`, any target.
    api = await listenRaw('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nCache-Control: max-age=600\r\nNo-Vary-Search: params\r\nX-Kept: 1\r\n\r\nok');
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
  });

  after(async () => {
    await proxy.close();
    api.server.close();
  });

  it('drops No-Vary-Search, which would let a cache reuse the answer for a proxy URL naming another target', async () => {
    for (const path of [`/?url=${encodeURIComponent(`${api.origin}/a`)}`, `/${api.origin}/a`]) {
      const response = await viaProxy(proxy, path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers['no-vary-search'], undefined, path);
      assert.equal(response.headers['cache-control'], 'max-age=600', path);
      assert.equal(response.headers['x-kept'], '1', path);
      assert.doesNotMatch(String(response.headers['access-control-expose-headers']), /no-vary-search/, path);
    }
  });
});

describe('proxy: a redirect with its Location repeated', () => {
  let canary: Canary;
  let api: Awaited<ReturnType<typeof listenRaw>>;
  let proxy: RunningProxy;

  before(async () => {
    canary = await Canary.start();
    // Browsers follow a Location repeated with one value (only different values fail the response): the page's fetch
    // would go straight to it, around the proxy and its checks.
    const location = `http://127.0.0.1:${canary.port}/internal`;
    api = await listenRaw(`HTTP/1.1 302 Found\r\nLocation: ${location}\r\nLocation: ${location}\r\nContent-Length: 0\r\n\r\n`);
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
  });

  after(async () => {
    await proxy.close();
    api.server.close();
    await canary.close();
  });

  it('points every line back through the proxy, as it does one, in both styles', async () => {
    const target = `${api.origin}/moved`;
    const cases: Array<[string, string]> = [
      [`/${target}`, `../../../try-it-proxy-credentials=omit/http://127.0.0.1:${canary.port}/internal`],
      [`/?url=${encodeURIComponent(target)}`, `?url=${encodeURIComponent(`http://127.0.0.1:${canary.port}/internal`)}&try-it-proxy-credentials=omit`],
    ];
    for (const [path, expected] of cases) {
      const response = await viaProxy(proxy, path);
      assert.equal(response.status, 302, path);
      assert.deepEqual(values(response.headers['location']), [expected, expected], path);
    }
    assert.equal(canary.hits, 0);
  });

  it('leaves Location lines with different values as they are: browsers refuse such a response', async () => {
    const twoWays = await listenRaw('HTTP/1.1 302 Found\r\nLocation: /a\r\nLocation: /b\r\nContent-Length: 0\r\n\r\n');
    const other = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(twoWays.port) });
    try {
      const response = await viaProxy(other, `/${twoWays.origin}/moved`);
      assert.deepEqual(values(response.headers['location']), ['/a', '/b']);
    } finally {
      await other.close();
      twoWays.server.close();
    }
  });
});
