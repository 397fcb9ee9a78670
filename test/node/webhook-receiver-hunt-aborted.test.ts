// createWebhookHandler given a request whose client went away before its whole body came: while the handler read it,
// or before the handler even ran (an earlier async middleware, an auth check, still waiting). Either way the handler
// settles and onError hears of the abort: never a promise that hangs (Koa's chain waiting forever), a 401 "does not
// match the body" for the part that came, or a ConfigError blaming a body parser. Real loopback servers only.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { settlesWithin } from './webhook-test-server.js';

/** How long a guard waits for what must happen; past it the test fails instead of hanging. */
const GUARD = 5_000;
const SIGNATURE = `sha256=${'0'.repeat(64)}`;

/** A handler that records what it tells: events, refusals and errors. */
function recordingHandler() {
  const told = { events: 0, refusals: [] as WebhookRefusal[], errors: [] as unknown[] };
  const handler = createWebhookHandler({
    secret: 'receiver-secret',
    onEvent: () => void told.events++,
    onRefused: (refusal) => void told.refusals.push(refusal),
    onError: (error) => void told.errors.push(error),
  });
  return { handler, told };
}

function assertToldAborted(told: ReturnType<typeof recordingHandler>['told']): void {
  assert.deepEqual(told.refusals, [], 'no refusal: nothing was refused, the client went away');
  assert.equal(told.events, 0);
  assert.equal(told.errors.length, 1);
  assert.ok(!(told.errors[0] instanceof ConfigError), `not a setup mistake: ${String(told.errors[0])}`);
  assert.match((told.errors[0] as Error).message, /aborted before its body arrived/);
}

describe('createWebhookHandler given an HTTP/1.1 request whose client went away', () => {
  it('settles, telling onError of the abort, when the client left before the handler ran (a slow middleware before it)', async () => {
    const { handler, told } = recordingHandler();
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let handled!: Promise<void>;
    let handlerRan!: () => void;
    const handlerCalled = new Promise<void>((resolve) => (handlerRan = resolve));
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      arrived();
      // The middleware before the handler outlasts the client.
      req.once('close', () => {
        handled = handler(req, res);
        handlerRan();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(`POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Signature: ${SIGNATURE}\r\n\r\n{"event":`);
      await settlesWithin(requestArrived, GUARD, 'the request');
      socket.destroy();
      await settlesWithin(handlerCalled, GUARD, 'the handler call');
      await settlesWithin(handled, GUARD, 'the handler settling');
      assertToldAborted(told);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('createWebhookHandler given an HTTP/2 request the client cancelled (RST_STREAM)', () => {
  /**
   * Sends the headers and part of a body, then resets the stream once the server has the request; `serve` decides
   * when the handler runs. Resolves once the handler has settled.
   */
  async function cancelMidBody(serve: (run: () => void, req: Http2ServerRequest) => void): Promise<ReturnType<typeof recordingHandler>['told']> {
    const { handler, told } = recordingHandler();
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let settled!: () => void;
    const handlerSettled = new Promise<void>((resolve) => (settled = resolve));
    const server = createHttp2Server((req: Http2ServerRequest, res: Http2ServerResponse) => {
      arrived();
      serve(() => void handler(req, res).then(settled), req);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    session.on('error', () => {});
    try {
      const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': SIGNATURE });
      stream.on('error', () => {});
      stream.write('{"event":');
      await settlesWithin(requestArrived, GUARD, 'the request');
      // destroy() resets the stream without ending it first (close() would send END_STREAM, then the reset).
      stream.destroy();
      await settlesWithin(handlerSettled, GUARD, 'the handler settling');
      return told;
    } finally {
      session.destroy();
      server.close();
    }
  }

  it('tells onError of the abort when it came while the handler read the body, rather than refuse the part that came 401', async () => {
    assertToldAborted(await cancelMidBody((run) => run()));
  });

  it('tells onError of the abort when it came before the handler ran, rather than blame a body parser that read the body first', async () => {
    // The compatibility API ends a cancelled request, so that, a turn after its close, it looks read by someone else.
    assertToldAborted(await cancelMidBody((run, req) => req.once('close', () => setImmediate(run))));
  });
});
