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

/** Decides, for each address about to be connected to, whether the connection may proceed. */
export class AddressPolicy {
  readonly #allowPrivate: PrivateAddressAllowance;

  constructor(allowPrivate: PrivateAddressAllowance = false, field = 'allowPrivate') {
    if (typeof allowPrivate !== 'boolean' && typeof allowPrivate !== 'function') {
      throw new ConfigError(field, allowPrivate, 'must be a boolean or a function');
    }
    this.#allowPrivate = allowPrivate;
  }

  /** Why the connection is refused, or `undefined` when it may proceed. */
  refusal(address: string, port: number, hostname: string): string | undefined {
    const addressClass = classifyAddress(address);
    if (addressClass === 'public') return undefined;
    if (this.#permits({ address, port, hostname, addressClass })) return undefined;
    const via = hostname === address ? '' : `${hostname} resolves to ${address}, which is `;
    const subject = via || `${address} is `;
    return `${subject}${describeAddressClass(addressClass)}; this proxy only forwards to public internet addresses.`;
  }

  #permits(target: ConnectTarget): boolean {
    if (typeof this.#allowPrivate === 'function') return this.#allowPrivate(target);
    // Even in development, the cloud metadata service holds credentials: never relay to it implicitly.
    return this.#allowPrivate && target.addressClass !== 'cloud-metadata' && target.addressClass !== 'invalid';
  }
}
