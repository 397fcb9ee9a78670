// What a snippet's client must send: exactly the request asked for (method, path and query, every header once with
// its value, body bytes), but for what the client adds or rewrites itself, as the README's "Snippets" section lists.
import assert from 'node:assert/strict';
import type { SnippetLanguage } from '../../../src/core/index.js';
import type { ReceivedRequest } from './echo-server.js';

/** The parts of a request that a snippet is asked to send. */
export interface AskedRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

// Headers a client adds on its own. Anything else that arrives must have been asked for, and no name arrives twice.
const CLIENT_HEADERS: Record<SnippetLanguage, string[]> = {
  curl: ['host', 'user-agent', 'accept', 'content-length', 'expect'],
  javascript: ['host', 'connection', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'sec-fetch-mode', 'content-length'],
  go: ['host', 'user-agent', 'accept-encoding', 'content-length'],
  python: ['host', 'user-agent', 'accept-encoding', 'content-length'],
  php: ['host', 'accept', 'content-length', 'expect'],
};
// Added only when the request has a body and no Content-Type of its own.
const DEFAULT_CONTENT_TYPE: Partial<Record<SnippetLanguage, string>> = {
  curl: 'application/x-www-form-urlencoded',
  javascript: 'text/plain;charset=UTF-8',
  php: 'application/x-www-form-urlencoded',
};
// Go looks these up under their canonical names, so its snippet sets them so.
const GO_CANONICAL = new Map([['user-agent', 'User-Agent'], ['accept-encoding', 'Accept-Encoding'], ['range', 'Range']]);

/** The request target a client sends for `url`: everything after the authority, without the fragment. */
function requestTarget(url: string): string {
  const afterScheme = url.slice(url.indexOf('//') + 2);
  const target = afterScheme.slice(afterScheme.search(/[/?#]|$/)).split('#')[0]!;
  return target.startsWith('/') ? target : `/${target}`;
}

/** What `language` sends for `url`: the target as written, except for the client rewrites the README documents. */
function expectedTarget(language: SnippetLanguage, url: string): string {
  // An empty query is dropped: a `?` that starts the query with `#` or the end right after it, not any other `?`.
  const target = requestTarget(url.replace(/^([^?#]*)\?(?=#|$)/, '$1'));
  // fetch follows the URL Standard, which percent-encodes `'` in the query of http(s) URLs.
  if (language === 'javascript') return target.replace(/(?<=\?.*)'/g, '%27');
  // urllib3 writes percent-escapes in uppercase (RFC 3986 §2.1: equivalent).
  if (language === 'python') return target.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  return target;
}

function headerPairs(raw: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/**
 * Asserts that `received` is `asked`, sent by `language`'s snippet to `url`. `clientAdds`: headers (lowercase name
 * to value) the client adds to this particular request, which may arrive with exactly that value.
 */
export function assertReceived(language: SnippetLanguage, asked: AskedRequest, url: string, received: ReceivedRequest, clientAdds: Record<string, string> = {}) {
  assert.equal(received.method, asked.method.toUpperCase(), 'method');
  assert.equal(received.target, expectedTarget(language, url), 'path and query');
  const arrived = headerPairs(received.rawHeaders);
  const askedHeaders = Object.entries(asked.headers ?? {}).map(([name, value]) => [name, value.replace(/^[ \t]+|[ \t]+$/g, '')] as const);
  for (const [name, value] of askedHeaders) {
    const matches = arrived.filter(([arrivedName]) => arrivedName.toLowerCase() === name.toLowerCase());
    assert.equal(matches.length, 1, `header ${name} arrives exactly once`);
    const sentName = language === 'go' ? GO_CANONICAL.get(name.toLowerCase()) ?? name : name;
    assert.equal(matches[0]![0], sentName, `header name ${name} arrives as ${sentName}`);
    // Node gives header bytes as Latin-1 characters; the snippets send UTF-8.
    assert.equal(Buffer.from(matches[0]![1], 'latin1').toString('utf8'), value, `header ${name} value`);
  }
  const askedNames = new Set(askedHeaders.map(([name]) => name.toLowerCase()));
  const body = asked.body ?? '';
  const arrivedNames = arrived.map(([name]) => name.toLowerCase());
  assert.deepEqual(arrivedNames.filter((name, index) => arrivedNames.indexOf(name) !== index), [], 'no header name arrives twice');
  for (const [name, value] of arrived) {
    const lower = name.toLowerCase();
    if (askedNames.has(lower)) continue;
    // Go leaves out its own Accept-Encoding when the request has a Range: a range of gzip bytes is not one of the body.
    if (language === 'go' && lower === 'accept-encoding' && askedNames.has('range')) assert.fail(`unexpected header ${name}: ${value}`);
    if (CLIENT_HEADERS[language].includes(lower) || clientAdds[lower] === value) continue;
    if (lower === 'content-type' && body !== '' && !askedNames.has('content-type') && value === DEFAULT_CONTENT_TYPE[language]) continue;
    assert.fail(`unexpected header ${name}: ${value}`);
  }
  assert.equal(received.body.toString('hex'), Buffer.from(body, 'utf8').toString('hex'), 'body bytes');
}
