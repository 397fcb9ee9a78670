// Mistakes a docs team makes in a console's configuration and requests, each answered with what to write.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestEngine, RequestError, type ConsoleConfig, type RequestErrorKind } from '../../src/core/index.js';
import { startProxy } from '../../src/proxy/index.js';

/** The RequestError that preparing `url` (GET) with `config` throws; it must be of `kind`. */
function refusal(config: ConsoleConfig, url: string, kind: RequestErrorKind): string {
  try {
    new RequestEngine({ config }).prepare({ method: 'GET', url });
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, kind, error.message);
    return error.message;
  }
  return assert.fail(`expected ${url} to be refused`);
}

const withVariables = (variables: Record<string, string>, strictVariables = false): ConsoleConfig => ({ environments: [{ name: 'Production', variables }], strictVariables });

describe('Variables spelt otherwise than the request uses them', () => {
  it('names the variable spelt like base_url (baseUrl, BASE_URL) when a relative URL finds no base_url', () => {
    for (const name of ['baseUrl', 'BASE_URL', 'base-url']) {
      assert.equal(
        refusal(withVariables({ [name]: 'https://api.example.com' }), '/pets', 'invalid-url'),
        `"/pets" is relative, and environment "Production" has no base_url variable but has ${name}: rename it base_url, or write the full URL.`,
      );
    }
    assert.match(refusal(withVariables({ host: 'https://api.example.com' }), '/pets', 'invalid-url'), /the active environment has no base_url variable; add base_url/);
  });

  it('asks "did you mean" for an undefined variable spelt like a defined one, in strict mode and behind a failed URL check', () => {
    const strict = refusal(withVariables({ base_url: 'https://api.example.com', petId: '1' }, true), '{{base_url}}/pets/{{pet_id}}', 'unresolved-variables');
    assert.equal(strict, 'Not sent: {{pet_id}} has no value in environment "Production". Define it there, or pick another environment. Did you mean {{petId}}?');
    const check = refusal(withVariables({ base_url: 'https://api.example.com' }), '{{baseURL}}/pets', 'invalid-url');
    assert.match(check, /Likely cause: \{\{baseURL\}\} has no value in environment "Production"\. Define it there, or pick another environment\. Did you mean \{\{base_url\}\}\?$/);
    const two = refusal(withVariables({ base_url: 'https://api.example.com', petId: '1', Tag: 't' }, true), '{{base_url}}/pets/{{pet_id}}?tag={{tag}}&q={{query}}', 'unresolved-variables');
    assert.match(two, /Did you mean \{\{petId\}\} for \{\{pet_id\}\}\? Did you mean \{\{Tag\}\} for \{\{tag\}\}\?$/);
  });

  it('lists the dynamic variables for a $ name that is none of them', () => {
    const message = refusal(withVariables({}, true), 'https://api.example.com/pets/{{$randomEmail}}', 'unresolved-variables');
    assert.match(message, /\{\{\$randomEmail\}\} has no value in environment "Production"\. Define it there, or pick another environment\. The dynamic variables are \{\{\$guid\}\}, \{\{\$randomUUID\}\}, \{\{\$timestamp\}\}, \{\{\$isoTimestamp\}\}, \{\{\$randomInt\}\}\.$/);
  });
});

describe('A path with "//" in it', () => {
  const doubled = /^The URL's path, \/v1\/\/pets, has "\/\/", which most servers do not read as "\/" \(a base_url ending in "\/" followed by a path starting with one gives it\): remove one "\/"\.$/;

  it('is sent, with a warning, when {{base_url}}/ follows a base_url ending in "/"', () => {
    const engine = new RequestEngine({ config: withVariables({ base_url: 'https://api.example.com/v1/' }) });
    const request = { method: 'GET', url: '{{base_url}}/pets' };
    const prepared = engine.prepare(request);
    assert.equal(prepared.url, 'https://api.example.com/v1//pets');
    assert.match(prepared.warnings.join('\n'), doubled);
    assert.match(engine.inspect(request).warnings.join('\n'), doubled);
  });

  it('is not warned about for a relative URL, which goes after base_url with one "/", nor in the query', () => {
    const engine = new RequestEngine({ config: withVariables({ base_url: 'https://api.example.com/v1/' }) });
    assert.deepEqual(engine.prepare({ method: 'GET', url: '/pets?next=//x' }).warnings, []);
    assert.equal(engine.prepare({ method: 'GET', url: '/pets' }).url, 'https://api.example.com/v1/pets');
  });
});

describe('A URL holding a character no one can see', () => {
  it('is sent, with a warning naming it and the form it goes in, when a pasted value brought it', () => {
    const engine = new RequestEngine({ config: withVariables({ base_url: 'https://api.example.com', pet_id: '42\u200b' }) });
    const request = { method: 'GET', url: '{{base_url}}/pets/{{pet_id}}' };
    const warning = /^The URL holds U\+200B, an invisible or space-like character \(often pasted in with a value\), sent as %E2%80%8B: remove it, or write %E2%80%8B if the URL needs it\.$/;
    assert.match(engine.prepare(request).warnings.join('\n'), warning);
    assert.match(engine.inspect(request).warnings.join('\n'), warning);
    assert.deepEqual(engine.prepare({ method: 'GET', url: 'https://api.example.com/café/😀?q=naïve' }).warnings, []);
  });

  it('is named when it keeps the URL from parsing, which otherwise looks right', () => {
    assert.match(refusal(withVariables({ base_url: 'https://api.example.com\u00a0' }), '/pets', 'invalid-url'), /is not an absolute http\(s\) URL; write it as https:\/\/host or https:\/\/host\/path, without U\+00A0, an invisible or space-like character/);
    assert.match(refusal(withVariables({}), 'https://api.example.com\u00a0/pets', 'invalid-url'), /https:\/\/host\/path, without U\+00A0/);
  });
});

describe('Headers of a response through the CORS proxy', () => {
  let api: Server;
  let apiOrigin: string;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => {
    api = createServer((request, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: '/pets' }).end();
      else response.writeHead(200, { 'content-type': 'text/plain', 'x-api': 'yes', 'access-control-allow-origin': 'https://elsewhere.example' }).end('pets');
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    proxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
  });
  after(async () => {
    await proxy.close();
    api.closeAllConnections();
    await new Promise((resolve) => api.close(resolve));
  });

  it('are those the API sent, without the proxy’s own CORS headers and final URL (shown as "Redirected to")', async () => {
    const engine = new RequestEngine({ config: { corsProxy: proxy.url }, pageOrigin: 'http://docs.localhost:9000' });
    for (const path of ['/pets', '/moved']) {
      const response = await engine.send({ method: 'GET', url: `${apiOrigin}${path}` });
      const names = response.headers.map(([name]) => name);
      assert.deepEqual(names.filter((name) => name.startsWith('access-control-') || name.startsWith('x-try-it-proxy')), [], path);
      assert.ok(names.includes('x-api'), path);
    }
    const redirected = await engine.send({ method: 'GET', url: `${apiOrigin}/moved` });
    assert.equal(redirected.redirectedTo, `${apiOrigin}/pets`);
  });
});
