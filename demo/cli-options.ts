// `npm start -- [flags]`: flags and environment variables for the demo's address and ports, parsed purely.
import { classifyAddress } from 'try-it-console/proxy';
import type { DemoOptions, PortName } from './server.js';

export const DEMO_USAGE = `Usage: npm start -- [options]

  --port N            docs site port (env PORT, default 8080)
  --api-port N        sample API port (env API_PORT, default 8081)
  --receiver-port N   webhook receiver port (env RECEIVER_PORT, default 8082)
  --proxy-port N      CORS proxy port (env PROXY_PORT, default 8787)
  --host ADDRESS      loopback address to listen on (env DEMO_HOST, default 127.0.0.1)
  --no-build          skip \`npm run build\`
  -h, --help          show this help

A default port that is taken is replaced by a free one (the banner says so); a port you choose must be free.
`;

/** A flag or variable the demo cannot use; the message says which and why. */
export class DemoUsageError extends Error {
  readonly code = 'ERR_DEMO_USAGE';

  constructor(message: string) {
    super(message);
    this.name = 'DemoUsageError';
  }
}

export type DemoCommand = { kind: 'help' } | { kind: 'run'; options: DemoOptions; build: boolean };

const PORT_FLAGS = { '--port': 'port', '--api-port': 'apiPort', '--receiver-port': 'receiverPort', '--proxy-port': 'proxyPort' } as const;
const PORT_ENV = { PORT: 'port', API_PORT: 'apiPort', RECEIVER_PORT: 'receiverPort', PROXY_PORT: 'proxyPort' } as const;

/** The flag that sets `option`'s port, e.g. `--api-port`. */
export function portFlag(option: PortName): string {
  return Object.keys(PORT_FLAGS).find((flag) => PORT_FLAGS[flag as keyof typeof PORT_FLAGS] === option)!;
}

/** Environment first, flags over it. `--flag value` and `--flag=value` both work. */
export function parseDemoArguments(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): DemoCommand {
  refuseFlagsNpmKept(env);
  const options: DemoOptions = {};
  // Where each port came from, to name both when two servers are given the same one.
  const sources: Partial<Record<keyof typeof PORT_KEYS, string>> = {};
  let build = true;
  for (const [name, key] of Object.entries(PORT_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') {
      options[key] = parsePort(value, name);
      sources[key] = name;
    }
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
    if (flag in PORT_FLAGS) {
      const key = PORT_FLAGS[flag as keyof typeof PORT_FLAGS];
      options[key] = parsePort(takeValue(), flag);
      sources[key] = flag;
    } else if (flag === '--host') {
      options.host = loopbackHost(takeValue(), '--host');
    } else if (arg === '--no-build') {
      build = false;
    } else if (/^\d+$/.test(arg)) {
      throw new DemoUsageError(`Unexpected ${JSON.stringify(arg)}: with npm, options go after "--", as in npm start -- --port ${arg}.`);
    } else throw new DemoUsageError(`Unknown option ${JSON.stringify(arg)}.`);
  }
  refuseSharedPorts(options, sources);
  return { kind: 'run', options, build };
}

const PORT_KEYS = { port: 'docs site', apiPort: 'sample API', receiverPort: 'webhook receiver', proxyPort: 'CORS proxy' } as const;

/** Two servers cannot share a port; without this, the second would report it "already in use" by the first. */
function refuseSharedPorts(options: DemoOptions, sources: Partial<Record<keyof typeof PORT_KEYS, string>>): void {
  const seen = new Map<number, keyof typeof PORT_KEYS>();
  for (const key of Object.keys(PORT_KEYS) as Array<keyof typeof PORT_KEYS>) {
    const port = options[key];
    if (port === undefined || port === 0) continue;
    const other = seen.get(port);
    if (other) throw new DemoUsageError(`${sources[other]} and ${sources[key]} are both ${port}: the ${PORT_KEYS[other]} and the ${PORT_KEYS[key]} each need their own port.`);
    seen.set(port, key);
  }
}

/**
 * `npm start --port 3000` (without "--") gives --port to npm, which puts it in `npm_config_port` and starts the
 * demo without it: say so, rather than run on ports the user did not ask for, or build after --no-build.
 */
function refuseFlagsNpmKept(env: Readonly<Record<string, string | undefined>>): void {
  if (env.npm_lifecycle_event !== 'start') return;
  const kept = ['port', 'api_port', 'receiver_port', 'proxy_port', 'host', 'build']
    .filter((name) => env[`npm_config_${name}`] !== undefined)
    .map((name) => (name === 'build' ? '--no-build' : `--${name.replace('_', '-')}`));
  if (kept.length > 0) {
    const example = kept.map((flag) => (flag === '--no-build' ? flag : `${flag} …`)).join(' ');
    throw new DemoUsageError(`npm kept ${kept.join(', ')} for itself (npm passes options to the script only after "--"). Run: npm start -- ${example}`);
  }
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
