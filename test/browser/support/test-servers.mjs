// Loopback servers for the browser tests, started with the test runner: an API on a second origin that
// sends no CORS headers, the real CORS proxy (from the build) in front of it, and the address of a port
// nothing listens on, a second proxy with the production defaults (no private targets) and a third with a small
// response cap. Tests read their addresses from /__test-servers.json.
import { createServer } from 'node:http';

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

/** A small API, deliberately without CORS headers: a page on another origin cannot read it directly. */
function createApi() {
  return createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.url === '/hostile') {
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
      } else if (request.url === '/stream-256k') {
        // No declared length: a proxy learns the size only as the bytes pass.
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let i = 0; i < 4; i += 1) response.write(Buffer.alloc(64 * 1024, 0x61));
        response.end();
      } else if (request.url === '/challenge') {
        response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="api"', 'x-after': 'z' });
        response.end('who are you?');
      } else if (request.url === '/script') {
        // Script with the API's own policy: the proxy adds its sandboxing policy after it.
        response.writeHead(200, { 'content-type': 'text/javascript', 'content-security-policy': "default-src 'none'" });
        response.end('window.__pwned = true;');
      } else if (request.url === '/no-content') {
        response.writeHead(204).end();
      } else if (request.url === '/hold') {
        // Never answers: a send in flight for as long as a test needs, which the test cancels.
      } else if (request.url === '/big-json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(bigJsonBody());
      } else if (request.url === '/deep-json') {
        // 30 KB nested 15,000 levels deep: indented level by level, 450 million characters.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`${'['.repeat(15_000)}1${']'.repeat(15_000)}`);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
      }
    });
  });
}

export function testServersPlugin() {
  const servers = [];
  let addresses;
  return {
    name: 'try-it-test-servers',
    async serverStart() {
      const { startProxy } = await import('../../../dist/proxy/index.js').catch(() => {
        throw new Error('dist/proxy is missing: run `npm run build` before the browser tests (npm test does).');
      });
      const api = createApi();
      servers.push(api);
      const closedServer = createServer();
      const closed = await listen(closedServer);
      await new Promise((resolve) => closedServer.close(resolve));
      const proxy = await startProxy({ port: 0, allowPrivate: true, allowOrigins: 'loopback' });
      servers.push(proxy.server);
      // As deployed on the internet: loopback and private targets are refused.
      const strictProxy = await startProxy({ port: 0, allowOrigins: 'loopback' });
      servers.push(strictProxy.server);
      // A proxy that relays at most 100 KB: a longer undeclared body is cut off mid-stream.
      const cappedProxy = await startProxy({ port: 0, allowPrivate: true, allowOrigins: 'loopback', maxResponseBytes: 100_000 });
      servers.push(cappedProxy.server);
      addresses = { api: await listen(api), proxy: proxy.url, strictProxy: strictProxy.url, cappedProxy: cappedProxy.url, closed };
    },
    async serverStop() {
      await Promise.all(servers.map((server) => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); })));
    },
    serve(context) {
      if (context.path === '/__test-servers.json') return { body: JSON.stringify(addresses), type: 'json' };
    },
  };
}
