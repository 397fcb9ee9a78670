// Browser tests run in Debian's Chromium (never a downloaded browser), headless, with TypeScript
// compiled on the fly by esbuild.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import commonjs from '@rollup/plugin-commonjs';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { fromRollup } from '@web/dev-server-rollup';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { a11ySnapshotPlugin } from '@web/test-runner-commands/plugins';
import { chromiumFlags, chromiumPath } from './scripts/chromium.mjs';
import { ownOriginProxyMiddleware, testServersPlugin } from './test/browser/support/test-servers.mjs';
import { frameworksPlugin } from './test/browser/support/frameworks.mjs';

/** Counts passed and failed tests over all sessions, for the one summary line `npm test` prints. */
function summaryReporter(path) {
  const count = (suite, totals) => {
    for (const test of suite.tests) {
      if (test.skipped) continue;
      if (test.passed) totals.passed += 1;
      else totals.failed += 1;
    }
    for (const child of suite.suites) count(child, totals);
    return totals;
  };
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        if (!session.passed && session.errors?.length) totals.failed += session.errors.length;
      }
      if (path) writeFileSync(path, JSON.stringify(totals));
    },
  };
}

/**
 * Every test file imports these first (on its first line, so line numbers stay): readable-failures.ts, as failed
 * assertions about elements would otherwise stall the run, and fresh-language-pick.ts, so each test starts without
 * the language pick an earlier one kept in localStorage.
 */
function testSupportPlugin() {
  return {
    name: 'try-it-test-support',
    transform(context) {
      if (/^\/test\/browser\/[^/]+\.test\.ts$/.test(context.path)) {
        return { body: `import '/test/browser/support/readable-failures.ts';import '/test/browser/support/fresh-language-pick.ts';${context.body}` };
      }
    },
  };
}

/** A port free now: the runner's default, 8000, may be taken (another project's server, a second run). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export default {
  port: await freePort(),
  files: 'test/browser/**/*.test.ts',
  nodeResolve: true,
  concurrency: 1,
  middleware: [ownOriginProxyMiddleware()],
  testsFinishTimeout: 300_000,
  // highlight.js ships its ES entry points as wrappers around CommonJS files.
  // a11ySnapshot: the accessible names and descriptions Chromium computes, which joining DOM text does not show.
  // frameworks: Vue, React, Svelte and Angular as an app's bundler serves them, for the tests that embed the elements in each.
  plugins: [testSupportPlugin(), a11ySnapshotPlugin(), testServersPlugin(), frameworksPlugin(), fromRollup(commonjs)({ include: ['**/node_modules/highlight.js/**'], strictRequires: false }), esbuildPlugin({ ts: true, tsconfig: new URL('./tsconfig.json', import.meta.url).pathname, target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath, headless: true, args: chromiumFlags },
      // The Copy button writes to the clipboard; the tests read it back to check what was copied.
      async createPage({ config, browser }) {
        const context = browser.defaultBrowserContext();
        await context.overridePermissions(`http://${config.hostname}:${config.port}`, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
        return context.newPage();
      },
    }),
  ],
  testFramework: { config: { timeout: 20_000 } },
  reporters: [defaultReporter(), summaryReporter(process.env.TRY_IT_SUMMARY)],
};
