// A path run into the port, through a variable (`{{base_url}}pets` after `http://127.0.0.1:8080`) or typed without a
// scheme (`localhost:8080pets`): told that the path ran into the port, with the URL to write. Sends go to a loopback
// server of the test's own; other hosts are only prepared, never sent to. Failed on the code as it was before: the
// variable case spoke of the host, and the schemeless one got "write it as https://host/path".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RequestError } from '../../src/core/index.js';
import { engineWith, refusal, startPathEcho, type PathEcho } from './core-support/path-echo.js';

describe('a path run into the port of a variable', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('is told it ran into the port, naming the variable, while typing, on Send and for a snippet; written as told, it goes', async () => {
    const engine = engineWith({ base_url: echo.origin });
    const request = { method: 'GET', url: '{{base_url}}pets' };
    const told = `"${echo.origin}pets" lacks a "/" after {{base_url}}: {{base_url}} is "${echo.origin}" in environment "Prod", so the path runs into its port, ${echo.port}. Write {{base_url}}/pets.`;
    assert.deepEqual(engine.inspect(request).warnings, [told]);
    assert.equal(refusal(() => engine.prepare(request)), told);
    assert.equal(refusal(() => engine.template(request)), told);
    await assert.rejects(engine.send(request), (error: unknown) => error instanceof RequestError && error.message === told);
    assert.equal(echo.count(), 0);
    assert.equal((await engine.send({ method: 'GET', url: '{{base_url}}/pets' })).text, '/pets');
  });

  it('names the variable as written, and any variable, not only base_url', () => {
    const engine = engineWith({ api: 'http://localhost:3000' });
    assert.equal(
      refusal(() => engine.prepare({ method: 'GET', url: '{{ api }}v1/pets?limit=2' })),
      '"http://localhost:3000v1/pets?limit=2" lacks a "/" after {{api}}: {{api}} is "http://localhost:3000" in environment "Prod", so the path runs into its port, 3000. Write {{ api }}/v1/pets?limit=2.',
    );
    // Without a port, it is the host the path runs into.
    const noPort = engineWith({ base_url: 'https://api.example.com' });
    assert.match(refusal(() => noPort.prepare({ method: 'GET', url: '{{base_url}}pets' })), /so the path runs into its host\. Write \{\{base_url\}\}\/pets\.$/);
  });

  it('says port for a value without its scheme too, with both fixes', () => {
    const engine = engineWith({ base_url: 'localhost:8080' });
    assert.equal(
      refusal(() => engine.prepare({ method: 'GET', url: '{{base_url}}pets' })),
      '"localhost:8080pets" is not an absolute http(s) URL: {{base_url}} is "localhost:8080" in environment "Prod", a host without its scheme, and the path runs into its port, 8080. Set base_url to http://localhost:8080 and write {{base_url}}/pets.',
    );
  });
});

describe('a path run into the port of a URL typed without its scheme', () => {
  it('is told to add the scheme and a "/" before the path, on Send and for a snippet, and is not read into a password nor a URL still being typed', () => {
    const engine = engineWith({});
    const cases: [url: string, told: string][] = [
      ['localhost:8080pets', '"localhost:8080pets" lacks its scheme and a "/" after its port, 8080, so the path runs into it. Write http://localhost:8080/pets.'],
      ['127.0.0.1:3000v1/pets?x=1', '"127.0.0.1:3000v1/pets?x=1" lacks its scheme and a "/" after its port, 3000, so the path runs into it. Write http://127.0.0.1:3000/v1/pets?x=1.'],
      ['api.example.com:8443pets', '"api.example.com:8443pets" lacks its scheme and a "/" after its port, 8443, so the path runs into it. Write https://api.example.com:8443/pets.'],
      ['[::1]:8080pets', '"[::1]:8080pets" lacks its scheme and a "/" after its port, 8080, so the path runs into it. Write http://[::1]:8080/pets.'],
    ];
    for (const [url, told] of cases) {
      assert.equal(refusal(() => engine.prepare({ method: 'GET', url })), told, url);
      assert.equal(refusal(() => engine.template({ method: 'GET', url })), told, url);
    }
    // Nothing to advise while it is typed without a scheme: inspect tells a URL's start only once it has one.
    assert.deepEqual(engine.inspect({ method: 'GET', url: 'localhost:8080p' }).warnings, []);
    assert.doesNotMatch(refusal(() => engine.prepare({ method: 'GET', url: 'user:123abc@localhost/pets' })), /port/);
    assert.match(refusal(() => engine.prepare({ method: 'GET', url: 'localhost:8080/pets' })), /write it as http:\/\/localhost:8080\/pets/);
  });
});
