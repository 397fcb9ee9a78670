// The request engine against real loopback servers: a header named `__proto__` arrives, and a URL written wrong at
// its start (a path without its "/" after base_url, a base_url without its scheme) is refused with the fix to write.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError } from '../../src/core/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { rejectsWith } from './request-support/rejects-with.js';

/** An echo server on `host`: it answers each request with its raw header lines, and counts them. */
async function startEcho(host: string) {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.rawHeaders));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    count: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type Echo = Awaited<ReturnType<typeof startEcho>>;

/** The header lines that arrived, as [name, value] pairs. */
function arrived(text: string): [string, string][] {
  const raw = JSON.parse(text) as string[];
  return raw.flatMap((name, index) => (index % 2 === 0 ? [[name, raw[index + 1]!] as [string, string]] : []));
}

/** The value of the header that arrived named `name` in any case (names ignore case), or `undefined`. */
function arrivedValue(text: string, name: string): string | undefined {
  return arrived(text).find(([sent]) => sent.toLowerCase() === name)?.[1];
}

function engineWith(variables: Record<string, string>): RequestEngine {
  return new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The RequestError that `prepare` throws, of kind `invalid-url`. */
function refusal(engine: RequestEngine, url: string): RequestError {
  try {
    engine.prepare({ method: 'GET', url });
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, 'invalid-url', error.message);
    return error;
  }
  assert.fail(`expected ${url} to be refused`);
}

describe('a header named __proto__', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho('127.0.0.1');
  });
  after(() => echo.close());

  it('arrives at the server, from a header row, a headers object and the default headers', async () => {
    const rows = await new RequestEngine().send({ method: 'GET', url: `${echo.origin}/`, headers: [{ name: '__proto__', value: 'row' }, { name: 'X-After', value: 'a' }] });
    assert.equal(arrivedValue(rows.text, '__proto__'), 'row');
    assert.equal(arrivedValue(rows.text, 'x-after'), 'a');
    const object = await new RequestEngine().send({ method: 'GET', url: `${echo.origin}/`, headers: JSON.parse('{"__proto__": "object"}') as Record<string, string> });
    assert.equal(arrivedValue(object.text, '__proto__'), 'object');
    const defaults = await new RequestEngine({ config: { defaultHeaders: JSON.parse('{"__proto__": "default"}') as Record<string, string> } }).send({ method: 'GET', url: `${echo.origin}/` });
    assert.equal(arrivedValue(defaults.text, '__proto__'), 'default');
  });

  it('is kept as written in what the console shows and records', async () => {
    const engine = new RequestEngine();
    const response = await engine.send({ method: 'GET', url: `${echo.origin}/`, headers: [{ name: '__proto__', value: 'v' }] });
    assert.deepEqual(Object.entries(response.request.headers), [['__proto__', 'v']]);
    assert.deepEqual(Object.entries(engine.history.list()[0]!.headers), [['__proto__', 'v']]);
  });

  it('arrives through the CORS proxy', async () => {
    const proxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    try {
      const engine = new RequestEngine({ config: { corsProxy: `${proxy.url}?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
      const response = await engine.send({ method: 'GET', url: `${echo.origin}/`, headers: [{ name: '__proto__', value: 'proxied' }] });
      assert.equal(response.request.viaProxy, true);
      assert.equal(arrivedValue(response.text, '__proto__'), 'proxied');
    } finally {
      await proxy.close();
    }
  });
});

describe('a path without its "/" after a variable holding an origin', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho('127.0.0.1');
  });
  after(() => echo.close());

  it('is refused with the URL to write, and nothing is sent', async () => {
    const engine = engineWith({ base_url: echo.origin });
    const before = echo.count();
    await rejectsWith(
      engine.send({ method: 'GET', url: '{{base_url}}pets/1' }),
      'invalid-url',
      new RegExp(`^"${echo.origin.replace(/\./g, '\\.')}pets/1" lacks a "/" after \\{\\{base_url\\}\\}: \\{\\{base_url\\}\\} is "${echo.origin.replace(/\./g, '\\.')}" in environment "Prod", so the path runs into its port, ${echo.port}\\. Write \\{\\{base_url\\}\\}/pets/1\\.$`),
    );
    // The fix, written as the variable was (spaces and all).
    assert.match(refusal(engine, '{{ base_url }}pets?limit=2').message, /Write \{\{ base_url \}\}\/pets\?limit=2\.$/);
    assert.equal(echo.count(), before);
    // As told, it goes.
    assert.equal((await engine.send({ method: 'GET', url: '{{base_url}}/pets/1' })).status, 200);
  });

  it('is refused where the joined URL parses, with the host changed (never sent, so never looked up)', () => {
    // http://localhostpets and https://api.example.compets are valid URLs, to other hosts.
    for (const base of ['http://localhost', 'https://api.example.com']) {
      const { message } = refusal(engineWith({ base_url: base }), '{{base_url}}pets');
      assert.match(message, new RegExp(`^"${base.replace(/\./g, '\\.')}pets" lacks a "/" after \\{\\{base_url\\}\\}: .* Write \\{\\{base_url\\}\\}/pets\\.$`));
    }
  });

  it('is not refused where what follows is meant: a port, a "/", text after a path or a trailing "/", or the rest of a host', async () => {
    const port = engineWith({ host: 'http://127.0.0.1' });
    assert.equal((await port.send({ method: 'GET', url: `{{host}}:${echo.port}/pets` })).status, 200);
    for (const [base, url, sent] of [
      [`${echo.origin}/`, '{{base_url}}pets', `${echo.origin}/pets`],
      [`${echo.origin}/pets`, '{{base_url}}.json', `${echo.origin}/pets.json`],
      [`${echo.origin}/v1`, '{{base_url}}pets', `${echo.origin}/v1pets`],
      // A variable holding the start of a host, which the text completes (prepared only: never sent, never looked up).
      ['https://tenant-', '{{base_url}}eu.example.com/pets', 'https://tenant-eu.example.com/pets'],
      ['https://api.', '{{base_url}}example.com/pets', 'https://api.example.com/pets'],
    ]) {
      assert.equal(engineWith({ base_url: base! }).prepare({ method: 'GET', url: url! }).url, sent);
    }
  });
});

describe('a base_url at the start of the URL, without its scheme', () => {
  let echo: Echo;
  before(async () => {
    echo = await startEcho('::1');
  });
  after(() => echo.close());

  it('an IPv6 address: the variable is told its value, http:// for this machine, and the value so set sends', async () => {
    const written = `[::1]:${echo.port}`;
    const engine = engineWith({ base_url: written });
    const before = echo.count();
    const { message } = refusal(engine, '{{base_url}}/pets');
    assert.equal(message, `"${written}/pets" is not an absolute http(s) URL: {{base_url}} is "${written}" in environment "Prod", a host without its scheme. Set base_url to http://${written}, or write the URL as http://${written}/pets.`);
    // The same value, for a relative URL, is told the same fix.
    assert.match(refusal(engine, '/pets').message, new RegExp(`write it as http://\\[::1\\]:${echo.port}, or write the full URL`));
    assert.equal(echo.count(), before);
    engine.environments.add({ name: 'Prod', variables: { base_url: `http://${written}` } });
    assert.equal((await engine.send({ method: 'GET', url: '{{base_url}}/pets' })).status, 200);
  });

  it('a value read as no host is told to be an address, not to be a path after base_url', () => {
    // The path hint ("write /myapi/pets to send it after base_url") would put base_url after itself.
    for (const value of ['myapi', 'https//api.example.com']) {
      const { message } = refusal(engineWith({ base_url: value }), '{{base_url}}/pets');
      assert.equal(message, `The base_url of environment "Prod", ${JSON.stringify(value)}, is not an absolute http(s) URL; write it as https://host or https://host/path, or write the full URL in the request.`);
    }
  });

  it('a URL missing the scheme\'s ":" is not told to start with "/"', () => {
    const { message } = refusal(engineWith({ base_url: 'https://api.example.com' }), 'https//api.example.com/pets');
    assert.doesNotMatch(message, /write \/https/);
    assert.match(message, /^"https\/\/api\.example\.com\/pets" is not an absolute http\(s\) URL; write it as https:\/\/host\/path/);
  });
});
