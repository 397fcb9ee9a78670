// `npm test`: one command for every check. System tools first, then the type-check and build, the Node
// tests (node:test), and the browser tests (@web/test-runner in Debian's Chromium). Ends with one plain
// summary line over both runners.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ensureSystem } from './ensure-system.mjs';

/** Test files under `dir`, recursively, sorted so runs are repeatable. `filter` narrows by substring. */
function testFiles(dir, filter) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.test.ts') && (!filter || f.includes(filter)))
    .map((f) => join(dir, f))
    .sort();
}

function run(label, command, args, options = {}) {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n✖ ${label} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}

const filter = process.argv[2];
const only = process.env.TEST_ONLY; // 'node' or 'browser', for quick local loops

ensureSystem();
run('build and type-check', 'npm', ['run', '--silent', 'build']);
run('type-check tests and benchmarks', 'npx', ['tsc', '-p', 'tsconfig.test.json']);

const counts = { passed: 0, failed: 0 };
const work = mkdtempSync(join(tmpdir(), 'try-it-test-'));
try {
  if (only !== 'browser') {
    const tap = join(work, 'node.tap');
    run('Node tests', process.execPath, [
      // A test that hangs fails after 5 minutes instead of holding CI until its limit (the slowest, Go's first
      // compile on a fresh machine, takes well under a minute).
      '--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tap}`,
      ...testFiles('test/node', filter),
    ]);
    const text = readFileSync(tap, 'utf8');
    counts.passed += Number(/^# pass (\d+)/m.exec(text)?.[1] ?? 0);
    counts.failed += Number(/^# fail (\d+)/m.exec(text)?.[1] ?? 0);
  }
  if (only !== 'node') {
    const summary = join(work, 'browser.json');
    const files = testFiles('test/browser', filter);
    run('Browser tests (Chromium)', 'npx', ['web-test-runner', ...files], { env: { ...process.env, TRY_IT_SUMMARY: summary } });
    const browser = JSON.parse(readFileSync(summary, 'utf8'));
    counts.passed += browser.passed;
    counts.failed += browser.failed;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed > 0 || counts.passed === 0 ? 1 : 0);
