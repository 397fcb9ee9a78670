#!/usr/bin/env node
// `try-it-proxy`: runs the CORS proxy until interrupted. Exit codes: 0 ok, 1 could not start, 2 bad usage.
import { readFileSync } from 'node:fs';
import { isTryItError } from '../core/errors.js';
import { CliUsageError, USAGE, parseCliArguments } from './cli-arguments.js';
import type { ProxyRefusalRecord } from './refusal.js';
import { startProxy } from './server.js';

/** One JSON line per refusal on stderr, for the operator: no path, query or header of the request, which may hold keys. */
function logRefusal(record: ProxyRefusalRecord): void {
  const { cause, ...fields } = record;
  const error = cause === undefined ? {} : { error: cause instanceof Error ? (cause.stack ?? cause.message) : String(cause) };
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event: 'refused', ...fields, ...error })}\n`);
}

/**
 * The package's version, from its package.json: two folders up from this file, whether it runs as dist/proxy/cli.js
 * (built, or installed under node_modules/try-it-console) or as src/proxy/cli.ts.
 */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error('package.json has no version.');
  return manifest.version;
}

async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCliArguments(argv, process.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`try-it-proxy: ${error.message}\nRun try-it-proxy --help for the options.\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`try-it-proxy ${packageVersion()}\n`);
    return 0;
  }
  const { options } = command;
  let proxy;
  try {
    proxy = await startProxy({ ...options, onRefusal: logRefusal });
  } catch (error) {
    const usage = isTryItError(error);
    process.stderr.write(`try-it-proxy: ${usage ? '' : 'could not start: '}${(error as Error).message}\n`);
    return usage ? 2 : 1;
  }
  const { origins, targets } = proxy.summary;
  const limits = `${proxy.summary.limits}, keep-alive ${proxy.server.keepAliveTimeout} ms`;
  const warning = options.allowPrivate ? '  WARNING: --allow-private: loopback and private addresses are reachable. Local development only.\n' : '';
  // One write, so a reader that waits for the URL line has the whole banner.
  process.stdout.write(`try-it-proxy listening on ${proxy.url}\n  origins: ${origins}\n  targets: ${targets}\n  limits: ${limits}\n${warning}`);

  // `close()` cuts off relays in flight, so the first signal is enough; a second one, with the listener gone, kills
  // the process the default way should closing ever stall.
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    proxy.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`try-it-proxy: stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<number>(() => {}); // runs until a signal stops it
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`try-it-proxy: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
