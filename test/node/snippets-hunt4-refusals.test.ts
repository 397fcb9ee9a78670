// What the snippet generator cannot send it refuses with an InvalidArgumentError, in every language, and never
// throws anything else: a bounded, deterministic fuzz (fixed seed) of malformed and near-valid requests, plus the
// shapes that went wrong elsewhere (symbols, BigInts, boxed strings, lone surrogates in every field).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SNIPPET_LANGUAGES, SnippetGenerator } from '../../src/core/index.js';
import { InvalidArgumentError } from '../../src/core/errors.js';

const generator = new SnippetGenerator();

function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

const PIECES = ['a', '/', '?', '#', '%', '%2', '%zz', '%00', '%25', '@', ':', '[', ']', '::1', '\\', ' ', '\t', '\n', '\r', '\0', '\u0085', '\u2028',
  '\uFEFF', '\uD800', '\uDC00', '😀', 'é', '"', "'", '`', '$', '!', '|', '{', '}', '^', '<', '>', '.', '..', '%2e', ';', '=', '&', '+', '*', '(', ')',
  '~', '-', '_', '0', '9', 'x', 'X', '\u007F', '\u0001'];
const ORIGINS = ['http://', 'https://', 'HTTP://', 'http:', 'http:/', 'ftp://', '', 'http://127.0.0.1', 'http://[::1]', 'http://localhost:8080', 'http://api.example.com', 'http://127.0.0.1:8080/'];

describe('hunt 4: refusals are InvalidArgumentErrors, never a crash', () => {
  it('for 3,000 drawn requests in every language', () => {
    const random = lcg(0x4a11);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const text = () => Array.from({ length: Math.floor(random() * 10) }, () => pick(PIECES)).join('');
    const odd = (): unknown => pick<() => unknown>([text, () => 0, () => null, () => undefined, () => ({}), () => [], () => Symbol('s'), () => 1n, () => new String('x'), () => true])();
    let accepted = 0;
    for (let index = 0; index < 3000; index++) {
      const headers = pick<() => unknown>([() => undefined, () => ({ [text()]: text() }), () => ({ [pick(['X-A', 'host', '__proto__', 'a b', ''])]: odd() }), odd, () => new Map([['a', 'b']])])();
      const request = pick<() => unknown>([
        () => ({ method: pick([text(), 'GET', 'post', 'head', 'CONNECT', 'trace']), url: pick(ORIGINS) + text(), headers, body: pick([text(), odd(), undefined]) }),
        () => ({ method: odd(), url: odd(), headers: odd(), body: odd() }),
        odd,
      ])();
      for (const language of SNIPPET_LANGUAGES) {
        try {
          generator.generate(request as never, language);
          accepted += 1;
        } catch (error) {
          assert.ok(error instanceof InvalidArgumentError, `${String(error)} for ${String(JSON.stringify(request, (_, value: unknown) => (typeof value === 'bigint' || typeof value === 'symbol' ? String(value) : value)))} in ${language}`);
          assert.match(error.message, /^Invalid request/);
        }
      }
    }
    // Some draws are valid requests, so the writers run too.
    assert.ok(accepted > 0);
  });
});
