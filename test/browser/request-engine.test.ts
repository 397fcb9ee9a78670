import { expect, waitUntil } from '@open-wc/testing';
import { RequestEngine, ResponseBodyError, isRequestError } from '../../src/core/index.js';
import { failure } from './support/request-failure.js';

interface TestServers {
  api: string;
  corsApi: string;
  proxy: string;
  strictProxy: string;
  cappedProxy: string;
  closed: string;
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

  it('says a URL too long for the proxy may be why it seems down: its refusal of the preflight reads as no answer', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.proxy } });
    // A custom header needs a preflight, which the proxy's HTTP server refuses (431) before any CORS header is written.
    const long = `${servers.api}/pets?q=${'a'.repeat(20_000)}`;
    const error = await failure(engine.send({ method: 'GET', url: long, headers: { 'X-Trace': '1' } }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.match(/^Could not reach the CORS proxy at .*; check that it is running and that corsProxy points at it\. Its URL comes to \d+ KB: servers refuse request heads that large/);
    // A proxy that is down, with a URL of the usual size, gets no such hint.
    const down = await failure(new RequestEngine({ config: { corsProxy: `${servers.closed}/` } }).send({ method: 'GET', url: `${servers.api}/pets`, headers: { 'X-Trace': '1' } }));
    expect(down.message).to.not.contain('KB');
  });

  it('tells a server that is down apart from a CORS refusal', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.closed}/pets` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.contain(`Could not reach ${servers.closed}`);
  });

  it('blames a redirect to an origin without CORS on the redirect, not on the API that allows the page', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/to-api` }));
    expect(error.kind, error.message).to.equal('cors');
    expect(error.message).to.equal(
      `${servers.corsApi} answered with a redirect, and following it failed: its target may not allow pages on ${location.origin} to read its responses (CORS), may be down, or the redirects may loop. The page cannot see where a redirect leads. Set the console's corsProxy (for example a try-it-proxy you run): the proxy follows redirects itself and reports where they led.`,
    );
    // The fix it names: the proxy follows the redirect and says where it led.
    const response = await new RequestEngine({ config: { corsProxy: servers.proxy } }).send({ method: 'GET', url: `${servers.corsApi}/to-api` });
    expect([response.status, response.redirectedTo]).to.deep.equal([200, `${servers.api}/pets`]);
  });

  it('tells a redirect loop on an API that allows the page from a server that did not answer', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/loop` }));
    expect(error.kind, error.message).to.equal('cors');
    expect(error.message).to.match(new RegExp(`^${servers.corsApi.replaceAll('.', '\\.')} answered with a redirect, and following it failed: .* or the redirects may loop\\.`));
    const proxied = await failure(new RequestEngine({ config: { corsProxy: servers.proxy } }).send({ method: 'GET', url: `${servers.corsApi}/loop` }));
    expect([proxied.kind, proxied.proxyCode]).to.deep.equal(['proxy-refused', 'too_many_redirects']);
  });

  it('tells a refused preflight apart from an API that allows the page nothing', async () => {
    const plain = await new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/pets` });
    expect(plain.status).to.equal(200);
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/pets`, headers: { 'X-Trace': 't-1' } }));
    expect(error.kind, error.message).to.equal('cors');
    expect(error.message).to.match(new RegExp(`^Blocked by CORS: ${servers.corsApi.replaceAll('.', '\\.')} lets pages on ${location.origin.replaceAll('.', '\\.')} read its answer to a plain request, but not to this one: most likely its CORS headers do not allow this method, these headers or credentials`));
  });

  it('explains a body that broke off as such, with the status and the bytes that came', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/cut` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.equal(`The response (status 200) broke off after 100 bytes of its body: ${servers.corsApi} closed the connection before the end. Try again; if it keeps happening, the server or something between is dropping the response.`);
    expect(error.cause).to.be.instanceOf(ResponseBodyError);
  });

  it('names an undecodable Content-Encoding as a possible cause of a body that broke off, which the browser reports alike', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/mislabelled-gzip` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.match(/^The response \(status 200\) broke off after 0 bytes of its body: .* closed the connection before the end\. .* Or the body did not decode as its Content-Encoding \(gzip\) says, which a browser reports alike\.$/);
  });

  it('says how much of the response had come when its body paused longer than the timeout', async () => {
    const id = `pause-${Math.random()}`;
    const sent = new RequestEngine({ config: { timeout: 1000 } }).send({ method: 'GET', url: `${servers.corsApi}/stream?id=${id}&type=text/plain` });
    // Once the stream is open: "hello", then nothing.
    await waitUntil(async () => (await fetch(`${servers.corsApi}/stream-push?id=${id}&text=hello`)).ok, 'the stream did not open', { timeout: 5_000 });
    const error = await failure(sent);
    expect(error.kind, error.message).to.equal('timeout');
    expect(error.message).to.match(/^The response \(status 200\) stopped arriving for 1 s after 5 bytes of its body: the server answered/);
    expect(error.cause).to.be.instanceOf(ResponseBodyError);
  });

  it('says a server that answers slowly may lack CORS headers, not that it could not be reached, when the checks run out of time', async () => {
    // The answer comes after 4 s and the page may not read it: 2 s of the 6 s timeout are left for the checks, which
    // each wait 4 s for their answer too. Two seconds of margin either way.
    const error = await failure(new RequestEngine({ config: { timeout: 6_000 } }).send({ method: 'GET', url: `${servers.api}/slow` }));
    expect(error.kind, error.message).to.equal('network');
    expect(error.message).to.equal(`The request to ${servers.api} failed, and checking why took longer than the time left for it: the server answers slowly, if at all. If the browser's network panel shows it answered, the answer lacked the CORS headers that let pages on ${location.origin} read it: set the console's corsProxy (for example a try-it-proxy you run), or have the API allow this origin.`);
  });

  it('does not cut off a body that keeps coming for longer than the timeout', async () => {
    const response = await new RequestEngine({ config: { timeout: 1000 } }).send({ method: 'GET', url: `${servers.corsApi}/drip` });
    expect(response.text).to.equal('y'.repeat(20));
    expect(response.timing.total).to.be.above(1000);
  });

  it('decodes text as a browser tab does: a byte order mark first, then the charset parameter, and says when it cannot', async () => {
    const hex = (...parts: (number[] | string)[]) => parts.map((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part).map((byte) => byte.toString(16).padStart(2, '0')).join('')).join('');
    const utf16le = (text: string) => [...text].flatMap((character) => [character.charCodeAt(0) & 0xff, character.charCodeAt(0) >> 8]);
    const send = (type: string, body: string) => new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/bytes?type=${encodeURIComponent(type)}&hex=${body}` });
    for (const [type, body, text] of [
      ['text/plain', hex([0xff, 0xfe], utf16le('héllo')), 'héllo'],
      ['text/plain; charset=utf-16', hex([0xfe, 0xff, 0, 0x68, 0, 0x69]), 'hi'],
      ['text/plain; charset=iso-8859-1', hex([0xef, 0xbb, 0xbf], 'café'), 'café'],
      ['text/plain; notcharset=utf-8; charset=iso-8859-1', hex([0x63, 0x61, 0x66, 0xe9]), 'café'],
    ]) {
      const response = await send(type!, body!);
      expect([response.text, response.warnings], type).to.deep.equal([text, []]);
    }
    const unknown = await send('text/plain; charset=x-klingon', hex('café'));
    expect(unknown.text).to.equal('café');
    expect(unknown.warnings).to.have.length(1);
    expect(unknown.warnings[0]).to.match(/^The response declares charset "x-klingon", which the console cannot decode; it is shown as UTF-8/);
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
    expect(error.message).to.match(/^The response \(status 200\) broke off after \d+ bytes of its body: the CORS proxy closed the connection before the end\. .*send the request from your own machine, without the proxy: the code under Code does\.$/);
    expect(error.message).to.contain('larger than it relays (50 MiB unless whoever runs it set another limit)');
    expect(engine.history.list()[0]!.status).to.equal(0);
  });

  it('shows the proxy’s own refusal', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.strictProxy } });
    const error = await failure(engine.send({ method: 'GET', url: `${servers.api}/pets` }));
    expect(error.kind, error.message).to.equal('proxy-refused');
    expect(error.message).to.match(/refused the request \(private_address\): /);
  });
});
