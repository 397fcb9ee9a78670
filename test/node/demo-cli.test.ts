// `npm start`'s flags and environment variables (pure), then the real command on port 0: it prints its URLs,
// serves, and exits 0 on SIGTERM and on SIGINT. Every wait is bounded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { DemoUsageError, parseDemoArguments } from '../../demo/cli-options.js';

const LIMIT_MS = 20_000;

describe('demo arguments', () => {
  it('reads ports and host from the environment, with flags over it', () => {
    assert.deepEqual(parseDemoArguments([], {}), { kind: 'run', options: {} });
    assert.deepEqual(parseDemoArguments(['--port', '3000', '--api-port=3001'], { PORT: '9000', PROXY_PORT: '9001', RECEIVER_PORT: '9002', DEMO_HOST: '::1', HOST: '0.0.0.0' }), {
      kind: 'run',
      options: { port: 3000, apiPort: 3001, proxyPort: 9001, receiverPort: 9002, host: '::1' },
    });
    assert.deepEqual(parseDemoArguments(['--receiver-port', '0', '--proxy-port', '0', '--host', '127.0.0.1']), { kind: 'run', options: { receiverPort: 0, proxyPort: 0, host: '127.0.0.1' } });
    assert.deepEqual(parseDemoArguments(['--help']), { kind: 'help' });
  });

  it('names the bad flag or variable', () => {
    for (const [argv, env, message] of [
      [['--port', 'eighty'], {}, /--port must be a port number/],
      [['--port', '70000'], {}, /--port must be a port number/],
      [[], { API_PORT: '-1' }, /API_PORT must be a port number/],
      [['--port'], {}, /--port needs a value/],
      [['--host='], {}, /--host must not be empty/],
      // The proxy reaches private addresses: on another address it would relay for anyone who reaches the machine.
      [['--host', '0.0.0.0'], {}, /--host must be a loopback address.*"0\.0\.0\.0".*relay into your network/],
      [['--host=192.168.1.10'], {}, /--host must be a loopback address/],
      [['--host', 'example.com'], {}, /--host must be a loopback address/],
      [[], { DEMO_HOST: '::' }, /DEMO_HOST must be a loopback address/],
      [['--verbose'], {}, /Unknown option "--verbose"/],
    ] as const) {
      assert.throws(() => parseDemoArguments(argv, env), (error: Error) => error instanceof DemoUsageError && message.test(error.message), String(argv));
    }
  });
});

/** Runs `npm start` without its build step until the banner appears, then sends `signal`. */
async function startAndStop(signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build', '--port', '0', '--api-port', '0', '--receiver-port', '0', '--proxy-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null]>;
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes('Press Ctrl+C to stop.')) resolve();
    });
    void exited.then(() => resolve());
  });
  const docs = /Docs site\s+(http:\/\/\S+)/.exec(stdout)?.[1];
  assert.ok(docs, `the banner names the docs URL; stdout: ${stdout}; stderr: ${stderr}`);
  const page = await fetch(docs, { signal: AbortSignal.timeout(5_000) });
  assert.equal(page.status, 200);
  await page.arrayBuffer();
  child.kill(signal);
  const [code] = await exited;
  clearTimeout(killer);
  return { code, stdout };
}

describe('npm start', () => {
  it('prints every URL, serves, and stops cleanly on SIGTERM', async () => {
    const { code, stdout } = await startAndStop('SIGTERM');
    for (const label of ['Docs site', 'npm import', '<code-snippet>', 'Sample API', 'CORS proxy', 'Webhook receiver']) assert.match(stdout, new RegExp(label));
    assert.equal(code, 0);
  });

  it('stops cleanly on SIGINT', async () => {
    const { code } = await startAndStop('SIGINT');
    assert.equal(code, 0);
  });
});
