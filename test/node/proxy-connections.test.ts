// How the proxy's HTTP server treats its connections, as clients on the internet use them: a page that goes away
// mid-request, one that speaks TLS to the plain-HTTP port, and idle keep-alive connections with createProxyServer.
// Every server is on loopback.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { connect as connectTls } from 'node:tls';
import { ConfigError } from '../../src/core/errors.js';
import { createProxyServer, type ProxyRefusalRecord } from '../../src/proxy/index.js';
import { startCli } from './proxy-support/cli-process.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, rawExchange, startTestProxy, type TestServer } from './proxy-support/servers.js';

/** Connections open on `server`'s side. */
function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** Polls `condition` every 20 ms, at most `attempts` times; true when it held. */
async function eventually(condition: () => Promise<boolean>, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await condition()) return true;
    await delay(20);
  }
  return condition();
}

describe('proxy: a page that goes away', () => {
  it('cancels the request to the API at once when the page closes its connection (Cancel, or the page left)', async () => {
    let apiRequestClosed = false;
    let apiGotRequest = false;
    // Holds its answer: only the page going away ends the exchange.
    const api = await listen((request, response) => {
      apiGotRequest = true;
      response.once('close', () => (apiRequestClosed = !response.writableFinished));
    });
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.port) });
    const page = connect(proxy.port, '127.0.0.1');
    try {
      page.write(`GET /${api.origin}/slow HTTP/1.1\r\nhost: proxy\r\norigin: ${PAGE_ORIGIN}\r\n\r\n`);
      assert.ok(await eventually(async () => apiGotRequest), 'the API never got the request');
      page.destroy();
      assert.ok(await eventually(async () => apiRequestClosed), 'the request to the API was still open after the page went away');
      assert.ok(await eventually(async () => (await openConnections(proxy.server)) === 0), 'a connection is still open on the proxy');
    } finally {
      page.destroy();
      await proxy.close();
      await api.close();
    }
  });
});

describe('proxy: TLS sent to the plain-HTTP port', () => {
  /** Starts a TLS handshake on `port`, as a client given an https:// URL does; resolves once the connection is over. */
  async function tlsHandshake(port: number): Promise<string | undefined> {
    const socket = connectTls({ port, host: '127.0.0.1', servername: 'localhost' });
    socket.setTimeout(10_000, () => socket.destroy()); // bounded, whatever the proxy does
    let code: string | undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => (code = error.code));
    await new Promise((resolve) => socket.once('close', resolve));
    return code;
  }

  it('tells onRefusal it was TLS on a plain-HTTP port, with what to do, not that the method is unknown', async () => {
    const records: ProxyRefusalRecord[] = [];
    const proxy = await startTestProxy({ onRefusal: (record) => records.push(record) });
    try {
      // The client's TLS library cannot read the HTTP answer (OpenSSL 3: "wrong version number", the usual sign of this mistake).
      assert.match(String(await tlsHandshake(proxy.port)), /^ERR_SSL_/);
      assert.equal(records.length, 1, JSON.stringify(records));
      const [{ message, ...record }] = records as [ProxyRefusalRecord];
      assert.deepEqual(record, { code: 'tls_on_plain_port', status: 400, method: undefined, origin: undefined, target: undefined });
      assert.match(message!, /^A client started a TLS handshake \(it used an https:\/\/ URL\) on this proxy's port, which speaks plain HTTP only\./);
      assert.match(message!, /put a TLS-terminating reverse proxy or your platform's HTTPS in front of the proxy/);
      // A method Node does not know is still one.
      const { received } = await rawExchange(proxy.port, 'FOO / HTTP/1.1\r\nhost: proxy\r\n\r\n');
      assert.match(received, /\r\nx-try-it-proxy-error: method_not_allowed\r\n/i);
      assert.deepEqual(records.slice(1), [{ code: 'method_not_allowed', status: 405, method: undefined, origin: undefined, target: undefined }]);
    } finally {
      await proxy.close();
    }
  });

  it('try-it-proxy logs it with the message, on stderr', async () => {
    const cli = await startCli(['--port', '0']);
    try {
      await tlsHandshake(cli.port);
      const [line] = await cli.logLines(1);
      const { time, ...logged } = JSON.parse(line!) as { time: string; message?: string };
      assert.equal(typeof time, 'string');
      assert.deepEqual({ ...logged, message: undefined }, { event: 'refused', code: 'tls_on_plain_port', status: 400, message: undefined });
      assert.match(logged.message!, /TLS handshake .* plain HTTP only/);
    } finally {
      await cli.stop();
    }
  });
});

describe('createProxyServer keepAliveTimeout', () => {
  it('keeps idle connections as long as asked, raising Node’s header and request timeouts to outlast it, as startProxy does', async () => {
    const server = createProxyServer({ keepAliveTimeout: 65_000 });
    assert.equal(server.keepAliveTimeout, 65_000);
    assert.ok(server.headersTimeout > 65_000, String(server.headersTimeout));
    assert.ok(server.requestTimeout >= server.headersTimeout, String(server.requestTimeout));
    server.close();

    // Short, and used: under Node's 5 s default the connection would still be open when the exchange gives up.
    const short = createProxyServer({ keepAliveTimeout: 300 });
    short.listen(0, '127.0.0.1');
    await once(short, 'listening');
    try {
      const { received, closedByServer } = await rawExchange((short.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nhost: proxy\r\n\r\n', { end: false, limitMs: 4_000 });
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.ok(closedByServer, 'the idle connection was kept open');
    } finally {
      short.closeAllConnections();
      short.close();
    }
  });

  it('refuses a keepAliveTimeout that is not a whole number of milliseconds a timer can wait, naming it', () => {
    for (const value of [0, -1, 1.5, '65000', 2 ** 31, Number.NaN]) {
      assert.throws(
        () => createProxyServer({ keepAliveTimeout: value as number }),
        (error: unknown) => error instanceof ConfigError && error.field === 'keepAliveTimeout' && /^Invalid keepAliveTimeout: must be/.test(error.message),
        String(value),
      );
    }
  });

  it('still refuses startProxy’s own fields and misspelt ones, naming keepAliveTimeout among the known fields', () => {
    for (const field of ['port', 'host', 'keepAlive']) {
      assert.throws(
        () => createProxyServer({ [field]: 1 } as never),
        (error: unknown) => error instanceof ConfigError && error.field === `proxy options.${field}` && /known fields: .*onRefusal, keepAliveTimeout \(got 1\)\.$/.test(error.message),
        field,
      );
    }
  });
});
