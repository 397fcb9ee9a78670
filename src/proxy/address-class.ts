// What kind of network an IP address belongs to, so the proxy can refuse every address that is not on
// the public internet. Pure and table-driven: the tables are the IANA special-purpose registries.
import { parseIpAddress, parseIpv4 } from './ip-address.js';

/** The network an address belongs to. Only `public` is reachable through the proxy by default. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'cloud-metadata'
  | 'invalid';

type Ipv4Range = { base: number; bits: number; addressClass: AddressClass };
type Ipv6Range = { base: bigint; bits: number; addressClass: AddressClass | 'embedded-ipv4' };

function v4(cidr: string, addressClass: AddressClass): Ipv4Range {
  const [address, bits] = cidr.split('/');
  return { base: parseIpv4(address!)!, bits: Number(bits), addressClass };
}

function v6(cidr: string, addressClass: Ipv6Range['addressClass']): Ipv6Range {
  const [address, bits] = cidr.split('/');
  const parsed = parseIpAddress(address!);
  if (parsed?.family !== 6) throw new Error(`bad range ${cidr}`);
  return { base: parsed.value, bits: Number(bits), addressClass };
}

// First match wins, so single addresses come before the ranges that contain them.
const IPV4_RANGES: readonly Ipv4Range[] = [
  v4('169.254.169.254/32', 'cloud-metadata'), // AWS, GCP, Azure, OpenStack, DigitalOcean…
  v4('169.254.170.2/32', 'cloud-metadata'), // AWS ECS task credentials
  v4('169.254.170.23/32', 'cloud-metadata'), // AWS EKS Pod Identity Agent (pod credentials)
  v4('169.254.42.42/32', 'cloud-metadata'), // Scaleway
  v4('169.254.0.23/32', 'cloud-metadata'), // Tencent Cloud
  v4('192.0.0.192/32', 'cloud-metadata'), // Oracle Cloud Classic
  v4('100.100.100.200/32', 'cloud-metadata'), // Alibaba Cloud
  v4('168.63.129.16/32', 'cloud-metadata'), // Azure WireServer: a public-looking address only Azure VMs reach
  v4('0.0.0.0/8', 'unspecified'), // "this network": connecting to 0.0.0.0 reaches the local host on Linux
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: readonly Ipv6Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::ffff:0:0/96', 'embedded-ipv4'), // IPv4-mapped
  v6('::ffff:0:0:0/96', 'embedded-ipv4'), // IPv4-translated (SIIT)
  v6('::/96', 'embedded-ipv4'), // IPv4-compatible (deprecated, still routed by some stacks)
  v6('64:ff9b::/96', 'embedded-ipv4'), // NAT64 well-known prefix
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments: Teredo, benchmarking, ORCHID
  v6('3fff::/20', 'documentation'),
  v6('5f00::/16', 'reserved'), // SRv6 SIDs
  v6('fd00:ec2::254/128', 'cloud-metadata'), // AWS IMDS over IPv6
  v6('fd00:ec2::23/128', 'cloud-metadata'), // AWS EKS Pod Identity Agent over IPv6
  v6('fd20:ce::254/128', 'cloud-metadata'), // GCP metadata server over IPv6
  v6('fd00:42::42/128', 'cloud-metadata'), // Scaleway over IPv6
  v6('fd00:c1::a9fe:a9fe/128', 'cloud-metadata'), // Oracle Cloud (OCI) IMDS over IPv6
  v6('fd00:100::100:200/128', 'cloud-metadata'), // Alibaba Cloud over IPv6
  v6('fd00:a9fe:a9fe::1/128', 'cloud-metadata'), // Akamai (Linode) over IPv6
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

const SIX_TO_FOUR = v6('2002::/16', 'embedded-ipv4');
const GLOBAL_UNICAST = v6('2000::/3', 'public');

function inIpv4Range(value: number, range: Ipv4Range): boolean {
  const shift = 32 - range.bits;
  // Division instead of `>>>`, which would treat a shift of 32 as 0.
  return Math.floor(value / 2 ** shift) === Math.floor(range.base / 2 ** shift);
}

function inIpv6Range(value: bigint, range: Ipv6Range): boolean {
  const shift = BigInt(128 - range.bits);
  return value >> shift === range.base >> shift;
}

function classifyIpv4(value: number): AddressClass {
  return IPV4_RANGES.find((range) => inIpv4Range(value, range))?.addressClass ?? 'public';
}

function classifyIpv6(value: bigint): AddressClass {
  const range = IPV6_RANGES.find((r) => inIpv6Range(value, r));
  if (range?.addressClass === 'embedded-ipv4') return classifyIpv4(Number(value & 0xffff_ffffn));
  if (range) return range.addressClass;
  // 6to4 carries the IPv4 address in bits 16-47: 2002:7f00:1:: is a path to 127.0.0.1.
  if (inIpv6Range(value, SIX_TO_FOUR)) return classifyIpv4(Number((value >> 80n) & 0xffff_ffffn));
  return inIpv6Range(value, GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/**
 * Classifies an IP address written in any notation: IPv4 as dotted decimal, octal, hex, a single
 * number or a short form (`127.1`); IPv6 in any form, with brackets or a zone. Addresses that embed an
 * IPv4 address (IPv4-mapped `::ffff:127.0.0.1`, IPv4-compatible, NAT64 `64:ff9b::7f00:1`, 6to4) take
 * the class of the embedded address. Text that is not an IP address is `invalid`.
 *
 * @example classifyAddress('0x7f000001') // 'loopback'
 * @example classifyAddress('::ffff:169.254.169.254') // 'cloud-metadata'
 */
export function classifyAddress(ip: string): AddressClass {
  const parsed = parseIpAddress(ip.trim());
  if (parsed === undefined) return 'invalid';
  return parsed.family === 4 ? classifyIpv4(parsed.value) : classifyIpv6(parsed.value);
}

/** A reader-facing phrase for a class, for refusal messages. */
export function describeAddressClass(addressClass: AddressClass): string {
  switch (addressClass) {
    case 'public': return 'a public address';
    case 'loopback': return 'a loopback address (this machine)';
    case 'private': return 'a private-network address';
    case 'link-local': return 'a link-local address';
    case 'unique-local': return 'a unique-local (private IPv6) address';
    case 'cgnat': return 'a carrier-grade NAT address';
    case 'multicast': return 'a multicast address';
    case 'unspecified': return 'the unspecified address';
    case 'broadcast': return 'the broadcast address';
    case 'reserved': return 'a reserved address';
    case 'documentation': return 'a documentation-only address';
    case 'benchmarking': return 'a benchmarking-only address';
    case 'cloud-metadata': return 'a cloud metadata service address';
    case 'invalid': return 'not a valid IP address';
  }
}
