import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runInNewContext } from 'node:vm';
import { ConfigError, parseConsoleConfig } from '../../src/core/index.js';

/** Asserts that `config` is refused with a ConfigError naming `field`, and returns its message. */
function refused(config: unknown, field: string): string {
  let message = '';
  assert.throws(
    () => parseConsoleConfig(config),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
      assert.equal(error.field, field);
      assert.equal(error.code, 'ERR_CONFIG');
      message = error.message;
      return true;
    },
  );
  return message;
}

describe('ConsoleConfig', () => {
  it('fills in the defaults: enabled, history on with 50 items, all five snippet languages', () => {
    const config = parseConsoleConfig({});
    assert.equal(config.enabled, true);
    assert.equal(config.corsProxy, undefined);
    assert.deepEqual(config.defaultHeaders, {});
    assert.deepEqual(config.environments, []);
    assert.equal(config.history.enabled, true);
    assert.equal(config.history.maxItems, 50);
    assert.deepEqual(config.snippets.languages, ['curl', 'javascript', 'go', 'python', 'php']);
    assert.equal(config.timeout, 30_000);
    assert.equal(config.strictVariables, false);
    assert.equal(config.credentials, 'omit');
    assert.deepEqual(parseConsoleConfig(), config);
  });

  it('keeps every field given', () => {
    const config = parseConsoleConfig({
      enabled: false,
      corsProxy: 'https://proxy.example/?url={url}',
      defaultHeaders: { Accept: 'application/json', 'X-Client': 'docs' },
      environments: [{ name: 'prod', variables: { base_url: 'https://api.example' } }],
      history: { enabled: false, maxItems: 5 },
      snippets: { languages: ['python', 'curl', 'python'] },
      timeout: 5_000,
      strictVariables: true,
      credentials: 'same-origin',
    });
    assert.equal(config.enabled, false);
    assert.equal(config.corsProxy, 'https://proxy.example/?url={url}');
    assert.deepEqual(config.defaultHeaders, { Accept: 'application/json', 'X-Client': 'docs' });
    assert.deepEqual(config.environments, [{ name: 'prod', variables: { base_url: 'https://api.example' } }]);
    assert.deepEqual([config.history.enabled, config.history.maxItems], [false, 5]);
    assert.deepEqual(config.snippets.languages, ['python', 'curl']);
    assert.deepEqual([config.timeout, config.strictVariables, config.credentials], [5_000, true, 'same-origin']);
    assert.equal(parseConsoleConfig({ credentials: 'include' }).credentials, 'include');
  });

  it('accepts a prefix-style proxy, adding the slash a bare origin lacks', () => {
    assert.equal(parseConsoleConfig({ corsProxy: 'http://127.0.0.1:8787/' }).corsProxy, 'http://127.0.0.1:8787/');
    assert.equal(parseConsoleConfig({ corsProxy: 'http://127.0.0.1:8787' }).corsProxy, 'http://127.0.0.1:8787/');
    assert.equal(parseConsoleConfig({ corsProxy: 'https://proxy.example/raw?' }).corsProxy, 'https://proxy.example/raw?');
    assert.equal(parseConsoleConfig({ corsProxy: 'https://proxy.example/?url=' }).corsProxy, 'https://proxy.example/?url=');
    assert.match(refused({ corsProxy: 'https://proxy.example/relay' }, 'corsProxy'), /must end with "\/", "\?" or "="; write "https:\/\/proxy.example\/relay\/"/);
  });

  it('refuses the target marked other than {url}, e.g. with a placeholder\'s double braces, which would reach the proxy around the target', () => {
    assert.match(refused({ corsProxy: 'https://proxy.example/?url={{url}}' }, 'corsProxy'), /marks the place of the target with \{\{url\}\}; write \{url\}.*: "https:\/\/proxy.example\/\?url=\{url\}"/);
    assert.match(refused({ corsProxy: 'https://proxy.example/?url={URL}' }, 'corsProxy'), /with \{URL\}; write \{url\}, lowercase in single braces: "https:\/\/proxy.example\/\?url=\{url\}"/);
    assert.match(refused({ corsProxy: 'https://proxy.example/?url=${url}' }, 'corsProxy'), /with \$\{url\}; write \{url\}/);
    assert.equal(parseConsoleConfig({ corsProxy: 'https://proxy.example/?key=a&url={url}' }).corsProxy, 'https://proxy.example/?key=a&url={url}');
  });

  it('takes a timeout up to the longest a timer can wait, and refuses a longer one, which would end every send at once', () => {
    assert.equal(parseConsoleConfig({ timeout: 2 ** 31 - 1 }).timeout, 2 ** 31 - 1);
    assert.match(refused({ timeout: 2 ** 31 }, 'timeout'), /at most 2147483647 ms \(about 24\.8 days\).*got 2147483648/);
    refused({ timeout: 3_000_000_000 }, 'timeout');
    refused({ timeout: 1.5 }, 'timeout');
  });

  it('refuses a corsProxy with whitespace around it, a fragment or credentials, which pass the URL parser and then break every send, saying what to write', () => {
    assert.match(refused({ corsProxy: ' https://proxy.example/ ' }, 'corsProxy'), /whitespace around it.*; write "https:\/\/proxy.example\/" \(got " https/);
    refused({ corsProxy: 'https://proxy.example/\n' }, 'corsProxy');
    refused({ corsProxy: '\thttps://proxy.example/?url={url}' }, 'corsProxy');
    assert.match(refused({ corsProxy: 'https://proxy.example/#' }, 'corsProxy'), /fragment.*never reaches the proxy.*write "https:\/\/proxy.example\/"/);
    assert.match(refused({ corsProxy: 'https://proxy.example/?url={url}#top' }, 'corsProxy'), /write "https:\/\/proxy.example\/\?url=\{url\}"/);
    const credentials = refused({ corsProxy: 'http://user:pass@127.0.0.1:8787/' }, 'corsProxy');
    assert.match(credentials, /user name or password.*fetch refuses.*public to the page anyway.*send no credentials in its URL: write "http:\/\/127.0.0.1:8787\/"/);
    assert.match(refused({ corsProxy: 'https://token@proxy.example/?url={url}' }, 'corsProxy'), /write "https:\/\/proxy.example\/\?url=\{url\}"/);
  });

  it('keeps a header named __proto__ as a header', () => {
    const config = parseConsoleConfig(JSON.parse('{"defaultHeaders": {"__proto__": "p", "X-B": "b"}}'));
    assert.deepEqual(Object.entries(config.defaultHeaders), [['__proto__', 'p'], ['X-B', 'b']]);
  });

  it('reads only the fields the config itself has, not ones added to Object.prototype', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.corsProxy = 'https://attacker.example/';
    prototype.enabled = false;
    try {
      const config = parseConsoleConfig({});
      assert.deepEqual([config.corsProxy, config.enabled], [undefined, true]);
    } finally {
      delete prototype.corsProxy;
      delete prototype.enabled;
    }
  });

  it('refuses bad values, naming the field and showing the value', () => {
    assert.match(refused({ snippets: { languages: ['curl', 'ruby'] } }, 'snippets.languages[1]'), /"ruby"/);
    assert.match(refused({ history: { enabled: true, maxItems: 0 } }, 'history.maxItems'), /positive whole number.*got 0/);
    refused({ history: { enabled: true, maxItems: -3 } }, 'history.maxItems');
    assert.match(refused({ corsProxy: 'proxy.example' }, 'corsProxy'), /absolute http\(s\) URL/);
    refused({ corsProxy: 'ftp://proxy.example/' }, 'corsProxy');
    refused({ corsProxy: 42 }, 'corsProxy');
    assert.match(refused({ defaultHeaders: { 'Bad Header': 'x' } }, 'defaultHeaders["Bad Header"]'), /not a valid header name/);
    assert.match(refused({ defaultHeaders: { 'X-A': 'one\r\nX-Injected: two' } }, 'defaultHeaders["X-A"]'), /line break/);
    assert.match(refused({ defaultHeaders: { 'X-A': 'a\x7fb' } }, 'defaultHeaders["X-A"]'), /control character/);
    assert.match(refused({ defaultHeaders: { Host: 'api.example' } }, 'defaultHeaders["Host"]'), /set by every HTTP client/);
    refused({ defaultHeaders: { 'X-A': 5 } }, 'defaultHeaders["X-A"]');
    refused({ defaultHeaders: { accept: 'a', Accept: 'b' } }, 'defaultHeaders["Accept"]');
    assert.match(refused({ environments: [{ name: 'a', variables: {} }, { name: 'a', variables: {} }] }, 'environments[1].name'), /duplicates/);
    refused({ environments: [{ name: '', variables: {} }] }, 'environments[0].name');
    refused({ environments: [{ name: 'a', variables: { port: 80 } }] }, 'environments[0].variables["port"]');
    refused({ environments: {} }, 'environments');
    refused({ enabled: 'yes' }, 'enabled');
    refused({ timeout: 0 }, 'timeout');
    refused({ credentials: 'always' }, 'credentials');
    assert.match(refused({ credentials: 'include', corsProxy: 'https://proxy.example/' }, 'credentials'), /corsProxy/);
    assert.match(refused({ defaultHeaders: { 'X-Name': 'Zoë \uDC00' } }, 'defaultHeaders["X-Name"]'), /lone UTF-16 surrogate/);
    assert.equal(parseConsoleConfig({ defaultHeaders: { 'X-Name': 'Zoë € 日本' } }).defaultHeaders['X-Name'], 'Zoë € 日本');
    refused({ snippets: { languages: 'curl' } }, 'snippets.languages');
    refused(null, 'config');
    refused([], 'config');
  });

  it('refuses a Headers, a Map or another object that is not plain where the config expects a plain object, saying what to pass', () => {
    const lost = (name: string) => new RegExp(`must be a plain object: a (Headers|Map|URLSearchParams) has no own keys to read its entries from, so they would be lost; pass a plain object instead: Object\\.fromEntries\\(${name.replace(/[[\]]/g, '\\$&')}\\)`);
    // The Authorization header used to be read as no headers at all, and never sent.
    assert.match(refused({ defaultHeaders: new Headers({ Authorization: 'Bearer x' }) }, 'defaultHeaders'), lost('defaultHeaders'));
    assert.match(refused({ defaultHeaders: new URLSearchParams({ Authorization: 'Bearer x' }) }, 'defaultHeaders'), lost('defaultHeaders'));
    assert.match(refused({ environments: [{ name: 'A', variables: new Map([['base_url', 'https://api.example']]) }] }, 'environments[0].variables'), lost('variables'));
    assert.match(refused({ environments: [new Map([['name', 'A']])] }, 'environments[0]'), lost('environments[0]'));
    assert.match(refused(new Map([['timeout', 5]]), 'config'), /\(got a Map\)\.$/);
    assert.match(refused({ history: new Map([['enabled', false]]) }, 'history'), lost('history'));
    assert.match(refused({ snippets: new Map([['languages', ['curl']]]) }, 'snippets'), lost('snippets'));
    class Settings {
      get timeout() {
        return 5;
      }
    }
    assert.match(refused(new Settings(), 'config'), /only the own fields of a Settings would be read.*\(got a Settings\)/);
    assert.match(refused({ defaultHeaders: Object.create({ Accept: 'text/plain' }) }, 'defaultHeaders'), /plain object/);
    // Plain objects from another frame, or without a prototype, are plain.
    assert.equal(parseConsoleConfig(runInNewContext('({ timeout: 5, defaultHeaders: { Accept: "text/plain" } })')).timeout, 5);
    const bare = Object.assign(Object.create(null), { defaultHeaders: Object.assign(Object.create(null), { Accept: 'text/plain' }) });
    assert.deepEqual(parseConsoleConfig(bare).defaultHeaders, { Accept: 'text/plain' });
  });

  it('refuses a hole in a list, naming its index, instead of keeping it', () => {
    assert.match(refused({ environments: [, { name: 'A' }] }, 'environments[0]'), /hole/);
    refused({ environments: [{ name: 'A' }, , { name: 'B' }] }, 'environments[1]');
    refused({ history: { enabled: true, redactHeaders: [, 'X-Secret'] } }, 'history.redactHeaders[0]');
    refused({ history: { enabled: true, redactQueryParameters: ['sig', , 'key'] } }, 'history.redactQueryParameters[1]');
    refused({ snippets: { languages: [, 'curl'] } }, 'snippets.languages[0]');
  });

  it('refuses unknown fields, so a misspelt option is not silently ignored', () => {
    assert.match(refused({ corsproxy: 'https://p.example/' }, 'config.corsproxy'), /^Invalid config\.corsproxy: is not a known field; names are case-sensitive: write corsProxy; known fields: enabled, corsProxy/);
    assert.match(refused({ history: { enabled: true, MaxItems: 5 } }, 'history.MaxItems'), /is not a known field; names are case-sensitive: write maxItems; known fields/);
    assert.doesNotMatch(refused({ history: { enabled: true, max: 5 } }, 'history.max'), /case-sensitive/);
    refused({ snippets: { langs: ['curl'] } }, 'snippets.langs');
  });
});
