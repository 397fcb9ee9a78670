import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, InvalidArgumentError, LanguageNotEnabledError, SNIPPET_LANGUAGES, SnippetGenerator, type SnippetRequest } from '../../src/core/index.js';

const request: SnippetRequest = { method: 'get', url: 'https://api.example.com/pets' };

describe('SnippetGenerator configuration', () => {
  it('enables all five languages, in order, when none are given', () => {
    assert.deepEqual(SNIPPET_LANGUAGES, ['curl', 'javascript', 'go', 'python', 'php']);
    assert.deepEqual(new SnippetGenerator().languages(), SNIPPET_LANGUAGES);
    assert.deepEqual(new SnippetGenerator({}).languages(), SNIPPET_LANGUAGES);
    assert.deepEqual(new SnippetGenerator({ languages: [] }).languages(), SNIPPET_LANGUAGES);
  });

  it('keeps the configured order and drops duplicates', () => {
    const generator = new SnippetGenerator({ languages: ['python', 'curl', 'python', 'go', 'curl'] });
    assert.deepEqual(generator.languages(), ['python', 'curl', 'go']);
  });

  it('returns a copy of the languages', () => {
    const generator = new SnippetGenerator({ languages: ['go'] });
    generator.languages().push('php');
    assert.deepEqual(generator.languages(), ['go']);
  });

  it('refuses an unknown language with a ConfigError naming the field and the allowed values', () => {
    assert.throws(() => new SnippetGenerator({ languages: ['curl', 'ruby' as 'curl'] }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.code, 'ERR_CONFIG');
      assert.equal(error.field, 'snippets.languages[1]');
      assert.equal(error.value, 'ruby');
      assert.match(error.message, /snippets\.languages\[1\].*curl, javascript, go, python, php.*"ruby"/);
      return true;
    });
    assert.throws(() => new SnippetGenerator({ languages: ['CURL' as 'curl'] }), ConfigError);
    assert.throws(() => new SnippetGenerator({ languages: 'curl' as unknown as ['curl'] }), (error: unknown) => error instanceof ConfigError && error.field === 'snippets.languages');
  });
});

describe('SnippetGenerator.generate', () => {
  it('throws LanguageNotEnabledError listing the enabled languages, and returns no snippet', () => {
    const generator = new SnippetGenerator({ languages: ['curl', 'python'] });
    for (const language of ['go', 'ruby', '']) {
      assert.throws(() => generator.generate(request, language), (error: unknown) => {
        assert.ok(error instanceof LanguageNotEnabledError);
        assert.equal(error.code, 'ERR_LANGUAGE_NOT_ENABLED');
        assert.equal(error.language, language);
        assert.deepEqual(error.enabled, ['curl', 'python']);
        assert.match(error.message, /enabled: curl, python/);
        return true;
      });
    }
  });

  it('checks the language before the request', () => {
    const generator = new SnippetGenerator({ languages: ['curl'] });
    assert.throws(() => generator.generate({ method: 'GET', url: 'not a url' }, 'go'), LanguageNotEnabledError);
  });

  it('uppercases the method in every language', () => {
    const generator = new SnippetGenerator();
    for (const language of SNIPPET_LANGUAGES) {
      const snippet = generator.generate({ method: 'patch', url: 'https://api.example.com/pets/1', body: '{}' }, language);
      assert.match(snippet, /PATCH/, language);
      assert.doesNotMatch(snippet, /patch/, language);
    }
  });
});

describe('SnippetGenerator refuses requests no snippet could send exactly', () => {
  const generator = new SnippetGenerator();

  function assertRefused(bad: SnippetRequest, field: string, advice: RegExp, languages: readonly string[] = SNIPPET_LANGUAGES) {
    for (const language of languages) {
      assert.throws(() => generator.generate(bad, language), (error: unknown) => {
        assert.ok(error instanceof InvalidArgumentError, `${language}: ${String(error)}`);
        assert.equal(error.code, 'ERR_INVALID_ARGUMENT');
        assert.equal(error.argument, field);
        assert.match(error.message, advice);
        return true;
      }, language);
    }
  }

  it('a header value with CR or LF (header injection)', () => {
    assertRefused({ ...request, headers: { 'X-Evil': 'a\r\nSet-Cookie: x=1' } }, 'request.headers["X-Evil"]', /line break \(CR or LF\)/);
    assertRefused({ ...request, headers: { 'X-Evil': 'a\nb' } }, 'request.headers["X-Evil"]', /line break/);
    assertRefused({ ...request, headers: { 'X-Evil': 'a\rb' } }, 'request.headers["X-Evil"]', /line break/);
  });

  it('a header value with NUL or another control character', () => {
    assertRefused({ ...request, headers: { 'X-Nul': 'a\0b' } }, 'request.headers["X-Nul"]', /NUL/);
    assertRefused({ ...request, headers: { 'X-Esc': 'a\u001bb' } }, 'request.headers["X-Esc"]', /control character/);
  });

  it('an invalid or duplicated header name, and headers the client owns', () => {
    assertRefused({ ...request, headers: { 'X Bad': '1' } }, 'request.headers["X Bad"]', /HTTP token/);
    assertRefused({ ...request, headers: { 'X-A': '1', 'x-a': '2' } }, 'request.headers["x-a"]', /appears twice.*merge/);
    // Past 16 headers the names seen are kept another way; duplicates are still found.
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`X-H${i}`, String(i)]));
    assertRefused({ ...request, headers: { ...many, 'x-h3': 'again' } }, 'request.headers["x-h3"]', /appears twice/);
    assert.equal(new SnippetGenerator().generate({ ...request, headers: many }, 'curl').split('\n').length, 41);
    assertRefused({ ...request, headers: { 'Content-Length': '3' } }, 'request.headers["Content-Length"]', /sets this header.*remove it/);
    assertRefused({ ...request, headers: { Host: 'other' } }, 'request.headers["Host"]', /remove it/);
  });

  it('a method that is not an HTTP token, and CONNECT', () => {
    assertRefused({ ...request, method: 'GE T' }, 'request.method', /HTTP method/);
    assertRefused({ ...request, method: '' }, 'request.method', /HTTP method/);
    assertRefused({ ...request, method: 'connect' }, 'request.method', /tunnel/);
  });

  it('a URL that is not absolute http(s), or that clients would rewrite', () => {
    assertRefused({ ...request, url: '/relative' }, 'request.url', /absolute http/);
    assertRefused({ ...request, url: 'ftp://example.com/x' }, 'request.url', /absolute http/);
    // Browsers read these as http://example.com/x; Go's and Python's clients find no host in them.
    for (const url of ['http:example.com/x', 'https:/example.com/x', 'http:user@example.com/']) {
      assertRefused({ ...request, url }, 'request.url', /absolute http:\/\/ or https:\/\/ URL/);
    }
    assertRefused({ ...request, url: 'https:///example.com/x' }, 'request.url', /write the host as example\.com \(got/);
    assert.ok(generator.generate({ ...request, url: 'HTTPS://api.example.com/pets' }, 'go').includes('"HTTPS://api.example.com/pets"'));
    assertRefused({ ...request, url: 'https://example.com/a b' }, 'request.url', /" ".*percent-encoded as %20/);
    assertRefused({ ...request, url: 'https://example.com/?q={x}' }, 'request.url', /%7B/);
    assertRefused({ ...request, url: 'https://example.com/café' }, 'request.url', /%C3%A9/);
    assertRefused({ ...request, url: 'https://example.com/[x]' }, 'request.url', /%5B/);
    assertRefused({ ...request, url: 'https://example.com/100%' }, 'request.url', /%25/);
    assertRefused({ ...request, url: 'https://example.com/a#b#c' }, 'request.url', /%23/);
    assertRefused({ ...request, url: 'https://example.com/a/../b' }, 'request.url', /resolved path \(\/b\)/);
    assertRefused({ ...request, url: 'https://example.com/a/%2E/b' }, 'request.url', /"\." or "\.\."/);
  });

  it('a host written other than as URL parsers write it, which Go and Python send as written or cannot find', () => {
    const forms: Array<[string, string]> = [
      ['http://127.1:8080/x', '127.0.0.1'],
      ['http://2130706433/x', '127.0.0.1'],
      ['http://0x7f.0.0.1/x', '127.0.0.1'],
      ['http://127.0.0.%31/x', '127.0.0.1'],
      ['http://01.2.3.4/x', '1.2.3.4'],
      ['http://1.2.3.4./x', '1.2.3.4'],
      ['http://api.example.com:80/x', 'api.example.com'],
      ['https://api.example.com:443/x', 'api.example.com'],
      ['https://api.example.com:0443/x', 'api.example.com'],
      ['http://[::FFFF:127.0.0.1]/x', '[::ffff:7f00:1]'],
      ['https://%61pi.example.com/x', 'api.example.com'],
    ];
    for (const [url, host] of forms) assertRefused({ ...request, url }, 'request.url', new RegExp(`read in different ways; write the host as ${host.replace(/[.[\]]/g, '\\$&')} \\(got`));
    // As parsers write them (a host in capitals only differs in case); the last is refused for its credentials alone.
    for (const url of ['http://127.0.0.1:8080/x', 'https://API.Example.com:8443/x', 'http://localhost/x', 'http://[::1]/x']) {
      assert.ok(generator.generate({ ...request, url }, 'go').includes(url), url);
    }
    assertRefused({ ...request, url: 'https://user@api.example.com/x' }, 'request.url', /credentials before "@"/);
  });

  it('a host outside ASCII, with the form to write it in: IDNA, not percent-encoded', () => {
    assertRefused({ ...request, url: 'https://bücher.example/x' }, 'request.url', /host that HTTP clients read in different ways; write the host as xn--bcher-kva\.example \(got/);
    // The name alone: the port stays as written.
    assertRefused({ ...request, url: 'https://BÜCHER.example:8080/x?q=1' }, 'request.url', /write the host as xn--bcher-kva\.example \(got/);
    assertRefused({ ...request, url: 'https://\uFF45xample.com/x' }, 'request.url', /write the host as example\.com \(got/);
    assert.ok(generator.generate({ ...request, url: 'https://xn--bcher-kva.example:8080/x' }, 'curl').includes('https://xn--bcher-kva.example:8080/x'));
    // Elsewhere, percent-encoding, also under a host in capitals.
    assertRefused({ ...request, url: 'https://API.Example.com/café' }, 'request.url', /write it percent-encoded as %C3%A9 \(got/);
    assertRefused({ ...request, url: 'https://example.com?q=ü' }, 'request.url', /write it percent-encoded as %C3%BC \(got/);
    assertRefused({ ...request, url: 'https://ü@example.com/' }, 'request.url', /write it percent-encoded as %C3%BC \(got/);
  });

  it('a URL with credentials (fetch refuses them, the other clients send Basic auth)', () => {
    assertRefused({ ...request, url: 'https://user:secret@api.example.com/pets' }, 'request.url', /credentials before "@".*Authorization header/);
    assertRefused({ ...request, url: 'https://user@api.example.com/pets' }, 'request.url', /Authorization header/);
    assertRefused({ ...request, url: 'http://:p@[::1]:8080/' }, 'request.url', /credentials/);
    // An `@` after the host is only text.
    for (const url of ['https://api.example.com/users/@me', 'https://api.example.com/?email=a@b.example', 'https://api.example.com/#@x']) {
      assert.ok(generator.generate({ ...request, url }, 'javascript').includes(url), url);
    }
  });

  it('headers given as a Headers, a Map or an array, which have no own keys to read', () => {
    for (const headers of [new Headers({ Authorization: 'Bearer x' }), new Map([['Authorization', 'Bearer x']]), [['Authorization', 'Bearer x']]]) {
      assertRefused({ ...request, headers: headers as unknown as Record<string, string> }, 'request.headers', /plain object.*Object\.fromEntries\(headers\)/);
    }
    const plain = Object.fromEntries(new Map([['Authorization', 'Bearer x']]));
    assert.match(generator.generate({ ...request, headers: plain }, 'curl'), /-H "Authorization: Bearer x"/);
    const withoutPrototype = Object.assign(Object.create(null) as Record<string, string>, { Accept: 'text/plain' });
    assert.match(generator.generate({ ...request, headers: withoutPrototype }, 'curl'), /-H "Accept: text\/plain"/);
  });

  it('a body with a lone surrogate, and a HEAD body', () => {
    assertRefused({ ...request, method: 'POST', body: 'a\uD800b' }, 'request.body', /surrogate/);
    assertRefused({ ...request, method: 'HEAD', body: 'x' }, 'request.body', /HEAD request carries no body/);
  });

  it('what only one client cannot do, in that language alone', () => {
    assertRefused({ ...request, method: 'POST', body: 'a\0b' }, 'request.body', /NUL.*another snippet language/, ['curl']);
    // Empty, Go's client takes them for not set: no User-Agent at all, or gzip asked for besides.
    for (const name of ['User-Agent', 'accept-encoding', 'Range']) {
      assertRefused({ ...request, headers: { [name]: '' } }, `request.headers[${JSON.stringify(name)}]`, /Go's client cannot send it empty/, ['go']);
      for (const language of ['curl', 'javascript', 'python', 'php']) assert.ok(generator.generate({ ...request, headers: { [name]: '' } }, language));
    }
    assertRefused({ ...request, body: '{}' }, 'request.body', /fetch cannot send a body with GET/, ['javascript']);
    assertRefused({ ...request, method: 'trace' }, 'request.method', /fetch cannot send TRACE; use another snippet language/, ['javascript']);
    assertRefused({ ...request, method: 'TRACK' }, 'request.method', /fetch cannot send TRACK; use another snippet language/, ['javascript']);
    // Node's fetch throws on Expect and browsers drop it.
    assertRefused({ ...request, method: 'POST', headers: { Expect: '100-continue' }, body: 'x' }, 'request.headers["Expect"]', /fetch cannot send Expect; use another snippet language/, ['javascript']);
    assertRefused({ ...request, method: 'POST', headers: { expect: '100-continue' }, body: 'x' }, 'request.headers["expect"]', /fetch cannot send expect; use another snippet language/, ['javascript']);
    // Node's fetch loses a header named __proto__ (exactly that spelling) on the way out.
    assertRefused({ ...request, headers: JSON.parse('{"__proto__": "p"}') }, 'request.headers["__proto__"]', /fetch cannot send __proto__; use another snippet language/, ['javascript']);
    assert.ok(generator.generate({ ...request, headers: { __PROTO__: 'p' } }, 'javascript'));
    const longValue = 'v'.repeat(131072);
    assertRefused({ ...request, url: `https://api.example.com/?q=${longValue}` }, 'request.url', /too long for one shell argument.*another snippet language/, ['curl']);
    assertRefused({ ...request, headers: { 'X-Long': longValue } }, 'request.headers["X-Long"]', /too long for one shell argument.*another snippet language/, ['curl']);
    for (const language of ['go', 'python', 'php']) assert.ok(generator.generate({ ...request, method: 'POST', headers: { Expect: '100-continue' }, body: 'x' }, language));
    for (const language of ['javascript', 'go', 'python', 'php']) assert.ok(generator.generate({ ...request, headers: { 'X-Long': longValue } }, language));
    for (const language of ['javascript', 'go', 'python', 'php']) assert.ok(generator.generate({ ...request, method: 'POST', body: 'a\0b' }, language));
    for (const language of ['curl', 'go', 'python', 'php']) assert.ok(generator.generate({ ...request, body: '{}' }, language));
  });

  it('fetch: Sec-Fetch-Mode, which fetch sets itself, and Accept-Encoding with a Range, to which it adds "identity"', () => {
    const others = ['curl', 'go', 'python', 'php'];
    for (const name of ['Sec-Fetch-Mode', 'sec-fetch-mode']) {
      assertRefused({ ...request, headers: { [name]: 'navigate' } }, `request.headers[${JSON.stringify(name)}]`, new RegExp(`fetch cannot send ${name}; use another snippet language`), ['javascript']);
      for (const language of others) assert.ok(generator.generate({ ...request, headers: { [name]: 'navigate' } }, language));
    }
    // Either order; the error names the second of the two.
    const pairs: Array<Record<string, string>> = [{ Range: 'bytes=0-5', 'X-Other': '1', 'accept-encoding': 'gzip' }, { 'Accept-Encoding': 'gzip', range: 'bytes=0-5' }];
    for (const headers of pairs) {
      const second = Object.keys(headers).at(-1)!;
      assertRefused({ ...request, headers }, `request.headers[${JSON.stringify(second)}]`, /fetch cannot send Accept-Encoding with a Range; use another snippet language/, ['javascript']);
      for (const language of others) assert.ok(generator.generate({ ...request, headers }, language));
    }
    for (const headers of [{ Range: 'bytes=0-5' }, { 'Accept-Encoding': 'gzip' }, { 'If-None-Match': '"e"' }] as Array<Record<string, string>>) {
      assert.ok(generator.generate({ ...request, headers }, 'javascript'));
    }
  });

  it('curl and PHP: a request head over what libcurl builds (1 MiB, less 256 bytes for the lines it adds itself)', () => {
    // Counted: method, URL, `name: value` and a line end per header, and a body under 64 KiB, which libcurl 7.88
    // writes into the same buffer. Values of 100,000 bytes stay under the shell's 128 KiB argument limit.
    const limit = 1024 * 1024 - 256;
    const url = 'https://api.example.com/upload';
    // Headers that count `bytes`: `X-Part-N` (8 characters) with 100,000 bytes, then `X-Rest` with the rest.
    const headHeaders = (bytes: number) => {
      const parts = Math.floor((bytes - 10) / 100_012);
      const headers = Object.fromEntries(Array.from({ length: parts }, (_, index) => [`X-Part-${index}`, 'v'.repeat(100_000)]));
      return { ...headers, 'X-Rest': 'v'.repeat(bytes - parts * 100_012 - 10) };
    };
    const cases: Array<[string, SnippetRequest, number]> = [
      ['no body', { method: 'GET', url }, 'GET'.length + url.length],
      ['a body under 64 KiB', { method: 'POST', url, body: 'b'.repeat(65_535) }, 'POST'.length + url.length + 65_535],
      ['a body under 64 KiB in characters, counted in UTF-8', { method: 'POST', url, body: 'é'.repeat(1000) }, 'POST'.length + url.length + 2000],
      // 64 KiB and more: libcurl sends the body on its own.
      ['a body of 64 KiB', { method: 'POST', url, body: 'b'.repeat(65_536) }, 'POST'.length + url.length],
    ];
    for (const [label, base, counted] of cases) {
      const fits = { ...base, headers: headHeaders(limit - counted) };
      const over = { ...base, headers: headHeaders(limit - counted + 1) };
      for (const language of SNIPPET_LANGUAGES) assert.ok(generator.generate(fits, language), `${label}: ${language}`);
      assertRefused(over, 'request', /libcurl refuses a request head over 1 MiB; use another snippet language/, ['curl', 'php']);
      for (const language of ['javascript', 'go', 'python']) assert.ok(generator.generate(over, language), `${label}: ${language}`);
    }
    // A value's UTF-8 bytes count, not its characters.
    const accentedBytes = 'GET'.length + request.url.length + 'X-Accented'.length + 2 * 50_000 + 4;
    const accented = { ...request, headers: { ...headHeaders(limit - accentedBytes), 'X-Accented': 'é'.repeat(50_000) } };
    assert.ok(generator.generate(accented, 'php'));
    assertRefused({ ...accented, method: 'POST', body: 'x' }, 'request', /libcurl refuses/, ['curl', 'php']);
    // Past 1 MiB in a single header, curl's message is the shell's argument limit, as before.
    assertRefused({ ...request, headers: { 'X-Large': 'v'.repeat(1_100_000) } }, 'request.headers["X-Large"]', /too long for one shell argument/, ['curl']);
  });

  it('accepts IPv6 hosts, and drops a query with nothing in it', () => {
    assert.equal(generator.generate({ method: 'GET', url: 'http://[::1]:8080/x' }, 'curl'), "curl -X GET 'http://[::1]:8080/x'");
    assert.equal(generator.generate({ method: 'GET', url: 'https://example.com/x?' }, 'curl'), 'curl -X GET https://example.com/x');
    assert.equal(generator.generate({ method: 'GET', url: 'https://example.com/x?#top' }, 'curl'), "curl -X GET 'https://example.com/x#top'");
  });
});
