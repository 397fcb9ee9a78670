// `Expect: 100-continue` (curl sends it for a body over 1 MiB): the client waits for `100 Continue` before sending the
// body. The proxy must say it only for a request it goes on to relay; a refusal comes instead of it, so no body is sent
// just to be refused. Real servers on loopback only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { RunningProxy } from '../../src/proxy/index.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, echoHandler, listen, rawExchange, startTestProxy, type Echo, type TestServer } from './proxy-support/servers.js';

/**
 * Sends the head of a request with `Expect: 100-continue`, then its body only once `100 Continue` arrives, and reads
 * until the server closes the connection (`Connection: close` is asked for) or 10 s pass.
 */
async function uploadAfterContinue(port: number, head: string, body: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let received = '';
  let bodySent = false;
  socket.on('data', (chunk: string) => {
    received += chunk;
    if (!bodySent && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
      bodySent = true;
      socket.write(body);
    }
  });
  socket.on('error', () => undefined);
  const limit = setTimeout(() => socket.destroy(), 10_000);
  socket.write(head);
  await once(socket, 'close');
  clearTimeout(limit);
  return received;
}

describe('Expect: 100-continue through the proxy', () => {
  let api: TestServer;
  let proxy: RunningProxy;
  before(async () => {
    api = await listen(echoHandler());
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), maxRequestBytes: 1000 });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  it('refuses a body declared too large without inviting it first, and closes the connection', async () => {
    const head = `POST /${api.origin}/upload HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\nContent-Length: 20000000\r\nExpect: 100-continue\r\n\r\n`;
    const { received, closedByServer } = await rawExchange(proxy.port, head, { end: false });
    assert.match(received, /^HTTP\/1\.1 413 /);
    assert.match(received, /\r\nx-try-it-proxy-error: request_too_large\r\n/i);
    assert.ok(closedByServer);
  });

  it('refuses a page from an origin not allowed without inviting its body', async () => {
    const head = `POST /${api.origin}/upload HTTP/1.1\r\nHost: proxy\r\nOrigin: https://elsewhere.example\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n`;
    const { received } = await rawExchange(proxy.port, head, { end: false });
    assert.match(received, /^HTTP\/1\.1 403 /);
  });

  it('invites the body of a request it relays, once, and the API gets it whole', async () => {
    const head = `POST /${api.origin}/upload HTTP/1.1\r\nHost: proxy\r\nOrigin: ${PAGE_ORIGIN}\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`;
    const received = await uploadAfterContinue(proxy.port, head, 'hello');
    assert.equal(received.split('HTTP/1.1 100 Continue').length, 2, received);
    const final = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
    assert.match(final, /^HTTP\/1\.1 200 /);
    const echo = JSON.parse(final.slice(final.indexOf('{'), final.lastIndexOf('}') + 1)) as Echo;
    assert.equal(echo.bodyBytes, 5);
    assert.equal(echo.headers.expect, undefined);
  });
});
