// A redirect from https to http: refused, whoever would follow it (the proxy, or the page through the proxy), as a
// browser refuses it on an https page; the proxy trusts the test API's self-signed certificate through
// NODE_EXTRA_CA_CERTS, so it runs as try-it-proxy in a child process. Every server is on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli, type RunningCli } from './proxy-support/cli-process.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './proxy-support/self-signed.js';
import { PAGE_ORIGIN, listen, refusalCode, viaProxy, type TestServer } from './proxy-support/servers.js';

/** `/redirect?status=…&to=<url>` redirects (after reading the body); anything else answers with its method, path and body size. */
function redirectingHandler(reached: string[]): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    let bodyBytes = 0;
    request.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
    request.on('end', () => {
      const url = new URL(request.url!, 'http://api.invalid');
      if (url.pathname === '/redirect') {
        response.writeHead(Number(url.searchParams.get('status')), { location: url.searchParams.get('to')! }).end();
        return;
      }
      reached.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, url: request.url, bodyBytes }));
    });
  };
}

describe('proxy: a redirect from https to http', () => {
  const reachedOverHttp: string[] = [];
  let plain: TestServer;
  let secure: HttpsServer;
  let secureOrigin: string;
  let certificateFolder: string;
  let following: RunningCli;
  let handingOn: RunningCli;

  before(async () => {
    plain = await listen(redirectingHandler(reachedOverHttp));
    secure = createHttpsServer({ cert: SELF_SIGNED_CERT, key: SELF_SIGNED_KEY }, redirectingHandler([]));
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    secureOrigin = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
    certificateFolder = mkdtempSync(join(tmpdir(), 'try-it-proxy-ca-'));
    const certificateFile = join(certificateFolder, 'ca.pem');
    writeFileSync(certificateFile, SELF_SIGNED_CERT);
    const env = { NODE_EXTRA_CA_CERTS: certificateFile };
    [following, handingOn] = await Promise.all([startCli(['--port', '0', '--allow-private'], env), startCli(['--port', '0', '--allow-private', '--max-redirects', '0'], env)]);
  });
  after(async () => {
    await Promise.all([following?.stop(), handingOn?.stop()]);
    await plain?.close();
    secure?.closeAllConnections();
    await new Promise<void>((resolve) => (secure ? secure.close(() => resolve()) : resolve()));
    if (certificateFolder) rmSync(certificateFolder, { recursive: true, force: true });
  });

  const redirect = (from: string, status: number, to: string): string => `${from}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it('follows redirects that stay on https, and from http to https (the certificate is trusted: the refusal below is the downgrade’s)', async () => {
    const withinHttps = await viaProxy(following, `/${redirect(secureOrigin, 302, `${secureOrigin}/landing`)}`);
    assert.equal(withinHttps.status, 200);
    assert.equal(withinHttps.json<{ url: string }>().url, '/landing');
    const upgrade = await viaProxy(following, `/${redirect(plain.origin, 301, `${secureOrigin}/upgraded`)}`);
    assert.equal(upgrade.status, 200);
    assert.equal(upgrade.json<{ url: string }>().url, '/upgraded');
  });

  it('refuses to follow it with insecure_redirect, naming both origins and the fix, and never reaches the http URL', async () => {
    const before = reachedOverHttp.length;
    const response = await viaProxy(following, `/${redirect(secureOrigin, 302, `${plain.origin}/landing?api_key=k`)}`, { headers: { authorization: 'Bearer t' } });
    assert.equal(response.status, 502);
    assert.equal(refusalCode(response), 'insecure_redirect');
    assert.equal(
      response.json<{ error: { message: string } }>().error.message,
      `${secureOrigin} redirected to ${plain.origin}, plain HTTP: this proxy does not follow a redirect from https to http, which would send the request and bring its response back unencrypted (browsers refuse it on https pages too). Have the API redirect to https://; to call the http:// URL anyway, send the request to that URL.`,
    );
    assert.equal(reachedOverHttp.length, before, 'the http URL was reached');
    const [line] = await following.logLines(1);
    const { time, ...logged } = JSON.parse(line!) as { time: string };
    assert.ok(time);
    assert.deepEqual(logged, { event: 'refused', code: 'insecure_redirect', status: 502, method: 'GET', origin: PAGE_ORIGIN, target: secureOrigin });
  });

  it('refuses it after a redirect that stayed on https, and however the http URL is written', async () => {
    const before = reachedOverHttp.length;
    const chained = await viaProxy(following, `/${redirect(secureOrigin, 307, redirect(secureOrigin, 308, `${plain.origin}/landing`))}`);
    assert.equal(refusalCode(chained), 'insecure_redirect');
    const capitals = await viaProxy(following, `/${redirect(secureOrigin, 303, `HTTP://${new URL(plain.origin).host}/landing`)}`, { method: 'POST', body: '{}' });
    assert.equal(refusalCode(capitals), 'insecure_redirect');
    assert.equal(reachedOverHttp.length, before, 'the http URL was reached');
  });

  /** Sends through the proxy with Node's fetch, which follows a redirect handed to it as a browser's fetch does. */
  async function fetchThrough(proxy: RunningCli, target: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${proxy.url}${target}`, { ...init, headers: { origin: PAGE_ORIGIN } });
  }

  it('refuses it where it would otherwise hand it to the page, whose fetch would follow it through the proxy at once: a 307 after a body, and with --max-redirects 0', async () => {
    const before = reachedOverHttp.length;
    // The body was streamed, not kept: the proxy hands a 307 after one to the page, whose fetch resends the body.
    const withBody = await fetchThrough(following, redirect(secureOrigin, 307, `${plain.origin}/upload`), { method: 'PUT', body: 'secret body' });
    assert.equal(withBody.status, 502);
    assert.equal(withBody.headers.get('x-try-it-proxy-error'), 'insecure_redirect');
    const handedOn = await fetchThrough(handingOn, redirect(secureOrigin, 302, `${plain.origin}/landing`));
    assert.equal(handedOn.status, 502);
    assert.equal(handedOn.headers.get('x-try-it-proxy-error'), 'insecure_redirect');
    assert.equal(reachedOverHttp.length, before, `the http URL was reached: ${reachedOverHttp.slice(before).join(', ')}`);
    // Within https, --max-redirects 0 still hands the redirect on, and the page's fetch follows it through the proxy.
    const within = await fetchThrough(handingOn, redirect(secureOrigin, 302, `${secureOrigin}/landing`));
    assert.equal(within.status, 200);
    assert.equal(((await within.json()) as { url: string }).url, '/landing');
  });
});
