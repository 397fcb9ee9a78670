// Which resolved addresses the proxy may connect to. Public ones always; the rest only when allowed.
import { ConfigError } from '../core/errors.js';
import { classifyAddress, describeAddressClass, type AddressClass } from './address-class.js';

/** An address the proxy is about to connect to, as given to an `allowPrivate` predicate. */
export interface ConnectTarget {
  /** The IP address that would be connected to. */
  address: string;
  port: number;
  /** The host name from the URL (an IP literal for IP targets). */
  hostname: string;
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

/** Decides, for each address about to be connected to, whether the connection may proceed. */
export class AddressPolicy {
  readonly #allowPrivate: PrivateAddressAllowance;

  constructor(allowPrivate: PrivateAddressAllowance = false, field = 'allowPrivate') {
    if (typeof allowPrivate !== 'boolean' && typeof allowPrivate !== 'function') {
      throw new ConfigError(field, allowPrivate, 'must be a boolean or a function');
    }
    this.#allowPrivate = allowPrivate;
  }

  /**
   * Why the connection is refused, or `undefined` when it may proceed. For a name, the message gives the class of
   * its address but not the address: anyone may ask, and the answers would map the proxy's internal network.
   */
  refusal(address: string, port: number, hostname: string): string | undefined {
    const addressClass = classifyAddress(address);
    if (addressClass === 'public') return undefined;
    if (this.#permits({ address, port, hostname, addressClass })) return undefined;
    const what = describeAddressClass(addressClass);
    if (hostname === address) return `${address} is ${what}; ${PUBLIC_ONLY}`;
    return `${hostname} resolves to ${addressClass === 'invalid' ? `an answer that is ${what}` : what}; ${PUBLIC_ONLY}`;
  }

  #permits(target: ConnectTarget): boolean {
    if (typeof this.#allowPrivate === 'function') return this.#allowPrivate(target);
    // Even in development, the cloud metadata service holds credentials: never relay to it implicitly.
    return this.#allowPrivate && target.addressClass !== 'cloud-metadata' && target.addressClass !== 'invalid';
  }
}
