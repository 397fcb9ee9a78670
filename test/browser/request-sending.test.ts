import { expect } from '@open-wc/testing';
import { EnvironmentManager, RequestEngine } from '../../src/core/index.js';
import { failure } from './support/request-failure.js';

// A hostile review of preparing and sending, in Chromium: each test here failed before the fix it names.

interface TestServers {
  api: string;
  corsApi: string;
  proxy: string;
}

describe('Sending in Chromium', () => {
  let servers: TestServers;
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('warns that a JSON body without Content-Type goes as text/plain;charset=UTF-8, which is what Chromium sends', async () => {
    const engine = new RequestEngine({ config: { corsProxy: servers.proxy } });
    const response = await engine.send({ method: 'POST', url: `${servers.api}/pets`, body: '{"name":"Rex"}' });
    expect(JSON.parse(response.text).headers['content-type']).to.equal('text/plain;charset=UTF-8');
    expect(response.request.warnings).to.have.length(1);
    expect(response.request.warnings[0]).to.match(/^This body is JSON, but with no Content-Type header it is sent as text\/plain;charset=UTF-8 .* Add the header Content-Type: application\/json\.$/);
    const typed = await engine.send({ method: 'POST', url: `${servers.api}/pets`, headers: { 'Content-Type': 'application/json' }, body: '{"name":"Rex"}' });
    expect([JSON.parse(typed.text).headers['content-type'], typed.request.warnings]).to.deep.equal(['application/json', []]);
  });

  it('blames an answer without CORS headers, not a preflight, when the request needed none', async () => {
    // A plain GET: no OPTIONS request went first, so "its CORS headers do not allow this method or these headers" is wrong.
    const error = await failure(new RequestEngine().send({ method: 'GET', url: `${servers.corsApi}/error-without-cors` }));
    expect(error.kind, error.message).to.equal('cors');
    expect(error.message).to.equal(
      `Blocked by CORS: ${servers.corsApi} lets pages on ${location.origin} read its answer to a plain HEAD request, but this request failed though it needed no preflight: most likely its answer came without the CORS headers that allow it, as APIs often send errors (a 404 or 500 from a default handler), or the connection broke. Set the console's corsProxy (for example a try-it-proxy you run) to see the answer, or have the API send Access-Control-Allow-Origin with every response.`,
    );
    // The fix it names shows the answer.
    const response = await new RequestEngine({ config: { corsProxy: servers.proxy } }).send({ method: 'GET', url: `${servers.corsApi}/error-without-cors` });
    expect([response.status, response.text]).to.deep.equal([500, 'Internal Server Error']);
    // Requests the browser asked about first (the API's preflight answer allows no method or header of its own) keep
    // the preflight explanation; other plain ones get this one.
    const url = `${servers.corsApi}/error-without-cors`;
    for (const [request, preflight] of [
      [{ method: 'GET', url, headers: { 'X-Trace': 't-1' } }, true],
      [{ method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body: '{}' }, true],
      [{ method: 'DELETE', url }, true],
      [{ method: 'POST', url, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'x' }, false],
      [{ method: 'GET', url, headers: { Accept: 'application/json', 'Accept-Language': 'fr-CH, fr;q=0.9' } }, false],
    ] as const) {
      const { message } = await failure(new RequestEngine().send(request));
      expect(message.includes('the browser asks first, with an OPTIONS request'), `${JSON.stringify(request)}: ${message}`).to.equal(preflight);
    }
  });

  it('refuses a port Chromium refuses to connect to, rather than calling the server unreachable', async () => {
    const error = await failure(new RequestEngine().send({ method: 'GET', url: 'http://127.0.0.1:6667/pets' }));
    expect(error.kind, error.message).to.equal('invalid-url');
    expect(error.message).to.match(/^"http:\/\/127\.0\.0\.1:6667\/pets" uses port 6667, which browsers refuse to connect to/);
  });

  it('refuses a lone surrogate in a proxied URL with a reason, not "URI malformed"', async () => {
    const environments = new EnvironmentManager({ name: 'Prod', variables: { base_url: servers.api, q: 'rock \uD83C' } });
    const engine = new RequestEngine({ environments, config: { corsProxy: `${servers.proxy}?url={url}` } });
    const error = await failure(engine.send({ method: 'GET', url: '/pets?q={{q}}' }));
    expect(error.kind, error.message).to.equal('invalid-url');
    expect(error.message).to.contain('holds a lone UTF-16 surrogate');
  });
});
