// `npm start`'s flags and environment variables (pure), then the real command: it prints its URLs, serves, exits 0
// on SIGTERM and on SIGINT, stops when npm is stopped, and copes with taken ports. Every wait is bounded.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DemoUsageError, parseDemoArguments } from '../../demo/cli-options.js';

const LIMIT_MS = 20_000;

describe('demo arguments', () => {
  it('reads ports and host from the environment, with flags over it', () => {
    assert.deepEqual(parseDemoArguments([], {}), { kind: 'run', options: {}, build: true });
    assert.deepEqual(parseDemoArguments(['--port', '3000', '--api-port=3001'], { PORT: '9000', PROXY_PORT: '9001', RECEIVER_PORT: '9002', DEMO_HOST: '::1', HOST: '0.0.0.0' }), {
      kind: 'run',
      options: { port: 3000, apiPort: 3001, proxyPort: 9001, receiverPort: 9002, host: '::1' },
      build: true,
    });
    assert.deepEqual(parseDemoArguments(['--receiver-port', '0', '--proxy-port', '0', '--host', '127.0.0.1', '--no-build']), {
      kind: 'run',
      options: { receiverPort: 0, proxyPort: 0, host: '127.0.0.1' },
      build: false,
    });
    // Port 0 (a free one) may be given to every server.
    assert.deepEqual(parseDemoArguments(['--port', '0', '--api-port', '0'], { PROXY_PORT: '0' }), { kind: 'run', options: { port: 0, apiPort: 0, proxyPort: 0 }, build: true });
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
      // Two servers on one port: named as such, not as a port "already in use" once the first one took it.
      [['--port', '8081'], { API_PORT: '8081' }, /--port and API_PORT are both 8081: the docs site and the sample API each need their own port/],
      [['--proxy-port=9000', '--receiver-port', '9000'], {}, /--receiver-port and --proxy-port are both 9000/],
      // `npm start --port 3000`, without "--": npm keeps --port (npm_config_port) and passes "3000" on.
      [['3000'], {}, /Unexpected "3000": with npm, options go after "--", as in npm start -- --port 3000/],
      [[], { npm_lifecycle_event: 'start', npm_config_port: '3000' }, /npm kept --port for itself \(npm passes options to the script only after "--"\)\. Run: npm start -- --port …/],
      [['5'], { npm_lifecycle_event: 'start', npm_config_api_port: 'true', npm_config_build: '' }, /npm kept --api-port, --no-build for itself.*npm start -- --api-port … --no-build/],
    ] as const) {
      assert.throws(() => parseDemoArguments(argv, env), (error: Error) => error instanceof DemoUsageError && message.test(error.message), String(argv));
    }
    // Only when npm runs `start`: another script (`npm test`) may carry npm_config_* variables of its own.
    assert.deepEqual(parseDemoArguments([], { npm_lifecycle_event: 'test', npm_config_port: '3000' }), { kind: 'run', options: {}, build: true });
  });
});

interface DemoProcess {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  /** The docs site's URL from the banner, once it is printed; undefined when the process ended first. */
  docs?: string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Spawns `command` and waits (bounded) for the demo's banner or for the process to end. */
async function spawnDemo(command: string, args: string[], options: { detached?: boolean } = {}): Promise<DemoProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  const run: DemoProcess = { child, stdout: '', stderr: '', exited: once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]> };
  const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  void run.exited.then(() => clearTimeout(killer));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk));
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      run.stdout += chunk;
      if (run.stdout.includes('Press Ctrl+C to stop.')) resolve();
    });
    void run.exited.then(() => resolve());
  });
  run.docs = /Docs site\s+(http:\/\/\S+)/.exec(run.stdout)?.[1];
  return run;
}

const FREE_PORTS = ['--no-build', '--port', '0', '--api-port', '0', '--receiver-port', '0', '--proxy-port', '0'];

/** Runs `npm start` without its build step until the banner appears, then sends `signal`. */
async function startAndStop(signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string }> {
  const run = await spawnDemo(process.execPath, ['scripts/start.mjs', ...FREE_PORTS]);
  assert.ok(run.docs, `the banner names the docs URL; stdout: ${run.stdout}; stderr: ${run.stderr}`);
  const page = await fetch(run.docs, { signal: AbortSignal.timeout(5_000) });
  assert.equal(page.status, 200);
  await page.arrayBuffer();
  run.child.kill(signal);
  const [code] = await run.exited;
  return { code, stdout: run.stdout };
}

/** True once nothing answers at `url` (bounded: about 10 s). */
async function stopsAnswering(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
    } catch {
      return true;
    }
    await sleep(250);
  }
  return false;
}

/** Holds `port` on 127.0.0.1, as another program would; undefined when something holds it already. */
async function occupy(port: number): Promise<Server | undefined> {
  const server = createServer((_request, response) => response.end('another program'));
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
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

  it('stops when npm alone is sent SIGTERM (as an editor\'s Stop button does), leaving no server behind', async () => {
    // npm runs the script under `sh -c`; SIGTERM to npm ends npm and the shell, not the demo's node process.
    // Its own process group, so that whatever is left can be killed by the group's id at the end.
    const run = await spawnDemo('npm', ['start', '--silent', '--', ...FREE_PORTS], { detached: true });
    try {
      assert.ok(run.docs, `the banner names the docs URL; stdout: ${run.stdout}; stderr: ${run.stderr}`);
      run.child.kill('SIGTERM');
      await run.exited;
      assert.ok(await stopsAnswering(run.docs), `the docs site at ${run.docs} still answers after npm was stopped; its output: ${run.stdout.slice(-200)}${run.stderr}`);
    } finally {
      try {
        process.kill(-run.child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    }
  });

  it('refuses a mistyped flag at once, without building first', async () => {
    const run = await spawnDemo(process.execPath, ['scripts/start.mjs', '--prot', '3000']);
    const [code] = await run.exited;
    assert.equal(code, 2);
    assert.match(run.stderr, /Unknown option "--prot"/);
    assert.doesNotMatch(run.stdout, /Building/);
  });

  it('moves to free ports when the defaults are taken (by another demo, by anything), and says so', async () => {
    const blockers = await Promise.all([8080, 8081, 8082, 8787].map(occupy));
    try {
      const run = await spawnDemo(process.execPath, ['scripts/start.mjs', '--no-build']);
      assert.ok(run.docs, `the demo started; stdout: ${run.stdout}; stderr: ${run.stderr}`);
      for (const [port, server, flag] of [[8080, 'docs site', '--port'], [8081, 'sample API', '--api-port'], [8082, 'webhook receiver', '--receiver-port'], [8787, 'CORS proxy', '--proxy-port']] as const) {
        assert.match(run.stdout, new RegExp(`Port ${port} was taken: the ${server} is on \\d+ instead \\(set one with ${flag}\\)`));
      }
      assert.doesNotMatch(run.docs, /:8080\//);
      const page = await fetch(run.docs, { signal: AbortSignal.timeout(5_000) });
      assert.match(await page.text(), /Petstore API/);
      run.child.kill('SIGTERM');
      assert.deepEqual(await run.exited, [0, null]);

      // A port asked for is used as is, or the demo says which and how to pick another.
      const strict = await spawnDemo(process.execPath, ['scripts/start.mjs', '--no-build', '--port', '8080', '--api-port', '0', '--receiver-port', '0', '--proxy-port', '0']);
      const [code] = await strict.exited;
      assert.equal(code, 1);
      assert.match(strict.stderr, /The docs site could not listen on port 8080: it is already in use\. Pick another with --port or PORT\./);
    } finally {
      await Promise.all(blockers.map((server) => server && new Promise((resolve) => server.close(resolve))));
    }
  });
});
