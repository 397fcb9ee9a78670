// Which target URLs the proxy will request, judged on the URL alone (addresses are judged at connect time).
import { isIPv6 } from 'node:net';
import { ConfigError } from '../core/errors.js';
import { isBadPort } from '../core/proxy-route.js';
import { ProxyRefusal } from './refusal.js';

/** One allow-list entry: an exact host, or `*.example.com` for every subdomain of example.com. */
export type HostPattern = { host: string; subdomains: boolean };

const HOST_NAME_ONLY = 'must be a host name such as api.example.com or *.example.com, without scheme, port, path, query or fragment';

/** Characters no host name holds, which the URL parser would take as the start of a path, query or fragment, or skip. */
const NOT_IN_A_HOST = /[/?#\\@\s]/;

/** One `allowTargets` entry as the policy enforces it; anything that is not a host name is a config error naming `field`. */
export function parseHostPattern(entry: unknown, field: string): HostPattern {
  if (typeof entry !== 'string') throw new ConfigError(field, entry, HOST_NAME_ONLY);
  // no_proxy's and cookies' way of writing a domain, which would match no host here.
  if (entry.startsWith('.')) throw new ConfigError(field, entry, `${HOST_NAME_ONLY}: for the subdomains of ${entry.slice(1)}, write *${entry}, and ${entry.slice(1)} for itself`);
  // One entry holding a list (`--allow-target "$HOSTS"`): the URL parser takes it as one host, which no target has.
  if (/[,;]/.test(entry)) throw new ConfigError(field, entry, `${HOST_NAME_ONLY}: give each host as an entry of its own (with try-it-proxy, one --allow-target per host)`);
  // As URLs write it: unbracketed, the URL parser reads the colons as a port.
  if (isIPv6(entry)) throw new ConfigError(field, entry, `${HOST_NAME_ONLY}: write an IPv6 address in brackets, as in a URL: [${entry}]`);
  const subdomains = entry.startsWith('*.');
  const host = subdomains ? entry.slice(2) : entry;
  // The URL parser lowercases, punycodes and normalises IP literals, exactly as it will for targets.
  const url = URL.canParse(`http://${host}`) && !NOT_IN_A_HOST.test(host) ? new URL(`http://${host}`) : undefined;
  if (!url || url.host !== url.hostname || url.pathname !== '/' || url.search || url.hash || url.username || host.includes('*')) {
    throw new ConfigError(field, entry, HOST_NAME_ONLY);
  }
  return { host: withoutFinalDot(url.hostname), subdomains };
}

/** A fully qualified name's final dot taken off: `api.example.com.` is the same host as `api.example.com`. */
function withoutFinalDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/** A pattern as it is enforced: `*.example.com` or `api.example.com`, normalised. */
function describePattern(pattern: HostPattern): string {
  return pattern.subdomains ? `*.${pattern.host}` : pattern.host;
}

/** Checks a target URL's scheme, port and host before the proxy connects anywhere. */
export class TargetPolicy {
  readonly #patterns: readonly HostPattern[] | undefined;
  /** Human summary for the CLI banner: the hosts as enforced (normalised), not as written. */
  readonly description: string;

  /** `allowTargets` undefined: any host (the address check still applies). */
  constructor(allowTargets?: readonly string[], field = 'allowTargets') {
    if (allowTargets !== undefined && !Array.isArray(allowTargets)) {
      throw new ConfigError(field, allowTargets, 'must be a list of host names');
    }
    this.#patterns = allowTargets?.map((entry: unknown, i) => parseHostPattern(entry, `${field}[${i}]`));
    this.description = this.#patterns === undefined ? 'any public host' : [...new Set(this.#patterns.map(describePattern))].join(', ') || 'no hosts';
  }

  /** Throws a `ProxyRefusal` when the proxy must not request `target`. */
  check(target: URL): void {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      // A WebSocket needs no proxy: browsers do not apply CORS to it.
      const websocket = target.protocol === 'ws:' || target.protocol === 'wss:' ? ' Connect to a WebSocket API directly: browsers do not apply CORS to WebSockets.' : '';
      throw new ProxyRefusal('bad_target_url', `Only http and https targets can be proxied, not ${target.protocol}.${websocket}`);
    }
    if (target.username || target.password) {
      throw new ProxyRefusal('bad_target_url', 'The target URL contains a user name or password; send credentials in an Authorization header instead.');
    }
    if (target.port !== '' && isBadPort(Number(target.port))) {
      throw new ProxyRefusal('target_not_allowed', `Port ${target.port} is blocked, as browsers block it: it belongs to a protocol that is not HTTP.`);
    }
    if (this.#patterns && !this.#patterns.some((pattern) => matches(pattern, target.hostname))) {
      throw new ProxyRefusal('target_not_allowed', `This proxy does not forward to ${target.hostname}; it only forwards to ${this.description}.`);
    }
  }
}

function matches(pattern: HostPattern, targetHostname: string): boolean {
  const hostname = withoutFinalDot(targetHostname);
  return pattern.subdomains ? hostname.endsWith(`.${pattern.host}`) : hostname === pattern.host;
}
