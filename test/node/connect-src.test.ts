// Which connections a page's Content-Security-Policy allows, read from its text as CSP 3 matches source lists.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { policyAllowsConnection } from '../../src/core/connect-src.js';

const PAGE = 'https://docs.example.com';

function allows(policy: string, url: string, page: string | undefined = PAGE): boolean {
  return policyAllowsConnection(policy, url, page);
}

describe('policyAllowsConnection', () => {
  it('reads connect-src, else default-src, and the first of a repeated directive', () => {
    assert.equal(allows("default-src 'none'; connect-src https://api.example.com", 'https://api.example.com/pets'), true);
    assert.equal(allows("connect-src 'self'; default-src https://api.example.com", 'https://api.example.com/pets'), false);
    assert.equal(allows('default-src https://api.example.com', 'https://api.example.com/pets'), true);
    assert.equal(allows("CONNECT-SRC https://a.example; connect-src https://api.example.com", 'https://api.example.com/pets'), false);
    assert.equal(allows("script-src 'self'", 'https://api.example.com/pets'), false, 'no connect-src nor default-src: not read as allowing');
  });

  it("matches 'self' (and its secure upgrade), *, and schemes", () => {
    assert.equal(allows("connect-src 'self'", 'https://docs.example.com/api'), true);
    assert.equal(allows("connect-src 'SELF'", 'https://docs.example.com:8443/api'), false);
    assert.equal(allows("connect-src 'self'", 'https://docs.example.com/api', 'http://docs.example.com'), true);
    assert.equal(allows("connect-src 'self'", 'https://api.example.com/'), false);
    assert.equal(policyAllowsConnection("connect-src 'self'", 'https://docs.example.com/', undefined), false, 'no page, no self');
    assert.equal(allows('connect-src *', 'http://127.0.0.1:8080/x'), true);
    assert.equal(allows('connect-src https:', 'https://anything.example/'), true);
    assert.equal(allows('connect-src HTTP:', 'https://anything.example/'), true, 'http: allows its upgrade');
    assert.equal(allows('connect-src https:', 'http://anything.example/'), false);
    assert.equal(allows('connect-src ws:', 'https://anything.example/'), true);
  });

  it('matches host sources by scheme, host, wildcard, port and path', () => {
    const cases: Array<[string, string, boolean]> = [
      ['https://api.example.com', 'https://API.example.com/pets', true],
      ['api.example.com', 'https://api.example.com/pets', true],
      ['api.example.com', 'http://api.example.com/pets', false],
      ['http://api.example.com', 'https://api.example.com/pets', true],
      ['http://api.example.com', 'https://api.example.com:8443/pets', false],
      ['https://api.example.com', 'https://api.example.com:443/pets', true],
      ['https://api.example.com:443', 'https://api.example.com/pets', true],
      ['https://api.example.com:443', 'https://api.example.com:8443/pets', false],
      ['https://api.example.com:8443', 'https://api.example.com:8443/pets', true],
      ['https://api.example.com:*', 'https://api.example.com:9/pets', true],
      ['http://127.0.0.1:43333', 'http://127.0.0.1:43333/to-api', true],
      ['http://127.0.0.1:43333', 'http://127.0.0.1:43334/to-api', false],
      ['https://*.example.com', 'https://eu.api.example.com/', true],
      ['https://*.example.com', 'https://example.com/', false],
      ['https://*', 'https://any.example/', true],
      ['https://api.example.com/v1/', 'https://api.example.com/v1/pets', true],
      ['https://api.example.com/v1/', 'https://api.example.com/v2/pets', false],
      ['https://api.example.com/v1/pets', 'https://api.example.com/v1/pets', true],
      ['https://api.example.com/v1/pets', 'https://api.example.com/v1/pets/1', false],
      ["'none'", 'https://api.example.com/', false],
      ["'nonce-abc'", 'https://api.example.com/', false],
      ['http://[::1]:8080', 'http://[::1]:8080/', false],
    ];
    for (const [source, url, expected] of cases) {
      assert.equal(allows(`connect-src ${source}`, url), expected, `${source} and ${url}`);
    }
  });

  it('allows nothing for a URL it cannot parse', () => {
    assert.equal(allows('connect-src *', 'not a url'), false);
  });
});
