// `npm start -- [flags]`: flags and environment variables for the demo's address and ports, parsed purely.
import { classifyAddress } from 'try-it-console/proxy';
import type { DemoOptions } from './server.js';

export const DEMO_USAGE = `Usage: npm start -- [options]

  --port N            docs site port (env PORT, default 8080)
  --api-port N        sample API port (env API_PORT, default 8081)
  --receiver-port N   webhook receiver port (env RECEIVER_PORT, default 8082)
  --proxy-port N      CORS proxy port (env PROXY_PORT, default 8787)
  --host ADDRESS      loopback address to listen on (env DEMO_HOST, default 127.0.0.1)
  --no-build          skip \`npm run build\` (npm start only)
  -h, --help          show this help
`;

/** A flag or variable the demo cannot use; the message says which and why. */
export class DemoUsageError extends Error {
  readonly code = 'ERR_DEMO_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'DemoUsageError';
  }
}

export type DemoCommand = { kind: 'help' } | { kind: 'run'; options: DemoOptions };

const PORT_FLAGS = { '--port': 'port', '--api-port': 'apiPort', '--receiver-port': 'receiverPort', '--proxy-port': 'proxyPort' } as const;
const PORT_ENV = { PORT: 'port', API_PORT: 'apiPort', RECEIVER_PORT: 'receiverPort', PROXY_PORT: 'proxyPort' } as const;

/** Environment first, flags over it. `--flag value` and `--flag=value` both work. */
export function parseDemoArguments(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): DemoCommand {
  const options: DemoOptions = {};
  for (const [name, key] of Object.entries(PORT_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') options[key] = parsePort(value, name);
  }
  // Not HOST: containers and some shells set it for their own purposes, often to 0.0.0.0.
  if (env.DEMO_HOST) options.host = loopbackHost(env.DEMO_HOST, 'DEMO_HOST');

  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return { kind: 'help' };
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new DemoUsageError(`${flag} needs a value.`);
      i += 1;
      return next;
    };
    if (flag in PORT_FLAGS) options[PORT_FLAGS[flag as keyof typeof PORT_FLAGS]] = parsePort(takeValue(), flag);
    else if (flag === '--host') {
      options.host = loopbackHost(takeValue(), '--host');
    } else throw new DemoUsageError(`Unknown option ${JSON.stringify(arg)}.`);
  }
  return { kind: 'run', options };
}

/**
 * `host` when it is a loopback address. The demo's proxy may reach private addresses (it must, for the sample API):
 * on any other address, whoever reaches this machine could use it as a relay into the network it is on.
 */
function loopbackHost(host: string, name: string): string {
  if (host === '') throw new DemoUsageError(`${name} must not be empty.`);
  if (host.toLowerCase() !== 'localhost' && classifyAddress(host) !== 'loopback') {
    throw new DemoUsageError(
      `${name} must be a loopback address such as 127.0.0.1, ::1 or localhost (got ${JSON.stringify(host)}): the demo's CORS proxy may reach private addresses, so on ${JSON.stringify(host)} anyone who reaches this machine could use it as a relay into your network.`,
    );
  }
  return host;
}

function parsePort(value: string, name: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new DemoUsageError(`${name} must be a port number from 0 to 65535 (got ${JSON.stringify(value)}).`);
  return port;
}
