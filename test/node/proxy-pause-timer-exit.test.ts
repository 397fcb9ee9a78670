// After refusing a request body of undeclared length over maxRequestBytes, the timer that watches the body for pauses
// stayed armed for the whole `timeout` (Node emits neither `end` nor `close` for a request whose body is left unread):
// a process that had closed the proxy could not exit for that long. This test failed on that code.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./proxy-support/refused-body-then-close.ts', import.meta.url));
/** Far under the child's 10-minute pause timeout, far over the second or two it takes to run and exit. */
const LONGEST_WAIT = 60_000;

describe('the proxy’s watch on a request body for pauses', () => {
  it('lets a process exit once it closed the proxy after refusing a body over maxRequestBytes', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    const guard = setTimeout(() => child.kill('SIGKILL'), LONGEST_WAIT);
    const [code, signal] = (await new Promise((resolve) => child.once('exit', (...ended) => resolve(ended)))) as [number | null, string | null];
    clearTimeout(guard);
    assert.equal(output.trim(), 'refused 413, closed');
    assert.deepEqual([code, signal], [0, null], 'exited on its own, not killed once the wait ran out');
  });
});
