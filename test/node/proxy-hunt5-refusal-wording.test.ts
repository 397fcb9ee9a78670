// Refusals that must read as what happened: a page with an opaque origin (a docs page opened from file://, a sandboxed
// frame), which sends `Origin: null`; and an https:// target on a port that speaks plain HTTP, which is up and
// answered, not unreachable. Real servers on loopback only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningProxy } from '../../src/proxy/index.js';
import { allowOnlyLoopbackPort, echoHandler, listen, refusalCode, startTestProxy, viaProxy, type TestServer } from './proxy-support/servers.js';

describe('refusal wording', () => {
  let api: TestServer;
  let proxy: RunningProxy;
  before(async () => {
    api = await listen(echoHandler());
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  it('explains Origin: null as a page with no origin of its own, not as "pages on null"', async () => {
    const response = await viaProxy(proxy, `/${api.origin}/x`, { origin: 'null' });
    assert.equal(refusalCode(response), 'origin_not_allowed');
    assert.equal(
      response.json<{ error: { message: string } }>().error.message,
      'Pages with no origin of their own (Origin: null: a file:// page, a sandboxed frame, a data: URL) are not allowed to use this proxy; it serves loopback pages only (localhost, 127.0.0.1, [::1]).',
    );
  });

  it('says an https:// target on a plain-HTTP port most likely wants http://, not that it could not be reached', async () => {
    const response = await viaProxy(proxy, `/https://127.0.0.1:${api.port}/x`);
    assert.equal(refusalCode(response), 'upstream_unreachable');
    const { message } = response.json<{ error: { message: string } }>().error;
    assert.equal(message, `https://127.0.0.1:${api.port} did not answer the TLS handshake with TLS (ERR_SSL_WRONG_VERSION_NUMBER): it most likely serves plain HTTP on port ${api.port}. If so, write http://.`);
  });
});
