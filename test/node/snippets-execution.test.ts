// Every snippet, in every language, run by its real interpreter against a loopback echo server: the request that
// arrives must be exactly the one asked for (method, path and query, every header, body bytes).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SNIPPET_LANGUAGES, SnippetGenerator, type SnippetLanguage } from '../../src/core/index.js';
import { ECHO_REPLY, ECHO_STATUS, startEchoServer, type EchoServer, type ReceivedRequest } from './snippets-support/echo-server.js';
import { CORPUS, type CorpusCase } from './snippets-support/adversarial-corpus.js';
import { interpreterEnvironment, runSnippet } from './snippets-support/interpreters.js';

// Headers a client adds on its own. Anything else that arrives must have been asked for, and no name arrives twice.
const CLIENT_HEADERS: Record<SnippetLanguage, string[]> = {
  curl: ['host', 'user-agent', 'accept', 'content-length', 'expect'],
  javascript: ['host', 'connection', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'sec-fetch-mode', 'content-length'],
  go: ['host', 'user-agent', 'accept-encoding', 'content-length'],
  python: ['host', 'user-agent', 'accept-encoding', 'content-length'],
  php: ['host', 'accept', 'content-length', 'expect'],
};
// Added only when the request has a body and no Content-Type of its own (documented in the README).
const DEFAULT_CONTENT_TYPE: Partial<Record<SnippetLanguage, string>> = {
  curl: 'application/x-www-form-urlencoded',
  javascript: 'text/plain;charset=UTF-8',
  php: 'application/x-www-form-urlencoded',
};
// Go looks these up under their canonical names, so its snippet sets them so (documented in the README).
const GO_CANONICAL = new Map([['user-agent', 'User-Agent'], ['accept-encoding', 'Accept-Encoding'], ['range', 'Range']]);

const generator = new SnippetGenerator();
let server: EchoServer;
let workDir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startEchoServer();
  workDir = mkdtempSync(join(tmpdir(), 'try-it-snippets-'));
  env = interpreterEnvironment(workDir);
});

after(async () => {
  await server?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

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

function assertReceived(language: SnippetLanguage, testCase: CorpusCase, url: string, received: ReceivedRequest) {
  assert.equal(received.method, testCase.method.toUpperCase(), 'method');
  assert.equal(received.target, expectedTarget(language, url), 'path and query');
  const arrived = headerPairs(received.rawHeaders);
  const asked = Object.entries(testCase.headers ?? {}).map(([name, value]) => [name, value.replace(/^[ \t]+|[ \t]+$/g, '')] as const);
  for (const [name, value] of asked) {
    const matches = arrived.filter(([arrivedName]) => arrivedName.toLowerCase() === name.toLowerCase());
    assert.equal(matches.length, 1, `header ${name} arrives exactly once`);
    const sentName = language === 'go' ? GO_CANONICAL.get(name.toLowerCase()) ?? name : name;
    assert.equal(matches[0]![0], sentName, `header name ${name} arrives as ${sentName}`);
    // Node gives header bytes as Latin-1 characters; the snippets send UTF-8.
    assert.equal(Buffer.from(matches[0]![1], 'latin1').toString('utf8'), value, `header ${name} value`);
  }
  const askedNames = new Set(asked.map(([name]) => name.toLowerCase()));
  const body = testCase.body ?? '';
  const arrivedNames = arrived.map(([name]) => name.toLowerCase());
  assert.deepEqual(arrivedNames.filter((name, index) => arrivedNames.indexOf(name) !== index), [], 'no header name arrives twice');
  for (const [name, value] of arrived) {
    const lower = name.toLowerCase();
    // Go leaves out its own Accept-Encoding when the request has a Range: a range of gzip bytes is not one of the body.
    if (language === 'go' && lower === 'accept-encoding' && askedNames.has('range')) assert.fail(`unexpected header ${name}: ${value}`);
    if (askedNames.has(lower) || CLIENT_HEADERS[language].includes(lower)) continue;
    if (lower === 'content-type' && body !== '' && !askedNames.has('content-type') && value === DEFAULT_CONTENT_TYPE[language]) continue;
    assert.fail(`unexpected header ${name}: ${value}`);
  }
  assert.equal(received.body.toString('hex'), Buffer.from(body, 'utf8').toString('hex'), 'body bytes');
}

// curl snippets also go to an interactive zsh: the README says they are safe to paste into either shell.
const RUNS = [...SNIPPET_LANGUAGES.map((language) => ({ language, shell: 'bash' as const })), { language: 'curl' as const, shell: 'zsh' as const }];

for (const { language, shell } of RUNS) {
  const pastedInto = language === 'curl' ? ` (${shell})` : '';
  // Two at a time: the machine has two cores, and Go's builds are the slow part.
  describe(`${language} snippets run by their interpreter${pastedInto}`, { concurrency: 2 }, () => {
    CORPUS.forEach((testCase, index) => {
      if (testCase.refusedBy?.[language]) return;
      it(testCase.name, async () => {
        const key = `${language}${shell === 'zsh' ? '-zsh' : ''}-${index}`;
        const url = `${server.origin}/${key}${testCase.path}`;
        const snippet = generator.generate({ method: testCase.method, url, headers: testCase.headers, body: testCase.body }, language);
        const result = await runSnippet(language, snippet, workDir, key, env, shell);
        const context = `\n--- snippet ---\n${snippet}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr.slice(-2000)}`;
        assert.ok(!result.timedOut, `timed out${context}`);
        assert.equal(result.code, 0, `exit code${context}`);
        const received = server.received(key);
        assert.equal(received.length, 1, `requests received${context}`);
        try {
          assertReceived(language, testCase, url, received[0]!);
        } catch (error) {
          (error as Error).message += context;
          throw error;
        }
        if (testCase.method.toUpperCase() !== 'HEAD') assert.ok(result.stdout.includes(ECHO_REPLY), `prints the response body${context}`);
        if (language !== 'curl') assert.ok(result.stdout.includes(String(ECHO_STATUS)), `prints the status${context}`);
      });
    });
  });
}
