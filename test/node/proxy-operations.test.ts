// The proxy as an operator runs it for a public docs site: mounted under a path of a site's own server or behind a
// reverse proxy's prefix, checked by a load balancer, and logging what it refuses. Every server is on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CorsProxy, type ProxyOptions, type ProxyRefusalRecord } from '../../src/proxy/index.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, echoHandler, listen, refusalCode, startTestProxy, viaProxy, type Echo, type TestServer } from './proxy-support/servers.js';

const LIMIT_MS = 15_000;

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

  it('try-it-proxy logs each refusal on stderr as one JSON line, without the secrets of the request', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/proxy/cli.ts', '--port', '0', '--allow-origin', 'https://docs.example.com'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(stdout);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
      });
      // Bounded by the process's time limit: the line comes, or the process is killed and its streams close.
      const lineWritten = new Promise<void>((resolve) => {
        child.stderr.on('data', () => stderr.includes('\n') && resolve());
        child.once('close', () => resolve());
      });
      const target = `https://api.example.com/v1/users?api_key=${secret}`;
      const response = await viaProxy({ url }, `/?url=${encodeURIComponent(target)}`, { origin: 'https://elsewhere.example', headers: { authorization: `Bearer ${secret}` } });
      assert.equal(refusalCode(response), 'origin_not_allowed');
      await lineWritten;
      const lines = stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, stderr);
      const { time, ...logged } = JSON.parse(lines[0]!) as { time: string };
      assert.ok(!Number.isNaN(Date.parse(time)), time);
      assert.deepEqual(logged, { event: 'refused', code: 'origin_not_allowed', status: 403, method: 'GET', origin: 'https://elsewhere.example' });
      assert.doesNotMatch(stderr, new RegExp(secret));
    } finally {
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
