// The sender as an integrator meets it against real loopback receivers: signed deliveries keep the order they were
// sent in, a receiver that speaks only HTTP/2 (the package's own handler on node:http2, as the README shows it) is
// named as such with the dispatcher that reaches it, and a payload that cannot be serialised says why on one line.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createSecureServer, createServer as createHttp2Server, type Http2SecureServer, type Http2Server } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { describe, it } from 'node:test';
import { Agent, H2CClient } from 'undici';
import { ConfigError } from '../../src/core/errors.js';
import { WebhookChannel, createWebhookHandler, newMessage, verifySignature, type AttemptOutcome, type WebhookAttemptError, type WebhookBody } from '../../src/webhook/index.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './proxy-support/self-signed.js';
import { GUARD, invoice, recordingNotifier } from './webhook-support/notifier-harness.js';
import { failOnUnhandledRejections, settlesWithin } from './webhook-test-server.js';

failOnUnhandledRejections();

const SECRET = 'whsec_hunt3';

type AnyServer = Server | Http2Server | Http2SecureServer | TcpServer;

async function listen(server: AnyServer, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(server: AnyServer): Promise<void> {
  (server as Server).closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The package's own receiver, recording the `data` of every event it accepts, in the order they arrive. */
function recordingHandler(received: Array<Record<string, unknown>>) {
  return createWebhookHandler({ secret: SECRET, onEvent: (event: WebhookBody) => void received.push(event.data) });
}

/** One attempt of a fresh delivery through `channel`, which is closed afterwards. */
async function attemptOnce(channel: WebhookChannel): Promise<AttemptOutcome> {
  try {
    return await settlesWithin(channel.attempt(await channel.prepare(invoice, newMessage().event('invoice.paid').payload({ n: 1 }))), GUARD, 'the attempt');
  } finally {
    await channel.close();
  }
}

function failureOf(outcome: AttemptOutcome): WebhookAttemptError {
  assert.equal(outcome.ok, false);
  return (outcome as { error: WebhookAttemptError }).error;
}

describe('a signed channel with maxConcurrent: 1', () => {
  // Web Crypto signs on a pool of threads: a small body's signature is ready long before a large one's.
  const sizes = [16 * 1024 * 1024, 10, 10, 200_000, 10];

  it('delivers in the order the sends were made, a large body first included', async () => {
    const received: Array<Record<string, unknown>> = [];
    const server = createHttpServer(createWebhookHandler({ secret: SECRET, maxBodySize: 32 * 1024 * 1024, onEvent: (event: WebhookBody) => void received.push(event.data) }));
    const port = await listen(server);
    try {
      const { notifier, events } = recordingNotifier({ webhook: { url: `http://127.0.0.1:${port}/hooks`, secret: SECRET, maxConcurrent: 1 } }, { retry: { attempts: 1 } });
      const sends = sizes.map((size, n) => notifier.send({ type: 'order', id: n }, { via: () => ['webhook'], toWebhook: () => newMessage().event('order.updated').payload({ n, padding: 'x'.repeat(size) }) }));
      const results = (await settlesWithin(Promise.all(sends), GUARD, 'the sends')).flat();
      await notifier.close();
      assert.deepEqual(results.map((result) => result.ok), sizes.map(() => true));
      assert.deepEqual(received.map((data) => data.n), [0, 1, 2, 3, 4], 'the receiver got them in the order sent');
      assert.deepEqual(events.sent.map((event) => event.notifiable.id), [0, 1, 2, 3, 4]);
    } finally {
      await stop(server);
    }
  });

  it("prepare() resolves in the order it was called, each with its own body's signature", async () => {
    const channel = new WebhookChannel({ url: 'http://127.0.0.1:9/in', secret: SECRET }); // never sends: prepare() only
    const resolved: number[] = [];
    const prepared = await Promise.all(
      sizes.map((size, n) => channel.prepare({ type: 'order', id: n }, newMessage().event('order.updated').payload({ n, padding: 'x'.repeat(size) })).then((delivery) => (resolved.push(n), delivery))),
    );
    assert.deepEqual(resolved, [0, 1, 2, 3, 4]);
    for (const delivery of prepared) assert.equal(await verifySignature(delivery.body, delivery.headers['X-Signature'], SECRET), true);
  });
});

describe('a receiver that speaks only HTTP/2', () => {
  it('without TLS (node:http2 createServer): says it answered in HTTP/2, and the dispatcher it names delivers', async () => {
    const received: Array<Record<string, unknown>> = [];
    const server = createHttp2Server(recordingHandler(received));
    const port = await listen(server);
    try {
      const url = `http://127.0.0.1:${port}/hooks`;
      const error = failureOf(await attemptOnce(new WebhookChannel({ url, secret: SECRET })));
      assert.equal(error.kind, 'network');
      assert.match(error.message, /^POST http:\/\/127\.0\.0\.1:\d+\/hooks answered in HTTP\/2 without TLS \(h2c\), as node:http2's createServer does; this channel speaks HTTP\/1\.1\./);
      assert.match(error.message, /node:http's createServer/);
      assert.doesNotMatch(error.message, /could not be reached/, 'it was reached: it answered');
      assert.match(error.message, /dispatcher: new Agent\(\{ factory: \(origin\) => new H2CClient\(origin\) \}\) from undici\.$/);

      // The advice, followed as written. A dispatcher passed is the caller's to close: its session would hold the server.
      const advised = new Agent({ factory: (origin) => new H2CClient(origin) });
      try {
        const outcome = await attemptOnce(new WebhookChannel({ url, secret: SECRET, dispatcher: advised }));
        assert.deepEqual(outcome, { ok: true, status: 204 });
        assert.deepEqual(received, [{ n: 1 }]);
      } finally {
        await advised.close();
      }
    } finally {
      await stop(server);
    }
  });

  it('over TLS (createSecureServer without allowHTTP1): says it refused HTTP/1.1, on one line, and allowH2 delivers', async () => {
    const received: Array<Record<string, unknown>> = [];
    const server = createSecureServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, recordingHandler(received));
    const port = await listen(server);
    try {
      const url = `https://127.0.0.1:${port}/hooks`;
      const trusting = new Agent({ connect: { ca: SELF_SIGNED_CERT } });
      const advised = new Agent({ allowH2: true, connect: { ca: SELF_SIGNED_CERT } });
      try {
        const error = failureOf(await attemptOnce(new WebhookChannel({ url, secret: SECRET, dispatcher: trusting })));
        assert.equal(error.kind, 'network');
        assert.doesNotMatch(error.message, /\n/, "OpenSSL's message runs over lines; the failure's must not");
        assert.match(error.message, /refused HTTP\/1\.1 in the TLS handshake \(tlsv1 alert no application protocol, ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL\)/);
        assert.match(error.message, /allowHTTP1: true.*dispatcher: new Agent\(\{ allowH2: true \}\) from undici\.$/);

        const outcome = await attemptOnce(new WebhookChannel({ url, secret: SECRET, dispatcher: advised }));
        assert.deepEqual(outcome, { ok: true, status: 204 });
        assert.deepEqual(received, [{ n: 1 }]);
      } finally {
        await Promise.all([trusting.close(), advised.close()]);
      }
    } finally {
      await stop(server);
    }
  });
});

describe('a port that answers something else', () => {
  it('not HTTP at all (an SSH banner): says it answered, with something other than HTTP/1.1, rather than "could not be reached"', async () => {
    const server = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.resume();
      socket.write('SSH-2.0-OpenSSH_9.6\r\n');
    });
    const port = await listen(server);
    try {
      const error = failureOf(await attemptOnce(new WebhookChannel({ url: `http://127.0.0.1:${port}/hooks` })));
      assert.equal(error.kind, 'network');
      assert.match(error.message, /^POST http:\/\/127\.0\.0\.1:\d+\/hooks answered with something other than HTTP\/1\.1: .*Check that the url's port is the receiver's/);
      assert.doesNotMatch(error.message, /HTTP\/2/);
    } finally {
      await stop(server);
    }
  });

  it('TLS that this process will not speak (TLS 1.0 only): the handshake failure on one line, with its reason', async () => {
    const server = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT, minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' }, (_request, response) => response.end());
    server.on('tlsClientError', () => {});
    const port = await listen(server);
    try {
      const trusting = new Agent({ connect: { ca: SELF_SIGNED_CERT } });
      const error = failureOf(await attemptOnce(new WebhookChannel({ url: `https://127.0.0.1:${port}/hooks`, dispatcher: trusting })).finally(() => trusting.close()));
      assert.equal(error.kind, 'network');
      assert.doesNotMatch(error.message, /\n/);
      assert.doesNotMatch(error.message, /openssl\/ssl|rec_layer/, 'no OpenSSL source file');
      assert.match(error.message, /^POST https:\/\/127\.0\.0\.1:\d+\/hooks could not be reached: the TLS handshake failed \([a-z0-9 ]+, ERR_SSL_[A-Z0-9_]+\)\.$/);
    } finally {
      await stop(server);
    }
  });
});

describe('a payload that cannot be serialised', () => {
  const channel = new WebhookChannel({ url: 'http://127.0.0.1:9/in' }); // never sends: prepare() only
  const refusal = async (payload: unknown): Promise<ConfigError> => {
    const error = await channel.prepare(invoice, newMessage().event('invoice.paid').payload(payload as Record<string, unknown>)).then(
      () => assert.fail('prepare() resolved'),
      (thrown: unknown) => thrown,
    );
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  };

  it('a toJSON() that throws something other than an Error: says what it threw, not "undefined"', async () => {
    const error = await refusal({ invoice: { toJSON: () => { throw 'the database is closed'; } } });
    assert.match(error.message, /^Invalid message\.payload: must be JSON-serialisable \(serialising it threw "the database is closed", from a toJSON\(\) method or a getter in it\)/);
  });

  it('a cycle: named on one line', async () => {
    const order: Record<string, unknown> = { customer: { name: 'Ada' } };
    (order.customer as Record<string, unknown>).lastOrder = order;
    const error = await refusal(order);
    assert.doesNotMatch(error.message, /\n/);
    assert.match(error.message, /^Invalid message\.payload: must be JSON-serialisable \(Converting circular structure to JSON --> starting at object with constructor 'Object' \| property 'customer' -> object with constructor 'Object' --- property 'lastOrder' closes the circle\)/);
  });

  it('a boxed BigInt: refused at its path, as a BigInt is', async () => {
    const error = await refusal({ totals: [1, Object(10n)] });
    assert.equal(error.field, 'message.payload.totals[1]');
    assert.match(error.message, /is a boxed BigInt \(Object\(bigint\)\), which JSON cannot hold; send String\(value\)/);
  });
});
