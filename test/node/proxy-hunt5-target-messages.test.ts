// What the proxy says about a target it cannot use, for a person trying it with curl: a host written without a
// scheme (which the URL parser reads as a scheme of its own: `localhost:8080/v1` is scheme `localhost:`), and a
// WebSocket URL. Real servers on loopback only; nothing is sent to the hosts named.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningProxy } from '../../src/proxy/index.js';
import { refusalCode, startTestProxy, viaProxy } from './proxy-support/servers.js';

const USAGE = 'Send /?url=<encoded absolute URL> or /<absolute URL>, e.g. /https://api.example.com/v1/users.';

describe('refusals of unusable targets, as read at the console or in curl', () => {
  let proxy: RunningProxy;
  before(async () => {
    proxy = await startTestProxy();
  });
  after(() => proxy.close());

  async function refusalMessage(path: string): Promise<string> {
    const response = await viaProxy(proxy, path);
    assert.equal(refusalCode(response), 'bad_target_url');
    return response.json<{ error: { message: string } }>().error.message;
  }

  it('says a host:port target has no scheme, not that localhost: is a scheme it cannot proxy', async () => {
    for (const path of ['/localhost:8080/v1', '/?url=localhost%3A8080%2Fv1', '/?url=api.example.com:443/v1?a=1']) {
      const message = await refusalMessage(path);
      assert.doesNotMatch(message, /not localhost:|not api\.example\.com:/, path);
      assert.match(message, /has no scheme: write https:\/\/ or http:\/\/ before the host \("https:\/\/(localhost:8080|api\.example\.com:443)\/v1/, path);
    }
  });

  it('suggests the scheme for a host and path, and for a scheme-relative URL', async () => {
    assert.equal(
      await refusalMessage('/?url=api.example.com/v1/users'),
      `"api.example.com/v1/users" has no scheme: write https:// or http:// before the host ("https://api.example.com/v1/users"). ${USAGE}`,
    );
    assert.match(await refusalMessage('/?url=//api.example.com/v1'), /\("https:\/\/api\.example\.com\/v1"\)/);
  });

  it('keeps the plain message for text that names no host', async () => {
    assert.equal(await refusalMessage('/?url=users'), `"users" is not an absolute URL. ${USAGE}`);
  });

  it('tells a WebSocket URL to connect directly', async () => {
    assert.equal(
      await refusalMessage('/wss://api.example.com/socket'),
      'Only http and https targets can be proxied, not wss:. Connect to a WebSocket API directly: browsers do not apply CORS to WebSockets.',
    );
  });
});
