// The only way the proxy opens upstream sockets. It resolves the host itself, checks the addresses, and
// connects to the exact address it checked, so DNS cannot answer differently between check and connect
// (DNS rebinding). Every redirect hop that needs a new connection passes through here too.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { ProxyRefusal } from './refusal.js';

/** Resolves a host name to its IP addresses, in the order to try them. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The system resolver (`/etc/hosts`, then DNS), every address, in the order the system prefers. */
export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
};

export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  resolveHost: HostResolver;
  /** Milliseconds allowed for the TCP (and TLS) connect. */
  connectTimeout: number;
}

/** An undici connector that only ever connects to addresses the policy permits. */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectTimeout });
  return (connectOptions, callback) => {
    const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
    permittedAddress(connectOptions.hostname, port, options).then(
      // `host` keeps the name, so TLS still sends SNI for, and verifies the certificate of, the host name.
      (address) => connect({ ...connectOptions, hostname: address }, callback),
      (error: unknown) => callback(error as Error, null),
    );
  };
}

async function permittedAddress(hostname: string, port: number, options: GuardedConnectorOptions): Promise<string> {
  const addresses = isIP(hostname) ? [hostname] : await resolve(hostname, options.resolveHost);
  let firstRefusal: string | undefined;
  for (const address of addresses) {
    const refusal = options.policy.refusal(address, port, hostname);
    if (refusal === undefined) return address;
    firstRefusal ??= refusal;
  }
  throw new ProxyRefusal('private_address', firstRefusal ?? `${hostname} did not resolve to any address.`);
}

async function resolve(hostname: string, resolveHost: HostResolver): Promise<readonly string[]> {
  try {
    const addresses = await resolveHost(hostname);
    if (addresses.length > 0) return addresses;
  } catch (error) {
    throw new ProxyRefusal('upstream_unreachable', `${hostname} could not be resolved (${(error as { code?: string }).code ?? 'DNS error'}); check the host name.`, { cause: error });
  }
  throw new ProxyRefusal('upstream_unreachable', `${hostname} did not resolve to any address; check the host name.`);
}
