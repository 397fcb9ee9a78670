// Which resolved addresses the proxy may connect to. Public ones always, except this machine's own; the rest only
// when allowed.
import { networkInterfaces } from 'node:os';
import { ConfigError } from '../core/errors.js';
import { classifyAddress, describeAddressClass, type AddressClass } from './address-class.js';
import { addressKey } from './ip-address.js';

/** An address the proxy is about to connect to, as given to an `allowPrivate` predicate. */
export interface ConnectTarget {
  /** The IP address that would be connected to. */
  address: string;
  port: number;
  /** The host name from the URL (an IP literal for IP targets). */
  hostname: string;
  /** The address's class; `loopback` for this machine's own addresses, public ones included. */
  addressClass: AddressClass;
}

/**
 * Non-public addresses the proxy may reach anyway:
 * - `false`: none (safe for the open internet);
 * - `true`: every non-public address except cloud metadata services (local development only);
 * - a predicate, asked for every non-public address (e.g. allow one loopback port in a test).
 */
export type PrivateAddressAllowance = boolean | ((target: ConnectTarget) => boolean);

const PUBLIC_ONLY = 'this proxy only forwards to public internet addresses.';
// The usual first setup is a proxy on a developer's machine in front of an API on the same machine.
const DEVELOPMENT_HINT = ' For an API on this machine or your network, in development, start the proxy with --allow-private (allowPrivate: true).';
const PREDICATE_REFUSED = "this proxy's allowPrivate predicate does not allow it.";

/** The addresses of this machine's network interfaces, read when asked: they change (DHCP, IPv6 privacy addresses). */
export type HostAddresses = () => Iterable<string>;

/** This machine's addresses as its network interfaces list them. */
export const interfaceAddresses: HostAddresses = () => {
  try {
    return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  } catch {
    return []; // a system that will not list them (rare): the address classes still apply
  }
};

/** Decides, for each address about to be connected to, whether the connection may proceed. */
export class AddressPolicy {
  readonly #allowPrivate: PrivateAddressAllowance;
  readonly #hostAddresses: HostAddresses;

  /** What the proxy may reach besides public addresses, for the start banner: empty when nothing. */
  readonly description: string;

  /** `hostAddresses`: this machine's own addresses (injectable for tests). */
  constructor(allowPrivate: PrivateAddressAllowance = false, field = 'allowPrivate', hostAddresses: HostAddresses = interfaceAddresses) {
    if (typeof allowPrivate !== 'boolean' && typeof allowPrivate !== 'function') {
      throw new ConfigError(field, allowPrivate, 'must be a boolean or a function');
    }
    this.#allowPrivate = allowPrivate;
    this.#hostAddresses = hostAddresses;
    this.description =
      allowPrivate === true ? 'and private addresses (not cloud metadata)' : allowPrivate === false ? '' : 'and the private addresses allowPrivate allows';
  }

  /**
   * Why the connection is refused, or `undefined` when it may proceed. For a name, the message gives the class of
   * its address but not the address: anyone may ask, and the answers would map the proxy's internal network.
   */
  refusal(address: string, port: number, hostname: string): string | undefined {
    const classified = classifyAddress(address);
    const own = classified === 'public' && this.#isOwn(address);
    if (classified === 'public' && !own) return undefined;
    const addressClass = own ? 'loopback' : classified;
    if (this.#permits({ address, port, hostname, addressClass })) return undefined;
    const what = own ? 'an address of this machine' : describeAddressClass(addressClass);
    // --allow-private never opens cloud metadata or an invalid answer: no hint there.
    const why =
      typeof this.#allowPrivate === 'function'
        ? PREDICATE_REFUSED
        : addressClass === 'cloud-metadata' || addressClass === 'invalid'
          ? PUBLIC_ONLY
          : PUBLIC_ONLY + DEVELOPMENT_HINT;
    if (hostname === address) return `${address} is ${what}; ${why}`;
    return `${hostname} resolves to ${addressClass === 'invalid' ? `an answer that is ${what}` : what}; ${why}`;
  }

  /**
   * True for a public address of this machine (a VPS's own), which reaches its services as loopback does: one listening
   * on every interface answers there too, and a firewall that filters traffic from outside does not see it.
   */
  #isOwn(address: string): boolean {
    const key = addressKey(address);
    for (const own of this.#hostAddresses()) if (addressKey(own) === key) return true;
    return false;
  }

  #permits(target: ConnectTarget): boolean {
    if (typeof this.#allowPrivate === 'function') return this.#allowPrivate(target);
    // Even in development, the cloud metadata service holds credentials: never relay to it implicitly.
    return this.#allowPrivate && target.addressClass !== 'cloud-metadata' && target.addressClass !== 'invalid';
  }
}
