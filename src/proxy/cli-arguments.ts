// `try-it-proxy` command-line arguments → `startProxy` options. Pure, so every flag is testable without a process.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../core/errors.js';
import { normaliseOrigin } from './origin-policy.js';
import { MAX_TIMEOUT } from './proxy-options.js';
import type { StartProxyOptions } from './server.js';
import { parseHostPattern } from './target-policy.js';

export const USAGE = `Usage: try-it-proxy [options]

A CORS proxy for try-it-console: lets a docs page call APIs on other origins, and refuses
private and internal addresses.

Options:
  --port N               port to listen on (default: the PORT environment variable when set,
                         else 8787; 0 picks a free port)
  --host HOST            address to listen on (default 127.0.0.1)
  --allow-origin ORIGIN  a page origin allowed to use the proxy, e.g. https://docs.example.com;
                         repeat for more; "*" allows any page (default: localhost pages only)
  --allow-target HOST    a target host to forward to, e.g. api.example.com or *.example.com;
                         repeat for more (default: any host with a public address)
  --allow-private        also reach loopback and private-network addresses.
                         For local development only: never on a public server.
  --max-request-bytes N  largest request body forwarded (default 10485760, 10 MiB)
  --max-response-bytes N largest response body relayed (default 52428800, 50 MiB)
  --timeout MS           wait to resolve and reach the API, for its headers, and for
                         any pause in the body, the API's or the page's (default 30000)
  --max-redirects N      redirects followed, each re-checked; 0 passes them to the page (default 5).
                         A redirect from https to http is refused either way.
  --keep-alive-timeout MS
                         how long an idle connection stays open (default 5000); behind a load
                         balancer, set it above the balancer's idle timeout (AWS ALB 60 s: 65000)
  --version              print the version and exit
  -h, --help             show this help

Environment:
  PORT                   the port to listen on when --port is not given, as Heroku, Render,
                         Fly.io and Cloud Run set it; there, also pass --host 0.0.0.0 so the
                         platform's router can reach the proxy

Requests: /?url=<encoded absolute URL>  or  /<absolute URL>
GET / answers 200 (a health check; 503 once stopping). Each refusal is logged on stderr as a
JSON line (its code, method, page origin and target origin; never a path, query or header);
for what Node's HTTP parser refuses before reading the request (headers too large, an unknown
method, a malformed or late request), the code and status only; for a TLS handshake (a client
using https:// on this plain-HTTP port, code tls_on_plain_port), also the message saying what to do.
`;

/** What the command line asks for: run the proxy with these options, or print the help or the version. */
export type CliCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'run'; options: StartProxyOptions };

/** The environment variables the command reads. */
export interface CliEnvironment {
  /** The port when `--port` is not given, as hosting platforms set it; empty counts as unset. */
  PORT?: string | undefined;
}

/** A command line that cannot be run; the message says which flag and why. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** `source` names where the text came from: the flag, or the environment variable, which the operator may not know is read. */
function parsePort(text: string, source: '--port' | 'PORT'): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) {
    const where = source === 'PORT' ? ': it is read from the environment when --port is not given; set it to a port, or pass --port' : '';
    throw new CliUsageError(`${source} must be a number from 0 to 65535 (got ${JSON.stringify(text)})${where}.`);
  }
  return Number(text);
}

/** A whole number for a numeric flag: digits only, at least `min`. */
function parseCount(flag: string, text: string, min: 0 | 1): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new CliUsageError(`${flag} must be a whole number${min === 0 ? ', 0 or more' : ' above 0'} (got ${JSON.stringify(text)}).`);
  }
  return value;
}

/** Milliseconds for a timer flag: above 0, and no longer than a Node timer can wait. */
function parseMilliseconds(flag: string, text: string): number {
  const milliseconds = parseCount(flag, text, 1);
  if (milliseconds > MAX_TIMEOUT) throw new CliUsageError(`${flag} must be at most ${MAX_TIMEOUT} ms, about 24.8 days (got ${JSON.stringify(text)}).`);
  return milliseconds;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'allow-target': { type: 'string', multiple: true },
  'allow-private': { type: 'boolean' },
  'max-request-bytes': { type: 'string' },
  'max-response-bytes': { type: 'string' },
  timeout: { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'max-redirects': { type: 'string' },
  version: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** A flag that takes one value, given more than once: a later one would silently override the first (say, a wrapper's `--host`). */
function checkGivenOnce(tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>): void {
  const seen = new Map<string, string | undefined>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const flag: { type: string; multiple?: boolean } = FLAGS[token.name as keyof typeof FLAGS];
    if (flag.type !== 'string' || flag.multiple) continue;
    if (seen.has(token.name)) {
      throw new CliUsageError(`--${token.name} was given more than once (${JSON.stringify(seen.get(token.name))}, then ${JSON.stringify(token.value)}); give it once.`);
    }
    seen.set(token.name, token.value);
  }
}

/** Checks each value of a repeatable flag by the option's own rule, so that the message names the flag typed. */
function checkEach(flag: string, values: readonly string[], check: (value: string, field: string) => unknown): readonly string[] {
  for (const value of values) {
    try {
      check(value, flag);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliUsageError(error.message);
      throw error;
    }
  }
  return values;
}

/**
 * Reads `argv` (without the node and script paths) and `environment` (the CLI passes `process.env`). Throws
 * `CliUsageError` for unknown, repeated or malformed flags, and for a `PORT` that is no port.
 */
export function parseCliArguments(argv: readonly string[], environment: CliEnvironment = {}): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: false, tokens: true, options: FLAGS });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { values, tokens } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  checkGivenOnce(tokens);
  const options: StartProxyOptions = {};
  const { PORT } = environment;
  if (values.port !== undefined) options.port = parsePort(values.port, '--port');
  // An empty PORT is taken as unset, as a shell's ${PORT:-8787} would.
  else if (PORT !== undefined && PORT !== '') options.port = parsePort(PORT, 'PORT');
  if (values.host !== undefined) {
    if (values.host.trim() === '') throw new CliUsageError('--host must not be empty.');
    options.host = values.host;
  }
  if (values['allow-origin']) options.allowOrigins = checkEach('--allow-origin', values['allow-origin'], (value, field) => value === '*' || normaliseOrigin(value, field));
  if (values['allow-target']) options.allowTargets = checkEach('--allow-target', values['allow-target'], parseHostPattern);
  if (values['allow-private']) options.allowPrivate = true;
  if (values['max-request-bytes'] !== undefined) options.maxRequestBytes = parseCount('--max-request-bytes', values['max-request-bytes'], 1);
  if (values['max-response-bytes'] !== undefined) options.maxResponseBytes = parseCount('--max-response-bytes', values['max-response-bytes'], 1);
  if (values.timeout !== undefined) options.timeout = parseMilliseconds('--timeout', values.timeout);
  if (values['keep-alive-timeout'] !== undefined) options.keepAliveTimeout = parseMilliseconds('--keep-alive-timeout', values['keep-alive-timeout']);
  if (values['max-redirects'] !== undefined) options.maxRedirects = parseCount('--max-redirects', values['max-redirects'], 0);
  return { kind: 'run', options };
}
