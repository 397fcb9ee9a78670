// URL advice of the engine, against a real loopback server where a send is made (hosts such as api.example.com are
// only prepared, never sent): a path run into the port, a variable holding the start of a host, a "#" that cuts the
// query off, and the template of a URL that a variable makes relative.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RequestError } from '../../src/core/index.js';
import { engineWith, refusal, startPathEcho, type PathEcho } from './core-support/path-echo.js';

describe('a path run into the port', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('written in full, is told while typing and on Send to add "/" before the path, and goes once it is', async () => {
    const engine = engineWith({});
    const request = { method: 'GET', url: `${echo.origin}pets/1?limit=2` };
    const told = `"${echo.origin}pets/1?limit=2" lacks a "/" after its port, ${echo.port}, so the path runs into it. Add "/" before "pets": ${echo.origin}/pets/1?limit=2.`;
    assert.deepEqual(engine.inspect(request), { missing: [], cyclic: [], warnings: [told] });
    assert.equal(refusal(() => engine.prepare(request)), told);
    // No snippet of it either: its code would fail alike.
    assert.equal(refusal(() => engine.template(request)), told);
    await assert.rejects(engine.send(request), (error: unknown) => error instanceof RequestError && error.message === told);
    assert.equal(echo.count(), 0);
    assert.equal((await engine.send({ method: 'GET', url: `${echo.origin}/pets/1?limit=2` })).text, '/pets/1?limit=2');
  });

  it('after {{base_url}} holding an origin with a port, is told while typing as on Send', () => {
    const engine = engineWith({ base_url: echo.origin });
    const request = { method: 'GET', url: '{{base_url}}pets' };
    const told = `"${echo.origin}pets" lacks a "/" after {{base_url}}: {{base_url}} is "${echo.origin}" in environment "Prod", so the path runs into its port, ${echo.port}. Write {{base_url}}/pets.`;
    assert.deepEqual(engine.inspect(request).warnings, [told]);
    assert.equal(refusal(() => engine.prepare(request)), told);
  });

  it('is not read into a user name and password, nor into a URL still being typed', () => {
    const engine = engineWith({});
    // `user:123abc@host`: no port, but credentials, which fetch refuses.
    assert.match(refusal(() => engine.prepare({ method: 'GET', url: `http://user:123abc@127.0.0.1:${echo.port}/pets` })), /holds a user name or password/);
    for (const url of ['htt', 'https:/', 'localhost:8080pets']) assert.deepEqual(engine.inspect({ method: 'GET', url }).warnings, [], url);
  });
});

describe('a variable holding the start of a host without a dot', () => {
  it('is completed by the text after it when that has the dot: no warning, no refusal, the template kept', () => {
    const engine = engineWith({ prefix: 'https://api' });
    const request = { method: 'GET', url: '{{prefix}}v2.example.com/pets' };
    assert.deepEqual(engine.inspect(request).warnings, []);
    assert.equal(engine.prepare(request).url, 'https://apiv2.example.com/pets');
    assert.equal(engine.template(request).url, '{{prefix}}v2.example.com/pets');
  });

  it('is still told a path without its "/": text without a dot, after localhost, or after a host with a dot', () => {
    for (const [base, url] of [['https://api', '{{base_url}}pets'], ['http://localhost', '{{base_url}}openapi.json'], ['https://api.example.com', '{{base_url}}pets.json']]) {
      assert.match(refusal(() => engineWith({ base_url: base! }).prepare({ method: 'GET', url: url! })), /lacks a "\/" after \{\{base_url\}\}/, `${base} ${url}`);
    }
  });
});

describe('a "#" in the URL', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  const FRAGMENT_WARNING = 'The URL\'s "#" starts a fragment, which is never sent (nor by the snippets): the API gets the URL up to it. Write "#" as %23 if it belongs to the path or a value.';

  it('is warned about while typing and with the send, whose API gets the query cut off there', async () => {
    // The colour comes from a variable, as it often does: nothing in the URL as written shows the "#".
    const engine = engineWith({ base_url: echo.origin, color: '#ff0000' });
    const request = { method: 'GET', url: '{{base_url}}/paint?color={{color}}&size=2' };
    assert.deepEqual(engine.inspect(request).warnings, [FRAGMENT_WARNING]);
    const response = await engine.send(request);
    assert.equal(response.text, '/paint?color=');
    assert.deepEqual(response.request.warnings, [FRAGMENT_WARNING]);
    // A trailing one too: `?q=C#` searches for "C".
    assert.deepEqual(engine.inspect({ method: 'GET', url: `${echo.origin}/search?q=C#` }).warnings, [FRAGMENT_WARNING]);
  });

  it('is no warning written as %23, which arrives', async () => {
    const engine = engineWith({ base_url: echo.origin, color: '%23ff0000' });
    const request = { method: 'GET', url: '{{base_url}}/paint?color={{color}}&size=2' };
    assert.deepEqual(engine.inspect(request).warnings, []);
    assert.equal((await engine.send(request)).text, '/paint?color=%23ff0000&size=2');
  });
});

describe('the template of a URL that only its variable makes relative', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('is written after {{base_url}}, so that it resolves to where a send goes', async () => {
    const engine = engineWith({ base_url: echo.origin, endpoint: '/pets' });
    const request = { method: 'GET', url: '{{endpoint}}?limit=2' };
    const { url } = engine.template(request);
    assert.equal(url, '{{base_url}}{{endpoint}}?limit=2');
    const sent = await engine.send(request);
    assert.equal(sent.text, '/pets?limit=2');
    assert.equal(engine.environments.resolve(url), sent.request.url);
  });

  it('is refused, saying why, after a base_url ending in "/", whose slash a send lets stand for the value\'s', async () => {
    const engine = engineWith({ base_url: `${echo.origin}/`, endpoint: '/pets' });
    const request = { method: 'GET', url: '{{endpoint}}' };
    assert.equal(
      refusal(() => engine.template(request)),
      '"{{endpoint}}" becomes a path once resolved: a snippet cannot drop its "/" after base_url\'s, as a send does. Write that "/" in the URL, or end base_url without one.',
    );
    assert.equal((await engine.send(request)).text, '/pets');
  });

  it('is refused as a send refuses it when base_url cannot take a path', () => {
    const engine = engineWith({ base_url: 'https://api.example.com?key=1', endpoint: '/pets' });
    const request = { method: 'GET', url: '{{endpoint}}' };
    assert.equal(refusal(() => engine.template(request)), refusal(() => engine.prepare(request)));
  });
});
