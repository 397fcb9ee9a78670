// Real refusals: a canary server on loopback that must never see a connection, reached through every
// spelling of "this machine". One other loopback port is explicitly allowed, to prove the refusals are
// about the address and not about the proxy being unable to reach anything.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningProxy } from '../../src/proxy/index.js';
import { closedPort } from '../closed-port.mjs';
import { AddressPolicy } from '../../src/proxy/address-policy.js';
import { reservedLoopbackAddresses, systemResolver } from '../../src/proxy/guarded-connector.js';
import {
  Canary,
  PAGE_ORIGIN,
  allowOnlyLoopbackPort,
  echoHandler,
  listen,
  refusalCode,
  startTestProxy,
  viaProxy,
  type Echo,
  type TestServer,
} from './proxy-support/servers.js';

/** Redirects `/redirect?to=<url>` there; echoes anything else. */
function redirectingEcho(): Parameters<typeof listen>[0] {
  const echo = echoHandler();
  return (req, res) => {
    const url = new URL(req.url!, 'http://allowed.test');
    if (url.pathname === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to')! }).end();
    } else {
      echo(req, res);
    }
  };
}

describe('proxy SSRF defences (loopback canary)', () => {
  let canary: Canary;
  let allowed: TestServer;
  let proxy: RunningProxy;

  before(async () => {
    canary = await Canary.start();
    allowed = await listen(redirectingEcho());
    proxy = await startTestProxy({
      allowPrivate: allowOnlyLoopbackPort(allowed.port),
      resolveHost: async (hostname) => {
        // Test-only DNS: names that "resolve" to loopback, as a rebinding attacker's DNS would answer.
        if (hostname === 'rebind.test') return ['127.0.0.1'];
        if (hostname === 'dual.test' || hostname === 'fallback.test') return ['::1', '127.0.0.1'];
        if (hostname === 'allowed.test') return ['127.0.0.1'];
        if (hostname === 'localhost') return ['127.0.0.1', '::1'];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
  });

  after(async () => {
    await proxy.close();
    await allowed.close();
    await canary.close();
  });

  it('reaches the one allowed loopback port (the control)', async () => {
    const response = await viaProxy(proxy, `/http://127.0.0.1:${allowed.port}/hello`);
    assert.equal(response.status, 200);
    assert.equal(response.json<Echo>().url, '/hello');
  });

  const spellings = (port: number): string[] => [
    `/http://127.0.0.1:${port}/`,
    `/http://127.1:${port}/`,
    `/http://2130706433:${port}/`,
    `/http://0x7f000001:${port}/`,
    `/http://0177.0.0.1:${port}/`,
    `/http://127.0.0.1.:${port}/`,
    `/http://%31%32%37.0.0.1:${port}/`, // percent-encoded in the host
    `/http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1:${port}/`, // full-width digits, which IDNA maps to 127
    `/http://[::1]:${port}/`,
    `/http://[::ffff:127.0.0.1]:${port}/`,
    `/http://[::ffff:7f00:1]:${port}/`,
    `/http://[0:0:0:0:0:0:0:1]:${port}/`,
    `/http://0.0.0.0:${port}/`,
    `/http://0:${port}/`,
    `/http://[::]:${port}/`,
    `/http://localhost:${port}/`,
    `/http://LOCALHOST:${port}/`,
    `/http:/localhost:${port}/`,
    `/?url=${encodeURIComponent(`http://127.1:${port}/`)}`,
    `/?url=${encodeURIComponent(`http://[::1]:${port}/`)}`,
    `/http://rebind.test:${port}/`,
    `/http://dual.test:${port}/`,
    `/https://127.0.0.1:${port}/`,
  ];

  it('refuses the canary however loopback is spelled, before connecting', async () => {
    for (const path of spellings(canary.port)) {
      const response = await viaProxy(proxy, path);
      assert.equal(response.status, 403, `${path}: ${response.text}`);
      assert.equal(refusalCode(response), 'private_address', path);
      assert.match(response.json<{ error: { message: string } }>().error.message, /loopback|unspecified/, path);
    }
    assert.equal(canary.hits, 0, 'the canary was reached');
    assert.ok(canary.hasIpv6 || canary.servers.length === 1); // [::1] cases still asserted refusal above
  });

  it('refuses a redirect from the allowed server to the canary, on every hop', async () => {
    const targets = [
      `http://127.0.0.1:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://[::1]:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
      `http://rebind.test:${canary.port}/`,
    ];
    for (const to of targets) {
      for (const status of [301, 302, 303, 307, 308]) {
        const path = `/http://127.0.0.1:${allowed.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
        const response = await viaProxy(proxy, path);
        assert.equal(refusalCode(response), 'private_address', `${status} → ${to}: ${response.text}`);
      }
    }
    // Two hops on the allowed server first, then the canary.
    const inner = `http://allowed.test:${allowed.port}/redirect?to=${encodeURIComponent(`http://127.1:${canary.port}/`)}`;
    const outer = `/http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(inner)}`;
    assert.equal(refusalCode(await viaProxy(proxy, outer)), 'private_address');
    assert.equal(canary.hits, 0, 'the canary was reached');
  });

  it('points a redirect it hands to the page back through itself, so the page’s follow-up is checked too', async () => {
    // A 307 after a body is not followed by the proxy (it did not keep the body): fetch follows it, as a browser would.
    for (const to of [`http://127.0.0.1:${canary.port}/`, `http://rebind.test:${canary.port}/`, `//localhost:${canary.port}/`]) {
      const path = `http://127.0.0.1:${allowed.port}/redirect?status=307&to=${encodeURIComponent(to)}`;
      const response = await fetch(proxy.url + path, { method: 'POST', body: 'payload', headers: { origin: PAGE_ORIGIN } });
      assert.equal(response.status, 403, to);
      assert.equal(response.headers.get('x-try-it-proxy-error'), 'private_address', to);
    }
    assert.equal(canary.hits, 0, 'the canary was reached');
  });

  it('follows redirects that stay on allowed addresses, relative ones included', async () => {
    const response = await viaProxy(proxy, `/http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent('/landed?x=1')}`);
    assert.equal(response.status, 200);
    assert.equal(response.json<Echo>().url, '/landed?x=1');
    // The page learns where the response came from, in a header it may read.
    assert.equal(response.headers['x-try-it-proxy-final-url'], `http://127.0.0.1:${allowed.port}/landed?x=1`);
    assert.match(String(response.headers['access-control-expose-headers']), /(^|, )x-try-it-proxy-final-url(,|$)/);
    const direct = await viaProxy(proxy, `/http://127.0.0.1:${allowed.port}/landed`);
    assert.equal(direct.headers['x-try-it-proxy-final-url'], undefined);
  });

  it('stops after maxRedirects hops', async () => {
    let loop = `http://127.0.0.1:${allowed.port}/done`;
    for (let i = 0; i < 7; i += 1) loop = `http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(loop)}`;
    const response = await viaProxy(proxy, `/${loop}`);
    assert.equal(response.status, 502);
    assert.equal(refusalCode(response), 'too_many_redirects');
    // The page shows the message: the target's origin alone, no path or query, which may hold a key.
    assert.equal(response.json<{ error: { message: string } }>().error.message, `The request to http://127.0.0.1:${allowed.port} redirected more than 5 times, which usually means a loop: check the URL (https or http, the host name, a trailing slash) and the credentials.`);
  });

  it('falls back to the next permitted address when one refuses the connection, as browsers do for localhost', async () => {
    // fallback.test resolves to ::1 first; the allowed server listens on 127.0.0.1 only.
    const response = await viaProxy(proxy, `/http://fallback.test:${allowed.port}/fell-back`);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.json<Echo>().url, '/fell-back');
    assert.equal(response.json<Echo>().headers['host'], `fallback.test:${allowed.port}`);
  });

  it('tries only the permitted addresses of one resolution, and reports the failure when none answers', async () => {
    const resolved: string[] = [];
    const canaryV6 = await listen(echoHandler(), '::1', allowed.port).catch(() => undefined);
    let canaryV6Hits = 0;
    canaryV6?.server.on('connection', () => (canaryV6Hits += 1));
    const closed = await closedPort();
    const picky = await startTestProxy({
      // ::1 refused, 127.0.0.1 allowed, on the allowed server's port and on a closed one.
      allowPrivate: (target) => target.address === '127.0.0.1' && (target.port === allowed.port || target.port === closed),
      resolveHost: async (hostname) => {
        resolved.push(hostname);
        return ['::1', '127.0.0.1'];
      },
    });
    try {
      const response = await viaProxy(picky, `/http://mixed.test:${allowed.port}/`);
      assert.equal(response.status, 200, response.text);
      assert.equal(canaryV6Hits, 0, 'a refused address was connected to');
      assert.deepEqual(resolved, ['mixed.test']);

      const down = await viaProxy(picky, `/http://mixed.test:${closed}/`);
      assert.equal(down.status, 502);
      assert.equal(refusalCode(down), 'upstream_unreachable');
      assert.match(down.text, /ECONNREFUSED/);
    } finally {
      await picky.close();
      await canaryV6?.close();
    }
  });

  it('refuses a host that does not resolve, as unreachable', async () => {
    const response = await viaProxy(proxy, `/http://nowhere.test:${canary.port}/`);
    assert.equal(response.status, 502);
    assert.equal(refusalCode(response), 'upstream_unreachable');
  });

  it('refuses every loopback address by default, the allowed port included', async () => {
    const strict = await startTestProxy({ resolveHost: async () => ['127.0.0.1'] });
    try {
      for (const path of [`/http://127.0.0.1:${allowed.port}/`, `/http://localhost:${allowed.port}/`, `/http://[::1]:${allowed.port}/`]) {
        const response = await viaProxy(strict, path);
        assert.equal(refusalCode(response), 'private_address', path);
      }
    } finally {
      await strict.close();
    }
    assert.equal(canary.hits, 0);
  });

  it('checks the target allow-list on the first request and on every redirect hop', async () => {
    const listed = await startTestProxy({ allowTargets: ['127.0.0.1'], allowPrivate: allowOnlyLoopbackPort(allowed.port) });
    try {
      assert.equal((await viaProxy(listed, `/http://127.0.0.1:${allowed.port}/`)).status, 200);
      const direct = await viaProxy(listed, `/http://localhost:${allowed.port}/`);
      assert.equal(direct.status, 403);
      assert.equal(refusalCode(direct), 'target_not_allowed');
      const hop = await viaProxy(listed, `/http://127.0.0.1:${allowed.port}/redirect?to=${encodeURIComponent(`http://localhost:${allowed.port}/`)}`);
      assert.equal(refusalCode(hop), 'target_not_allowed');
    } finally {
      await listed.close();
    }
  });

  it('refuses the ports browsers refuse, and non-http schemes, without connecting', async () => {
    for (const [path, code] of [
      ['/http://127.0.0.1:25/', 'target_not_allowed'],
      ['/http://127.0.0.1:6667/', 'target_not_allowed'],
      ['/file:///etc/passwd', 'bad_target_url'],
      ['/?url=gopher%3A%2F%2F127.0.0.1%3A70%2F', 'bad_target_url'],
      [`/http://user:pass@127.0.0.1:${allowed.port}/`, 'bad_target_url'],
    ] as const) {
      const response = await viaProxy(proxy, path);
      assert.equal(refusalCode(response), code, path);
    }
  });
});

describe('the default resolver and *.localhost', () => {
  it('answers names under .localhost with loopback itself, and leaves every other name to the system', () => {
    for (const name of ['api.localhost', 'a.b.LOCALHOST', 'docs.localhost.']) assert.deepEqual(reservedLoopbackAddresses(name), ['127.0.0.1', '::1'], name);
    for (const name of ['localhost', 'localhost.example.com', 'notlocalhost', 'api.localhost.example', 'example.com']) assert.equal(reservedLoopbackAddresses(name), undefined, name);
  });

  it('reaches a loopback server as api.localhost when loopback is allowed, and refuses it by default', async () => {
    const server = await listen(echoHandler());
    // The system resolver, not a test one: it must not ask DNS for the name.
    const open = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(server.port), resolveHost: systemResolver });
    const strict = await startTestProxy({ resolveHost: systemResolver });
    try {
      const response = await viaProxy(open, `/http://api.localhost:${server.port}/x`);
      assert.equal(response.status, 200);
      assert.equal((JSON.parse(response.text) as Echo).headers['host'], `api.localhost:${server.port}`);
      assert.equal(refusalCode(await viaProxy(strict, `/http://api.localhost:${server.port}/x`)), 'private_address');
    } finally {
      await Promise.all([open.close(), strict.close(), server.close()]);
    }
  });
});

describe('AddressPolicy (pure)', () => {
  it('keeps cloud metadata refused even when private addresses are allowed', () => {
    const development = new AddressPolicy(true);
    assert.equal(development.refusal('127.0.0.1', 80, 'localhost'), undefined);
    assert.equal(development.refusal('10.0.0.5', 80, '10.0.0.5'), undefined);
    assert.match(development.refusal('169.254.169.254', 80, 'metadata.google.internal') ?? '', /cloud metadata/);
    assert.match(development.refusal('fd00:ec2::254', 80, 'fd00:ec2::254') ?? '', /cloud metadata/);
  });

  it('asks the predicate for every non-public address, never for public ones', () => {
    const asked: string[] = [];
    const policy = new AddressPolicy((target) => {
      asked.push(`${target.address}:${target.port}:${target.addressClass}`);
      return false;
    });
    assert.equal(policy.refusal('93.184.216.34', 443, 'example.com'), undefined);
    assert.match(policy.refusal('192.168.1.1', 8080, 'router.test') ?? '', /^router\.test resolves to a private-network address/);
    assert.deepEqual(asked, ['192.168.1.1:8080:private']);
  });

  it('refuses every non-public class by default', () => {
    const policy = new AddressPolicy();
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.0.1', '192.168.0.1', '169.254.1.1', '100.64.0.1', '224.0.0.1', '0.0.0.0', '255.255.255.255', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '64:ff9b::a00:1']) {
      assert.notEqual(policy.refusal(address, 80, address), undefined, address);
    }
  });
});
