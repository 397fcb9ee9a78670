// Shutting the proxy down while it relays: a streamed response (server-sent events, a long download) never ends
// by itself, so closing must cut it off instead of waiting for it; nor may a refused CONNECT connection hold it. Each
// test is bounded by its `timeout`: a close that waits for the stream fails the test instead of hanging the run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { CorsProxy } from '../../src/proxy/index.js';
import { PAGE_ORIGIN, allowOnlyLoopbackPort, listen, refusalCode, startTestProxy, viaProxy, type TestServer } from './proxy-support/servers.js';

const LIMIT_MS = 10_000;

/** An API that starts an event stream on `/events` and never ends it, and never answers `/hang`. */
class EndlessApi {
  readonly #opened: ServerResponse[] = [];
  #requestSeen: (() => void) | undefined;
  server!: TestServer;

  static async start(): Promise<EndlessApi> {
    const api = new EndlessApi();
    api.server = await listen((req, res) => {
      api.#opened.push(res);
      api.#requestSeen?.();
      if (req.url === '/events') res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: first\n\n');
    });
    return api;
  }

  /** Resolves when the next request reaches the API. */
  nextRequest(): Promise<void> {
    return new Promise((resolve) => (this.#requestSeen = resolve));
  }

  /** Resolves once every response the API began has been closed from the other side. */
  allClosed(): Promise<unknown> {
    return Promise.all(this.#opened.map((res) => (res.destroyed ? undefined : once(res, 'close'))));
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** Opens the event stream through the proxy at `proxyUrl`; resolves with the response once its first event arrived. */
async function openStream(proxyUrl: string, api: EndlessApi): Promise<IncomingMessage> {
  const request = get(`${proxyUrl}${api.server.origin}/events`, { headers: { origin: PAGE_ORIGIN } });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  assert.equal(response.statusCode, 200);
  await once(response, 'data');
  return response;
}

/** Resolves with how the page's response ended: `'cut off'` before its end, `'complete'` otherwise. */
function outcome(response: IncomingMessage): Promise<'cut off' | 'complete'> {
  return new Promise((resolve) => {
    response.on('data', () => undefined);
    response.once('end', () => resolve('complete'));
    response.once('aborted', () => resolve('cut off'));
    response.once('error', () => resolve('cut off'));
  });
}

describe('proxy shutdown', () => {
  it('startProxy().close() cuts off a response being streamed and resolves', { timeout: LIMIT_MS }, async () => {
    const api = await EndlessApi.start();
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.server.port) });
    try {
      const ended = outcome(await openStream(proxy.url, api));
      await proxy.close();
      assert.equal(await ended, 'cut off');
      await api.allClosed(); // the upstream connection was released too
      assert.equal(proxy.server.listening, false);
    } finally {
      await api.close();
    }
  });

  it('startProxy().close() cuts off a request still waiting for the API’s headers', { timeout: LIMIT_MS }, async () => {
    const api = await EndlessApi.start();
    const proxy = await startTestProxy({ allowPrivate: allowOnlyLoopbackPort(api.server.port) });
    try {
      const reached = api.nextRequest();
      const pending = viaProxy(proxy, `/${api.server.origin}/hang`);
      await reached;
      await proxy.close();
      await assert.rejects(pending);
      await api.allClosed();
    } finally {
      await api.close();
    }
  });

  it('startProxy().close() may be called again (a signal handler and an exit hook, say): every call resolves', { timeout: LIMIT_MS }, async () => {
    const proxy = await startTestProxy();
    const first = proxy.close();
    await Promise.all([first, proxy.close()]);
    await proxy.close();
  });

  it('CorsProxy.close() cuts off relays in a server of one’s own, so that server can close, and refuses later requests', { timeout: LIMIT_MS }, async () => {
    const api = await EndlessApi.start();
    const proxy = new CorsProxy({ allowPrivate: allowOnlyLoopbackPort(api.server.port) });
    const server = createServer(proxy.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const ended = outcome(await openStream(proxyUrl, api));
      await proxy.close();
      assert.equal(await ended, 'cut off');
      await api.allClosed();

      const later = await viaProxy({ url: proxyUrl }, `/${api.server.origin}/events`);
      assert.equal(later.status, 502);
      assert.equal(refusalCode(later), 'upstream_unreachable');
      assert.match(later.text, /shutting down/);
    } finally {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
    }
  });
});

/**
 * Sends CONNECT on a connection that stays open on the client's side after the proxy's answer (as a client that
 * half-closes nothing may), and resolves with the socket once the answer and the proxy's end of it have come.
 */
async function refusedConnect(port: number): Promise<{ socket: Socket; answer: string }> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.setTimeout(LIMIT_MS, () => socket.destroy()); // bounded, whatever the proxy does
  socket.on('error', () => undefined);
  socket.setEncoding('utf8');
  let answer = '';
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.write('CONNECT api.test:443 HTTP/1.1\r\nhost: api.test:443\r\n\r\n');
  await once(socket, 'end');
  return { socket, answer };
}

describe('proxy CONNECT connections', () => {
  it('closes its side of a refused CONNECT, so a client that keeps its own open holds no socket and close() resolves', { timeout: LIMIT_MS }, async () => {
    const proxy = await startTestProxy();
    const { socket, answer } = await refusedConnect(proxy.port);
    try {
      assert.match(answer, /^HTTP\/1\.1 405 /);
      const closing = proxy.close().then(() => 'closed');
      assert.equal(await Promise.race([closing, delay(5_000, 'still waiting for the CONNECT connection', { ref: false })]), 'closed');
    } finally {
      socket.destroy();
      await proxy.close();
    }
  });

  it('survives a client that resets a refused CONNECT connection (Node leaves errors on it unhandled)', { timeout: LIMIT_MS }, async () => {
    const proxy = await startTestProxy();
    try {
      const { socket } = await refusedConnect(proxy.port);
      socket.resetAndDestroy();
      await once(socket, 'close');
      const health = await fetch(proxy.url);
      assert.equal(health.status, 200);
      await health.text();
    } finally {
      await proxy.close();
    }
  });
});
