// `try-it-proxy`: flag parsing as a pure function, then the real command in a child process (bounded).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { get, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { CliUsageError, parseCliArguments } from '../../src/proxy/cli-arguments.js';
import { startCli } from './proxy-support/cli-process.js';
import { echoHandler, listen, refusalCode } from './proxy-support/servers.js';

const CLI = ['--import', 'tsx', 'src/proxy/cli.ts'];
const LIMIT_MS = 15_000;

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help and errors), killed if it outlives the limit; `env` is added to this process's environment. */
async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Starts the CLI as a server; resolves with the URL from its banner. The caller kills it and clears `timer`. */
async function serveCli(args: string[]): Promise<{ child: ChildProcessByStdio<null, Readable, Readable>; url: string; stdout: string; timer: NodeJS.Timeout }> {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  let stdout = '';
  child.stdout.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  }).catch((error: unknown) => {
    clearTimeout(timer);
    throw error;
  });
  return { child, url, stdout, timer };
}

/** `started`, or, should the CLI not start, its error once `server` is closed: left open, it would keep the test file running. */
async function closingOnFailure<T>(started: Promise<T>, server: { close(): Promise<void> }): Promise<T> {
  try {
    return await started;
  } catch (error) {
    await server.close();
    throw error;
  }
}

describe('try-it-proxy arguments', () => {
  it('maps every flag to an option, repeatable ones to lists', () => {
    assert.deepEqual(
      parseCliArguments(['--port', '9000', '--host', '0.0.0.0', '--allow-origin', 'https://a.example', '--allow-origin=https://b.example', '--allow-target', 'api.example.com', '--allow-private']),
      { kind: 'run', options: { port: 9000, host: '0.0.0.0', allowOrigins: ['https://a.example', 'https://b.example'], allowTargets: ['api.example.com'], allowPrivate: true } },
    );
    assert.deepEqual(
      parseCliArguments(['--max-request-bytes', '1024', '--max-response-bytes=2048', '--timeout', '500', '--max-redirects', '0', '--keep-alive-timeout', '65000']),
      { kind: 'run', options: { maxRequestBytes: 1024, maxResponseBytes: 2048, timeout: 500, maxRedirects: 0, keepAliveTimeout: 65_000 } },
    );
    assert.deepEqual(parseCliArguments([]), { kind: 'run', options: {} });
    assert.deepEqual(parseCliArguments(['--allow-origin', '*', '--allow-private', '--allow-private']), { kind: 'run', options: { allowOrigins: ['*'], allowPrivate: true } });
    assert.deepEqual(parseCliArguments(['-h']), { kind: 'help' });
  });

  it('rejects unknown flags, missing values, bad ports and positionals with a clear message', () => {
    for (const [argv, message] of [
      [['--bogus'], /bogus/],
      [['--port'], /port/],
      [['--port', 'eighty'], /--port must be a number from 0 to 65535.*eighty/],
      [['--port', '70000'], /--port must be a number/],
      [['--host', ''], /--host must not be empty/],
      [['extra'], /extra/],
      [['--allow-private=yes'], /allow-private/],
      [['--max-response-bytes', '0'], /--max-response-bytes must be a whole number above 0 \(got "0"\)/],
      [['--max-request-bytes', '10MB'], /--max-request-bytes must be a whole number above 0/],
      [['--timeout', '1.5'], /--timeout must be a whole number above 0/],
      [['--timeout', '-1'], /timeout/],
      [['--max-redirects', 'many'], /--max-redirects must be a whole number, 0 or more/],
      [['--max-redirects', '99999999999999999999'], /--max-redirects must be a whole number/],
      [['--timeout', '3000000000'], /^--timeout must be at most 2147483647 ms, about 24\.8 days \(got "3000000000"\)/],
      [['--keep-alive-timeout', '0'], /^--keep-alive-timeout must be a whole number above 0 \(got "0"\)/],
      [['--keep-alive-timeout', '65s'], /^--keep-alive-timeout must be a whole number above 0 \(got "65s"\)/],
      [['--keep-alive-timeout'], /keep-alive-timeout/],
      [['--keep-alive-timeout', '3000000000'], /^--keep-alive-timeout must be at most 2147483647 ms, about 24\.8 days \(got "3000000000"\)/],
      [['--allow-origin', 'https://docs.example.com/app'], /^Invalid --allow-origin: must be an origin only .*\(got "https:\/\/docs\.example\.com\/app"\)/],
      [['--allow-origin', 'https://a.example', '--allow-origin', 'docs.example.com'], /^Invalid --allow-origin: .*\(got "docs\.example\.com"\)/],
      [['--allow-target', 'https://api.example.com'], /^Invalid --allow-target: must be a host name such as api\.example\.com/],
      [['--allow-target', 'api.example.com#frag'], /^Invalid --allow-target: must be a host name/],
    ] as const) {
      assert.throws(() => parseCliArguments(argv), (error: unknown) => error instanceof CliUsageError && message.test(error.message), argv.join(' '));
    }
  });

  it('reads the port from PORT when --port is not given, as hosting platforms set it; --port wins, and an empty PORT is unset', () => {
    assert.deepEqual(parseCliArguments([], { PORT: '9000' }), { kind: 'run', options: { port: 9000 } });
    assert.deepEqual(parseCliArguments(['--host', '0.0.0.0'], { PORT: '0' }), { kind: 'run', options: { port: 0, host: '0.0.0.0' } });
    assert.deepEqual(parseCliArguments(['--port', '8080'], { PORT: '9000' }), { kind: 'run', options: { port: 8080 } });
    // Not read when the flag is given: a stray PORT does not stop a command line that names its port.
    assert.deepEqual(parseCliArguments(['--port', '8080'], { PORT: 'not a port' }), { kind: 'run', options: { port: 8080 } });
    assert.deepEqual(parseCliArguments([], { PORT: '' }), { kind: 'run', options: {} });
    assert.deepEqual(parseCliArguments([], {}), { kind: 'run', options: {} });
  });

  it('refuses a PORT that is no port, naming PORT and where it comes from', () => {
    for (const value of ['http', '70000', '-1', ' 8080', '8080.0', '0x50', '123456']) {
      assert.throws(
        () => parseCliArguments(['--host', '0.0.0.0'], { PORT: value }),
        (error: unknown) =>
          error instanceof CliUsageError &&
          error.message === `PORT must be a number from 0 to 65535 (got ${JSON.stringify(value)}): it is read from the environment when --port is not given; set it to a port, or pass --port.`,
        value,
      );
    }
  });

  it('asks for the version with --version, before any other flag is read', () => {
    assert.deepEqual(parseCliArguments(['--version']), { kind: 'version' });
    assert.deepEqual(parseCliArguments(['--port', 'x', '--version'], { PORT: 'x' }), { kind: 'version' });
    assert.throws(() => parseCliArguments(['--version=1']), CliUsageError);
  });

  it('refuses a flag that takes one value given more than once, naming it: a later one (a wrapper script’s, say) would silently win', () => {
    for (const [argv, message] of [
      [['--timeout', '5', '--timeout', '7000'], /^--timeout was given more than once \("5", then "7000"\); give it once\.$/],
      [['--host', '127.0.0.1', '--host=0.0.0.0'], /^--host was given more than once \("127\.0\.0\.1", then "0\.0\.0\.0"\)/],
      [['--port', '8787', '--allow-private', '--port', '8787'], /^--port was given more than once/],
      [['--max-request-bytes', '1', '--max-request-bytes', '2'], /^--max-request-bytes was given more than once/],
      [['--max-response-bytes', '1', '--max-response-bytes', '2'], /^--max-response-bytes was given more than once/],
      [['--max-redirects', '1', '--max-redirects', '2'], /^--max-redirects was given more than once/],
      [['--keep-alive-timeout', '65000', '--keep-alive-timeout', '5000'], /^--keep-alive-timeout was given more than once/],
    ] as const) {
      assert.throws(() => parseCliArguments(argv), (error: unknown) => error instanceof CliUsageError && message.test(error.message), argv.join(' '));
    }
  });
});

describe('try-it-proxy command', () => {
  it('prints help and exits 0', async () => {
    const run = await runCli(['--help']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Usage: try-it-proxy/);
    assert.match(run.stdout, /--allow-private/);
    assert.match(run.stdout, /--keep-alive-timeout MS/);
    assert.match(run.stdout, /\n {2}--version +print the version and exit\n/);
    assert.match(run.stdout, /\nEnvironment:\n {2}PORT +the port to listen on when --port is not given/);
  });

  it('prints the package’s version with --version and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    assert.deepEqual(run, { code: 0, stdout: `try-it-proxy ${version}\n`, stderr: '' });
  });

  it('listens on the port PORT names when --port is not given', async () => {
    // A port free a moment ago: the proxy's default, 8787, may be taken on this machine, and 0 would not tell them apart.
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const cli = await startCli([], { PORT: String(port) });
    try {
      assert.equal(cli.url, `http://127.0.0.1:${port}/`);
      assert.equal((await fetch(cli.url)).status, 200);
    } finally {
      await cli.stop();
    }
  });

  it('exits 2, naming PORT, when PORT is no port', async () => {
    const run = await runCli([], { PORT: 'eighty' });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^try-it-proxy: PORT must be a number from 0 to 65535 \(got "eighty"\): it is read from the environment when --port is not given; set it to a port, or pass --port\.\nRun try-it-proxy --help/);
    assert.equal(run.stdout, '', 'it started');
  });

  it('exits 2 with a message for a bad flag or a bad origin', async () => {
    const flag = await runCli(['--port', 'x']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--port must be a number/);
    const origin = await runCli(['--port', '0', '--allow-origin', 'docs.example.com']);
    assert.equal(origin.code, 2);
    assert.match(origin.stderr, /--allow-origin: .*origin/);
  });

  it('names the flag the user typed in every error, never the option behind it', async () => {
    const runs = await Promise.all([
      [['--allow-origin', 'https://docs.example.com/app'], /^try-it-proxy: Invalid --allow-origin: must be an origin only/],
      [['--allow-target', 'https://api.example.com'], /^try-it-proxy: Invalid --allow-target: must be a host name/],
      [['--allow-target', 'api.example.com/'], /^try-it-proxy: Invalid --allow-target: must be a host name/],
      [['--timeout', '3000000000'], /^try-it-proxy: --timeout must be at most 2147483647 ms/],
    ].map(async ([args, message]) => ({ args: args as string[], message: message as RegExp, run: await runCli(['--port', '0', ...(args as string[])]) })));
    for (const { args, message, run } of runs) {
      const label = args.join(' ');
      assert.equal(run.code, 2, label);
      assert.match(run.stderr, message, label);
      assert.match(run.stderr, /Run try-it-proxy --help for the options\./, label);
      assert.doesNotMatch(run.stderr, /allowOrigins|allowTargets|Invalid timeout|maxRedirects/, label);
      assert.equal(run.stdout, '', `${label}: it started`);
    }
  });

  it('serves on the given port with the given origin, private-address policy and limits, and stops on SIGTERM', async () => {
    const upstream = await listen(echoHandler());
    // Written loosely on purpose: the banner shows the origin as the proxy normalised and enforces it.
    const { child, url, stdout, timer } = await closingOnFailure(
      serveCli(['--port', '0', '--allow-origin', 'https://Docs.Example.com:443/', '--allow-private', '--max-request-bytes', '16', '--keep-alive-timeout', '65000']),
      upstream,
    );
    try {
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.match(stdout, /WARNING: --allow-private/);
      assert.match(stdout, /\n {2}origins: https:\/\/docs\.example\.com\n {2}targets: any public host, and private addresses \(not cloud metadata\)\n {2}limits: request body 16 bytes, response body 52428800 bytes, timeout 30000 ms, 5 redirects, keep-alive 65000 ms\n/);

      const allowed = await fetch(`${url}${upstream.origin}/hi`, { headers: { origin: 'https://docs.example.com' } });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://docs.example.com');
      assert.equal(((await allowed.json()) as { url: string }).url, '/hi');

      const tooLarge = await fetch(`${url}${upstream.origin}/hi`, { method: 'POST', body: 'x'.repeat(17), headers: { origin: 'https://docs.example.com' } });
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.headers.get('x-try-it-proxy-error'), 'request_too_large');

      const refused = await fetch(`${url}${upstream.origin}/hi`, { headers: { origin: 'http://localhost:8000' } });
      const text = await refused.text();
      assert.equal(refused.status, 403);
      assert.equal(refusalCode({ status: refused.status, headers: Object.fromEntries(refused.headers), text, json: () => JSON.parse(text) }), 'origin_not_allowed');

      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0);
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      await upstream.close();
    }
  });

  it('exits 2, naming the flag, when a flag that takes one value is repeated', async () => {
    const run = await runCli(['--port', '0', '--timeout', '5', '--timeout', '7000']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^try-it-proxy: --timeout was given more than once \("5", then "7000"\); give it once\.\nRun try-it-proxy --help/);
    assert.equal(run.stdout, '', 'it started');
  });

  it('prints the target hosts it enforces, normalised, in its banner', async () => {
    const { child, stdout, timer } = await serveCli(['--port', '0', '--allow-target', 'API.Example.COM', '--allow-target', '*.Example.NET', '--allow-target', 'api.example.com']);
    try {
      assert.match(stdout, /\n {2}targets: api\.example\.com, \*\.example\.net\n/);
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('stops on the first SIGINT while it relays a response that never ends', async () => {
    let streaming: ServerResponse | undefined;
    const upstream = await listen((_req, res) => {
      streaming = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: first\n\n');
    });
    const { child, url, timer } = await closingOnFailure(serveCli(['--port', '0', '--allow-private']), upstream);
    try {
      const page = get(`${url}${upstream.origin}/events`, { headers: { origin: 'http://localhost:8000' } });
      page.on('error', () => undefined); // the stream is cut off when the proxy stops
      const [response] = (await once(page, 'response')) as [IncomingMessage];
      response.on('error', () => undefined);
      await once(response, 'data');

      child.kill('SIGINT');
      const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, 'killed by the time limit, not stopped by the signal');
      assert.ok(streaming);
      if (!streaming.destroyed) await once(streaming, 'close'); // the upstream connection was released
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      await upstream.close();
    }
  });
});
