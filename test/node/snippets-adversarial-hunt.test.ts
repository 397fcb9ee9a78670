// Requests the adversarial corpus (snippets-execution.test.ts) did not cover, found by running every snippet through
// its real interpreter against a loopback server: headers fetch adds or rewrites (conditional requests, Sec-Fetch-Mode,
// Accept-Encoding with a Range), libcurl's 1 MiB limit on a request head, and URL shapes (an IPv6 host, no path).
// Each request must arrive exactly as asked, but for what the client adds itself, or be refused for the languages
// that cannot send it, with a message that says to use another one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SNIPPET_LANGUAGES, SnippetGenerator, type SnippetLanguage, type SnippetRequest } from '../../src/core/index.js';
import { InvalidArgumentError } from '../../src/core/errors.js';
import { startEchoServer, type EchoServer } from './snippets-support/echo-server.js';
import { assertReceived, type AskedRequest } from './snippets-support/exact-request.js';
import { interpreterEnvironment, runSnippet } from './snippets-support/interpreters.js';

interface HuntCase extends AskedRequest {
  name: string;
  /** Appended to `<origin>/<run key>`. */
  path?: string;
  /** For a URL without a path, which has no room for the run key: the URL, from the server's origin. */
  url?: (origin: string, key: string) => string;
  /** The languages that refuse the request, with what their message says. */
  refusedBy?: Partial<Record<SnippetLanguage, RegExp>>;
  /** Headers a client adds to this request, lowercase name to value (listed in the README). */
  clientAdds?: Partial<Record<SnippetLanguage, Record<string, string>>>;
  ipv6?: boolean;
}

const LIBCURL_REFUSES = /libcurl refuses a request head over 1 MiB; use another snippet language/;

/** `count` headers of `size` bytes each, every one under the shell's 128 KiB limit for an argument. */
function largeHeaders(count: number, size: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`X-Large-${index}`, 'v'.repeat(size)]));
}

const CASES: HuntCase[] = [
  // fetch (the Fetch standard: Node and browsers alike) turns the cache mode "default" into "no-store" for a request
  // with any of these, and then adds `Pragma: no-cache` and `Cache-Control: no-cache`.
  ...['If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since', 'If-Match', 'If-Range'].map((name): HuntCase => ({
    name: `conditional header ${name}`,
    method: name === 'If-Match' ? 'PUT' : 'GET',
    path: `/conditional/${name.toLowerCase()}`,
    headers: { [name]: name.endsWith('Since') ? 'Wed, 21 Oct 2015 07:28:00 GMT' : '"etag-1"' },
    ...(name === 'If-Match' ? { body: '{"v":2}' } : {}),
    clientAdds: { javascript: { pragma: 'no-cache', 'cache-control': 'no-cache' } },
  })),
  // fetch sets Sec-Fetch-Mode to the request's mode (`cors`), whatever the request says.
  { name: 'Sec-Fetch-Mode', method: 'GET', path: '/sec-fetch-mode', headers: { 'Sec-Fetch-Mode': 'navigate' }, refusedBy: { javascript: /fetch cannot send Sec-Fetch-Mode/ } },
  // With a Range, fetch appends "identity" to Accept-Encoding: "gzip" arrives as "gzip, identity".
  {
    name: 'Range with Accept-Encoding',
    method: 'GET',
    path: '/range-encoding',
    headers: { Range: 'bytes=0-5', 'Accept-Encoding': 'gzip' },
    refusedBy: { javascript: /fetch cannot send Accept-Encoding with a Range/ },
  },
  // libcurl (curl, and PHP's ext-curl) writes the request line and headers into a buffer of 1 MiB and fails with
  // "Out of memory" past it, sending nothing (curl's exit code 27). The other clients send them.
  { name: 'request head over 1 MiB', method: 'GET', path: '/large-head', headers: largeHeaders(9, 120_000), refusedBy: { curl: LIBCURL_REFUSES, php: LIBCURL_REFUSES } },
  // libcurl 7.88 puts a body under 64 KiB into that buffer too.
  {
    name: 'request head under 1 MiB with a small body that takes it over',
    method: 'POST',
    path: '/large-head-body',
    headers: largeHeaders(8, 125_000),
    body: 'b'.repeat(60_000),
    refusedBy: { curl: LIBCURL_REFUSES, php: LIBCURL_REFUSES },
  },
  {
    name: 'one header value over 1 MiB',
    method: 'GET',
    path: '/large-value',
    headers: { 'X-Large': 'v'.repeat(1_100_000) },
    refusedBy: { curl: /too long for one shell argument/, php: LIBCURL_REFUSES },
  },
  // Shapes the corpus has no example of; every client sends them as asked.
  { name: 'IPv6 literal host', method: 'PATCH', path: '/v6?a=1', headers: { 'X-V6': 'yes' }, body: 'x', ipv6: true },
  { name: 'URL without a path', method: 'GET', url: (origin) => origin },
  { name: 'URL with a query and no path', method: 'GET', url: (origin, key) => `${origin}?${key}=1` },
  { name: 'URL with a fragment and no path', method: 'GET', url: (origin) => `${origin}#section` },
];

let ipv4: EchoServer;
let ipv6: EchoServer;
let workDir: string;
let env: NodeJS.ProcessEnv;
const generator = new SnippetGenerator();

before(async () => {
  // Request heads of a few MB: the limits under test are the clients', not the server's.
  ipv4 = await startEchoServer({ maxHeaderSize: 16 * 1024 * 1024 });
  ipv6 = await startEchoServer({ host: '::1' });
  workDir = mkdtempSync(join(tmpdir(), 'try-it-snippets-hunt-'));
  env = interpreterEnvironment(workDir);
});

after(async () => {
  await ipv4?.close();
  await ipv6?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface Run {
  server: EchoServer;
  /** Names the snippet's file. */
  key: string;
  /** The first path segment the request arrives under; empty for a URL without a path. The runs are sequential. */
  arrivesUnder: string;
  clientAdds?: Record<string, string> | undefined;
}

/** Runs `language`'s snippet for `request` and asserts that the server received exactly that request, once. */
async function assertSentExactly(language: SnippetLanguage, request: SnippetRequest & { url: string }, { server, key, arrivesUnder, clientAdds }: Run) {
  const snippet = generator.generate(request, language);
  const earlier = server.received(arrivesUnder).length;
  const result = await runSnippet(language, snippet, workDir, key, env);
  const context = `\n--- snippet (first 1500 characters) ---\n${snippet.slice(0, 1500)}\n--- stdout ---\n${result.stdout.slice(-1000)}\n--- stderr ---\n${result.stderr.slice(-1000)}`;
  assert.ok(!result.timedOut, `timed out${context}`);
  assert.equal(result.code, 0, `exit code${context}`);
  const received = server.received(arrivesUnder).slice(earlier);
  assert.equal(received.length, 1, `requests received${context}`);
  try {
    assertReceived(language, request, request.url, received[0]!, clientAdds);
  } catch (error) {
    (error as Error).message += context;
    throw error;
  }
}

for (const language of SNIPPET_LANGUAGES) {
  describe(`${language} snippets send what the corpus misses, or refuse it`, () => {
    for (const [index, testCase] of CASES.entries()) {
      it(testCase.name, async () => {
        const server = testCase.ipv6 ? ipv6 : ipv4;
        const key = `hunt-${language}-${index}`;
        const url = testCase.url?.(server.origin, key) ?? `${server.origin}/${key}${testCase.path ?? ''}`;
        const request = { method: testCase.method, url, headers: testCase.headers, body: testCase.body };
        const refusal = testCase.refusedBy?.[language];
        if (refusal === undefined) {
          await assertSentExactly(language, request, { server, key, arrivesUnder: testCase.url ? '' : key, clientAdds: testCase.clientAdds?.[language] });
          return;
        }
        assert.throws(() => generator.generate(request, language), (error: unknown) => {
          assert.ok(error instanceof InvalidArgumentError, String(error));
          assert.match(error.message, refusal);
          assert.match(error.message, /use another snippet language/);
          return true;
        });
      });
    }
  });
}

describe('libcurl sends the largest request head the generator lets through', () => {
  // No Content-Type, User-Agent or Accept of the request's own, so libcurl writes its own: the most it adds. A body
  // under 64 KiB goes into the head's buffer; one of 1 MiB and more does not, but brings an `Expect: 100-continue`.
  for (const language of ['curl', 'php'] as const) {
    for (const [label, body] of [['a small body', 'small body'], ['a body of 1 MiB', 'b'.repeat(1024 * 1024 + 1)]] as const) {
      it(`${language}, with ${label}`, async () => {
        const key = `hunt-${language}-largest-head-${body.length}`;
        const url = `${ipv4.origin}/${key}/largest`;
        const padded = (bytes: number) => ({ method: 'POST', url, headers: { ...largeHeaders(8, 128_000), 'X-Pad': 'p'.repeat(bytes) }, body });
        const accepted = (bytes: number) => {
          try {
            generator.generate(padded(bytes), language);
            return true;
          } catch (error) {
            assert.match((error as Error).message, LIBCURL_REFUSES);
            return false;
          }
        };
        let fits = 0;
        let over = 100_000;
        assert.ok(accepted(fits) && !accepted(over), 'the search starts on either side of the limit');
        while (over - fits > 1) {
          const middle = Math.floor((fits + over) / 2);
          if (accepted(middle)) fits = middle;
          else over = middle;
        }
        await assertSentExactly(language, padded(fits), { server: ipv4, key, arrivesUnder: key });
      });
    }
  }
});
