// The proxy against people who are not the console's reader: a resolver slower than the timeout, a browser sent
// to a proxy URL as a page (so the API's content would run as the proxy's origin), refusals that would map the
// proxy's internal network, and the reader's address as a CDN in front of the proxy passes it on. Every server is
// on loopback; names under `.test` resolve through the test's own resolver, never DNS.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { RequestEngine } from '../../src/core/request-engine.js';
import { PROXY_CONTENT_SECURITY_POLICY } from '../../src/core/proxy-route.js';
import { AddressPolicy } from '../../src/proxy/address-policy.js';
import { checkFetchDestination } from '../../src/proxy/fetch-destination.js';
import { isProxyRefusal, type HostResolver } from '../../src/proxy/index.js';
import {
  allowOnlyLoopbackPort,
  echoHandler,
  listen,
  refusalCode,
  startTestProxy,
  viaProxy,
  type Echo,
} from './proxy-support/servers.js';

type ErrorBody = { error: { code: string; message: string } };

describe('the proxy timeout covers resolving the host', () => {
  it('answers upstream_timeout (504) when the resolver is slower than timeout, and never acts on its late answer', async () => {
    const api = await listen(echoHandler());
    let connections = 0;
    api.server.on('connection', () => (connections += 1));
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const resolveHost: HostResolver = async (hostname) => {
      // Held until the test has its answer; the bound only keeps the old, unguarded proxy from waiting forever.
      if (hostname === 'slow.test') await Promise.race([released, delay(20_000, undefined, { ref: false })]);
      return ['127.0.0.1'];
    };
    const proxy = await startTestProxy({ timeout: 1_000, allowPrivate: allowOnlyLoopbackPort(api.port), resolveHost });
    try {
      const response = await viaProxy(proxy, `/http://slow.test:${api.port}/`);
      assert.equal(response.status, 504, response.text);
      assert.equal(refusalCode(response), 'upstream_timeout');
      // The same words as a connect or headers timeout.
      assert.equal(response.json<ErrorBody>().error.message, `http://slow.test:${api.port} did not answer in time; try again later, or check that the API is up.`);
      release();

      const control = await viaProxy(proxy, `/http://fast.test:${api.port}/after`);
      assert.equal(control.status, 200, control.text);
      assert.equal(control.json<Echo>().url, '/after');
      assert.equal(connections, 1, 'the slow name was connected to after its refusal');
    } finally {
      release();
      await proxy.close();
      await api.close();
    }
  });
});

/** An API that answers with what would make it a page, a script or a service worker of the proxy's origin. */
function activeContentApi(): Parameters<typeof listen>[0] {
  return (req, res) => {
    const common = {
      'service-worker-allowed': '/',
      refresh: '0; url=https://elsewhere.example/',
      'origin-agent-cluster': '?0',
      'accept-ch': 'Sec-CH-UA-Full-Version-List',
      'set-login': 'logged-in',
      link: '<https://api.example/items?page=2>; rel="next"',
      'x-request-id': 'r-1',
    };
    if (req.url === '/sw.js') {
      res.writeHead(200, { ...common, 'content-type': 'text/javascript' }).end('self.onfetch = () => {};');
    } else if (req.url === '/own-policy') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' }).end('{}');
    } else {
      res.writeHead(200, { ...common, 'content-type': 'text/html' }).end('<script>document.cookie = "sid=x; domain=example.com"</script>');
    }
  };
}

function exposedHeaders(headers: IncomingHttpHeaders): string[] {
  return String(headers['access-control-expose-headers'] ?? '').split(', ');
}

describe('proxied answers cannot act as pages of the proxy’s origin', () => {
  it('sandboxes every relayed response and drops the headers that would give the proxy’s origin to the API, even with allowOrigins "*" and no Origin', async () => {
    const api = await listen(activeContentApi());
    const proxy = await startTestProxy({ allowOrigins: '*', allowPrivate: allowOnlyLoopbackPort(api.port) });
    try {
      for (const path of ['/page.html', '/sw.js']) {
        // What a browser sends for a top-level navigation or a service worker's script: no Origin header.
        const response = await viaProxy(proxy, `/${api.origin}${path}`, { origin: null });
        assert.equal(response.status, 200, path);
        assert.equal(response.headers['content-security-policy'], PROXY_CONTENT_SECURITY_POLICY, path);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', path);
        for (const dropped of ['service-worker-allowed', 'refresh', 'origin-agent-cluster', 'accept-ch', 'set-login']) {
          assert.equal(response.headers[dropped], undefined, `${path}: ${dropped} was relayed`);
        }
        // Pagination and the rest of the API's headers pass, readable by the page; the proxy's additions are not
        // exposed, so the console does not show them as the API's.
        assert.equal(response.headers['link'], '<https://api.example/items?page=2>; rel="next"');
        assert.equal(response.headers['x-request-id'], 'r-1');
        const exposed = exposedHeaders(response.headers);
        assert.ok(exposed.includes('link') && exposed.includes('content-type'), String(exposed));
        assert.ok(!exposed.includes('content-security-policy') && !exposed.includes('x-content-type-options'), String(exposed));
      }
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('keeps the API’s own Content-Security-Policy before its own, and the console shows the API’s alone', async () => {
    const api = await listen(activeContentApi());
    // Any origin: Node's fetch, standing in for the page's, sends none.
    const proxy = await startTestProxy({ allowOrigins: '*', allowPrivate: allowOnlyLoopbackPort(api.port) });
    try {
      const response = await viaProxy(proxy, `/${api.origin}/own-policy`);
      assert.equal(response.headers['content-security-policy'], `default-src 'none', ${PROXY_CONTENT_SECURITY_POLICY}`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.ok(exposedHeaders(response.headers).includes('content-security-policy'));

      const engine = new RequestEngine({ config: { corsProxy: proxy.url } });
      const own = await engine.send({ method: 'GET', url: `${api.origin}/own-policy` });
      assert.deepEqual(own.headers.filter(([name]) => name === 'content-security-policy'), [['content-security-policy', "default-src 'none'"]]);
      const none = await engine.send({ method: 'GET', url: `${api.origin}/page.html` });
      assert.deepEqual(none.headers.filter(([name]) => name === 'content-security-policy'), []);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('sandboxes its own refusals too', async () => {
    const proxy = await startTestProxy();
    try {
      const response = await viaProxy(proxy, '/?url=', { origin: null });
      assert.equal(refusalCode(response), 'origin_not_allowed');
      assert.equal(response.headers['content-security-policy'], PROXY_CONTENT_SECURITY_POLICY);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    } finally {
      await proxy.close();
    }
  });
});

describe('requests that are not a page’s fetch()', () => {
  it('refuses what a browser loads as a page, frame, script, worker or style sheet (pure check)', () => {
    for (const destination of ['document', 'iframe', 'frame', 'fencedframe', 'embed', 'object', 'script', 'worker', 'sharedworker', 'serviceworker', 'style', 'image']) {
      assert.throws(
        () => checkFetchDestination({ 'sec-fetch-dest': destination }),
        (error) => isProxyRefusal(error, 'destination_not_allowed') && error.status === 403 && error.message.includes(`Sec-Fetch-Dest: ${destination}`),
        destination,
      );
    }
  });

  it('lets fetch(), XHR and EventSource (`empty`) through, and clients that do not say', () => {
    assert.doesNotThrow(() => checkFetchDestination({ 'sec-fetch-dest': 'empty' }));
    assert.doesNotThrow(() => checkFetchDestination({}));
  });

  it('answers a navigation with the refusal, without asking the API', async () => {
    let hits = 0;
    const api = await listen((req, res) => {
      hits += 1;
      echoHandler()(req, res);
    });
    const proxy = await startTestProxy({ allowOrigins: '*', allowPrivate: allowOnlyLoopbackPort(api.port) });
    try {
      const page = await viaProxy(proxy, `/${api.origin}/page.html`, { origin: null, headers: { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' } });
      assert.equal(page.status, 403);
      assert.equal(refusalCode(page), 'destination_not_allowed');
      assert.equal(hits, 0);
      const fetched = await viaProxy(proxy, `/${api.origin}/data`, { headers: { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' } });
      assert.equal(fetched.status, 200);
    } finally {
      await proxy.close();
      await api.close();
    }
  });
});

describe('refusals do not say what a name resolves to', () => {
  it('gives the class of a name’s address but not the address; the address of an IP target as typed (pure)', () => {
    const policy = new AddressPolicy();
    const named = policy.refusal('10.20.30.40', 443, 'vault.corp.internal');
    const hint = ' For an API on this machine or your network, in development, start the proxy with --allow-private (allowPrivate: true).';
    assert.equal(named, `vault.corp.internal resolves to a private-network address; this proxy only forwards to public internet addresses.${hint}`);
    assert.equal(policy.refusal('10.20.30.40', 443, '10.20.30.40'), `10.20.30.40 is a private-network address; this proxy only forwards to public internet addresses.${hint}`);
    assert.doesNotMatch(policy.refusal('fd00:ec2::254', 80, 'metadata.test') ?? '', /fd00/);
    assert.match(policy.refusal('not-an-ip', 80, 'odd.test') ?? '', /^odd\.test resolves to an answer that is not a valid IP address;/);
  });

  it('says how to open private addresses for development, but not where --allow-private would not help, and names a predicate that refused (pure)', () => {
    assert.match(new AddressPolicy().refusal('127.0.0.1', 3000, 'localhost') ?? '', /start the proxy with --allow-private \(allowPrivate: true\)\.$/);
    // Cloud metadata stays closed with --allow-private, and an invalid answer is no address at all.
    assert.equal(new AddressPolicy().refusal('169.254.169.254', 80, '169.254.169.254'), '169.254.169.254 is a cloud metadata service address; this proxy only forwards to public internet addresses.');
    assert.doesNotMatch(new AddressPolicy().refusal('not-an-ip', 80, 'odd.test') ?? '', /allow-private/);
    const predicate = new AddressPolicy(({ port }) => port === 3000);
    assert.equal(predicate.refusal('127.0.0.1', 3001, '127.0.0.1'), "127.0.0.1 is a loopback address (this machine); this proxy's allowPrivate predicate does not allow it.");
    assert.equal(predicate.refusal('127.0.0.1', 3000, '127.0.0.1'), undefined);
  });

  it('refuses an internal name that resolves to loopback without naming the address', async () => {
    const proxy = await startTestProxy({
      allowOrigins: ['https://docs.example.com'],
      resolveHost: async (hostname) => (hostname === 'db.corp.test' ? ['127.0.0.7'] : ['10.1.2.3']),
    });
    try {
      for (const [host, words] of [['db.corp.test', 'a loopback address'], ['vault.corp.test', 'a private-network address']] as const) {
        const response = await viaProxy(proxy, `/http://${host}/`, { origin: 'https://docs.example.com' });
        assert.equal(refusalCode(response), 'private_address', host);
        const { message } = response.json<ErrorBody>().error;
        assert.match(message, new RegExp(`^${host.replaceAll('.', '\\.')} resolves to ${words}`), message);
        assert.doesNotMatch(message, /127\.0\.0\.7|10\.1\.2\.3/, message);
      }
      // The address a reader typed is theirs already: the message keeps it.
      for (const [target, address] of [['127.0.0.1', '127.0.0.1'], ['[::1]', '::1']]) {
        const response = await viaProxy(proxy, `/http://${target}/`, { origin: 'https://docs.example.com' });
        assert.match(response.json<ErrorBody>().error.message, new RegExp(`^${address.replaceAll('.', '\\.')} is a loopback address`), target);
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('the reader’s address stays with the proxy', () => {
  it('drops the client-address and location headers of load balancers and CDNs, and keeps the API’s own', async () => {
    const api = await listen(echoHandler());
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
    const dropped: Record<string, string> = {
      'x-forwarded-for': '203.0.113.9', 'x-forwarded': 'for=203.0.113.9', 'x-real-ip': '203.0.113.9', 'client-ip': '203.0.113.9',
      'x-originating-ip': '203.0.113.9', 'true-client-ip': '203.0.113.9', 'x-original-forwarded-for': '203.0.113.9',
      'x-envoy-external-address': '203.0.113.9',
      'cf-connecting-ip': '203.0.113.9', 'cf-connecting-ipv6': '2001:db8::9', 'cf-pseudo-ipv4': '240.0.0.9', 'cf-ipcountry': 'FR', 'cf-ipcity': 'Lyon', 'cf-region': 'ARA', 'cf-postal-code': '69001',
      'fastly-client-ip': '203.0.113.9', 'akamai-client-ip': '203.0.113.9', 'x-akamai-edgescape': 'country_code=FR', 'fly-client-ip': '203.0.113.9',
      'cloudfront-viewer-address': '203.0.113.9:51234', 'cloudfront-viewer-country': 'FR',
      'x-azure-clientip': '203.0.113.9', 'x-azure-socketip': '203.0.113.9', 'x-appengine-user-ip': '203.0.113.9', 'x-appengine-citylatlong': '45.7,4.8',
      'x-vercel-forwarded-for': '203.0.113.9', 'x-vercel-ip-country': 'FR', 'x-vercel-ip-latitude': '45.7',
      'x-nf-client-connection-ip': '203.0.113.9', 'x-nf-geo': 'eyJjaXR5IjoiTHlvbiJ9',
    };
    // Credentials and ids a reader sends to an API behind these vendors are the reader's own request.
    const kept: Record<string, string> = { 'cf-access-client-id': 'id.access', 'x-vercel-protection-bypass': 'b', 'x-api-key': 'k' };
    try {
      const response = await viaProxy(proxy, `/${api.origin}/`, { headers: { ...dropped, ...kept } });
      const { headers } = response.json<Echo>();
      for (const name of Object.keys(dropped)) assert.equal(headers[name], undefined, `${name} was forwarded`);
      // The hops in front of the proxy, often named after internal hosts, give way to the proxy's own entry.
      const viaEdge = (await viaProxy(proxy, `/${api.origin}/`, { headers: { via: '1.1 edge.corp.internal' } })).json<Echo>().headers;
      assert.equal(viaEdge['via'], '1.1 try-it-proxy');
      for (const [name, value] of Object.entries(kept)) assert.equal(headers[name], value, `${name} was dropped`);
    } finally {
      await proxy.close();
      await api.close();
    }
  });
});
