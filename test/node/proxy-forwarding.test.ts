// What the proxy forwards and how: request styles, headers both ways, CORS, preflight, redirects passed
// through, refusal bodies. Every server is on loopback; one port is allowed explicitly.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { METHODS, request as httpRequest, type RequestListener } from 'node:http';
import { connect } from 'node:net';
import { ConfigError } from '../../src/core/errors.js';
import { RequestEngine } from '../../src/core/request-engine.js';
import { CorsProxy, PROXY_REFUSAL_CODES, createProxyServer, startProxy, type RunningProxy, type StartProxyOptions } from '../../src/proxy/index.js';
import { ProxyRefusal } from '../../src/proxy/refusal.js';
import { TargetPolicy } from '../../src/proxy/target-policy.js';
import {
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

/** An upstream plus a proxy allowed to reach exactly it. */
async function proxyInFrontOf(handler: RequestListener, options: StartProxyOptions = {}): Promise<{ upstream: TestServer; proxy: RunningProxy; close(): Promise<void> }> {
  const upstream = await listen(handler);
  const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(upstream.port), ...options });
  return { upstream, proxy, close: async () => { await proxy.close(); await upstream.close(); } };
}

/** Sends raw headers with Node's client, which (unlike fetch) lets a test set hop-by-hop headers. */
function rawRequest(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes `text` on a new connection to the proxy and reads until the proxy closes it. `halfClose: false` keeps the
 * client's side open: Node's server drops a request whose client has ended its side before the answer is written.
 */
async function rawExchange(port: number, text: string, halfClose = true): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  socket.setTimeout(10_000, () => socket.destroy()); // bounded, whatever the proxy does
  socket.setEncoding('utf8');
  let received = '';
  socket.on('data', (chunk: string) => (received += chunk));
  if (halfClose) socket.end(text);
  else socket.write(text);
  await once(socket, 'close');
  return received;
}

describe('proxy forwarding', () => {
  let hits = 0;
  let setup: Awaited<ReturnType<typeof proxyInFrontOf>>;
  const echo = echoHandler({
    'set-cookie': ['session=secret; HttpOnly', 'other=1'],
    'keep-alive': 'timeout=99, max=7',
    'proxy-authenticate': 'Basic',
    'access-control-allow-origin': 'https://someone-else.example',
    'access-control-allow-credentials': 'true',
    'alt-svc': 'h3=":443"',
    connection: 'keep-alive, x-upstream-hop',
    'x-upstream-hop': 'hop',
    'x-request-id': 'abc123',
    'x-try-it-proxy-error': 'private_address', // only the proxy may say this, never the API
    'x-try-it-proxy-final-url': 'https://elsewhere.example/', // nor this: no redirect happened
    'x-try-it-proxy-www-authenticate': 'Spoofed', // nor this: it holds the API's WWW-Authenticate, renamed
    // Policies for the whole origin that sends them: relayed, they would bind the proxy's origin.
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'clear-site-data': '"cookies", "storage"',
    nel: '{"report_to":"api","max_age":86400,"success_fraction":1}',
    'report-to': '{"group":"api","max_age":86400,"endpoints":[{"url":"https://collector.example/"}]}',
    vary: 'Accept-Encoding',
  });

  before(async () => {
    setup = await proxyInFrontOf((req, res) => {
      hits += 1;
      echo(req, res);
    });
  });
  after(() => setup.close());

  const target = (path = '/'): string => `http://127.0.0.1:${setup.upstream.port}${path}`;

  it('accepts the query style with an encoded target, query string included', async () => {
    const response = await viaProxy(setup.proxy, `/?url=${encodeURIComponent(target('/v1/users?page=2&q=a%20b'))}`);
    assert.equal(response.status, 200);
    assert.equal(response.json<Echo>().url, '/v1/users?page=2&q=a%20b');
  });

  it('accepts the prefix style, with the target query string, collapsed slashes, or fully encoded', async () => {
    for (const path of [
      `/${target('/v1/users?page=2')}`,
      `/${target('/v1/users?page=2').replace('http://', 'http:/')}`,
      `/${encodeURIComponent(target('/v1/users?page=2'))}`,
    ]) {
      const response = await viaProxy(setup.proxy, path);
      assert.equal(response.status, 200, path);
      assert.equal(response.json<Echo>().url, '/v1/users?page=2', path);
    }
  });

  it('accepts the whole query as the target, as a corsProxy ending in "?" sends it, as written or encoded', async () => {
    for (const path of [`/?${target('/v1/users?page=2&q=a%20b')}`, `/?${encodeURIComponent(target('/v1/users?page=2&q=a%20b'))}`]) {
      const response = await viaProxy(setup.proxy, path);
      assert.equal(response.status, 200, path);
      assert.equal(response.json<Echo>().url, '/v1/users?page=2&q=a%20b', path);
    }
  });

  it('refuses a request without a usable target with bad_target_url', async () => {
    // A bare GET / is the health check (proxy-operations.test.ts); POST / names no target.
    for (const [method, path] of [['POST', '/'], ['GET', '/?url='], ['GET', '/?url=not%20a%20url'], ['GET', '/favicon.ico'], ['GET', '/api.example.com/x']] as const) {
      const response = await viaProxy(setup.proxy, path, { method });
      assert.equal(response.status, 400, path);
      assert.equal(refusalCode(response), 'bad_target_url', path);
    }
  });

  it('tells a client that takes it for a forward proxy (an absolute URL as the request target) how to ask instead', async () => {
    const before = hits;
    const answer = await rawExchange(setup.proxy.port, `GET ${target('/items')} HTTP/1.1\r\nhost: ${new URL(target('/')).host}\r\norigin: ${PAGE_ORIGIN}\r\nconnection: close\r\n\r\n`, false);
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /\r\nx-try-it-proxy-error: bad_target_url\r\n/i);
    assert.match(answer, /"message":"This proxy is not a forward proxy \(HTTP_PROXY, curl -x\): name the target in the path instead\. Send \/\?url=/);
    assert.equal(hits, before, 'the API was reached');
  });

  it('forwards method, body and end-to-end headers', async () => {
    const response = await viaProxy(setup.proxy, `/${target('/items/7')}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t0k3n', 'x-api-key': 'k', accept: 'application/json' },
      body: JSON.stringify({ name: 'Ünïcødé ✓' }),
    });
    const seen = response.json<Echo>();
    assert.equal(seen.method, 'PUT');
    assert.equal(seen.bodyBytes, Buffer.byteLength(JSON.stringify({ name: 'Ünïcødé ✓' })));
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers['authorization'], 'Bearer t0k3n');
    assert.equal(seen.headers['x-api-key'], 'k');
    assert.equal(seen.headers['accept'], 'application/json');
  });

  it('drops hop-by-hop, Host, Origin, Referer, Sec-Fetch, forwarding and cookie headers on the way in', async () => {
    const response = await rawRequest(`${setup.proxy.url}${target('/h')}`, {
      origin: PAGE_ORIGIN,
      referer: 'http://localhost:8000/docs/secret-page',
      cookie: 'session=reader',
      connection: 'keep-alive, x-client-hop',
      'x-client-hop': 'hop',
      'keep-alive': 'timeout=5',
      te: 'trailers',
      'proxy-authorization': 'Basic cHJveHk6cGFzcw==',
      'x-forwarded-for': '203.0.113.5',
      'x-forwarded-server': 'lb-1',
      'true-client-ip': '203.0.113.5',
      'cf-connecting-ip': '203.0.113.5',
      forwarded: 'for=203.0.113.5',
      'x-forwarded': 'for=203.0.113.5',
      via: '1.1 edge.corp.internal',
      // The page's request to the proxy, as Origin is: a page on the proxy's own origin says same-origin.
      'sec-fetch-site': 'same-origin',
      'sec-fetch-mode': 'cors',
      'sec-fetch-dest': 'empty',
      'sec-ch-ua-platform': '"Linux"',
      'x-kept': 'yes',
      'user-agent': 'docs-reader',
    });
    assert.equal(response.status, 200);
    const { headers } = JSON.parse(response.body) as Echo;
    for (const dropped of ['origin', 'referer', 'cookie', 'x-client-hop', 'keep-alive', 'te', 'proxy-authorization', 'x-forwarded-for', 'x-forwarded-server', 'true-client-ip', 'cf-connecting-ip', 'forwarded', 'x-forwarded', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest']) {
      assert.equal(headers[dropped], undefined, `${dropped} was forwarded`);
    }
    assert.equal(headers['host'], `127.0.0.1:${setup.upstream.port}`);
    assert.equal(headers['x-kept'], 'yes');
    assert.equal(headers['user-agent'], 'docs-reader');
    assert.equal(headers['sec-ch-ua-platform'], '"Linux"', 'client hints describe the browser, not the hop');
    assert.equal(headers['via'], '1.1 try-it-proxy', 'the page side’s Via gives way to the proxy’s own');
  });

  it('refuses a request that already passed a try-it-proxy, so a target that is the proxy itself does not loop', async () => {
    const proxy = await startTestProxy({ allowPrivate: true });
    try {
      const marked = await viaProxy(proxy, `/${target('/v')}`, { headers: { via: '1.0 cache, 1.1 try-it-proxy' } });
      assert.equal(refusalCode(marked), 'target_not_allowed');
      assert.match(marked.json<{ error: { message: string } }>().error.message, /already passed through a try-it-proxy/);
      // The proxy as its own target, three levels deep: the second hop refuses, and the first relays that answer (as
      // an API's: the marker of a proxy's own answer is never relayed), whose body says why.
      const before = hits;
      const looped = await viaProxy(proxy, `/${proxy.url}${proxy.url}${target('/v')}`);
      assert.equal(looped.status, 403);
      assert.deepEqual(looped.json<{ error: { code: string } }>().error.code, 'target_not_allowed');
      assert.equal(hits, before, 'the API was reached');
    } finally {
      await proxy.close();
    }
  });

  it('drops hop-by-hop, Set-Cookie, upstream CORS, origin-wide policies and the proxy’s own headers on the way out, and adds its own', async () => {
    const response = await viaProxy(setup.proxy, `/${target('/out')}`);
    const h = response.headers;
    for (const dropped of [
      'set-cookie', 'proxy-authenticate', 'x-upstream-hop', 'access-control-allow-credentials',
      'x-try-it-proxy-error', 'x-try-it-proxy-final-url', 'x-try-it-proxy-www-authenticate',
      'strict-transport-security', 'alt-svc', 'clear-site-data', 'nel', 'report-to',
    ]) {
      assert.equal(h[dropped], undefined, `${dropped} was relayed`);
    }
    // The proxy's own connection to the page may carry a Keep-Alive header; the upstream's must not pass.
    assert.notEqual(h['keep-alive'], 'timeout=99, max=7');
    assert.equal(h['access-control-allow-origin'], PAGE_ORIGIN);
    assert.equal(h['vary'], 'Accept-Encoding, Origin');
    assert.equal(h['x-request-id'], 'abc123');
    assert.equal(response.status, 200);
    assert.equal(refusalCode(response), undefined); // the API's answer is not mistaken for a proxy refusal
    const exposed = String(h['access-control-expose-headers']).split(', ');
    assert.ok(exposed.includes('x-request-id') && exposed.includes('content-type') && exposed.includes('date'), String(exposed));
  });

  it('relays the API’s WWW-Authenticate renamed, so no browser takes it for a challenge from the proxy', async () => {
    const challenged = await proxyInFrontOf((_req, res) => {
      res.writeHead(401, { 'www-authenticate': ['Basic realm="api"', 'Bearer error="invalid_token"'], 'content-type': 'text/plain' }).end('who are you?');
    });
    try {
      const response = await viaProxy(challenged.proxy, `/${challenged.upstream.origin}/private`);
      assert.equal(response.status, 401);
      assert.equal(response.text, 'who are you?');
      assert.equal(response.headers['www-authenticate'], undefined);
      assert.deepEqual(response.headers['x-try-it-proxy-www-authenticate'], ['Basic realm="api"', 'Bearer error="invalid_token"']);
      assert.match(String(response.headers['access-control-expose-headers']), /(^|, )x-try-it-proxy-www-authenticate(,|$)/);
    } finally {
      await challenged.close();
    }
  });

  it('answers preflights itself, echoing the method and headers asked for', async () => {
    const before = hits;
    const response = await viaProxy(setup.proxy, `/${target('/items')}`, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type, x-api-key' },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers['access-control-allow-origin'], PAGE_ORIGIN);
    assert.equal(response.headers['access-control-allow-methods'], 'PATCH');
    assert.equal(response.headers['access-control-allow-headers'], 'content-type, x-api-key');
    assert.ok(Number(response.headers['access-control-max-age']) > 0);
    assert.match(String(response.headers['vary']), /Origin/);
    assert.equal(hits, before, 'a preflight reached the upstream');
  });

  it('permits in a preflight every method a page may send, so one the proxy cannot take is refused readably by the request itself', async () => {
    const preflight = async (method: string): Promise<unknown> =>
      (await viaProxy(setup.proxy, `/${target('/items')}`, { method: 'OPTIONS', headers: { 'access-control-request-method': method } })).headers['access-control-allow-methods'];
    for (const method of METHODS.filter((name) => name !== 'CONNECT' && name !== 'TRACE')) {
      assert.equal(await preflight(method), method);
    }
    // Outside Node's METHODS (or not in capitals): the browser, now allowed to send it, gets the readable 405 a page can show.
    const before = hits;
    for (const method of ['FOO', 'patch', 'Get', 'propfind', 'X-Custom_1']) {
      assert.equal(await preflight(method), method, `preflight ${method}`);
      const answer = await rawExchange(setup.proxy.port, `${method} /${target('/items')} HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\ncontent-length: 2\r\n\r\n{}`);
      assert.match(answer, /^HTTP\/1\.1 405 /, method);
      assert.match(answer, /\r\naccess-control-allow-origin: \*\r\n/i, method);
      assert.match(answer, /\r\nx-try-it-proxy-error: method_not_allowed\r\n/i, method);
      assert.match(answer, /"code":"method_not_allowed"/, method);
    }
    assert.equal(hits, before, 'the API was reached');
    // Methods browsers never send, and text that is no method, are not permitted.
    for (const method of ['TRACE', 'CONNECT', 'TRACK', 'trace', 'GE T', 'G(ET)', '']) {
      assert.equal(await preflight(method), 'GET', JSON.stringify(method));
    }
  });

  it('refuses a method its HTTP server cannot parse with a readable method_not_allowed, not a bare 400', async () => {
    const before = hits;
    for (const method of ['FOO', 'patch']) {
      const response = await viaProxy(setup.proxy, `/${target('/items')}`, { method, body: method === 'patch' ? '{}' : undefined });
      assert.equal(response.status, 405, method);
      assert.equal(refusalCode(response), 'method_not_allowed', method);
      assert.equal(response.headers['access-control-allow-origin'], '*', method);
      assert.match(response.json<{ error: { message: string } }>().error.message, /standard request methods, in capitals/);
    }
    assert.equal(hits, before, 'the API was reached');
    // Other requests the parser refuses keep Node's status, with a refusal of their own.
    const malformed = await rawExchange(setup.proxy.port, 'GET / HTTP/1.1\r\nno colon here\r\n\r\n');
    assert.match(malformed, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(malformed, /\r\nx-try-it-proxy-error: malformed_request\r\n/i);
    // Pipelined behind a request still being answered, the refusal would garble that answer: the connection is dropped.
    const pipelined = await rawExchange(setup.proxy.port, `GET /${target('/p')} HTTP/1.1\r\nhost: x\r\norigin: ${PAGE_ORIGIN}\r\n\r\nFOO / HTTP/1.1\r\nhost: x\r\n\r\n`);
    assert.doesNotMatch(pipelined, /method_not_allowed/);
  });

  it('refuses headers larger than its HTTP server reads with a readable request_headers_too_large, not a bare 431', async () => {
    const before = hits;
    // A 20 KB token: over Node's 16 KiB for the request line and headers.
    const answer = await rawExchange(setup.proxy.port, `GET /${target('/items')} HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\nauthorization: Bearer ${'t'.repeat(20_000)}\r\n\r\n`);
    assert.match(answer, /^HTTP\/1\.1 431 /);
    assert.match(answer, /\r\naccess-control-allow-origin: \*\r\n/i);
    assert.match(answer, /\r\nx-try-it-proxy-error: request_headers_too_large\r\n/i);
    assert.match(answer, /"code":"request_headers_too_large","message":"The request's headers are larger than this proxy's HTTP server reads \(16 KiB with the request line\)/);
    assert.equal(hits, before, 'the API was reached');
  });

  it('forwards a plain OPTIONS request (no Access-Control-Request-Method) to the API', async () => {
    const response = await viaProxy(setup.proxy, `/${target('/opts')}`, { method: 'OPTIONS' });
    assert.equal(response.json<Echo>().method, 'OPTIONS');
  });

  it('refuses methods browsers refuse', async () => {
    const response = await viaProxy(setup.proxy, `/${target('/')}`, { method: 'TRACE' });
    assert.equal(response.status, 405);
    assert.equal(refusalCode(response), 'method_not_allowed');
  });

  it('sends refusals as JSON the page can read, with the code in an exposed header', async () => {
    const response = await viaProxy(setup.proxy, '/?url=');
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.headers['access-control-allow-origin'], PAGE_ORIGIN);
    assert.match(String(response.headers['access-control-expose-headers']), /x-try-it-proxy-error/);
    const body = response.json<{ error: { code: string; message: string } }>();
    assert.deepEqual(Object.keys(body), ['error']);
    assert.ok(PROXY_REFUSAL_CODES.includes(body.error.code as never));
    assert.ok(body.error.message.length > 20);
  });
});

describe('proxy page origins', () => {
  let hits = 0;
  let upstream: TestServer;
  before(async () => {
    upstream = await listen((req, res) => {
      hits += 1;
      echoHandler()(req, res);
    });
  });
  after(() => upstream.close());

  const withProxy = async (options: StartProxyOptions, run: (proxy: RunningProxy) => Promise<void>): Promise<void> => {
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(upstream.port), ...options });
    try {
      await run(proxy);
    } finally {
      await proxy.close();
    }
  };

  it('serves loopback pages by default and refuses other pages and origin-less requests, before any upstream contact', async () => {
    await withProxy({}, async (proxy) => {
      const path = `/${upstream.origin}/`;
      for (const origin of ['http://localhost:8000', 'http://127.0.0.1:5173', 'http://[::1]:3000', 'https://app.localhost']) {
        assert.equal((await viaProxy(proxy, path, { origin })).status, 200, origin);
      }
      const before = hits;
      for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', null]) {
        const response = await viaProxy(proxy, path, { origin });
        assert.equal(response.status, 403, String(origin));
        assert.equal(refusalCode(response), 'origin_not_allowed');
        // Readable by the refused page too, so it can say why; it holds nothing from the API.
        assert.equal(response.headers['access-control-allow-origin'], origin ?? '*');
      }
      assert.equal(hits, before, 'a refused origin reached the upstream');
    });
  });

  it('serves exactly the configured origins, normalised', async () => {
    await withProxy({ allowOrigins: ['https://Docs.Example.com:443/'] }, async (proxy) => {
      const path = `/${upstream.origin}/`;
      const ok = await viaProxy(proxy, path, { origin: 'https://docs.example.com' });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers['access-control-allow-origin'], 'https://docs.example.com');
      assert.equal(refusalCode(await viaProxy(proxy, path, { origin: 'http://docs.example.com' })), 'origin_not_allowed');
      assert.equal(refusalCode(await viaProxy(proxy, path)), 'origin_not_allowed');
    });
  });

  it('serves a page on its own origin, whose GET browsers send without Origin but with Sec-Fetch-Site: same-origin', async () => {
    // As a docs site that mounts the proxy on its own origin: Chromium sends a same-origin GET or HEAD without Origin.
    const ownOrigin = (proxy: { url: string }) => new URL(proxy.url).origin;
    const sameOrigin = { origin: null, headers: { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } };
    await withProxy({ allowOrigins: ['https://docs.example.com'] }, async (proxy) => {
      const path = `/${upstream.origin}/`;
      // Its own origin is not allowed: refused, saying whose page it is.
      const refused = await viaProxy(proxy, path, sameOrigin);
      assert.equal(refusalCode(refused), 'origin_not_allowed');
      assert.match(refused.json<{ error: { message: string } }>().error.message, new RegExp(`^Pages on this proxy's own origin \\(host ${new URL(proxy.url).host}\\), whose GET and HEAD requests browsers send without an Origin header, are not allowed`));
    });
    // Allowed once its own origin (known when it listens) is in the list.
    let own = '';
    await withProxy({ allowOrigins: (origin: string) => origin === own }, async (proxy) => {
      own = ownOrigin(proxy);
      const path = `/${upstream.origin}/`;
      for (const method of ['GET', 'HEAD']) {
        const response = await viaProxy(proxy, path, { ...sameOrigin, method });
        assert.equal(response.status, 200, method);
        assert.equal(refusalCode(response), undefined, method);
      }
      // Without the browser's word that the page is on this origin, an Origin-less request is still refused.
      assert.equal(refusalCode(await viaProxy(proxy, path, { origin: null })), 'origin_not_allowed');
      assert.equal(refusalCode(await viaProxy(proxy, path, { origin: null, headers: { 'sec-fetch-site': 'cross-site' } })), 'origin_not_allowed');
    });
  });

  it('serves any page, and origin-less requests, with "*"', async () => {
    await withProxy({ allowOrigins: '*' }, async (proxy) => {
      const path = `/${upstream.origin}/`;
      const page = await viaProxy(proxy, path, { origin: 'https://anywhere.example' });
      assert.equal(page.headers['access-control-allow-origin'], 'https://anywhere.example');
      const curl = await viaProxy(proxy, path, { origin: null });
      assert.equal(curl.status, 200);
      assert.equal(curl.headers['access-control-allow-origin'], '*');
    });
  });

  it('forwards cookies both ways only when asked to', async () => {
    await withProxy({ forwardCookies: true }, async (proxy) => {
      const response = await viaProxy(proxy, `/${upstream.origin}/`, { headers: { cookie: 'a=1' } });
      assert.equal(response.json<Echo>().headers['cookie'], 'a=1');
    });
  });
});

describe('proxy redirects handed to the page', () => {
  it('passes every 3xx to the page when maxRedirects is 0, its Location pointing back through the proxy in the request’s style', async () => {
    const setup = await proxyInFrontOf((_req, res) => res.writeHead(302, { location: '/elsewhere?a=1' }).end(), { maxRedirects: 0 });
    try {
      const landing = `${setup.upstream.origin}/elsewhere?a=1`;
      const prefix = await viaProxy(setup.proxy, `/${setup.upstream.origin}/start`);
      assert.equal(prefix.status, 302);
      // Relative, one `../` per segment of the request path, so it also holds for a proxy under a path prefix.
      assert.equal(prefix.headers['location'], `../../../${landing}`);
      const query = await viaProxy(setup.proxy, `/?url=${encodeURIComponent(`${setup.upstream.origin}/start`)}`);
      assert.equal(query.status, 302);
      assert.equal(query.headers['location'], `?url=${encodeURIComponent(landing)}`);
      // Other query parameters of the proxy URL stay, so a `corsProxy` template like `/?key=…&url={url}` keeps working.
      const template = await viaProxy(setup.proxy, `/?key=k1&url=${encodeURIComponent(`${setup.upstream.origin}/start`)}&x=2`);
      assert.equal(template.headers['location'], `?key=k1&url=${encodeURIComponent(landing)}&x=2`);
    } finally {
      await setup.close();
    }
  });

  it('hands a 307 after a streamed body to the page instead of replaying a body it did not keep', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(307, { location: 'http://127.0.0.1:1/never-followed' }).end());
    });
    try {
      const response = await viaProxy(setup.proxy, `/${setup.upstream.origin}/`, { method: 'POST', body: 'payload' });
      assert.equal(response.status, 307);
      // Another origin: marked so that the page's follow-up goes without credentials.
      assert.equal(response.headers['location'], '../../../try-it-proxy-credentials=omit/http://127.0.0.1:1/never-followed');
    } finally {
      await setup.close();
    }
  });

  it('lets the page follow a 307/308 after a body through the proxy, body and method kept, in both styles', async () => {
    const proxied: string[] = [];
    const setup = await proxyInFrontOf((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const status = url.searchParams.get('status');
      if (status) {
        req.resume();
        const location = url.searchParams.get('absolute') ? `http://127.0.0.1:${setup.upstream.port}/landing` : '/landing';
        req.on('end', () => res.writeHead(Number(status), { location }).end());
      } else {
        echoHandler()(req, res);
      }
    });
    setup.proxy.server.on('request', (req: { url: string }) => proxied.push(req.url));
    try {
      for (const status of [307, 308]) {
        for (const absolute of ['', '1']) {
          const start = `${setup.upstream.origin}/form?status=${status}&absolute=${absolute}`;
          for (const path of [`/${start}`, `/?url=${encodeURIComponent(start)}`, `/?${start}`]) {
            proxied.length = 0;
            // fetch follows redirects as a browser's does: the request the console makes.
            const response = await fetch(setup.proxy.url + path.slice(1), { method: 'POST', body: 'payload', headers: { origin: PAGE_ORIGIN } });
            const label = `${status} ${absolute ? 'absolute' : 'relative'} ${path}`;
            assert.equal(response.status, 200, label);
            assert.equal(response.headers.get('access-control-allow-origin'), PAGE_ORIGIN, label);
            const seen = (await response.json()) as Echo;
            assert.deepEqual([seen.method, seen.url, seen.bodyBytes], ['POST', '/landing', 'payload'.length], label);
            assert.equal(proxied.length, 2, `${label}: the follow-up did not come through the proxy (${proxied.join(', ')})`);
          }
        }
      }
    } finally {
      await setup.close();
    }
  });

  it('tells the console where a redirect the page followed through the proxy led, in both styles and with a prefix ending in "="', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      if (req.url!.startsWith('/form')) {
        req.resume();
        req.on('end', () => res.writeHead(307, { location: '/landing?x=1' }).end());
      } else {
        echoHandler()(req, res);
      }
    });
    try {
      for (const corsProxy of [setup.proxy.url, `${setup.proxy.url}?url={url}`, `${setup.proxy.url}?url=`, `${setup.proxy.url}?`]) {
        const engine = new RequestEngine({
          config: { corsProxy },
          pageOrigin: PAGE_ORIGIN,
          // A browser adds the page's Origin itself; Node's fetch stands in for it here.
          fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: PAGE_ORIGIN } }),
        });
        const response = await engine.send({ method: 'POST', url: `${setup.upstream.origin}/form`, body: 'payload' });
        assert.equal(response.status, 200, corsProxy);
        assert.equal(response.redirectedTo, `${setup.upstream.origin}/landing?x=1`, corsProxy);
      }
    } finally {
      await setup.close();
    }
  });

  it('leaves Location alone on responses that are not redirects', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { location: '/items/8' }).end());
    });
    try {
      const response = await viaProxy(setup.proxy, `/${setup.upstream.origin}/items`, { method: 'POST', body: '{}' });
      assert.equal(response.status, 201);
      assert.equal(response.headers['location'], '/items/8');
    } finally {
      await setup.close();
    }
  });

  it('hands a 301/302 after a streamed PUT, PATCH or DELETE body to the page instead of resending it empty', async () => {
    const seen: string[] = [];
    const setup = await proxyInFrontOf((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const status = new URL(req.url!, 'http://x').searchParams.get('status');
      if (status) {
        req.resume();
        req.on('end', () => res.writeHead(Number(status), { location: '/moved' }).end());
      } else {
        echoHandler()(req, res);
      }
    });
    try {
      for (const status of [301, 302]) {
        for (const method of ['PUT', 'PATCH', 'DELETE']) {
          seen.length = 0;
          const response = await viaProxy(setup.proxy, `/${setup.upstream.origin}/a?status=${status}`, { method, body: 'important payload' });
          assert.equal(response.status, status, `${method} after ${status}`);
          assert.equal(response.headers['location'], `../../../${setup.upstream.origin}/moved`);
          assert.deepEqual(seen, [`${method} /a?status=${status}`], `${method} after ${status} was followed`);
        }
      }
      // Without a body there is nothing to lose: the proxy follows, keeping the method.
      const bodiless = await viaProxy(setup.proxy, `/${setup.upstream.origin}/a?status=302`, { method: 'DELETE' });
      assert.equal(bodiless.json<Echo>().method, 'DELETE');
      assert.equal(bodiless.json<Echo>().url, '/moved');
    } finally {
      await setup.close();
    }
  });

  it('still follows 301, 302 and 303 after a POST, as a bodiless GET', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      const status = new URL(req.url!, 'http://x').searchParams.get('status');
      if (status) {
        req.resume();
        req.on('end', () => res.writeHead(Number(status), { location: '/result' }).end());
      } else {
        echoHandler()(req, res);
      }
    });
    try {
      for (const status of [301, 302, 303]) {
        const response = await viaProxy(setup.proxy, `/${setup.upstream.origin}/form?status=${status}`, { method: 'POST', body: 'a=1', headers: { 'content-type': 'text/plain' } });
        assert.equal(response.status, 200, `POST after ${status}`);
        const seen = response.json<Echo>();
        assert.deepEqual([seen.method, seen.url, seen.bodyBytes, seen.headers['content-type']], ['GET', '/result', 0, undefined], `POST after ${status}`);
      }
    } finally {
      await setup.close();
    }
  });

  it('turns a POST into a GET after 303, dropping the body headers', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      if (req.url === '/form') {
        req.resume();
        req.on('end', () => res.writeHead(303, { location: '/result' }).end());
      } else {
        echoHandler()(req, res);
      }
    });
    try {
      const response = await viaProxy(setup.proxy, `/${setup.upstream.origin}/form`, { method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const seen = response.json<Echo>();
      assert.equal(seen.method, 'GET');
      assert.equal(seen.url, '/result');
      assert.equal(seen.headers['content-type'], undefined);
    } finally {
      await setup.close();
    }
  });

  it('relays non-2xx statuses, reason phrases and HEAD responses as they are', async () => {
    const setup = await proxyInFrontOf((req, res) => {
      res.statusMessage = "I'm a teapot";
      res.writeHead(418, { 'content-type': 'text/plain', 'content-length': '5' });
      res.end(req.method === 'HEAD' ? undefined : 'short');
    });
    try {
      const get = await viaProxy(setup.proxy, `/${setup.upstream.origin}/`);
      assert.equal(get.status, 418);
      assert.equal(get.text, 'short');
      const head = await viaProxy(setup.proxy, `/${setup.upstream.origin}/`, { method: 'HEAD' });
      assert.equal(head.status, 418);
      assert.equal(head.headers['content-length'], '5');
      assert.equal(head.text, '');
    } finally {
      await setup.close();
    }
  });
});

describe('proxy options', () => {
  it('are validated up front, naming the field', () => {
    const cases: Array<[StartProxyOptions, string]> = [
      [{ maxRequestBytes: 0 }, 'maxRequestBytes'],
      [{ maxResponseBytes: 1.5 }, 'maxResponseBytes'],
      [{ timeout: -1 }, 'timeout'],
      [{ maxRedirects: -1 }, 'maxRedirects'],
      [{ allowOrigins: ['https://docs.example.com/path'] }, 'allowOrigins[0]'],
      [{ allowOrigins: ['docs.example.com'] }, 'allowOrigins[0]'],
      // A wildcard parses as a host, and would match no page: refused rather than silently useless.
      [{ allowOrigins: ['https://docs.example.com', 'https://*.example.com'] }, 'allowOrigins[1]'],
      [{ allowTargets: ['https://api.example.com'] }, 'allowTargets[0]'],
      [{ allowTargets: ['api.example.com:8443'] }, 'allowTargets[0]'],
      [{ allowPrivate: 'yes' as never }, 'allowPrivate'],
    ];
    for (const [options, field] of cases) {
      assert.throws(() => createProxyServer(options), (error: unknown) => error instanceof ConfigError && error.field === field, field);
    }
  });

  it('take allowTargets as host names only: a path, query, fragment or other URL part is refused, not dropped', () => {
    const entries = ['api.example.com#x', 'api.example.com/', 'api.example.com?', 'api.example.com/v1', 'api.example.com\\', 'api.example.com?a=1', '*.example.com/', ' api.example.com', 'api. example.com', 42 as never];
    for (const [i, entry] of entries.entries()) {
      assert.throws(
        () => createProxyServer({ allowTargets: ['ok.example.com', entry] }),
        (error: unknown) => error instanceof ConfigError && error.field === 'allowTargets[1]' && /must be a host name such as api\.example\.com/.test(error.message),
        `entry ${i}: ${JSON.stringify(entry)}`,
      );
    }
  });

  it('take a host with its final dot as the same host, in allowTargets and in a target, and refuse no_proxy\'s ".example.com" with the spelling to use', () => {
    const policy = new TargetPolicy(['api.example.org.', '*.example.net']);
    assert.equal(policy.description, 'api.example.org, *.example.net');
    for (const target of ['https://api.example.org/', 'https://api.example.org./', 'https://eu.example.net./x']) {
      assert.doesNotThrow(() => policy.check(new URL(target)), target);
    }
    assert.throws(() => policy.check(new URL('https://example.net./')), (error: unknown) => error instanceof ProxyRefusal && error.reason === 'target_not_allowed');
    assert.throws(
      () => createProxyServer({ allowTargets: ['.example.com'] }),
      (error: unknown) => error instanceof ConfigError && error.field === 'allowTargets[0]' && /: for the subdomains of example\.com, write \*\.example\.com, and example\.com for itself/.test(error.message),
    );
  });

  it('describe the target hosts as enforced, normalised, not as written', () => {
    const { summary } = new CorsProxy({ allowTargets: ['API.Example.COM', '*.Example.NET', 'api.example.com', 'bücher.example', '[0:0::1]'] });
    assert.equal(summary.targets, 'api.example.com, *.example.net, xn--bcher-kva.example, [::1]');
    assert.equal(new CorsProxy({ allowTargets: [] }).summary.targets, 'no hosts');
    assert.equal(new CorsProxy().summary.targets, 'any public host');
  });

  it('say when private addresses are open too, as --allow-private or a predicate opens them', () => {
    assert.equal(new CorsProxy({ allowPrivate: true }).summary.targets, 'any public host, and private addresses (not cloud metadata)');
    assert.equal(new CorsProxy({ allowTargets: ['api.example.com'], allowPrivate: () => true }).summary.targets, 'api.example.com, and the private addresses allowPrivate allows');
  });

  it('refuse a forwardCookies that is not a boolean, rather than take it as false', () => {
    for (const value of ['true', 1, 'yes', null, {}]) {
      assert.throws(
        () => createProxyServer({ forwardCookies: value as never }),
        (error: unknown) => error instanceof ConfigError && error.field === 'forwardCookies' && /must be true or false/.test(error.message),
        JSON.stringify(value),
      );
    }
    createProxyServer({ forwardCookies: true }).close();
    createProxyServer({ forwardCookies: false }).close();
  });

  it('refuse a misspelt or unknown option, naming it and the known ones, rather than keep the default silently', async () => {
    for (const misspelt of [{ allowOrigin: ['https://docs.example.com'] }, { allowedTargets: ['api.example.com'] }, { timeOut: 5 }]) {
      assert.throws(
        () => new CorsProxy(misspelt as never),
        (error: unknown) => error instanceof ConfigError && error.field === `proxy options.${Object.keys(misspelt)[0]}` && /known fields: allowOrigins, allowTargets, allowPrivate/.test(error.message),
        JSON.stringify(misspelt),
      );
    }
    // startProxy knows port and host as well, and checks before listening.
    await assert.rejects(startProxy({ prot: 0 } as never), (error: unknown) => error instanceof ConfigError && /proxy options\.prot.*port, host/.test(error.message));
    assert.throws(() => new CorsProxy([] as never), ConfigError);
    const running = await startProxy({ port: 0, host: '127.0.0.1', timeout: 1000 });
    await running.close();
  });

  it('has a browser build that fails loudly at import', async () => {
    await assert.rejects(import('../../src/proxy/not-in-browser.js'), /Node-only/);
  });
});
