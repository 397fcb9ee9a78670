import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Agent as NodeHttpAgent } from 'node:http';
import { format, inspect } from 'node:util';
import { runInNewContext } from 'node:vm';
import { Agent, BalancedPool, Client, H2CClient, MockAgent, Pool, ProxyAgent, RoundRobinPool, interceptors } from 'undici';
import { ConfigError, InvalidArgumentError } from '../../src/core/errors.js';
import { Notifier, WebhookChannel, newMessage, type WebhookNotification } from '../../src/webhook/index.js';
import { startTestServer, type TestServer } from './webhook-test-server.js';

const userCreated: WebhookNotification = {
  via: () => ['webhook'],
  toWebhook: () => newMessage().event('user.created').payload({ email: 'a@example.com', plan: { name: 'pro', seats: 3 }, note: 'héllo "world" 🎉' }),
};

describe('WebhookChannel config', () => {
  const url = 'https://hooks.example/in';

  it('has the documented defaults', () => {
    const channel = new WebhookChannel({ url });
    assert.equal(channel.url, url);
    assert.equal(channel.method, 'POST');
    assert.equal(channel.timeout, 30_000);
    assert.deepEqual(channel.headers, {});
    assert.equal(channel.signed, false);
    assert.equal(new WebhookChannel({ url, secret: 's' }).signed, true);
  });

  it('accepts methods that carry a body, standard ones in any case', () => {
    assert.equal(new WebhookChannel({ url, method: 'put' }).method, 'PUT');
    assert.equal(new WebhookChannel({ url, method: 'PATCH' }).method, 'PATCH');
    assert.equal(new WebhookChannel({ url, method: 'NOTIFY' }).method, 'NOTIFY');
  });

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a missing url', {}, /webhook\.url/],
    ['a relative url', { url: '/hooks' }, /webhook\.url.*absolute/],
    ['a non-http url', { url: 'ftp://example.com/x' }, /webhook\.url/],
    ['a url with credentials', { url: 'https://user:pw@example.com/x' }, /credentials/],
    ['a url with port 0', { url: 'http://127.0.0.1:0/hooks' }, /^Invalid webhook\.url: has port 0, where no server can be reached; .*server\.address\(\)\.port/],
    ['a url with a port past 65535', { url: 'https://example.com:99999/x' }, /^Invalid webhook\.url: does not parse as a URL; check the host, and the port \(1 to 65535\)/],
    // A URL is sent as given, so one that a parser would rewrite is refused with the spelling to use.
    ['a url with spaces around it', { url: ' http://h/ ' }, /webhook\.url: has spaces or control characters at either end; remove them/],
    ['a url with a backslash for a slash', { url: 'http:/\\h/x' }, /webhook\.url: must be an absolute URL starting with http:\/\/ or https:\/\//],
    ['a url with a backslash in the path', { url: 'http://h/in\\sub' }, /contains "\\\\", which URL parsers turn into "\/"; .* %5C/],
    ['a url with a ".." segment', { url: 'http://h/hooks/../admin' }, /webhook\.url: has a "\." or "\.\." path segment.*write the resolved path \(\/admin\)/],
    ['a url with an encoded ".." segment', { url: 'http://h/hooks/%2e%2E/admin' }, /"\.\." path segment.*\(\/admin\)/],
    ['a url with a "." segment', { url: 'http://h/a/./b' }, /path segment.*\(\/a\/b\)/],
    ['a url with a space in the query', { url: 'http://h/in?q=a b' }, /contains " ".*percent-encoded as %20/],
    ['a url with a tab', { url: 'http://h/a\tb' }, /contains "\\t".*%09/],
    ['a url with a quote', { url: 'http://h/in?name="x"' }, /contains "\\"".*%22/],
    ['a url with non-ASCII', { url: 'http://h/café' }, /contains "é".*%C3%A9/],
    // A host is never percent-encoded on the wire: parsers turn it into its IDNA form, which is the one to write.
    ['a host outside ASCII', { url: 'https://bücher.example/in' }, /^Invalid webhook\.url: has "ü" in its host, which URL parsers turn into IDNA form; write the host as xn--bcher-kva\.example \(got "https:\/\/bücher\.example\/in"\)\.$/],
    ['a backslash right after the host', { url: 'https://example.com:8443\\hooks/x' }, /^Invalid webhook\.url: contains "\\\\", which URL parsers turn into "\/"; to send it as given, write it percent-encoded as %5C/],
    ['a url with a bracket after the host', { url: 'http://h/a[1]' }, /"\[" or "\]" after the host.*%5B/],
    ['a url with a stray %', { url: 'http://h/100%' }, /"%" that does not start a %XX escape.*%25/],
    ['GET, which cannot carry a body', { url, method: 'GET' }, /webhook\.method.*carries a body/],
    ['HEAD, which cannot carry a body', { url, method: 'head' }, /webhook\.method/],
    ['a method that is not a token', { url, method: 'PO ST' }, /webhook\.method/],
    ['an empty secret', { url, secret: '' }, /secret/],
    ['a secret that is not a string', { url, secret: 42 }, /secret/],
    ['headers that are not an object', { url, headers: ['a'] }, /webhook\.headers/],
    ['an invalid header name', { url, headers: { 'Bad Name': 'x' } }, /not a valid HTTP header name/],
    ['a header value with a line break', { url, headers: { 'X-A': 'a\r\nX-Injected: 1' } }, /line break/],
    ['a header value with U+0001', { url, headers: { 'X-Token': 'a\x01b' } }, /webhook\.headers\["X-Token"\]: contains a NUL or other control character/],
    ['a header value with DEL', { url, headers: { 'X-Token': 'a\x7fb' } }, /control character/],
    ['a header value with a vertical tab', { url, headers: { 'X-Token': 'a\x0bb' } }, /control character/],
    ['a header value that is not a string', { url, headers: { 'X-A': 1 } }, /must be a string/],
    ['a header value with a character above U+00FF', { url, headers: { 'X-Greeting': 'hello 🎉' } }, /webhook\.headers\["X-Greeting"\].*percent-encode.*ASCII/],
    ['X-Signature in headers', { url, headers: { 'X-Signature': 'sha256=00' } }, /reserved/],
    ['x-signature in another case', { url, headers: { 'x-SIGNATURE': 'sha256=00' } }, /reserved/],
    ['a framing header', { url, headers: { 'Content-Length': '3' } }, /HTTP client/],
    ['the same header twice in different cases', { url, headers: { 'X-A': '1', 'x-a': '2' } }, /repeats/],
    ['a zero timeout', { url, timeout: 0 }, /webhook\.timeout/],
    ['a non-numeric timeout', { url, timeout: '30s' }, /webhook\.timeout/],
    ['an infinite timeout', { url, timeout: Infinity }, /webhook\.timeout/],
    ['a timeout longer than a timer can wait', { url, timeout: 2 ** 31 }, /webhook\.timeout.*up to 2147483647/],
  ];
  for (const [what, config, message] of bad) {
    it(`throws ConfigError for ${what}`, () => {
      assert.throws(() => new WebhookChannel(config as never), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }

  it('never repeats a secret of the wrong type in its error', () => {
    for (const secret of [123456789, 987654321n, ['s3cret'], { key: 's3cret' }]) {
      assert.throws(
        () => new WebhookChannel({ url, secret } as never),
        (error: unknown) => error instanceof ConfigError && /must be a non-empty string/.test(error.message) && !/123456789|987654321|s3cret/.test(`${error.message} ${String(error.value)}`),
        String(secret),
      );
    }
  });

  it('says what a secret of the wrong type is, with the field path the other fields use', () => {
    // An empty one has a message of its own: see webhook-unset-variables.test.ts.
    assert.throws(
      () => new WebhookChannel({ url, secret: Buffer.from('s3cret') } as never),
      /^ConfigError: Invalid webhook\.secret: must be text, the one both sides share: pass the bytes' text \(buffer\.toString\('utf8'\)\) or, for random bytes, their hex \(buffer\.toString\('hex'\)\), and give the other side the same \(got a Buffer\)\.$/,
    );
    for (const [secret, shown] of [[null, 'null'], [['s3cret'], 'an array'], [{ key: 's3cret' }, 'an object']] as const) {
      assert.throws(
        () => new WebhookChannel({ url, secret } as never),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.field === 'webhook.secret' &&
          new RegExp(`^Invalid webhook\\.secret: must be a non-empty string; omit it to send unsigned requests \\(got ${shown}\\)\\.$`).test(error.message),
        shown,
      );
    }
  });

  it('accepts headers written in another realm (a vm context), as it accepts the config object itself', () => {
    const headers = runInNewContext('({ Authorization: "Bearer t" })') as Record<string, string>;
    assert.notEqual(Object.getPrototypeOf(headers), Object.prototype);
    assert.deepEqual({ ...new WebhookChannel(runInNewContext('({ url, headers })', { url, headers })).headers }, { Authorization: 'Bearer t' });
  });

  it('refuses headers given as a Headers, a Map or a class instance, which would be sent as none', () => {
    class Auth {
      Authorization = 'Bearer t';
    }
    for (const headers of [new Headers({ Authorization: 'Bearer t' }), new Map([['Authorization', 'Bearer t']]), new Auth()]) {
      assert.throws(
        () => new WebhookChannel({ url, headers: headers as never }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.field === 'webhook.headers' &&
          /must be a plain object .*pass Object\.fromEntries\(headers\) \(got an? (Headers|Map|Auth)\)/.test(error.message) &&
          !inspect(error).includes('Bearer t'),
      );
    }
  });

  it('refuses unknown or misspelt fields, naming the field and listing the known ones', () => {
    const known = (hint: string) => new RegExp(`is not a known field${hint}; known fields: url, secret, method, headers, timeout, dispatcher, maxConcurrent \\(got an? \\w+\\)\\.$`);
    for (const [config, field, hint] of [
      [{ url, timeoutMs: 1_000 }, 'webhook.timeoutMs', ''],
      // Only the case differs: the name to write is said.
      [{ url, Secret: 's' }, 'webhook.Secret', '; names are case-sensitive: write secret'],
      [{ url, header: { 'X-A': '1' } }, 'webhook.header', ''],
      [{ url, retry: { attempts: 1 } }, 'webhook.retry', ''],
    ] as const) {
      assert.throws(() => new WebhookChannel(config as never), (error: unknown) => error instanceof ConfigError && error.field === field && known(hint).test(error.message), field);
    }
  });

  it('refuses a dispatcher that is not an undici Dispatcher, a node:http Agent included, at construction', async () => {
    for (const dispatcher of [new NodeHttpAgent(), {}, { request: () => {} }, 'agent', null]) {
      assert.throws(
        () => new WebhookChannel({ url, dispatcher: dispatcher as never }),
        (error: unknown) => error instanceof ConfigError && error.field === 'webhook.dispatcher' && /must be an undici Dispatcher such as new Agent\(\)/.test(error.message),
        inspect(dispatcher),
      );
    }
    const agent = new Agent();
    try {
      assert.doesNotThrow(() => new WebhookChannel({ url, dispatcher: agent }));
      assert.doesNotThrow(() => new WebhookChannel({ url, dispatcher: agent.compose(interceptors.retry()) }));
    } finally {
      await agent.close();
    }
  });

  it("refuses a dispatcher bound to one origin (Client, Pool…), which would send the signed payload and the headers there instead of the channel's url", async () => {
    const elsewhere = 'http://127.0.0.1:1';
    // Another copy of undici (an app's own version): not instanceof this one's classes, but named as they are.
    class PoolBase {
      request() {}
      dispatch() {}
    }
    class Pool2 extends PoolBase {}
    Object.defineProperty(Pool2, 'name', { value: 'Pool' });
    const mockAgent = new MockAgent();
    const dispatchers = [new Client(elsewhere), new Pool(elsewhere), new BalancedPool([elsewhere]), new RoundRobinPool(elsewhere), new H2CClient(elsewhere), mockAgent.get(elsewhere), new Pool2()];
    try {
      for (const dispatcher of dispatchers) {
        const kind = (dispatcher.constructor.name === 'MockPool' ? 'a MockPool' : `a ${dispatcher.constructor.name}`).replace(/^a (?=[AEIOU])/, 'an ');
        assert.throws(
          () => new WebhookChannel({ url, secret: 'whsec', headers: { Authorization: 'Bearer t0ken' }, dispatcher: dispatcher as never }),
          (error: unknown) => {
            assert.ok(error instanceof ConfigError, String(error));
            assert.equal(error.field, 'webhook.dispatcher');
            assert.equal(
              error.message,
              `Invalid webhook.dispatcher: is bound to one origin: ${kind} sends every request to the origin it was made for and ignores the channel's url, so the signed payload and the configured headers would go there; pass new Agent(…) or new ProxyAgent(…) from "undici" instead, which take the same connection options (connections, pipelining, connect) (got ${kind}).`,
            );
            return true;
          },
          kind,
        );
      }
      // Dispatchers that send each request to its own origin.
      const proxy = new ProxyAgent(elsewhere);
      const agent = new Agent({ connections: 2 });
      assert.doesNotThrow(() => new WebhookChannel({ url, dispatcher: proxy }));
      assert.doesNotThrow(() => new WebhookChannel({ url, dispatcher: agent }));
      assert.doesNotThrow(() => new WebhookChannel({ url, dispatcher: mockAgent }));
      await Promise.all([proxy.close(), agent.close()]);
    } finally {
      await Promise.all(dispatchers.map((dispatcher) => (dispatcher instanceof Pool2 ? undefined : (dispatcher as Client).close())));
      await mockAgent.close();
    }
  });

  it('accepts headers as an object without a prototype', () => {
    const headers = Object.assign(Object.create(null) as Record<string, string>, { Authorization: 'Bearer t' });
    assert.deepEqual({ ...new WebhookChannel({ url, headers }).headers }, { Authorization: 'Bearer t' });
  });

  it('accepts a tab inside a header value, the one control character HTTP allows there', () => {
    assert.deepEqual(new WebhookChannel({ url, headers: { 'X-List': 'a\tb' } }).headers, { 'X-List': 'a\tb' });
  });

  it('accepts header values up to U+00FF, which are sent as one byte each', async () => {
    const server = await startTestServer();
    try {
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: `${server.url}/in`, headers: { 'X-Name': 'café' } }));
      const results = await notifier.send({ type: 'user', id: 1 }, userCreated);
      await notifier.close();
      assert.deepEqual(results, [{ channel: 'webhook', ok: true, status: 204, attempts: 1 }]);
      assert.equal(server.requests[0]!.headers['x-name'], 'café'); // Node reads header bytes as Latin-1
    } finally {
      await server.close();
    }
  });
});

describe('WebhookChannel keeps secrets out of its errors', () => {
  const token = 'sk_live_51HqLyjWDarjtT1zdp7dc';
  const pathSecret = 'XXXXxxxxSECRETxxxxXXXX';

  /** The error thrown by `make`, checked to carry neither secret in its message or any field (value, cause…). */
  function thrownWithoutSecrets(make: () => unknown): ConfigError {
    let thrown: unknown;
    assert.throws(make, (error: unknown) => {
      thrown = error;
      return error instanceof ConfigError;
    });
    const everything = inspect(thrown, { depth: 10 });
    assert.ok(!everything.includes(token) && !everything.includes(pathSecret), everything);
    return thrown as ConfigError;
  }

  const badValues: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a token read from a file, newline and all', { Authorization: `Bearer ${token}\n` }, /webhook\.headers\["Authorization"\]: ends with a line break.*trim it \(got a value not shown\)/],
    ['a token with a line break inside', { Authorization: `Bearer ${token}\r\nX: 1` }, /contains a line break/],
    ['a token with a control character', { 'X-Token': `${token}\x01` }, /control character/],
    ['a token above U+00FF', { 'X-Token': `${token}€` }, /above U\+00FF/],
    ['a reserved header', { 'X-Signature': token }, /reserved/],
    ['a header the client sets', { Host: token }, /HTTP client/],
    ['a header repeated in another case', { 'X-Token': 'a', 'x-token': token }, /repeats/],
  ];
  for (const [what, headers, message] of badValues) {
    it(`does not show a header value: ${what}`, () => {
      const error = thrownWithoutSecrets(() => new WebhookChannel({ url: 'https://hooks.example.com/in', headers: headers as Record<string, string> }));
      assert.match(error.message, message);
    });
  }

  it('shows a bad url without its query or the path after its first segment', () => {
    const inQuery = thrownWithoutSecrets(() => new WebhookChannel({ url: `https://hooks.example.com/in?token=${token}&x=a b` }));
    assert.match(inQuery.message, /contains " ".*\(got "https:\/\/hooks\.example\.com\/in\?…"\)\.$/);
    const inPath = thrownWithoutSecrets(() => new WebhookChannel({ url: `https://hooks.slack.com/services/T0001/B0001/${pathSecret}?x=a b` }));
    assert.match(inPath.message, /\(got "https:\/\/hooks\.slack\.com\/services\/…\?…"\)\.$/);
    thrownWithoutSecrets(() => new WebhookChannel({ url: ` https://hooks.example.com/in?token=${token}` }));
    thrownWithoutSecrets(() => new WebhookChannel({ url: `hooks.example.com/in?token=${token}` }));
  });

  it('does not show the value of a misspelt field, which may hold the secret or the url', () => {
    const secret = thrownWithoutSecrets(() => new WebhookChannel({ url: 'https://hooks.example.com/in', secrett: token } as never));
    assert.match(secret.message, /^Invalid webhook\.secrett: is not a known field; known fields: url, secret, .* \(got a string\)\.$/);
    const address = thrownWithoutSecrets(() => new WebhookChannel({ endpoint: `https://hooks.slack.com/services/T0001/B0001/${pathSecret}` } as never));
    assert.equal(address.field, 'webhook.endpoint');
  });

  it('shows a URL passed instead of { url } without its secrets, and says to pass { url }', () => {
    const written = `https://hooks.slack.com/services/T0001/B0001/${pathSecret}?token=${token}`;
    for (const config of [written, new URL(written)]) {
      const error = thrownWithoutSecrets(() => new WebhookChannel(config as never));
      assert.match(error.message, /^Invalid webhook: must be an object with at least a url: pass \{ url \} rather than the URL itself \(got "https:\/\/hooks\.slack\.com\/services\/…\?…"\)\.$/);
    }
  });

  it("shows the channel's address and a redirect's Location without query or deeper path", async () => {
    const server = await startTestServer((response, received) =>
      received.url.startsWith('/moved') ? response.writeHead(301, { Location: `https://127.0.0.1${received.url}` }).end() : response.writeHead(500).end(),
    );
    try {
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('redirected', new WebhookChannel({ url: `${server.url}/moved/T0001/${pathSecret}?token=${token}` }));
      notifier.registerChannel('failing', new WebhookChannel({ url: `${server.url}/services/T0001/B0001/${pathSecret}?token=${token}` }));
      const failed: unknown[] = [];
      notifier.on('failed', (event) => failed.push(event.error));
      const results = await notifier.send({ type: 'user', id: 1 }, { via: () => ['redirected', 'failing'], toWebhook: userCreated.toWebhook });
      await notifier.close();
      const everything = inspect([results, failed], { depth: 10 });
      assert.ok(!everything.includes(token) && !everything.includes(pathSecret), everything);
      assert.match(results[0]!.error!.message, /POST http:\/\/127\.0\.0\.1:\d+\/moved\/…\?… answered 301 \(a redirect to https:\/\/127\.0\.0\.1\/moved\/…\?…\)/);
      assert.match(results[1]!.error!.message, /POST http:\/\/127\.0\.0\.1:\d+\/services\/…\?… answered 500\.$/);
    } finally {
      await server.close();
    }
  });

  it('shows no user info, and nothing after a backslash that ends the host, in a bad url', () => {
    const withPassword = thrownWithoutSecrets(() => new WebhookChannel({ url: `https://user:${token}@hooks.example.com:99999/in` }));
    assert.match(withPassword.message, /\(got "https:\/\/…@hooks\.example\.com:99999\/in"\)\.$/);
    const afterBackslash = thrownWithoutSecrets(() => new WebhookChannel({ url: `https://hooks.example.com\\${pathSecret}/in` }));
    assert.match(afterBackslash.message, /contains "\\\\".*\(got "https:\/\/hooks\.example\.com…"\)\.$/);
  });

  describe('when the secret is the first path segment', () => {
    const telegramToken = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
    const makeId = 'k3v9x2m7q8w4e6r1t5y0u2i9o8p7a6s5';
    const siteId = '0f6c2c9e-8a3b-4d5e-9f10-2b3c4d5e6f70';
    const secrets = [telegramToken, 'AAHdqTcv', makeId, siteId];
    const paths = { telegram: `/bot${telegramToken}/sendMessage`, make: `/${makeId}`, site: `/${siteId}` };

    function assertNoSecret(text: string): void {
      for (const secret of secrets) assert.ok(!text.includes(secret), text);
    }

    it('shows the real services\' URLs as origin and "…" in config errors', () => {
      const written = [`https://api.telegram.org${paths.telegram}`, `https://hook.eu1.make.com${paths.make}`, `https://webhook.site${paths.site}`];
      const shown = ['https://api.telegram.org/…', 'https://hook.eu1.make.com/…', 'https://webhook.site/…'];
      written.forEach((url, i) => {
        const error = thrownWithoutSecrets(() => new WebhookChannel({ url: `${url}?x=a b` }));
        assertNoSecret(inspect(error, { depth: 10 }));
        assert.ok(error.message.endsWith(`(got "${shown[i]}?…").`), error.message);
      });
    });

    it('keeps them out of error messages, attempt and failed events and the results, a redirect\'s Location too', async () => {
      const server = await startTestServer((response, received) =>
        received.url === '/moved' ? response.writeHead(302, { Location: `https://api.telegram.org${paths.telegram}` }).end() : response.writeHead(500).end(),
      );
      try {
        const notifier = new Notifier({ retry: { attempts: 2, minDelay: 1, maxDelay: 1 } });
        for (const [name, path] of Object.entries(paths)) notifier.registerChannel(name, new WebhookChannel({ url: `${server.url}${path}` }));
        notifier.registerChannel('moved', new WebhookChannel({ url: `${server.url}/moved` }));
        const attempts: unknown[] = [];
        const failed: unknown[] = [];
        notifier.on('attempt', (event) => attempts.push(event));
        notifier.on('failed', (event) => failed.push(event));
        const results = await notifier.send({ type: 'user', id: 1 }, { via: () => ['telegram', 'make', 'site', 'moved'], toWebhook: userCreated.toWebhook });
        await notifier.close();
        assert.equal(server.requests.length, 8); // each secret path did reach the server
        assert.equal(attempts.length, 8);
        assert.equal(failed.length, 4);
        assertNoSecret(inspect([results, attempts, failed], { depth: Infinity }));
        for (const result of results.slice(0, 3)) assert.match(result.error!.message, /POST http:\/\/127\.0\.0\.1:\d+\/… answered 500\.$/);
        assert.match(results[3]!.error!.message, /POST http:\/\/127\.0\.0\.1:\d+\/moved answered 302 \(a redirect to https:\/\/api\.telegram\.org\/…\)/);
      } finally {
        await server.close();
      }
    });
  });

  it('shows a channel in console.log, util.inspect and JSON with the URL as messages do and header values hidden', () => {
    const url = `https://hooks.slack.com/services/T0001/B0001/${pathSecret}?token=${token}`;
    const headers = { Authorization: `Bearer ${token}`, 'X-Api-Key': pathSecret };
    const channel = new WebhookChannel({ url, headers, secret: 'signing-secret' });
    const shown = [inspect(channel), inspect({ channels: [channel] }, { depth: Infinity }), format('%o', channel), format('%j', { channel }), JSON.stringify(channel)];
    for (const text of shown) assert.ok(!text.includes(token) && !text.includes(pathSecret) && !text.includes('signing-secret'), text);
    assert.equal(inspect(channel), "WebhookChannel {\n  url: 'https://hooks.slack.com/services/…?…',\n  method: 'POST',\n  timeout: 30000,\n  maxConcurrent: 32,\n  headers: { Authorization: '…', 'X-Api-Key': '…' },\n  signed: true\n}");
    assert.equal(inspect({ a: { channel } }, { depth: 1 }), '{ a: { channel: [WebhookChannel] } }');
    assert.deepEqual(JSON.parse(JSON.stringify(channel)), { url: 'https://hooks.slack.com/services/…?…', method: 'POST', timeout: 30_000, maxConcurrent: 32, headers: { Authorization: '…', 'X-Api-Key': '…' }, signed: true });
    // The fields themselves are the API: still whole.
    assert.equal(channel.url, url);
    assert.deepEqual(channel.headers, headers);
  });

  it('refuses a channel from another copy of the package showing only its kind, not the channel', async () => {
    // The same module loaded again under another URL: a second copy, as two installed versions give.
    const copy: typeof import('../../src/webhook/webhook-channel.js') = await import(new URL('../../src/webhook/webhook-channel.js?second-copy', import.meta.url).href);
    const config = { url: `https://hooks.slack.com/services/T0001/B0001/${pathSecret}`, headers: { Authorization: `Bearer ${token}` } };
    const foreign: unknown = new copy.WebhookChannel(config);
    assert.ok(!(foreign instanceof WebhookChannel));
    let thrown: unknown;
    assert.throws(() => new Notifier().registerChannel('webhook', foreign as never), (error: unknown) => {
      thrown = error;
      return error instanceof ConfigError;
    });
    const error = thrown as ConfigError;
    assert.equal(error.value, 'a WebhookChannel');
    assert.match(error.message, /^Invalid channel "webhook": must be a WebhookChannel from the copy of try-it-console this Notifier comes from .*\(got a WebhookChannel\)\.$/);
    // Even with the channel's own inspect and toJSON gone (an older copy), nothing of it is in the error.
    const bare = Object.assign(Object.create(null), config);
    assert.throws(() => new Notifier().registerChannel('webhook', bare), (error: unknown) => {
      const everything = inspect(error, { depth: Infinity, showHidden: true });
      return error instanceof ConfigError && error.value === 'an object' && !everything.includes(token) && !everything.includes(pathSecret);
    });
    const everything = inspect(error, { depth: Infinity, showHidden: true }) + JSON.stringify(error);
    assert.ok(!everything.includes(token) && !everything.includes(pathSecret), everything);
  });
});

describe('WebhookChannel: the exact request', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('sends method, URL, headers, body and signature exactly as the spec says', async () => {
    const secret = 'It is a secret';
    const url = `${server.url}/hooks/in?tenant=a%20b&x=1`;
    const notifier = new Notifier();
    notifier.registerChannel('webhook', new WebhookChannel({ url, secret, headers: { Authorization: 'Bearer t0ken', 'X-Tenant': 'acme' } }));
    const before = Date.now();
    const results = await notifier.send({ type: 'user', id: 42 }, userCreated);
    await notifier.close();

    assert.deepEqual(results, [{ channel: 'webhook', ok: true, status: 204, attempts: 1 }]);
    assert.equal(server.requests.length, 1);
    const [received] = server.requests;
    assert.equal(received!.method, 'POST');
    assert.equal(received!.url, '/hooks/in?tenant=a%20b&x=1');
    // Exactly these headers: the spec's three kinds plus the framing the HTTP client adds.
    assert.deepEqual(received!.headerNames.map((n) => n.toLowerCase()).sort(), ['authorization', 'connection', 'content-length', 'content-type', 'host', 'x-signature', 'x-tenant']);
    assert.equal(received!.headers['content-type'], 'application/json');
    assert.equal(received!.headers.authorization, 'Bearer t0ken');
    assert.equal(received!.headers['x-tenant'], 'acme');
    assert.equal(received!.headers['content-length'], String(received!.body.length));
    assert.equal(received!.headers['x-signature'], `sha256=${createHmac('sha256', secret).update(received!.body).digest('hex')}`);

    const text = received!.body.toString('utf8');
    const body = JSON.parse(text);
    assert.deepEqual(Object.keys(body), ['event', 'sent_at', 'notifiable', 'data']);
    assert.equal(body.event, 'user.created');
    assert.deepEqual(body.notifiable, { type: 'user', id: 42 });
    assert.deepEqual(body.data, { email: 'a@example.com', plan: { name: 'pro', seats: 3 }, note: 'héllo "world" 🎉' });
    assert.match(body.sent_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.ok(Date.parse(body.sent_at) >= before - 1000 && Date.parse(body.sent_at) <= Date.now() + 1000);
    assert.equal(text, JSON.stringify(body), 'compact JSON, no extra whitespace');
  });

  it('sends no X-Signature without a secret, and the configured method', async () => {
    server.requests.length = 0;
    const notifier = new Notifier();
    notifier.registerChannel('webhook', new WebhookChannel({ url: `${server.url}/plain`, method: 'put' }));
    const results = await notifier.send({ type: 'order', id: 'ord_1' }, userCreated);
    await notifier.close();
    assert.equal(results[0]!.ok, true);
    const [received] = server.requests;
    assert.equal(received!.method, 'PUT');
    assert.equal(received!.headers['x-signature'], undefined);
    assert.ok(!received!.headerNames.some((n) => n.toLowerCase() === 'x-signature'));
    assert.deepEqual(JSON.parse(received!.body.toString()).notifiable, { type: 'order', id: 'ord_1' });
  });

  it('sends the path and query exactly as written: no re-encoding, no dot-segment or slash rewriting', async () => {
    const written = ["/in?name=o'brien&sig=AbC%2Fx", '/%7Euser/a//b;v=1', "/p(a)t*h!$,@:=+?x=1&y=", '/in?', '?only=query', '', '/with#fragment'];
    const sent = ["/in?name=o'brien&sig=AbC%2Fx", '/%7Euser/a//b;v=1', "/p(a)t*h!$,@:=+?x=1&y=", '/in?', '/?only=query', '/', '/with'];
    server.requests.length = 0;
    const notifier = new Notifier();
    written.forEach((path, i) => notifier.registerChannel(`c${i}`, new WebhookChannel({ url: server.url + path })));
    // Scheme and host are case-insensitive: their spelling is not part of the request target.
    notifier.registerChannel('upper', new WebhookChannel({ url: server.url.replace('http://', 'HTTP://') + '/Upper?Case=1' }));
    for (let i = 0; i < written.length; i += 1) await notifier.send({ type: 'user', id: 1 }, { ...userCreated, via: () => [`c${i}`] });
    await notifier.send({ type: 'user', id: 1 }, { ...userCreated, via: () => ['upper'] });
    await notifier.close();
    assert.deepEqual(server.requests.map((r) => r.url), [...sent, '/Upper?Case=1']);
  });

  it('sends every configured header, one named __proto__ (from JSON config) included', async () => {
    server.requests.length = 0;
    const headers = JSON.parse('{"__proto__":"from-json","X-B":"b"}') as Record<string, string>;
    const notifier = new Notifier();
    notifier.registerChannel('webhook', new WebhookChannel({ url: server.url, headers }));
    await notifier.send({ type: 'user', id: 1 }, userCreated);
    await notifier.close();
    const raw = server.requests[0]!.rawHeaders;
    const valueOf = (name: string) => raw[raw.indexOf(name) + 1];
    assert.equal(valueOf('__proto__'), 'from-json', `sent: ${raw.join(', ')}`);
    assert.equal(valueOf('X-B'), 'b');
  });

  it('lets a configured Content-Type replace the default', async () => {
    server.requests.length = 0;
    const notifier = new Notifier();
    notifier.registerChannel('webhook', new WebhookChannel({ url: server.url, headers: { 'content-type': 'application/json; charset=utf-8' } }));
    await notifier.send({ type: 'user', id: 1 }, userCreated);
    await notifier.close();
    const [received] = server.requests;
    assert.equal(received!.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(received!.headerNames.filter((n) => n.toLowerCase() === 'content-type').length, 1);
  });

  it('delivers to several channels concurrently and reports each', async () => {
    server.requests.length = 0;
    const notifier = new Notifier();
    notifier.registerChannel('a', new WebhookChannel({ url: `${server.url}/a` }));
    notifier.registerChannel('b', new WebhookChannel({ url: `${server.url}/b`, secret: 'x' }));
    const results = await notifier.send({ type: 'user', id: 1 }, { ...userCreated, via: () => ['a', 'b', 'a'] });
    await notifier.close();
    assert.deepEqual(results.map((r) => [r.channel, r.ok]), [['a', true], ['b', true]]);
    assert.deepEqual(server.requests.map((r) => r.url).sort(), ['/a', '/b']);
  });
});

describe('WebhookChannel.attempt with a delivery not shaped as prepare() returns one', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('rejects with InvalidArgumentError and sends nothing: no body, no headers, a header that is not text, none', async () => {
    const notifiable = { type: 'user', id: 1 };
    const channel = new WebhookChannel({ url: `${server.url}/mine`, secret: 'mine', headers: { Authorization: 'Bearer my-token' } });
    try {
      const own = await channel.prepare(notifiable, newMessage().event('user.created').payload({ a: 1 }));
      const malformed = [{}, { ...own, body: own.body.toString('base64') }, { ...own, headers: undefined }, { ...own, headers: { ...own.headers, 'X-Count': 1 } }, { ...own, event: undefined }, undefined, 'delivery'];
      for (const delivery of malformed) {
        await assert.rejects(
          channel.attempt(delivery as never),
          (error: unknown) => error instanceof InvalidArgumentError && /^Invalid delivery: must be \{ event, body, headers \} as prepare\(\) returns it/.test(error.message) && !inspect(error).includes('my-token'),
        );
      }
      assert.equal(server.requests.length, 0);
    } finally {
      await channel.close();
    }
  });

  it('sends one read back from a queue as it is, signature and headers included', async () => {
    const channel = new WebhookChannel({ url: `${server.url}/queued`, secret: 'mine', headers: { Authorization: 'Bearer my-token' } });
    try {
      const prepared = await channel.prepare({ type: 'user', id: 1 }, newMessage().event('user.created').payload({ a: 1 }));
      const stored = JSON.parse(JSON.stringify({ ...prepared, body: prepared.body.toString('base64') })) as { event: string; body: string; headers: Record<string, string> };
      const readBack = { ...stored, body: Buffer.from(stored.body, 'base64') };
      assert.deepEqual(await channel.attempt(readBack), { ok: true, status: 204 });
      const [received] = server.requests;
      assert.equal(received?.url, '/queued');
      assert.equal(received?.headers['x-signature'], prepared.headers['X-Signature']);
      assert.equal(received?.headers.authorization, 'Bearer my-token');
      assert.deepEqual(received?.body, prepared.body);
    } finally {
      await channel.close();
    }
  });
});
