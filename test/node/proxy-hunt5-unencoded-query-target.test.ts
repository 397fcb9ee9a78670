// A target typed into the query style without percent-encoding (`/?url=http://api/pets?a=1&b=2`, as people write it by
// hand with curl): the proxy must send that request, not one decoded as if it were a query parameter. Real servers on
// loopback only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningProxy } from '../../src/proxy/index.js';
import { allowOnlyLoopbackPort, echoHandler, listen, startTestProxy, viaProxy, type Echo, type TestServer } from './proxy-support/servers.js';

describe('an unencoded target in the query style', () => {
  let api: TestServer;
  let proxy: RunningProxy;
  before(async () => {
    api = await listen((req, res) => {
      if (req.url!.startsWith('/old')) res.writeHead(302, { location: '/new?c=3' }).end();
      else echoHandler()(req, res);
    });
    proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), maxRedirects: 0 });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  async function pathSeenByApi(proxyPath: string): Promise<string> {
    const response = await viaProxy(proxy, proxyPath);
    assert.equal(response.status, 200, response.text);
    return response.json<Echo>().url;
  }

  it('keeps every parameter after the first &, not only the first', async () => {
    assert.equal(await pathSeenByApi(`/?url=${api.origin}/pets?a=1&b=2&c=3`), '/pets?a=1&b=2&c=3');
  });

  it('keeps +, %2B and %26 as written, not read as a space, + and &', async () => {
    assert.equal(await pathSeenByApi(`/?url=${api.origin}/search?q=a+b&tag=c%2Bd&x=%26y`), '/search?q=a+b&tag=c%2Bd&x=%26y');
  });

  it('keeps the proxy parameters before url= out of the target', async () => {
    assert.equal(await pathSeenByApi(`/?key=k&url=${api.origin}/pets?a=1&b=2`), '/pets?a=1&b=2');
  });

  it('still reads an encoded target as one parameter, later parameters being the proxy’s', async () => {
    assert.equal(await pathSeenByApi(`/?url=${encodeURIComponent(`${api.origin}/pets?a=1&b=2`)}&other=1`), '/pets?a=1&b=2');
  });

  it('points a redirect back through the proxy without the old target’s parameters', async () => {
    const response = await viaProxy(proxy, `/?key=k&url=${api.origin}/old?a=1&b=2`);
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, `?key=k&url=${encodeURIComponent(`${api.origin}/new?c=3`)}`);
  });
});
