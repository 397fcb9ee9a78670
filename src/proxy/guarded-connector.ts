// The only way the proxy opens upstream sockets. It resolves the host itself, checks the addresses, and
// connects to the exact address it checked, so DNS cannot answer differently between check and connect
// (DNS rebinding). Every redirect hop that needs a new connection passes through here too.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector, errors } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { ProxyRefusal } from './refusal.js';

/** Resolves a host name to its IP addresses, in the order to try them. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/**
 * The system resolver (`/etc/hosts`, then DNS), every address, in the order the system prefers; a `*.localhost`
 * name is loopback without asking anyone.
 */
export const systemResolver: HostResolver = async (hostname) => {
  const loopback = reservedLoopbackAddresses(hostname);
  if (loopback) return loopback;
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
};

/**
 * The addresses of a name under `.localhost`, and of `localhost.`, which RFC 6761 reserves for loopback and browsers
 * resolve so themselves; `undefined` for other names, `localhost` included (`/etc/hosts` knows it). Asked, the system
 * resolver would send `api.localhost` to the network's DNS server, leaking the name and failing, and would not find
 * `localhost.`, fully qualified, in `/etc/hosts`.
 */
export function reservedLoopbackAddresses(hostname: string): readonly string[] | undefined {
  return /(?:\.localhost\.?|^localhost\.)$/i.test(hostname) ? ['127.0.0.1', '::1'] : undefined;
}

export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  resolveHost: HostResolver;
  /** Milliseconds allowed for resolving the host, and again for the TCP (and TLS) connect. */
  connectTimeout: number;
}

/**
 * Connect failures that concern one address only (nothing listens there, no route to it, no IPv6 on this host):
 * the next address may well answer. Others (a timeout, a TLS error) would cost or fail the same again.
 */
/** The most addresses of one name tried for one connection, in the resolver's order. */
export const MAX_ADDRESSES_TRIED = 10;

const ADDRESS_UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** An undici connector that only ever connects to addresses the policy permits. */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectTimeout });
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    permittedAddresses(connectOptions.hostname, port, options).then(
      (addresses) => connectInTurn(addresses, connectOptions, connect, callback),
      (error: unknown) => callback(error as Error, null),
    );
  };
}

/**
 * Connects to the first of `addresses` that accepts, in order, moving on only while the failure concerns one address
 * (as browsers fall back from `::1` to `127.0.0.1` for `localhost`). Only these addresses, already checked, are
 * tried: nothing is resolved again.
 */
function connectInTurn(addresses: readonly string[], connectOptions: buildConnector.Options, connect: buildConnector.connector, callback: buildConnector.Callback): void {
  const [address, ...rest] = addresses;
  // `host` keeps the name, so TLS still sends SNI for, and verifies the certificate of, the host name.
  connect({ ...connectOptions, hostname: address! }, (...result) => {
    const [error] = result;
    if (error !== null && rest.length > 0 && ADDRESS_UNREACHABLE.has(String((error as NodeJS.ErrnoException).code))) {
      connectInTurn(rest, connectOptions, connect, callback);
    } else {
      callback(...result);
    }
  });
}

/**
 * The addresses of `hostname` the policy permits, in the resolver's order; none: a `private_address` refusal. An
 * answer that Node would not take as an address as written (a name, `127.1`, `0x7f000001`) is refused whatever the
 * policy says: the system would resolve it again on connecting, and might not read it as the check did.
 */
async function permittedAddresses(hostname: string, port: number, options: GuardedConnectorOptions): Promise<readonly string[]> {
  const addresses = isIP(hostname) ? [hostname] : await resolve(hostname, options.resolveHost, options.connectTimeout);
  const permitted: string[] = [];
  let firstRefusal: string | undefined;
  for (const address of addresses) {
    const refusal = isIP(address) ? options.policy.refusal(address, port, hostname) : notAnAddress(hostname);
    if (refusal === undefined) permitted.push(address);
    else firstRefusal ??= refusal;
  }
  // A name with hundreds of unreachable addresses would have one request knock on each of them.
  if (permitted.length > 0) return permitted.slice(0, MAX_ADDRESSES_TRIED);
  throw new ProxyRefusal('private_address', firstRefusal ?? `${hostname} did not resolve to any address.`);
}

function notAnAddress(hostname: string): string {
  return `${hostname} resolves to an answer that is not a valid IP address in standard notation; this proxy only connects to an address exactly as it checked it.`;
}

/**
 * The addresses of `hostname`. Resolving counts as connecting: past `timeout` it fails as a connect timeout (which
 * the client reports as `upstream_timeout`), whether or not the resolver ever answers.
 */
async function resolve(hostname: string, resolveHost: HostResolver, timeout: number): Promise<readonly string[]> {
  try {
    const addresses = await settledWithin(async () => resolveHost(hostname), timeout, () => new errors.ConnectTimeoutError(`Resolving ${hostname} took longer than ${timeout} ms.`));
    if (addresses.length > 0) return addresses;
  } catch (error) {
    if (error instanceof errors.ConnectTimeoutError) throw error;
    throw new ProxyRefusal('upstream_unreachable', `${hostname} could not be resolved (${(error as { code?: string }).code ?? 'DNS error'}); check the host name.`, { cause: error });
  }
  throw new ProxyRefusal('upstream_unreachable', `${hostname} did not resolve to any address; check the host name.`);
}

/**
 * What `work` settles to, or `expired()` thrown once `ms` pass first. The work is not stopped (a system lookup
 * cannot be), only no longer waited for: its late answer is dropped.
 */
async function settledWithin<T>(work: () => Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
