// Loopback servers for the browser tests, started with the test runner: an API on a second origin that
// sends no CORS headers, the real CORS proxy (from the build) in front of it, and the address of a port
// nothing listens on, a second proxy with the production defaults (no private targets) and a third with a small
// response cap; and an API on a third origin that does send CORS headers, for what fails past them. Tests read
// their addresses from /__test-servers.json.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { closedPort } from '../../closed-port.mjs';

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

const HOSTILE = '<img src=x onerror="window.__pwned = true"><script>window.__pwned = true</script></style><a href="javascript:window.__pwned=true">x</a>';

const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A 5 MB JSON document, built once. */
let bigJson;
function bigJsonBody() {
  bigJson ??= JSON.stringify(Array.from({ length: 40_000 }, (_, id) => ({ id, name: `pet ${id}`, tags: ['a', 'b', 'c'], note: 'x'.repeat(80) })));
  return bigJson;
}

/** Responses for the response panel's tests, by path: what a page may read of them, and bodies that are not what they say. */
const PANEL_RESPONSES = {
  // CORS for any page, with no Access-Control-Expose-Headers: a page reading it directly sees the safelisted headers only.
  '/panel/cors': () => [{ 'access-control-allow-origin': '*', 'content-type': 'text/plain', 'x-ratelimit-remaining': '5', 'set-cookie': 'a=b' }, 'hi'],
  '/panel/text-as-png': () => [{ 'content-type': 'image/png' }, 'this is not a png at all'],
  '/panel/svg-as-png': () => [{ 'content-type': 'image/png' }, '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = true"><script>window.__pwned = true</script></svg>'],
  '/panel/bytes-as-png': () => [{ 'content-type': 'image/png' }, Buffer.from([0, 1, 2, 3, 255, 254, 0, 7])],
  // A valid one-pixel PNG with 300 KB after its end, which decoders ignore: longer than the console shows as text.
  '/panel/large.png': () => [{ 'content-type': 'image/png' }, Buffer.concat([ONE_PIXEL_PNG, Buffer.alloc(300 * 1024)])],
  '/panel/256k-and-1': () => [{ 'content-type': 'text/plain' }, 'a'.repeat(256 * 1024 + 1)],
  '/panel/gzip': () => {
    const json = JSON.stringify(Array.from({ length: 2000 }, (_, id) => ({ id, name: `pet ${id}` })));
    return [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(json)];
  },
  '/panel/disposition': () => [{ 'content-type': 'application/octet-stream', 'content-disposition': `attachment; filename="../../evil.sh"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf` }, 'data'],
  '/panel/disposition-quoted': () => [{ 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="..\\\\dir\\\\a;b \\"c\\".txt"' }, 'data'],
  // Not UTF-8 in filename*: filename is taken instead.
  '/panel/disposition-fallback': () => [{ 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''%FF.pdf; filename="plan.pdf"` }, 'data'],
  '/panel/disposition-control': () => [{ 'content-type': 'text/plain', 'content-disposition': `attachment; filename*=UTF-8''dir%2Fa%01b%7F.txt` }, 'data'],
  // Binary data longer than the console would show as text.
  '/panel/300k-binary': () => [{ 'content-type': 'application/octet-stream' }, Buffer.alloc(300 * 1024)],
};

/** Responses for the response panel's tests that set their own status or never end, by path. */
const PANEL_STREAMS = {
  // Server-sent events: two arrive at once, then the stream stays open, as event streams do.
  '/panel/events-forever': (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write('data: one\n\ndata: two\n\n');
  },
  // No reason phrase, as HTTP/2 and some servers answer.
  '/panel/no-reason': (response) => {
    response.writeHead(200, '', { 'content-type': 'text/plain' });
    response.end('x');
  },
  // A reason phrase and header values in UTF-8, as many servers send them (Node writes a string's characters as bytes).
  '/panel/utf8-bytes': (response) => {
    const bytes = (text) => Buffer.from(text, 'utf8').toString('latin1');
    response.writeHead(201, bytes('Créé'), { 'content-type': 'text/plain', 'x-message': bytes('café ✓'), 'content-disposition': bytes('attachment; filename="résumé.txt"') });
    response.end('x');
  },
};

/** A small API, deliberately without CORS headers: a page on another origin cannot read it directly. */
function createApi() {
  return createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const panel = PANEL_RESPONSES[request.url];
      if (panel) {
        const [headers, body] = panel();
        response.writeHead(200, { ...headers, 'content-length': Buffer.byteLength(body) });
        response.end(body);
      } else if (request.url === '/hostile') {
        response.writeHead(200, { 'content-type': 'application/json', 'x-hostile': HOSTILE });
        response.end(JSON.stringify({ html: HOSTILE }));
      } else if (request.url === '/hostile-text') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(HOSTILE);
      } else if (request.url === '/image') {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(ONE_PIXEL_PNG);
      } else if (request.url === '/binary') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]));
      } else if (request.url === '/precise') {
        // Values JSON.parse would change: an integer past 2^53, a trailing zero, a repeated key.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":12345678901234567890,"price":1.10,"tag":"a","tag":"b"}');
      } else if (request.url === '/redirect-me') {
        response.writeHead(302, { location: '/landed' }).end();
      } else if (request.url.split('?')[0] === '/redirect-keep') {
        // A redirect that keeps the query, adding to it: the URL it leads to holds what the request sent (an api_key).
        const query = request.url.slice('/redirect-keep'.length);
        response.writeHead(302, { location: `/landed${query ? `${query}&` : '?'}x=1` }).end();
      } else if (request.url === '/stream-256k') {
        // No declared length: a proxy learns the size only as the bytes pass.
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 4; i += 1) response.write(Buffer.alloc(64 * 1024, 0x61));
        response.end();
      } else if (request.url.split('?')[0] === '/challenge') {
        response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="api"', 'x-after': 'z' });
        response.end('who are you?');
      } else if (request.url.startsWith('/forbidden')) {
        // Any query: a key in the URL the API refuses.
        response.writeHead(403, { 'content-type': 'application/json' });
        response.end('{"error":"forbidden"}');
      } else if (request.url === '/script') {
        // Script with the API's own policy: the proxy adds its sandboxing policy after it.
        response.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': "default-src 'none'" });
        response.end('window.__pwned = true;');
      } else if (request.url === '/mirror') {
        // The body sent, as plain text: a text of the test's making in the response panel.
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(body);
      } else if (request.url === '/no-content') {
        response.writeHead(204).end();
      } else if (request.url === '/slow') {
        // Answers after 4 s, without CORS headers as every answer here: a slow API the page cannot read.
        const timer = setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('slow'), 4_000);
        response.on('close', () => clearTimeout(timer));
      } else if (request.url === '/hold') {
        // Never answers: a send in flight for as long as a test needs, which the test cancels.
      } else if (request.url === '/big-json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(bigJsonBody());
      } else if (request.url === '/deep-json') {
        // 30 KB nested 15,000 levels deep: indented level by level, 450 million characters.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`${'['.repeat(15_000)}1${']'.repeat(15_000)}`);
      } else if (PANEL_STREAMS[request.url]) {
        PANEL_STREAMS[request.url](response);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
      }
    });
  });
}

/**
 * An API that lets any page read its responses to simple requests. Its preflight answer allows no request headers,
 * so a request with one of its own is refused; its redirects lead where CORS or a loop stop the browser.
 */
function createCorsApi(apiWithoutCors) {
  const cors = { 'access-control-allow-origin': '*' };
  // Event streams a test writes to, by id: GET /stream?id=… opens one (&type=… its Content-Type), /stream-push?id=…&text=…
  // writes to it (&encoding=latin1 or utf16le the bytes of the text, UTF-8 otherwise; &repeat=N the text N times; &end=1 ends it).
  const streams = new Map();
  return createServer((request, response) => {
    const url = new URL(request.url, 'http://cors-api');
    const id = url.searchParams.get('id');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
    } else if (url.pathname === '/stream') {
      response.writeHead(200, { ...cors, 'content-type': url.searchParams.get('type') ?? 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      streams.set(id, response);
      response.on('close', () => streams.delete(id));
    } else if (url.pathname === '/stream-push') {
      const stream = streams.get(id);
      if (!stream) return void response.writeHead(404, cors).end(`no stream ${id} is open`);
      const part = Buffer.from(url.searchParams.get('text') ?? '', url.searchParams.get('encoding') ?? 'utf8');
      stream.write(Buffer.concat(Array.from({ length: Number(url.searchParams.get('repeat') ?? 1) }, () => part)));
      if (url.searchParams.has('end')) stream.end();
      response.writeHead(204, cors).end();
    } else if (url.pathname === '/expose-all') {
      // Every header readable by the page (`*`, &also=… listed after it), as an API may expose them; &headers=N adds N more.
      const more = Object.fromEntries(Array.from({ length: Number(url.searchParams.get('headers') ?? 0) }, (_, n) => [`x-header-${n}`, `value ${n}`]));
      const exposed = ['*', ...url.searchParams.getAll('also')].join(', ');
      response.writeHead(200, { ...cors, 'access-control-expose-headers': exposed, 'x-ratelimit-remaining': '5', 'content-type': 'text/plain', ...more }).end('ok');
    } else if (url.pathname === '/to-api') {
      response.writeHead(302, { ...cors, location: `${apiWithoutCors}/pets` }).end();
    } else if (url.pathname === '/loop') {
      response.writeHead(302, { ...cors, location: '/loop' }).end();
    } else if (url.pathname === '/cut') {
      // 100 bytes of a declared 1,000, then the connection drops.
      response.writeHead(200, { ...cors, 'content-type': 'text/plain', 'content-length': '1000' });
      response.write('x'.repeat(100), () => setTimeout(() => response.destroy(), 50));
    } else if (url.pathname === '/mislabelled-gzip') {
      // Labelled gzip, sent plain: the browser cannot decode it, and reports it as it reports a broken connection.
      response.writeHead(200, { ...cors, 'access-control-expose-headers': 'content-encoding', 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end('{"pets": []}');
    } else if (url.pathname === '/drip') {
      // One byte every 100 ms for 2 s: longer than a short console timeout, with no pause as long.
      response.writeHead(200, { ...cors, 'content-type': 'text/plain' });
      let sent = 0;
      const timer = setInterval(() => {
        response.write('y');
        if (++sent === 20) {
          clearInterval(timer);
          response.end();
        }
      }, 100);
      response.on('close', () => clearInterval(timer));
    } else if (url.pathname === '/bytes') {
      // The body and Content-Type the test asks for: /bytes?type=…&hex=….
      response.writeHead(200, { ...cors, 'content-type': url.searchParams.get('type') });
      response.end(Buffer.from(url.searchParams.get('hex'), 'hex'));
    } else if (url.pathname === '/error-without-cors') {
      // A HEAD is answered with CORS headers, a GET with an error that has none, as many default error handlers do.
      if (request.method === 'HEAD') response.writeHead(200, cors).end();
      else response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
    } else if (url.pathname === '/disposition') {
      // A download named as the test asks (/disposition?name=…), in a header the page may read.
      const disposition = `attachment; filename="${url.searchParams.get('name')}"`;
      response.writeHead(200, { ...cors, 'access-control-expose-headers': 'content-disposition', 'content-type': 'text/plain', 'content-disposition': disposition }).end('data');
    } else if (url.pathname === '/51m-binary') {
      // More than the proxy relays (50 MiB) and than the console keeps for download.
      response.writeHead(200, { ...cors, 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(51 << 20));
    } else {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url }));
    }
  });
}

/** The proxy the test pages' own origin serves (see `ownOriginProxyMiddleware`), made when the servers start. */
let ownOriginProxy;

/**
 * The proxy on the test pages' own origin too, under /__proxy/, as a docs site may serve it: the pages' GET and HEAD
 * then reach it without an Origin header, as browsers send them. A middleware, to run before the dev server's files.
 */
export function ownOriginProxyMiddleware() {
  return async (context, next) => {
    if (!context.path.startsWith('/__proxy/') || !ownOriginProxy) return next();
    context.respond = false;
    context.req.url = context.req.url.slice('/__proxy'.length);
    ownOriginProxy.handle(context.req, context.res);
  };
}

export function testServersPlugin() {
  const servers = [];
  let addresses;
  return {
    name: 'try-it-test-servers',
    async serverStart() {
      const { CorsProxy, startProxy } = await import('../../../dist/proxy/index.js').catch(() => {
        throw new Error('dist/proxy is missing: run `npm run build` before the browser tests (npm test does).');
      });
      const api = createApi();
      servers.push(api);
      const closed = `http://127.0.0.1:${await closedPort()}`;
      const proxy = await startProxy({ port: 0, allowPrivate: true, allowOrigins: 'loopback' });
      servers.push(proxy.server);
      // As deployed on the internet: loopback and private targets are refused.
      const strictProxy = await startProxy({ port: 0, allowOrigins: 'loopback' });
      servers.push(strictProxy.server);
      // A proxy that relays at most 100 KB: a longer undeclared body is cut off mid-stream.
      const cappedProxy = await startProxy({ port: 0, allowPrivate: true, allowOrigins: 'loopback', maxResponseBytes: 100_000 });
      servers.push(cappedProxy.server);
      const apiUrl = await listen(api);
      const corsApi = createCorsApi(apiUrl);
      servers.push(corsApi);
      addresses = { api: apiUrl, corsApi: await listen(corsApi), proxy: proxy.url, strictProxy: strictProxy.url, cappedProxy: cappedProxy.url, closed };
      ownOriginProxy = new CorsProxy({ allowPrivate: true });
    },
    async serverStop() {
      await ownOriginProxy?.close();
      ownOriginProxy = undefined;
      await Promise.all(servers.map((server) => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); })));
    },
    serve(context) {
      if (context.path === '/__test-servers.json') return { body: JSON.stringify(addresses), type: 'json' };
    },
  };
}
