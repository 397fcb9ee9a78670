// Where the proxy may connect, beyond the address classes: only to an address exactly as it was checked (never to
// an answer the system would resolve again), and never to this machine's own addresses, which reach its services as
// loopback does even when they are public. Real connections go to loopback only; the rest is the pure policy.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy, interfaceAddresses } from '../../src/proxy/address-policy.js';
import { MAX_ADDRESSES_TRIED } from '../../src/proxy/guarded-connector.js';
import type { ConnectTarget, RunningProxy } from '../../src/proxy/index.js';
import { Canary, refusalCode, startTestProxy, viaProxy } from './proxy-support/servers.js';

describe('the proxy connects only to an address as it was checked', () => {
  let canary: Canary;
  let proxy: RunningProxy;

  before(async () => {
    canary = await Canary.start();
    proxy = await startTestProxy({
      // A predicate by port alone, as one may write to let a development API through: it is asked about answers
      // that are no address as written too.
      allowPrivate: (target) => target.port === canary.port,
      // A resolver of one's own (service discovery, say) that passes on what it was told.
      resolveHost: async (hostname) => (hostname === 'alias.test' ? ['localhost'] : hostname === 'short.test' ? ['127.1'] : ['0x7f000001']),
    });
  });

  after(async () => {
    await proxy.close();
    await canary.close();
  });

  it('refuses a resolver’s answer that the system would resolve again (a name, a short or hex IPv4), without connecting', async () => {
    for (const host of ['alias.test', 'short.test', 'hex.test']) {
      const response = await viaProxy(proxy, `/http://${host}:${canary.port}/`);
      assert.equal(refusalCode(response), 'private_address', `${host}: ${response.text}`);
      assert.match(response.json<{ error: { message: string } }>().error.message, /not a valid IP address/, host);
    }
    assert.equal(canary.hits, 0, 'an answer was resolved again and connected to');
  });
});

describe('this machine’s own addresses count as loopback (pure policy)', () => {
  // Classification only: nothing connects to these. 93.184.216.34 stands for the public address of the machine the
  // proxy runs on (a VPS), where a service listening on every interface answers as it does on 127.0.0.1.
  const own = ['93.184.216.34', '2606:2800:220:1::248', 'fe80::1%eth0'];
  const hostAddresses = (): string[] => own;

  it('refuses them by default, however written, and says why without the address', () => {
    const policy = new AddressPolicy(false, 'allowPrivate', hostAddresses);
    for (const address of ['93.184.216.34', '::ffff:93.184.216.34', '::ffff:5db8:d822', '2606:2800:220:1::248', '2606:2800:220:1:0:0:0:248']) {
      const refusal = policy.refusal(address, 8080, 'api.test');
      assert.equal(refusal, 'api.test resolves to an address of this machine; this proxy only forwards to public internet addresses. For an API on this machine or your network, in development, start the proxy with --allow-private (allowPrivate: true).', address);
    }
    assert.match(policy.refusal('93.184.216.34', 80, '93.184.216.34') ?? '', /^93\.184\.216\.34 is an address of this machine;/);
    // Its neighbours are other machines.
    assert.equal(policy.refusal('93.184.216.35', 80, 'api.test'), undefined);
    assert.equal(policy.refusal('2606:2800:220:1::249', 80, 'api.test'), undefined);
  });

  it('lets them through as loopback where loopback is allowed', () => {
    assert.equal(new AddressPolicy(true, 'allowPrivate', hostAddresses).refusal('93.184.216.34', 80, 'api.test'), undefined);
    const asked: ConnectTarget[] = [];
    const loopbackOnly = (target: ConnectTarget): boolean => {
      asked.push(target);
      return target.addressClass === 'loopback';
    };
    const predicate = new AddressPolicy(loopbackOnly, 'allowPrivate', hostAddresses);
    assert.equal(predicate.refusal('93.184.216.34', 9100, 'api.test'), undefined);
    assert.deepEqual(asked, [{ address: '93.184.216.34', port: 9100, hostname: 'api.test', addressClass: 'loopback' }]);
  });

  it('reads this machine’s addresses from its network interfaces by default', () => {
    const addresses = [...interfaceAddresses()];
    assert.ok(addresses.includes('127.0.0.1'), String(addresses));
  });
});

describe('the proxy tries a bounded number of a name’s addresses', () => {
  it(`moves past unreachable addresses, but tries no more than ${MAX_ADDRESSES_TRIED} for one connection`, async () => {
    // Loopback addresses (all of 127/8 is this machine's): the first ten refuse, the eleventh listens.
    const listening = createHttpServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.12', resolve));
    const { port } = listening.address() as AddressInfo;
    const addresses = (count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${i + 2}`);
    const proxy = await startTestProxy({
      allowPrivate: (target) => target.addressClass === 'loopback' && target.port === port,
      resolveHost: async (hostname) => (hostname === 'eleventh.test' ? addresses(11) : addresses(10).slice(1).concat('127.0.0.12')),
    });
    try {
      // Its tenth address listens: reached after nine refusals.
      assert.equal((await viaProxy(proxy, `/http://tenth.test:${port}/`)).text, 'ok');
      // Its eleventh does: not tried.
      const refused = await viaProxy(proxy, `/http://eleventh.test:${port}/`);
      assert.equal(refusalCode(refused), 'upstream_unreachable');
    } finally {
      await proxy.close();
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});
