// An API whose TLS certificate no browser trusts (a development server's self-signed one): the proxy, which checks
// certificates as browsers do, says so instead of "could not reach".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { RunningProxy } from '../../src/proxy/index.js';
import { allowOnlyLoopbackPort, refusalCode, startTestProxy, viaProxy } from './proxy-support/servers.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './proxy-support/self-signed.js';

describe('proxy: an API with an untrusted TLS certificate', () => {
  let api: Server;
  let origin: string;
  let proxy: RunningProxy;
  let reached = 0;

  before(async () => {
    api = createServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, (_request, response) => {
      reached += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const { port } = api.address() as AddressInfo;
    origin = `https://127.0.0.1:${port}`;
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(port) });
  });
  after(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  it('names the untrusted certificate and how to have it trusted, and sends nothing past the handshake', async () => {
    const response = await viaProxy(proxy, `/${origin}/pets`);
    assert.equal(response.status, 502);
    assert.equal(refusalCode(response), 'upstream_unreachable');
    assert.equal(
      response.json<{ error: { message: string } }>().error.message,
      `${origin} presented a TLS certificate that this proxy does not trust, as browsers would not (DEPTH_ZERO_SELF_SIGNED_CERT). Give the API a certificate from a trusted authority; for a development server, start the proxy with NODE_EXTRA_CA_CERTS set to the file of the authority that signed it.`,
    );
    assert.equal(reached, 0);
  });
});
