import { expect } from '@open-wc/testing';
import { RequestEngine, RequestError, isRequestError } from '../../src/core/index.js';

interface TestServers {
  api: string;
  proxy: string;
  strictProxy: string;
  cappedProxy: string;
  closed: string;
}

async function failure(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected the send to fail');
}

describe('RequestEngine in Chromium, against a second origin', () => {
  let servers: TestServers;
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('explains a CORS refusal, with the fix', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.api}/pets` }));
    expect(isRequestError(error, 'cors'), error.message).to.equal(true);
    expect(error.message).to.contain(`Blocked by CORS: ${servers.api} answered`);
    expect(error.message).to.contain(location.origin);
    expect(error.message).to.contain('corsProxy');
  });

  it('tells a server that is down apart from a CORS refusal', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.closed}/pets` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.contain(`Could not reach ${servers.closed}`);
  });

  it('succeeds through the CORS proxy, in both request styles', async () => {
    for (const corsProxy of [servers.proxy, `${servers.proxy}?url={url}`]) {
      const engine = new RequestEngine({ config: { corsProxy } });
      const response = await engine.send({ method: 'POST', url: `${servers.api}/pets?tag=a b`, headers: { 'X-Trace': 't-1' }, body: '{"name":"Rex"}' });
      expect(response.status).to.equal(200);
      expect(response.request.viaProxy).to.equal(true);
      const echoed = JSON.parse(response.text);
      expect(echoed).to.include({ method: 'POST', body: '{"name":"Rex"}' });
      expect(echoed.headers['x-trace']).to.equal('t-1');
      expect(engine.history.list()[0]!.url).to.equal(`${servers.api}/pets?tag=a b`);
    }
  });

  it('sends a header value outside ASCII through the proxy as its UTF-8 bytes, as every snippet does', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.proxy } });
    const value = 'café 5 € 日本 👍';
    const response = await engine.send({ method: 'GET', url: `${servers.api}/pets`, headers: { 'X-Name': value } });
    // The API (Node) reads header bytes as Latin-1 characters: back to bytes, then UTF-8.
    const received: string = JSON.parse(response.text).headers['x-name'];
    expect(new TextDecoder().decode(Uint8Array.from(received, (character) => character.charCodeAt(0)))).to.equal(value);
  });

  it('shows the API’s WWW-Authenticate under its own name, which the proxy relays renamed', async () => {
    const response = await new RequestEngine({ config: { corsProxy: servers.proxy } }).send({ method: 'GET', url: `${servers.api}/challenge` });
    expect(response.status).to.equal(401);
    const names = response.headers.map(([name]) => name);
    expect(names).to.include('www-authenticate').and.not.to.include('x-try-it-proxy-www-authenticate');
    expect(names).to.deep.equal([...names].sort());
    expect(Object.fromEntries(response.headers)['www-authenticate']).to.equal('Basic realm="api"');
  });

  it('reads HTML, script and images through the proxy’s sandboxing headers, and shows only the API’s own policy', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.proxy } });
    const script = await engine.send({ method: 'GET', url: `${servers.api}/script` });
    expect(script.text).to.equal('window.__pwned = true;');
    const headers = Object.fromEntries(script.headers);
    expect(headers['content-security-policy']).to.equal("default-src 'none'");
    expect(headers).not.to.have.property('x-content-type-options');
    const page = await engine.send({ method: 'GET', url: `${servers.api}/hostile-text` });
    expect(page.text).to.contain('<script>');
    expect(page.headers.map(([name]) => name)).not.to.include('content-security-policy');
    const image = await engine.send({ method: 'GET', url: `${servers.api}/image` });
    expect(image.size).to.be.above(0);
  });

  it('explains a body the proxy cut off at its cap, not as an unreachable proxy', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.cappedProxy } });
    const uncapped = await new RequestEngine({ config: { corsProxy: servers.proxy } }).send({ method: 'GET', url: `${servers.api}/stream-256k` });
    expect(uncapped.size).to.equal(256 * 1024);
    const error = await failure(engine.send({ method: 'GET', url: `${servers.api}/stream-256k` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.match(/^The response \(status 200\) broke off after \d+ bytes of its body: the CORS proxy closed the connection before the end\./);
    expect(error.message).to.contain('maxResponseBytes');
    expect(engine.history.list()[0]!.status).to.equal(0);
  });

  it('shows the proxy’s own refusal', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.strictProxy } });
    const error = await failure(engine.send({ method: 'GET', url: `${servers.api}/pets` }));
    expect(error.kind, error.message).to.equal('proxy-refused');
    expect(error.message).to.match(/refused the request \(private_address\): /);
  });
});
