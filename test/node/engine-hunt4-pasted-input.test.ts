// What a docs reader pastes or types that is not quite a URL or a header: a line copied with its method, quotes or
// `curl`; a space before the path or in the host; a port past 65535; an IPv6 address without brackets; an empty URL;
// a whole header line in the name field; an invisible character in a pasted key. Each is told what to write. Sends go
// to a loopback server of the test's own; other hosts are only prepared, never sent to. Failed on the code as it was
// before: each URL got "write it as https://host/path", the header line "use only letters…", the invisible character
// nothing, and `:8080:9090` the advice to add "/" before ":9090".
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError, type ConsoleRequest } from '../../src/core/index.js';

/** A server on 127.0.0.1 that answers 200 with the path and X-Api-Key header it got. */
async function startEcho() {
  const server: Server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: request.url, key: request.headers['x-api-key'] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function engineWith(variables: Record<string, string>): RequestEngine {
  return new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The RequestError that preparing `request` throws, checked for its kind. */
function refusal(engine: RequestEngine, request: ConsoleRequest, kind: RequestError['kind']): string {
  try {
    engine.prepare(request);
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, kind, error.message);
    return error.message;
  }
  assert.fail(`expected a refusal of ${JSON.stringify(request)}`);
}

describe('a URL pasted with what surrounds it on a docs page', () => {
  it('is told to keep only the URL, and the method to choose', () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const cases: [url: string, told: string][] = [
      ['GET /pets', '"GET /pets" is more than a URL; write only /pets as the URL, with GET as the method.'],
      // The URL to keep is the one written, its variables kept.
      ['PUT {{base_url}}/pets/1', '"PUT https://api.example.com/pets/1" is more than a URL; write only {{base_url}}/pets/1 as the URL, with PUT as the method.'],
      ['post https://api.example.com/pets', '"post https://api.example.com/pets" is more than a URL; write only https://api.example.com/pets as the URL, with POST as the method.'],
      ['"https://api.example.com/pets"', '"\\"https://api.example.com/pets\\"" is more than a URL; write only https://api.example.com/pets as the URL.'],
      ['<https://api.example.com/pets>', '"<https://api.example.com/pets>" is more than a URL; write only https://api.example.com/pets as the URL.'],
      ['curl https://api.example.com/pets', '"curl https://api.example.com/pets" is more than a URL; write only https://api.example.com/pets as the URL.'],
      ['curl -X DELETE \'https://api.example.com/pets/1\'', '"curl -X DELETE \'https://api.example.com/pets/1\'" is more than a URL; write only https://api.example.com/pets/1 as the URL, with DELETE as the method.'],
    ];
    for (const [url, told] of cases) {
      assert.equal(refusal(engine, { method: 'GET', url }, 'invalid-url'), told, url);
      // The snippet refuses it alike.
      assert.throws(() => engine.template({ method: 'GET', url }), (error: unknown) => error instanceof RequestError && error.message === told);
    }
    // The word before it is no method: the usual advice.
    assert.match(refusal(engine, { method: 'GET', url: 'see https://api.example.com/pets' }, 'invalid-url'), /is not an absolute http\(s\) URL/);
  });
});

describe('a URL that does not parse for a reason a reader can fix', () => {
  it('is told about a space before the path or in the host, a port past 65535, an IPv6 address without brackets, or nothing at all', async () => {
    const engine = engineWith({ base_url: 'https://api.example.com' });
    const cases: [url: string, told: string][] = [
      ['{{base_url}} /pets', '"https://api.example.com /pets" has a space before its path; remove it: https://api.example.com/pets.'],
      ['https://api example.com/pets', '"https://api example.com/pets" has a space before its path; remove it: https://apiexample.com/pets.'],
      ['https:// api.example.com/pets?q=a b', '"https:// api.example.com/pets?q=a b" has a space before its path; remove it: https://api.example.com/pets?q=a b.'],
      ['https://api.example.com:99999/pets', '"https://api.example.com:99999/pets" has port 99999, but ports go up to 65535; correct the port.'],
      ['http://::1:8080/pets', '"http://::1:8080/pets" has an IPv6 address without brackets; write it in "[" and "]", with any port after them (http://[::1]:8080/).'],
      ['http://2001:db8::1/pets', '"http://2001:db8::1/pets" has an IPv6 address without brackets; write it in "[" and "]", with any port after them (http://[::1]:8080/).'],
      ['', 'The URL is empty; write the address to send to, such as https://api.example.com/pets.'],
    ];
    for (const [url, told] of cases) assert.equal(refusal(engine, { method: 'GET', url }, 'invalid-url'), told, url);
    // A space in the path is no such thing: it goes percent-encoded.
    const echo = await startEcho();
    try {
      const response = await engineWith({ base_url: echo.origin }).send({ method: 'GET', url: '{{base_url}}/pets/a b' });
      assert.equal(JSON.parse(response.text).path, '/pets/a%20b');
    } finally {
      await echo.close();
    }
  });

  it('does not read a second port as a path run into the first', () => {
    const engine = engineWith({});
    assert.match(refusal(engine, { method: 'GET', url: 'https://api.example.com:8080:9090/pets' }, 'invalid-url'), /^"https:\/\/api\.example\.com:8080:9090\/pets" is not an absolute http\(s\) URL; write it as https:\/\/host\/path/);
  });
});

describe('a header written wrong by pasting', () => {
  it('a whole header line in the name is told to split it into name and value', () => {
    const engine = engineWith({});
    const url = 'https://api.example.com/pets';
    assert.equal(
      refusal(engine, { method: 'GET', url, headers: [{ name: 'Content-Type: application/json', value: '' }] }, 'invalid-request'),
      '"Content-Type: application/json" is not a valid header name: a name ends before its ":". Write Content-Type as the name and "application/json" as its value.',
    );
    assert.equal(
      refusal(engine, { method: 'GET', url, headers: { 'Authorization:': 'Bearer x' } }, 'invalid-request'),
      '"Authorization:" is not a valid header name: a name ends before its ":". Write Authorization as the name.',
    );
    // No token before the colon: the general rule.
    assert.match(refusal(engine, { method: 'GET', url, headers: { ':authority': 'x' } }, 'invalid-request'), /use only letters/);
  });

  it('an invisible character in a value is warned about, naming the header, and sent as written', async () => {
    const echo = await startEcho();
    try {
      const engine = engineWith({ base_url: echo.origin });
      const request = { method: 'GET', url: '{{base_url}}/me', headers: { 'X-Api-Key': 'k3y\u200b' } };
      const told = 'The X-Api-Key header holds U+200B, an invisible or space-like character (often pasted in with a value): remove it.';
      assert.deepEqual(engine.inspect(request).warnings, [told]);
      const response = await engine.send(request);
      assert.equal(JSON.parse(response.text).key, 'k3y\u00e2\u0080\u008b', 'its UTF-8 bytes, as each snippet sends them');
      // A tab between words, a plain space, text outside ASCII: no warning.
      assert.deepEqual(engine.inspect({ ...request, headers: { 'X-Api-Key': 'a\tb c é' } }).warnings, []);
    } finally {
      await echo.close();
    }
  });
});

describe('a base_url written wrong alike', () => {
  it('is told the same fixes, for a relative URL to go after it', () => {
    const cases: [baseUrl: string, told: string][] = [
      ['http://localhost:99999', 'The base_url of environment "Prod", "http://localhost:99999", has port 99999, but ports go up to 65535; correct the port.'],
      ['https://api.example.com /v1', 'The base_url of environment "Prod", "https://api.example.com /v1", has a space before its path; remove it: https://api.example.com/v1.'],
      ['http://::1:8080', 'The base_url of environment "Prod", "http://::1:8080", has an IPv6 address without brackets; write it in "[" and "]", with any port after them (http://[::1]:8080/).'],
      ['"https://api.example.com"', 'The base_url of environment "Prod", "\\"https://api.example.com\\"", is not an absolute http(s) URL; write it as https://api.example.com, or write the full URL in the request.'],
    ];
    for (const [baseUrl, told] of cases) assert.equal(refusal(engineWith({ base_url: baseUrl }), { method: 'GET', url: '/pets' }, 'invalid-url'), told, baseUrl);
  });
});

describe('a GET whose body holds only a line break', () => {
  it('is refused, saying what the body holds', () => {
    assert.equal(
      refusal(engineWith({}), { method: 'GET', url: 'https://api.example.com/pets', body: '\n' }, 'invalid-request'),
      'A GET request cannot carry a body in a browser; remove the body (it holds only spaces or line breaks) or use POST.',
    );
  });
});

describe('an "@" with no user name before the host', () => {
  it('is refused, as the parser drops it without a word (the snippets would keep it)', () => {
    for (const url of ['https://@api.example.com/pets', 'https://:@api.example.com/pets']) {
      assert.equal(refusal(engineWith({}), { method: 'GET', url }, 'invalid-url'), `${JSON.stringify(url)} has an "@" before its host with no user name, which browsers drop without a word; remove it.`);
    }
    // In the path or query, an "@" is sent as written.
    assert.equal(engineWith({}).prepare({ method: 'GET', url: 'https://api.example.com/@me?by=@ada' }).url, 'https://api.example.com/@me?by=@ada');
  });
});

describe('a header value whose variable brings a line break', () => {
  it('is refused, saying where such a character most often comes from, as for the URL', () => {
    const engine = engineWith({ token: 'abc\n' });
    assert.equal(
      refusal(engine, { method: 'GET', url: 'https://api.example.com/me', headers: { Authorization: 'Bearer {{token}}' } }, 'invalid-request'),
      'The value of header Authorization contains a line break (CR or LF), which would split the header (it often comes from a variable’s value); remove it.',
    );
  });
});

