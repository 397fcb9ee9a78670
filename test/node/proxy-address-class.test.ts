// Address classification is pure: every case here is checked without sending a single packet.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyAddress, type AddressClass } from '../../src/proxy/index.js';
import { AddressPolicy } from '../../src/proxy/address-policy.js';
import { parseIpv4, parseIpv6 } from '../../src/proxy/ip-address.js';

function expectClass(addressClass: AddressClass, addresses: readonly string[]): void {
  for (const address of addresses) {
    assert.equal(classifyAddress(address), addressClass, `${address} should be ${addressClass}`);
  }
}

describe('classifyAddress: IPv4 in every notation', () => {
  it('sees loopback however 127.0.0.1 is written', () => {
    expectClass('loopback', [
      '127.0.0.1', '127.1', '127.0.1', '2130706433', '0x7f000001', '0X7F000001', '0177.0.0.1', '0177.1',
      '0x7f.1', '0x7f.0.0.0x1', '017700000001', '127.255.255.254', '127.0.0.1.',
    ]);
  });

  it('sees every private range, in dotted and short forms', () => {
    expectClass('private', ['10.0.0.1', '10.1', '012.1', '0xa.1', '167772161', '172.16.0.1', '172.31.255.255', '192.168.1.1', '192.168.257', '3232235777']);
  });

  it('sees link-local, CGNAT, multicast, unspecified, broadcast, reserved, documentation, benchmarking', () => {
    expectClass('link-local', ['169.254.0.1', '169.254.1']);
    expectClass('cgnat', ['100.64.0.1', '100.127.255.255']);
    expectClass('multicast', ['224.0.0.1', '239.255.255.250']);
    expectClass('unspecified', ['0.0.0.0', '0', '0x0', '0.1.2.3']);
    expectClass('broadcast', ['255.255.255.255', '4294967295', '0xffffffff']);
    expectClass('reserved', ['240.0.0.1', '192.0.0.8', '192.88.99.1']);
    expectClass('documentation', ['192.0.2.1', '198.51.100.7', '203.0.113.9']);
    expectClass('benchmarking', ['198.18.0.1', '198.19.255.255']);
  });

  it('sees cloud metadata services before the ranges that contain them', () => {
    expectClass('cloud-metadata', ['169.254.169.254', '2852039166', '0xa9fea9fe', '0251.0376.0251.0376', '169.254.43518', '100.100.100.200', '168.63.129.16', '169.254.170.2']);
  });

  it('keeps neighbours of the special ranges public', () => {
    expectClass('public', ['8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '223.255.255.255', '93.184.216.34']);
  });

  it('calls anything that is not an address invalid', () => {
    expectClass('invalid', ['', 'localhost', 'example.com', '1.2.3.4.5', '256.0.0.1', '1.2.3.256', '08.0.0.1', '0x1g.0.0.1', '4294967296', '127.0.0.1 x', '1..1']);
  });
});

describe('classifyAddress: IPv6 in every notation', () => {
  it('sees loopback and unspecified, compressed or not, bracketed or not', () => {
    expectClass('loopback', ['::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '[::1]', '::0:1']);
    expectClass('unspecified', ['::', '[::]', '0:0:0:0:0:0:0:0']);
  });

  it('classifies IPv4-mapped and IPv4-compatible addresses by the IPv4 address inside', () => {
    expectClass('loopback', ['::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '0:0:0:0:0:ffff:7f00:0001', '::FFFF:127.0.0.1', '::127.0.0.1', '::7f00:1']);
    expectClass('private', ['::ffff:10.0.0.1', '::ffff:c0a8:101', '::ffff:0:192.168.1.1']);
    expectClass('cloud-metadata', ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe']);
    expectClass('public', ['::ffff:8.8.8.8', '::ffff:808:808']);
  });

  it('classifies NAT64 and 6to4 addresses by the IPv4 address inside', () => {
    expectClass('loopback', ['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::', '2002:7f00:0001:0:0:0:0:1']);
    expectClass('cloud-metadata', ['64:ff9b::a9fe:a9fe', '64:ff9b::169.254.169.254']);
    expectClass('public', ['64:ff9b::808:808', '2002:808:808::1']);
    expectClass('private', ['64:ff9b:1::1']);
  });

  it('sees link-local, unique-local, multicast, documentation, reserved and metadata', () => {
    expectClass('link-local', ['fe80::1', 'fe80::1%eth0', 'febf:ffff::1', '[fe80::1%25eth0]']);
    expectClass('unique-local', ['fc00::1', 'fd12:3456:789a::1', 'FDFF::1']);
    expectClass('cloud-metadata', ['fd00:ec2::254']);
    expectClass('multicast', ['ff02::1', 'ff05::fb']);
    expectClass('documentation', ['2001:db8::1', '3fff::1']);
    expectClass('reserved', ['100::1', '2001::1', '2001:2::1', '::2:3:4:5', '4000::1', '5f00::1']);
    expectClass('private', ['fec0::1']);
  });

  it('keeps global unicast public', () => {
    expectClass('public', ['2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2400:cb00::1']);
  });

  it('calls malformed IPv6 invalid', () => {
    expectClass('invalid', [':::', '1::2::3', '::ffff:127.1', '::ffff:0x7f000001', '12345::1', '1:2:3:4:5:6:7:8:9', 'g::1', '1:2:3:4:5:6:7', '127.0.0.1::', '::1:2:3:4:5:6:7:8']);
  });
});

/**
 * `dotted` in every IPv4 notation the classifier reads, and inside every IPv6 form that embeds an IPv4 address.
 * Built from the bytes here, not by the parser under test.
 */
function ipv4Notations(dotted: string): string[] {
  const bytes = dotted.split('.').map(Number) as [number, number, number, number];
  const value = bytes.reduce((sum, byte) => sum * 256 + byte, 0);
  const [a, b, c, d] = bytes;
  const high = (value >>> 16).toString(16);
  const low = (value & 0xffff).toString(16);
  return [
    dotted, `${dotted}.`, String(value), `0x${value.toString(16)}`, `0X${value.toString(16).toUpperCase()}`,
    bytes.map((byte) => `0${byte.toString(8)}`).join('.'), bytes.map((byte) => `0x${byte.toString(16)}`).join('.'),
    `${a}.${b}.${c * 256 + d}`, `${a}.${(b * 256 + c) * 256 + d}`,
    `::ffff:${dotted}`, `::FFFF:${high}:${low}`, `[::ffff:${high}:${low}]`, `0:0:0:0:0:ffff:${high}:${low}`, // IPv4-mapped
    `::ffff:0:${dotted}`, // SIIT
    `::${dotted}`, `::${high}:${low}`, // IPv4-compatible
    `64:ff9b::${dotted}`, `64:ff9b::${high}:${low}`, // NAT64
    `2002:${high}:${low}::`, `2002:${high}:${low}:1::1`, // 6to4
  ];
}

/** The address with these eight groups in every IPv6 text form: compressed as given, full, upper case, dotted tail, brackets, zone. */
function ipv6Notations(compressed: string, groups: readonly number[]): string[] {
  const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
  const plain = groups.map((g) => g.toString(16)).join(':');
  const tail = `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return [
    compressed, compressed.toUpperCase(), full, full.toUpperCase(), plain, `${groups.slice(0, 6).map((g) => g.toString(16)).join(':')}:${tail}`,
    `[${compressed}]`, `${compressed}%eth0`, `[${compressed}%25eth0]`,
  ];
}

describe('cloud metadata and credential services, in every notation', () => {
  // Each holds credentials or instance data: refused even when private addresses are allowed (local development).
  const ipv4 = [
    '169.254.169.254', // AWS, GCP, Azure… IMDS
    '169.254.170.2', // AWS ECS task credentials
    '169.254.170.23', // AWS EKS Pod Identity Agent
    '169.254.42.42', // Scaleway
    '192.0.0.192', // Oracle Cloud Classic
    '100.100.100.200', // Alibaba Cloud
    '168.63.129.16', // Azure WireServer
    '169.254.0.23', // Tencent Cloud
  ];
  const ipv6: Array<[string, number[]]> = [
    ['fd00:ec2::254', [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254]], // AWS IMDS
    ['fd00:ec2::23', [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x23]], // AWS EKS Pod Identity Agent
    ['fd20:ce::254', [0xfd20, 0xce, 0, 0, 0, 0, 0, 0x254]], // GCP
    ['fd00:42::42', [0xfd00, 0x42, 0, 0, 0, 0, 0, 0x42]], // Scaleway
    ['fd00:c1::a9fe:a9fe', [0xfd00, 0xc1, 0, 0, 0, 0, 0xa9fe, 0xa9fe]], // Oracle Cloud (OCI)
    ['fd00:100::100:200', [0xfd00, 0x100, 0, 0, 0, 0, 0x100, 0x200]], // Alibaba Cloud
    ['fd00:a9fe:a9fe::1', [0xfd00, 0xa9fe, 0xa9fe, 0, 0, 0, 0, 1]], // Akamai (Linode)
  ];
  const every = [...ipv4.flatMap(ipv4Notations), ...ipv6.flatMap(([text, groups]) => ipv6Notations(text, groups))];

  it('classifies each as cloud-metadata, however it is written', () => {
    expectClass('cloud-metadata', every);
  });

  it('classifies each as cloud-metadata in the form the URL parser gives it', () => {
    for (const address of every.filter((text) => !text.includes('%'))) {
      const literal = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
      const hostname = new URL(`http://${literal}/`).hostname;
      assert.equal(classifyAddress(hostname), 'cloud-metadata', `${address} → ${hostname}`);
    }
  });

  it('keeps each refused with allowPrivate: true, and only the address itself, not its neighbours', () => {
    const development = new AddressPolicy(true);
    for (const address of every) {
      assert.match(development.refusal(address, 80, address) ?? '', /cloud metadata/, address);
    }
    const neighbours = [
      '169.254.170.22', '169.254.170.24', '169.254.42.41', '169.254.42.43', '192.0.0.191', '192.0.0.193', '169.254.0.22', '169.254.0.24',
      'fd00:ec2::22', 'fd00:ec2::24', 'fd20:ce::253', 'fd00:42::43', 'fd00:c1::a9fe:a9fd', 'fd00:100::100:201', 'fd00:a9fe:a9fe::2',
    ];
    for (const neighbour of neighbours) {
      assert.notEqual(classifyAddress(neighbour), 'cloud-metadata', neighbour);
      assert.equal(development.refusal(neighbour, 80, neighbour), undefined, neighbour);
    }
  });
});

describe('the URL parser path: hostnames as the proxy sees them', () => {
  // WHATWG URL parsing normalises IPv4 notations in hostnames before the proxy ever sees them; the
  // classifier must agree on the normalised form too.
  const cases: Array<[string, string, AddressClass]> = [
    ['http://127.1/', '127.0.0.1', 'loopback'],
    ['http://2130706433/', '127.0.0.1', 'loopback'],
    ['http://0x7f000001/', '127.0.0.1', 'loopback'],
    ['http://0177.0.0.1/', '127.0.0.1', 'loopback'],
    ['http://10.1/', '10.0.0.1', 'private'],
    ['http://0xa9fea9fe/', '169.254.169.254', 'cloud-metadata'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]', 'loopback'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '[::ffff:7f00:1]', 'loopback'],
    ['http://[64:ff9b::127.0.0.1]/', '[64:ff9b::7f00:1]', 'loopback'],
    ['http://[::1]/', '[::1]', 'loopback'],
    ['http://0/', '0.0.0.0', 'unspecified'],
  ];
  for (const [url, hostname, addressClass] of cases) {
    it(`${url} → ${hostname} → ${addressClass}`, () => {
      const parsed = new URL(url).hostname;
      assert.equal(parsed, hostname);
      assert.equal(classifyAddress(parsed), addressClass);
    });
  }
});

describe('IP parsers', () => {
  it('read every IPv4 notation to the same number', () => {
    for (const text of ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '0177.0.0.1', '0x7f.0x0.0x0.0x1']) {
      assert.equal(parseIpv4(text), 0x7f000001, text);
    }
  });

  it('read IPv6 with embedded IPv4 and compression to the same number', () => {
    const expected = 0xffff7f000001n;
    for (const text of ['::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '[::ffff:7f00:1]']) {
      assert.equal(parseIpv6(text), expected, text);
    }
  });
});
