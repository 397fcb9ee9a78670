// Attempts that fail before any answer, against real loopback servers: each message says what to do next. A refused
// certificate is not retried by default (no retry changes it), but a shouldRetry of yours still decides.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { WebhookChannel, newMessage, type AttemptOutcome, type WebhookAttemptError } from '../../src/webhook/index.js';
import { SELF_SIGNED_CERT, SELF_SIGNED_KEY } from './proxy-support/self-signed.js';
import { GUARD, invoice, invoicePaid, recordingNotifier } from './webhook-support/notifier-harness.js';
import { failOnUnhandledRejections, settlesWithin } from './webhook-test-server.js';

failOnUnhandledRejections();

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** One attempt of a fresh delivery through `channel`, which is closed afterwards. */
async function attemptOnce(channel: WebhookChannel): Promise<AttemptOutcome> {
  try {
    return await settlesWithin(channel.attempt(await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}))), GUARD, 'the attempt');
  } finally {
    await channel.close();
  }
}

const failureOf = (outcome: AttemptOutcome): WebhookAttemptError => {
  assert.equal(outcome.ok, false);
  return (outcome as { error: WebhookAttemptError }).error;
};

describe('a receiver whose TLS certificate this process refuses', () => {
  let tlsPort: number;
  const tlsServer = createHttpsServer({ key: SELF_SIGNED_KEY, cert: SELF_SIGNED_CERT }, (request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  before(async () => {
    tlsPort = await listen(tlsServer);
  });
  after(() => stop(tlsServer));

  it('a self-signed one: a failure of kind certificate naming the dispatcher that trusts it, not retried by default', async () => {
    const { notifier, events } = recordingNotifier({ webhook: { url: `https://127.0.0.1:${tlsPort}/hooks`, secret: 'whsec' } }, { retry: { attempts: 5, minDelay: 1, maxDelay: 1 } });
    const [result] = await settlesWithin(notifier.send(invoice, invoicePaid), GUARD, 'the send');
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 1, 'no retry changes a certificate');
    const cause = result!.error!.cause as WebhookAttemptError;
    assert.equal(cause.kind, 'certificate');
    assert.equal(cause.code, 'ERR_WEBHOOK_CERTIFICATE');
    assert.match(
      cause.message,
      /^POST https:\/\/127\.0\.0\.1:\d+\/hooks could not be reached: its TLS certificate was refused: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)\. This process does not trust who issued it: for a self-signed certificate or one of a private CA, pass dispatcher: new Agent\(\{ connect: \{ ca: readFileSync\('receiver-ca\.pem'\) \} \}\) from undici \(or set NODE_EXTRA_CA_CERTS\); .* Retrying does not change who issued it: by default this failure is not retried, unless your shouldRetry says so\.$/,
    );
    assert.equal(events.attempt[0]!.retryIn, undefined);
  });

  it('is retried when a shouldRetry of yours says so', async () => {
    const { notifier } = recordingNotifier({ webhook: { url: `https://127.0.0.1:${tlsPort}/hooks` } }, { retry: { attempts: 3, minDelay: 1, maxDelay: 1, shouldRetry: () => true } });
    const [result] = await settlesWithin(notifier.send(invoice, invoicePaid), GUARD, 'the send');
    await notifier.close();
    assert.equal(result!.attempts, 3);
  });

  it('is delivered through the dispatcher the message names, given the certificate', async () => {
    const dispatcher = new Agent({ connect: { ca: SELF_SIGNED_CERT } });
    try {
      const outcome = await attemptOnce(new WebhookChannel({ url: `https://127.0.0.1:${tlsPort}/hooks`, dispatcher }));
      assert.deepEqual(outcome, { ok: true, status: 204 });
    } finally {
      await dispatcher.close();
    }
  });

  it('one for another host name: says to use a name the certificate covers, a network failure retried (one node of many may be wrong)', async () => {
    const dispatcher = new Agent({ connect: { ca: SELF_SIGNED_CERT, servername: 'hooks.example.com' } });
    try {
      const failure = failureOf(await attemptOnce(new WebhookChannel({ url: `https://127.0.0.1:${tlsPort}/hooks`, dispatcher })));
      assert.equal(failure.kind, 'network');
      assert.match(failure.message, /its TLS certificate was refused: .*\(ERR_TLS_CERT_ALTNAME_INVALID\)\. It is for another host name: use a url with a name the certificate covers\.$/);
    } finally {
      await dispatcher.close();
    }
  });

  it('asked over http://: asks whether the url should start with https://, as nothing came back at all', async () => {
    const failure = failureOf(await attemptOnce(new WebhookChannel({ url: `http://127.0.0.1:${tlsPort}/hooks` })));
    assert.equal(failure.kind, 'network');
    assert.match(
      failure.message,
      /^POST http:\/\/127\.0\.0\.1:\d+\/hooks closed the connection without answering: other side closed \(UND_ERR_SOCKET\)\. Not a byte came back on that connection, as when the port speaks only HTTPS: if so, the url should start with https:\/\/\.$/,
    );
  });
});

describe('a connection that fails another way', () => {
  it('https:// to a port that speaks plain HTTP: says the port did not answer in TLS, and to use http://', async () => {
    const server = createHttpServer((_request, response) => response.writeHead(204).end());
    const port = await listen(server);
    try {
      const failure = failureOf(await attemptOnce(new WebhookChannel({ url: `https://127.0.0.1:${port}/hooks` })));
      assert.equal(failure.kind, 'network');
      assert.match(failure.message, /^POST https:\/\/127\.0\.0\.1:\d+\/hooks could not be reached: the port did not answer in TLS \(.+, ERR_SSL_\w+\); if it speaks plain HTTP, the url should start with http:\/\/\.$/);
    } finally {
      await stop(server);
    }
  });

  it('a receiver that drops a connection it answered on before: no word of https://, which would mislead', async () => {
    let requests = 0;
    const connections: unknown[] = [];
    const server = createHttpServer((request, response) => {
      requests += 1;
      if (!connections.includes(request.socket)) connections.push(request.socket);
      request.resume();
      if (requests === 1) request.on('end', () => response.writeHead(204).end());
      else request.socket.destroy();
    });
    const port = await listen(server);
    const channel = new WebhookChannel({ url: `http://127.0.0.1:${port}/hooks` });
    try {
      const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
      assert.equal((await settlesWithin(channel.attempt(delivery), GUARD, 'the first attempt')).ok, true);
      // undici reuses a connection a turn of the event loop after its response.
      await new Promise((resolve) => setTimeout(resolve, 10));
      const failure = failureOf(await settlesWithin(channel.attempt(delivery), GUARD, 'the second attempt'));
      assert.equal(failure.kind, 'network');
      assert.match(failure.message, /^POST http:\/\/127\.0\.0\.1:\d+\/hooks closed the connection without answering: .*\.$/);
      assert.ok(!failure.message.includes('https://'), failure.message);
      assert.equal(connections.length, 1, 'the second request went on the connection the first was answered on');
    } finally {
      await channel.close();
      await stop(server);
    }
  });
});
