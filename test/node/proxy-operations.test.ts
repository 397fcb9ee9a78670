// The proxy as an operator runs it for a public docs site: mounted under a path of a site's own server or behind a
// reverse proxy's prefix, checked by a load balancer, and logging what it refuses. Every server is on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { ConfigError } from '../../src/core/errors.js';
import { CorsProxy, createProxyServer, startProxy, type ProxyOptions, type ProxyRefusalRecord } from '../../src/proxy/index.js';
import {
  PAGE_ORIGIN,
  allowOnlyLoopbackPort,
  echoHandler,
  listen,
  rawExchange,
  refusalCode,
  startTestProxy,
  viaProxy,
  type Echo,
  type TestServer,
} from './proxy-support/servers.js';
import { startCli } from './proxy-support/cli-process.js';

/**
 * A docs site's own server with the proxy under `prefix`, taken off the request path before the proxy sees it, as
 * Express's `app.use(prefix, proxy.handle)` and a reverse proxy's `proxy_pass http://127.0.0.1:8787/` do. Any
 * other path is a page of the site.
 */
async function siteWithProxyUnder(prefix: string, options: ProxyOptions, { mergeSlashes = false } = {}): Promise<{ site: TestServer; proxyUrl: string; close(): Promise<void> }> {
  const proxy = new CorsProxy(options);
  const site = await listen((req, res) => {
    if (req.url!.startsWith(prefix)) {
      const queryStart = req.url!.includes('?') ? req.url!.indexOf('?') : req.url!.length;
      // nginx's merge_slashes (on by default) turns the path's `https://` into `https:/`, the query left alone.
      const path = mergeSlashes ? req.url!.slice(0, queryStart).replace(/\/{2,}/g, '/') : req.url!.slice(0, queryStart);
      req.url = path.slice(prefix.length - 1) + req.url!.slice(queryStart);
      proxy.handle(req, res);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no docs page at ${req.url}`);
    }
  });
  return {
    site,
    proxyUrl: `${site.origin}${prefix}`,
    close: async () => {
      await site.close();
      await proxy.close();
    },
  };
}

describe('proxy mounted under a path prefix', () => {
  let api: TestServer;
  let otherApi: TestServer;
  let mounted: Awaited<ReturnType<typeof siteWithProxyUnder>>;

  before(async () => {
    otherApi = await listen(echoHandler());
    api = await listen((req, res) => {
      if (req.url === '/start') res.writeHead(302, { location: '/landing?a=1' }).end();
      else if (req.url === '/elsewhere') res.writeHead(302, { location: `${otherApi.origin}/landed` }).end();
      else echoHandler()(req, res);
    });
    const ports = new Set([api.port, otherApi.port]);
    // maxRedirects 0: every redirect goes to the page, which follows it itself.
    mounted = await siteWithProxyUnder('/proxy/', {
      maxRedirects: 0,
      allowPrivate: (target) => target.addressClass === 'loopback' && ports.has(target.port),
    });
  });

  after(async () => {
    await mounted.close();
    await api.close();
    await otherApi.close();
  });

  it('points a redirect handed to the page back under the prefix, in the prefix style, as written or encoded', async () => {
    for (const target of [`${api.origin}/start`, encodeURIComponent(`${api.origin}/start`)]) {
      // fetch follows the redirect as a page's fetch does: to the Location resolved against the proxy URL.
      const response = await fetch(`${mounted.proxyUrl}${target}`, { headers: { origin: PAGE_ORIGIN } });
      const text = await response.text();
      assert.equal(response.status, 200, `${target}: ${text}`);
      assert.equal(response.url, `${mounted.proxyUrl}${api.origin}/landing?a=1`, target);
      assert.equal((JSON.parse(text) as Echo).url, '/landing?a=1', target);
    }
  });

  it('keeps the credentials mark of a redirect to another origin under the prefix, and the proxy drops them', async () => {
    const response = await fetch(`${mounted.proxyUrl}${api.origin}/elsewhere`, { headers: { origin: PAGE_ORIGIN, authorization: 'Bearer for-the-first-api' } });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    assert.equal(response.url, `${mounted.proxyUrl}try-it-proxy-credentials=omit/${otherApi.origin}/landed`);
    const seen = JSON.parse(text) as Echo;
    assert.equal(seen.url, '/landed');
    assert.equal(seen.headers['authorization'], undefined);
  });

  it('points a redirect back under the prefix behind a front that merges slashes, as nginx does by default', async () => {
    const merging = await siteWithProxyUnder('/proxy/', { maxRedirects: 0, allowPrivate: (target) => target.addressClass === 'loopback' && target.port === api.port }, { mergeSlashes: true });
    try {
      const response = await fetch(`${merging.proxyUrl}${api.origin}/start`, { headers: { origin: PAGE_ORIGIN } });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.equal(response.url, `${merging.proxyUrl}${api.origin}/landing?a=1`);
      assert.equal((JSON.parse(text) as Echo).url, '/landing?a=1');
    } finally {
      await merging.close();
    }
  });

  it('keeps the query style under the prefix too', async () => {
    const response = await fetch(`${mounted.proxyUrl}?url=${encodeURIComponent(`${api.origin}/start`)}`, { headers: { origin: PAGE_ORIGIN } });
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(await response.text()) as Echo).url, '/landing?a=1');
  });
});

describe('proxy health check', () => {
  it('answers GET and HEAD / with 200 to a load balancer (no Origin), saying nothing of its configuration', async () => {
    let connections = 0;
    const api = await listen(echoHandler());
    api.server.on('connection', () => (connections += 1));
    const proxy = await startTestProxy({ allowOrigins: ['https://docs.example.com'], allowTargets: ['api.example.com'] });
    try {
      const get = await viaProxy(proxy, '/', { origin: null });
      assert.equal(get.status, 200, get.text);
      assert.match(String(get.headers['content-type']), /^text\/plain/);
      assert.equal(get.headers['cache-control'], 'no-store');
      assert.equal(get.headers['x-try-it-proxy-error'], undefined);
      assert.doesNotMatch(get.text, /docs\.example\.com|api\.example\.com|origin|target/i);
      const head = await viaProxy(proxy, '/', { method: 'HEAD', origin: null });
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      // Only the bare root: anything that could name a target is still checked.
      assert.equal(refusalCode(await viaProxy(proxy, '/?url=', { origin: null })), 'origin_not_allowed');
      assert.equal(refusalCode(await viaProxy(proxy, '/', { method: 'POST', origin: 'https://docs.example.com' })), 'bad_target_url');
      assert.equal(connections, 0);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('answers 503 once the proxy is closing, so a load balancer stops sending to it', async () => {
    const proxy = new CorsProxy({});
    const site = await listen(proxy.handle);
    try {
      assert.equal((await fetch(`${site.origin}/`)).status, 200);
      await proxy.close();
      const going = await fetch(`${site.origin}/`);
      assert.equal(going.status, 503);
      assert.equal(await going.text(), 'try-it-proxy is shutting down.\n');
    } finally {
      await site.close();
    }
  });
});

describe('proxy keep-alive', () => {
  it('closes an idle connection after keepAliveTimeout, raising Node’s header and request timeouts to outlast it', async () => {
    const proxy = await startTestProxy({ keepAliveTimeout: 300 });
    try {
      assert.equal(proxy.server.keepAliveTimeout, 300);
      // Under Node's 5 s default the connection would still be open when the exchange gives up.
      const { received, closedByServer } = await rawExchange(proxy.port, 'GET / HTTP/1.1\r\nhost: proxy\r\n\r\n', { end: false, limitMs: 4_000 });
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.ok(closedByServer, 'the idle connection was kept open');
    } finally {
      await proxy.close();
    }
  });

  it('raises headersTimeout above a long keep-alive, so a load balancer’s unused new connection lives as long, and requestTimeout with it', async () => {
    const long = await startTestProxy({ keepAliveTimeout: 620_000 });
    const short = await startTestProxy({ keepAliveTimeout: 1_000 });
    try {
      assert.equal(long.server.keepAliveTimeout, 620_000);
      assert.ok(long.server.headersTimeout > 620_000, String(long.server.headersTimeout));
      assert.ok(long.server.requestTimeout >= long.server.headersTimeout, String(long.server.requestTimeout));
      // Never lowered.
      assert.deepEqual([short.server.headersTimeout, short.server.requestTimeout], [60_000, 300_000]);
    } finally {
      await Promise.all([long.close(), short.close()]);
    }
  });

  it('refuses a keepAliveTimeout that is not a whole number of milliseconds a timer can wait, naming it', async () => {
    for (const value of [0, -1, 1.5, '65000', 2 ** 31, Number.NaN]) {
      await assert.rejects(
        startTestProxy({ keepAliveTimeout: value as number }),
        (error: unknown) => error instanceof ConfigError && error.field === 'keepAliveTimeout' && /^Invalid keepAliveTimeout: must be/.test(error.message),
        String(value),
      );
    }
  });
});

describe('proxy start', () => {
  it('says a port in use is in use and what to do, keeping the code and Node\'s error as the cause', async () => {
    const holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as AddressInfo;
    try {
      await assert.rejects(startProxy({ port, host: '127.0.0.1' }), (error: Error & { code?: string }) => {
        assert.equal(error.message, `The proxy cannot listen: port ${port} on 127.0.0.1 is in use (another try-it-proxy, or another program): stop that one, or choose another port (try-it-proxy: --port or PORT), 0 for a free one.`);
        assert.equal(error.code, 'EADDRINUSE');
        assert.equal((error.cause as { code?: string }).code, 'EADDRINUSE');
        return true;
      });
    } finally {
      holder.close();
    }
  });
});

describe('proxy refusal records', () => {
  const secret = 'sk_live_do_not_log';

  it('tells onRefusal the code, method, page origin and target origin of each refusal, never its path, query or headers', async () => {
    const records: ProxyRefusalRecord[] = [];
    const api = await listen(echoHandler());
    const proxy = await startTestProxy({ onRefusal: (record) => records.push(record) });
    try {
      const target = `${api.origin}/v1/users?api_key=${secret}`;
      await viaProxy(proxy, `/?url=${encodeURIComponent(target)}`, { origin: 'https://elsewhere.example', headers: { authorization: `Bearer ${secret}` } });
      await viaProxy(proxy, `/${target}`, { method: 'DELETE', headers: { authorization: `Bearer ${secret}` } });
      await viaProxy(proxy, `/not-a-url?api_key=${secret}`);
      assert.deepEqual(records, [
        { code: 'origin_not_allowed', status: 403, method: 'GET', origin: 'https://elsewhere.example', target: undefined },
        { code: 'private_address', status: 403, method: 'DELETE', origin: PAGE_ORIGIN, target: api.origin },
        { code: 'bad_target_url', status: 400, method: 'GET', origin: PAGE_ORIGIN, target: undefined },
      ]);
      assert.doesNotMatch(JSON.stringify(records), new RegExp(secret));
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  it('hands onRefusal the error behind an internal_error, which the page is not shown', async () => {
    const records: ProxyRefusalRecord[] = [];
    const bug = new Error('a bug in an allowOrigins predicate');
    const proxy = await startTestProxy({ allowOrigins: () => { throw bug; }, onRefusal: (record) => records.push(record) });
    try {
      const response = await viaProxy(proxy, '/http://api.example.com/');
      assert.equal(refusalCode(response), 'internal_error');
      assert.doesNotMatch(response.text, /allowOrigins predicate/);
      assert.equal(records.length, 1);
      assert.equal(records[0]!.code, 'internal_error');
      assert.equal(records[0]!.cause, bug);
    } finally {
      await proxy.close();
    }
  });

  it('tells onRefusal of a response it cut off after its status was sent, a body past maxResponseBytes', async () => {
    const records: ProxyRefusalRecord[] = [];
    // 8 KB of undeclared length: the cap is found only as the bytes pass, after the status went to the page.
    const api = await listen((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(8 * 1024));
    });
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), maxResponseBytes: 1024, onRefusal: (record) => records.push(record) });
    try {
      await viaProxy(proxy, `/${api.origin}/big?api_key=${secret}`).catch(() => undefined); // the body breaks off
      // A page on the proxy's own origin sends no Origin: none is recorded, not one worked out from Host.
      await viaProxy(proxy, `/${api.origin}/big`, { origin: null, headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' } }).catch(() => undefined);
      assert.deepEqual(records, [
        { code: 'response_too_large', status: 502, method: 'GET', origin: PAGE_ORIGIN, target: api.origin },
        { code: 'response_too_large', status: 502, method: 'GET', origin: undefined, target: api.origin },
      ]);
    } finally {
      await proxy.close();
      await api.close();
    }
  });

  /** What a record says of a request Node's parser refused: nothing was read of it. */
  const unread = { method: undefined, origin: undefined, target: undefined };

  it('tells onRefusal of what Node’s HTTP parser refuses, with its code and status only, and of CONNECT', async () => {
    const records: ProxyRefusalRecord[] = [];
    const proxy = await startTestProxy({ onRefusal: (record) => records.push(record) });
    try {
      const target = `/https://api.example.com/v1/users?api_key=${secret}`;
      const head = `host: proxy\r\norigin: https://elsewhere.example\r\nauthorization: Bearer ${secret}`;
      const answers: string[] = [];
      for (const text of [
        `FOO ${target} HTTP/1.1\r\n${head}\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\n${head}${'t'.repeat(20_000)}\r\n\r\n`,
        `GET ${target} HTTP/1.1\r\n${head}\r\nno colon ${secret}\r\n\r\n`,
        `CONNECT api.example.com:443 HTTP/1.1\r\n${head}\r\n\r\n`,
      ]) {
        answers.push((await rawExchange(proxy.port, text)).received);
      }
      const codes = answers.map((answer) => /\r\nx-try-it-proxy-error: (\S+)\r\n/i.exec(answer)?.[1]);
      assert.deepEqual(codes, ['method_not_allowed', 'request_headers_too_large', 'malformed_request', 'method_not_allowed']);
      assert.match(answers[2]!, /^HTTP\/1\.1 400 [^]*"message":"The request is not valid HTTP\/1\.1 \(Invalid header token\)/);
      assert.deepEqual(records, [
        { code: 'method_not_allowed', status: 405, ...unread },
        { code: 'request_headers_too_large', status: 431, ...unread },
        { code: 'malformed_request', status: 400, ...unread },
        { code: 'method_not_allowed', status: 405, method: 'CONNECT', origin: 'https://elsewhere.example', target: undefined },
      ]);
      assert.doesNotMatch(JSON.stringify(records), new RegExp(secret));
    } finally {
      await proxy.close();
    }
  });

  it('tells onRefusal of a request too slow to arrive, not of a connection that sent nothing (a pre-connection)', async () => {
    const records: ProxyRefusalRecord[] = [];
    const server = createProxyServer({ onRefusal: (record) => records.push(record) });
    // Short, so the test waits a fraction of a second for Node's own timeout checks.
    Object.assign(server, { headersTimeout: 200, requestTimeout: 200, connectionsCheckingInterval: 50 });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const [late, idle] = await Promise.all([
        rawExchange(port, `GET /https://api.example.com/?api_key=${secret} HTTP/1.1\r\nhost: proxy\r\n`, { end: false }),
        rawExchange(port, '', { end: false }),
      ]);
      for (const { received, closedByServer } of [late, idle]) {
        assert.ok(closedByServer, 'the connection was left open');
        assert.match(received, /^HTTP\/1\.1 408 [^]*\r\nx-try-it-proxy-error: request_timeout\r\n[^]*"message":"The request did not arrive in time \(its headers within 200 ms/i);
      }
      assert.deepEqual(records, [{ code: 'request_timeout', status: 408, ...unread }]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('does not blame the API when the page’s request body breaks off before it was sent (malformed, or the page gone)', async () => {
    const records: ProxyRefusalRecord[] = [];
    const api = await listen(echoHandler());
    let asked = (): void => undefined;
    const resolving = new Promise<void>((resolve) => (asked = resolve));
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Held while the page goes away, so the upstream request is still waiting for its connection.
    const resolveHost = async (): Promise<string[]> => {
      asked();
      await released;
      return ['127.0.0.1'];
    };
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port), resolveHost, onRefusal: (record) => records.push(record) });
    try {
      const page = connect(proxy.port, '127.0.0.1');
      page.on('error', () => undefined);
      page.write(`POST /http://api.test:${api.port}/upload HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n`);
      await resolving;
      page.write('zz\r\n'); // no chunk size: the parser refuses the body, and the proxy drops the connection
      await once(page, 'close');
      release();
      // A request after it, answered, comes after the proxy has dealt with the first.
      assert.equal((await viaProxy(proxy, `/http://api.test:${api.port}/after`)).status, 200);
      assert.deepEqual(records, []);
    } finally {
      release();
      await proxy.close();
      await api.close();
    }
  });

  it('try-it-proxy logs each refusal on stderr as one JSON line, without the secrets of the request', async () => {
    const cli = await startCli(['--port', '0', '--allow-origin', 'https://docs.example.com']);
    try {
      const target = `https://api.example.com/v1/users?api_key=${secret}`;
      const response = await viaProxy(cli, `/?url=${encodeURIComponent(target)}`, { origin: 'https://elsewhere.example', headers: { authorization: `Bearer ${secret}` } });
      assert.equal(refusalCode(response), 'origin_not_allowed');
      const lines = await cli.logLines(1);
      assert.equal(lines.length, 1, cli.stderr());
      const { time, ...logged } = JSON.parse(lines[0]!) as { time: string };
      assert.ok(!Number.isNaN(Date.parse(time)), time);
      assert.deepEqual(logged, { event: 'refused', code: 'origin_not_allowed', status: 403, method: 'GET', origin: 'https://elsewhere.example' });
      assert.doesNotMatch(cli.stderr(), new RegExp(secret));
    } finally {
      await cli.stop();
    }
  });

  it('try-it-proxy logs what Node’s HTTP parser refuses too, with its code and status only', async () => {
    const cli = await startCli(['--port', '0']);
    try {
      await rawExchange(cli.port, `FOO /https://api.example.com/?api_key=${secret} HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\n\r\n`);
      await rawExchange(cli.port, `GET /https://api.example.com/ HTTP/1.1\r\nhost: proxy\r\ncookie: ${secret}${'c'.repeat(20_000)}\r\n\r\n`);
      const lines = await cli.logLines(2);
      assert.deepEqual(
        lines.map((line) => {
          const { time, ...logged } = JSON.parse(line) as { time: string };
          return logged;
        }),
        [
          { event: 'refused', code: 'method_not_allowed', status: 405 },
          { event: 'refused', code: 'request_headers_too_large', status: 431 },
        ],
      );
      assert.doesNotMatch(cli.stderr(), new RegExp(secret));
    } finally {
      await cli.stop();
    }
  });
});
