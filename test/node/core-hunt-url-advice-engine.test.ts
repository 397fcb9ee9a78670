// The advice for a URL written wrong at its start, against a real loopback server where a send is made (hosts such as
// api.example.com are only prepared, never sent): shown while the user types when the URL would otherwise pass, and
// worded for two faults at once, a dynamic variable, a nested base_url, an empty one and a protocol-relative one.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError } from '../../src/core/index.js';

/** A server on 127.0.0.1 that answers 200 with the path it was asked for, and counts the requests. */
async function startPathEcho() {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    response.writeHead(200, { 'content-type': 'text/plain' }).end(request.url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type PathEcho = Awaited<ReturnType<typeof startPathEcho>>;

function engineWith(variables: Record<string, string>): RequestEngine {
  return new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The message of the `invalid-url` RequestError that `prepare` throws. */
function refusal(engine: RequestEngine, url: string): string {
  try {
    engine.prepare({ method: 'GET', url });
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, 'invalid-url', error.message);
    return error.message;
  }
  assert.fail(`expected ${url} to be refused`);
}

describe('a path without its "/" after a variable holding an origin, while the user types', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('is no code to run: template() refuses it as a send does, so no snippet or "Sends to" line shows the joined URL', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const request = { method: 'GET', url: '{{base_url}}pets' };
    assert.throws(() => engine.template(request), (error: unknown) => error instanceof RequestError && error.kind === 'invalid-url' && error.message === refusal(engine, request.url));
    // Written as told, a template again, placeholders kept.
    assert.equal(engine.template({ method: 'GET', url: '{{base_url}}/pets' }).url, '{{base_url}}/pets');
  });

  it('is among inspect()\'s warnings where the joined URL parses, worded as the refusal of Send (never sent)', () => {
    // https://api.example.compets and http://localhostpets are valid URLs, to other hosts: nothing else would flag them.
    for (const base of ['https://api.example.com', 'http://localhost']) {
      const engine = engineWith({ base_url: base });
      const request = { method: 'GET', url: '{{base_url}}pets' };
      const told = `"${base}pets" lacks a "/" after {{base_url}}: {{base_url}} is "${base}" in environment "Prod", so the path runs into its host. Write {{base_url}}/pets.`;
      assert.deepEqual(engine.inspect(request), { missing: [], cyclic: [], warnings: [told] });
      assert.equal(refusal(engine, request.url), told);
    }
  });

  it('is no warning once written as told, and goes', async () => {
    const engine = engineWith({ base_url: `http://${echo.host}` });
    const fixed = { method: 'GET', url: '{{base_url}}/pets' };
    assert.deepEqual(engine.inspect(fixed).warnings, []);
    assert.equal((await engine.send(fixed)).text, '/pets');
  });

  it('comes after the warning of a body labelled JSON that does not parse, which the console marks the body by', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const { warnings } = engine.inspect({ method: 'POST', url: '{{base_url}}pets', headers: { 'Content-Type': 'application/json' }, body: '{"name": ' });
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0]!, /^The body is not valid JSON/);
    assert.match(warnings[1]!, /^"https:\/\/api\.example\.compets" lacks a "\/" after \{\{base_url\}\}/);
  });

  it('is not warned about where the text after the variable is meant', () => {
    for (const [base, url] of [['https://api.example.com/', '{{base_url}}pets'], ['https://api.example.com/v1', '{{base_url}}pets'], ['https://api.example.com', '{{base_url}}/pets']]) {
      assert.deepEqual(engineWith({ base_url: base! }).inspect({ method: 'GET', url: url! }).warnings, [], `${base} ${url}`);
    }
  });
});

describe('a base_url without its scheme, followed by a path without its "/"', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('is told both fixes, not a URL that runs into the host', () => {
    const message = refusal(engineWith({ base_url: 'api.example.com' }), '{{base_url}}pets');
    assert.equal(message, '"api.example.compets" is not an absolute http(s) URL: {{base_url}} is "api.example.com" in environment "Prod", a host without its scheme, and the path runs into it. Set base_url to https://api.example.com and write {{base_url}}/pets.');
    // A host with a port, where the joined text is no host at all.
    assert.match(refusal(engineWith({ base_url: 'localhost:8080' }), '{{base_url}}pets/1'), /Set base_url to http:\/\/localhost:8080 and write \{\{base_url\}\}\/pets\/1\.$/);
  });

  it('goes, to the path meant, once both fixes are made', async () => {
    const engine = engineWith({ base_url: echo.host });
    assert.match(refusal(engine, '{{base_url}}pets'), new RegExp(`Set base_url to http://${echo.host} and write \\{\\{base_url\\}\\}/pets\\.$`));
    assert.equal(echo.count(), 0);
    engine.environments.add({ name: 'Prod', variables: { base_url: `http://${echo.host}` } });
    assert.equal((await engine.send({ method: 'GET', url: '{{base_url}}/pets' })).text, '/pets');
  });
});

describe('a dynamic variable at the start of the URL', () => {
  it('is told the path to write with the variable kept, not with a value that changes at every send', () => {
    const withBase = refusal(engineWith({ base_url: 'https://api.example.com' }), '{{$guid}}pets');
    assert.match(withBase, /; write \/\{\{\$guid\}\}pets to send it after base_url, or write the full URL\.$/);
    const withoutBase = refusal(engineWith({}), '{{$guid}}/pets');
    assert.match(withoutBase, /; write the full URL \(https:\/\/host\/\{\{\$guid\}\}\/pets\), or add a base_url variable \(e\.g\. https:\/\/api\.example\.com\) and write \/\{\{\$guid\}\}\/pets\.$/);
  });
});

describe('a base_url whose host without a scheme comes from another variable', () => {
  let echo: PathEcho;
  before(async () => {
    echo = await startPathEcho();
  });
  after(() => echo.close());

  it('names that variable and the value to set it to, for a URL after {{base_url}} and a relative one', () => {
    const engine = engineWith({ base_url: '{{host}}/v1', host: 'api.example.com' });
    assert.equal(
      refusal(engine, '{{base_url}}/pets'),
      '"api.example.com/v1/pets" is not an absolute http(s) URL: {{base_url}} is "api.example.com/v1" in environment "Prod", and {{host}}, which it starts with, is "api.example.com", a host without its scheme. Set host to https://api.example.com, or write the URL as https://api.example.com/v1/pets.',
    );
    assert.equal(
      refusal(engine, '/pets'),
      'The base_url of environment "Prod", "api.example.com/v1", is not an absolute http(s) URL, and {{host}}, which it starts with, is "api.example.com", a host without its scheme. Set host to https://api.example.com, or write the full URL in the request.',
    );
  });

  it('follows values that start with another variable, and stops at one that is no host by itself', () => {
    const deep = engineWith({ base_url: '{{root}}/v1', root: '{{ host }}:8443', host: 'api.example.com' });
    assert.match(refusal(deep, '/pets'), /\{\{host\}\}, which it starts with, is "api\.example\.com", a host without its scheme\. Set host to https:\/\/api\.example\.com,/);
    // "api" is no host: the fix is base_url's own value.
    const part = engineWith({ base_url: '{{sub}}.example.com', sub: 'api' });
    assert.match(refusal(part, '{{base_url}}/pets'), /\{\{base_url\}\} is "api\.example\.com" in environment "Prod", a host without its scheme\. Set base_url to https:\/\/api\.example\.com,/);
  });

  it('goes once that variable is set as told', async () => {
    const engine = engineWith({ base_url: '{{host}}/v1', host: echo.host });
    assert.match(refusal(engine, '{{base_url}}/pets'), new RegExp(`Set host to http://${echo.host},`));
    engine.environments.add({ name: 'Prod', variables: { base_url: '{{host}}/v1', host: `http://${echo.host}` } });
    assert.equal((await engine.send({ method: 'GET', url: '{{base_url}}/pets' })).text, '/v1/pets');
  });
});

describe('an empty base_url before a path without its "/"', () => {
  it('is told base_url is empty and what to set and write, not that the URL is relative', () => {
    const message = refusal(engineWith({ base_url: '' }), '{{base_url}}pets');
    assert.equal(message, '"pets" is not a URL: base_url is empty in environment "Prod". Set it to the API\'s address (e.g. https://api.example.com) and write {{base_url}}/pets, or write the full URL.');
  });
});

describe('a protocol-relative base_url or URL', () => {
  it('is told the URL with its scheme written', () => {
    const engine = engineWith({ base_url: '//api.example.com' });
    assert.equal(refusal(engine, '/pets'), 'The base_url of environment "Prod", "//api.example.com", is not an absolute http(s) URL; write it as https://api.example.com, or write the full URL in the request.');
    assert.match(refusal(engine, '{{base_url}}/pets'), /Set base_url to https:\/\/api\.example\.com, or write the URL as https:\/\/api\.example\.com\/pets\.$/);
    assert.match(refusal(engineWith({}), '//localhost:8080/pets'), /write it as http:\/\/localhost:8080\/pets, and check the variables it uses\.$/);
  });
});
