// Every snippet, in every language, run by its real interpreter against a loopback echo server: the request that
// arrives must be exactly the one asked for (method, path and query, every header, body bytes).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SNIPPET_LANGUAGES, SnippetGenerator } from '../../src/core/index.js';
import { ECHO_REPLY, ECHO_STATUS, startEchoServer, type EchoServer } from './snippets-support/echo-server.js';
import { CORPUS } from './snippets-support/adversarial-corpus.js';
import { assertReceived } from './snippets-support/exact-request.js';
import { interpreterEnvironment, runSnippet } from './snippets-support/interpreters.js';

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
