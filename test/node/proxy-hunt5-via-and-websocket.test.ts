// Requests the proxy must refuse rather than relay: one that already passed a try-it-proxy (whatever case a hop wrote
// its name in), and a WebSocket handshake, which would otherwise reach the API as a plain GET and leave the client
// waiting on the connection. Real servers on loopback only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PROXY_REFUSAL_CODES, type ProxyRefusalRecord, type RunningProxy } from '../../src/proxy/index.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, rawExchange, refusalCode, startTestProxy, viaProxy, type TestServer } from './proxy-support/servers.js';

const WEBSOCKET_MESSAGE =
  'This proxy does not relay WebSocket connections. Connect to the API directly (ws:// or wss://): browsers do not apply CORS to WebSockets, so they need no proxy.';

describe('refused before reaching the API', () => {
  let api: TestServer;
  let proxy: RunningProxy;
  let apiRequests = 0;
  const records: ProxyRefusalRecord[] = [];
  before(async () => {
    api = await listen((_req, res) => {
      apiRequests += 1;
      res.end('reached');
    });
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), onRefusal: (record) => records.push(record) });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  it('refuses a Via naming try-it-proxy in another case as a loop', async () => {
    for (const via of ['1.1 Try-It-Proxy', 'HTTP/1.1 TRY-IT-PROXY (hop)', '1.0 gateway, 1.1 try-it-PROXY']) {
      const response = await viaProxy(proxy, `/${api.origin}/x`, { headers: { via } });
      assert.equal(refusalCode(response), 'target_not_allowed', via);
    }
    assert.equal(apiRequests, 0);
  });

  it('still relays a Via that names another proxy', async () => {
    const response = await viaProxy(proxy, `/${api.origin}/x`, { headers: { via: '1.1 try-it-proxy-like, 1.1 gateway' } });
    assert.equal(response.text, 'reached');
  });

  it('refuses a WebSocket handshake with 501 and a way forward, and closes the connection', async () => {
    apiRequests = 0;
    const handshake = [
      `GET /${api.origin}/socket HTTP/1.1`,
      'Host: proxy',
      `Origin: ${PAGE_ORIGIN}`,
      'Connection: Upgrade',
      'Upgrade: WebSocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ].join('\r\n');
    const { received, closedByServer } = await rawExchange(proxy.port, `${handshake}\r\n\r\n`, { end: false });
    assert.match(received, /^HTTP\/1\.1 501 /);
    assert.match(received, /\r\nx-try-it-proxy-error: websocket_not_supported\r\n/i);
    assert.equal(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error.message, WEBSOCKET_MESSAGE);
    assert.ok(closedByServer, 'the proxy left the connection open');
    assert.equal(apiRequests, 0);
    assert.deepEqual(records.at(-1), { code: 'websocket_not_supported', status: 501, method: 'GET', origin: PAGE_ORIGIN, target: undefined });
    assert.ok(PROXY_REFUSAL_CODES.includes('websocket_not_supported'));
  });

  it('refuses a handshake whose Upgrade a front dropped, known by its Sec-WebSocket-Key', async () => {
    const response = await viaProxy(proxy, `/${api.origin}/socket`, { headers: { 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
    assert.equal(response.status, 501);
    assert.equal(refusalCode(response), 'websocket_not_supported');
  });

  it('relays a request offering an upgrade to another protocol (h2c), which a server may ignore', async () => {
    const request = `GET /${api.origin}/x HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n`;
    const { received } = await rawExchange(proxy.port, request, { end: false, limitMs: 2_000 });
    assert.match(received, /^HTTP\/1\.1 200 /);
    assert.match(received, /reached/);
  });
});
