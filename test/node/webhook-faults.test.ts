import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { Agent, interceptors, type Dispatcher } from 'undici';
import { ConfigError, WebhookDeliveryError } from '../../src/core/errors.js';
import {
  Notifier,
  WebhookAttemptError,
  WebhookChannel,
  newMessage,
  type ListenerErrorEvent,
  type NotifierOptions,
  type SentEvent,
  type WebhookChannelConfig,
  type WebhookNotification,
} from '../../src/webhook/index.js';
import { GUARD, recordingNotifier } from './webhook-support/notifier-harness.js';
import { WEBHOOK_MODULE, failOnUnhandledRejections, runInOwnProcess, serversClosedAfterEachTest, settlesWithin, startTestServer, type Responder, type TestServer } from './webhook-test-server.js';

const SECRET = 'fault-secret';
const quickRetry = { attempts: 3, minDelay: 1, maxDelay: 5, maxRetryAfter: 5 };

const notification = (id = 'n1'): WebhookNotification => ({
  via: () => ['webhook'],
  toWebhook: () => newMessage().event('invoice.paid').payload({ idempotency_key: id, amount: 1999 }),
});

failOnUnhandledRejections();

/** A notifier with one channel, signed with SECRET, and its events recorded. */
function harness(config: WebhookChannelConfig, options: NotifierOptions = { retry: quickRetry }) {
  return recordingNotifier({ webhook: config }, options, { channelDefaults: { secret: SECRET } });
}

/** Every request the server got carried the same body bytes and a correct, identical signature. */
function assertIdenticalSignedBodies(server: TestServer, count: number) {
  assert.equal(server.requests.length, count);
  const [first] = server.requests;
  for (const received of server.requests) {
    assert.ok(received.body.equals(first!.body), 'same body bytes on every attempt');
    assert.equal(received.headers['x-signature'], first!.headers['x-signature']);
  }
  assert.equal(first!.headers['x-signature'], `sha256=${createHmac('sha256', SECRET).update(first!.body).digest('hex')}`);
}

describe('webhook faults', () => {
  const serve = serversClosedAfterEachTest();

  it('500 every time: retried as configured, then reported failed with status, attempts and cause', async () => {
    const server = await serve((res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom'));
    const { notifier, events } = harness({ url: `${server.url}/in` });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();

    assert.equal(result!.ok, false);
    assert.equal(result!.status, 500);
    assert.equal(result!.attempts, 3);
    assert.ok(result!.error instanceof WebhookDeliveryError);
    assert.equal(result!.error.status, 500);
    assert.equal(result!.error.attempts, 3);
    assert.ok(result!.error.cause instanceof WebhookAttemptError);
    assert.equal((result!.error.cause as WebhookAttemptError).kind, 'status');
    assert.match(result!.error.message, /invoice\.paid.*failed after 3 attempts.*POST http:\/\/127\.0\.0\.1:\d+\/in answered 500/);
    assertIdenticalSignedBodies(server, 3);

    assert.deepEqual(events.attempt.map((e) => [e.attempt, e.ok, e.status, e.retryIn !== undefined]), [[1, false, 500, true], [2, false, 500, true], [3, false, 500, false]]);
    assert.equal(events.sent.length, 0);
    assert.equal(events.failed.length, 1);
    assert.equal(events.failed[0]!.error, result!.error);
    assert.equal(events.failed[0]!.body, server.requests[0]!.body.toString('utf8'), 'the failed event hands back the exact body');
  });

  it('500 then 200: succeeds on the retry with the same bytes', async () => {
    const server = await serve((res, _r, i) => res.writeHead(i < 2 ? 503 : 200).end());
    const { notifier, events } = harness({ url: server.url });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.deepEqual(result, { channel: 'webhook', ok: true, status: 200, attempts: 3 });
    assertIdenticalSignedBodies(server, 3);
    assert.deepEqual(events.sent.map((e) => [e.status, e.attempts]), [[200, 3]]);
    assert.equal(events.failed.length, 0);
  });

  it('stops early when shouldRetry says so (410 Gone)', async () => {
    const server = await serve((res) => res.writeHead(410).end());
    const { notifier } = harness({ url: server.url }, { retry: { ...quickRetry, attempts: 5, shouldRetry: (f) => f.status !== 410 } });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 1);
    assert.equal(result!.status, 410);
    assert.equal(server.requests.length, 1);
  });

  it('429 with Retry-After: waits as told, within minDelay and maxRetryAfter', async () => {
    const server = await serve((res, _r, i) => {
      if (i === 0) res.writeHead(429, { 'Retry-After': '0' }).end();
      else if (i === 1) res.writeHead(429, { 'Retry-After': '3600' }).end();
      else res.writeHead(202).end();
    });
    const { notifier, events } = harness({ url: server.url }, { retry: { attempts: 4, minDelay: 1, maxDelay: 2, maxRetryAfter: 7 } });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.deepEqual(result, { channel: 'webhook', ok: true, status: 202, attempts: 3 });
    // Retry-After 0 still waits minDelay (no tight loop); an hour is capped at maxRetryAfter.
    assert.deepEqual(events.attempt.map((e) => e.retryIn), [1, 7, undefined]);
    assertIdenticalSignedBodies(server, 3);
  });

  for (const status of [301, 302, 307, 308]) {
    it(`${status} redirect: a failure, and the second server is never reached`, async () => {
      const elsewhere = await serve((res) => res.writeHead(200).end());
      const server = await serve((res) => res.writeHead(status, { Location: `${elsewhere.url}/stolen` }).end());
      const { notifier, events } = harness({ url: server.url });
      const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
      await notifier.close();
      assert.equal(result!.ok, false);
      assert.equal(result!.status, status);
      assert.equal(result!.attempts, 3, '3xx counts as a failed attempt and is retried like any other');
      assert.equal((result!.error!.cause as WebhookAttemptError).kind, 'redirect');
      assert.match(result!.error!.message, /redirects are not followed/);
      assert.equal(elsewhere.requests.length, 0);
      assert.equal(events.failed.length, 1);
    });
  }

  for (const status of [301, 302, 307, 308]) {
    it(`${status} redirect through a dispatcher of yours with undici's redirect interceptor: still not followed`, async () => {
      const elsewhere = await serve((res) => res.writeHead(204).end());
      const server = await serve((res) => res.writeHead(status, { Location: `${elsewhere.url}/stolen` }).end());
      const agent = new Agent();
      const following = agent.compose(interceptors.redirect({ maxRedirections: 3 }));
      try {
        const { notifier } = harness({ url: server.url, dispatcher: following }, { retry: { ...quickRetry, attempts: 1 } });
        const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
        await notifier.close();
        assert.equal(elsewhere.requests.length, 0, 'the signed payload never reaches the host in Location');
        assert.equal(result!.ok, false);
        assert.equal(result!.status, status);
        assert.equal((result!.error!.cause as WebhookAttemptError).kind, 'redirect');
        assert.equal(server.requests.length, 1);
      } finally {
        await agent.close();
      }
    });
  }

  /** An undici Agent whose request() throws before it starts, as a faulty wrapper of yours might. */
  class ThrowingAgent extends Agent {
    override request(): never {
      throw new TypeError('wrapper bug: cannot read options');
    }
  }

  it('a dispatcher that throws while starting an attempt: a network failure, retried and reported, never a rejection', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const agent = new ThrowingAgent();
    try {
      const { notifier, events } = harness({ url: `${server.url}/in`, dispatcher: agent as Dispatcher });
      const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
      await notifier.close();
      assert.equal(result!.ok, false);
      assert.equal(result!.attempts, 3);
      const cause = result!.error!.cause as WebhookAttemptError;
      assert.equal(cause.kind, 'network');
      assert.match(cause.message, /^POST http:\/\/127\.0\.0\.1:\d+\/in was not sent: the dispatcher threw wrapper bug: cannot read options\.$/);
      assert.deepEqual(events.attempt.map((e) => e.error?.kind), ['network', 'network', 'network']);
      assert.equal(events.failed.length, 1);
      assert.equal(server.requests.length, 0);
    } finally {
      await agent.close();
    }
  });

  it("a dispatcher that throws while starting an attempt leaves no timer holding the process for the attempt's timeout", async () => {
    const script = `
      import { Agent } from 'undici';
      import { Notifier, WebhookChannel, newMessage } from ${WEBHOOK_MODULE};
      class ThrowingAgent extends Agent { request() { throw new TypeError('wrapper bug'); } }
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: 'http://127.0.0.1:9/in', timeout: 600000, dispatcher: new ThrowingAgent() }));
      try {
        const [result] = await notifier.send({ type: 'invoice', id: 7 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('e').payload({}) });
        console.log('resolved ' + result.error.cause.kind);
      } catch (error) {
        console.log('rejected ' + error);
      }`;
    const { code, stdout, stderr } = await runInOwnProcess(script, 'the process exiting by itself, long before the 600 s timeout');
    assert.equal(stdout.trim(), 'resolved network');
    assert.equal(code, 0, stderr);
  });

  it('a shouldRetry that answers with a Promise: not retried, and the failure says why', async () => {
    const server = await serve((res) => res.writeHead(500).end());
    // Not an async function, which is refused when the notifier is made: a plain one that returns a Promise.
    const lookups: Array<(failure: { status?: number }) => boolean> = [(f) => Promise.resolve(f.status !== 410) as never, () => Promise.reject(new Error('lookup failed')) as never];
    for (const shouldRetry of lookups) {
      const { notifier, events } = harness({ url: server.url }, { retry: { ...quickRetry, attempts: 5, shouldRetry } });
      const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
      await notifier.close();
      assert.equal(result!.ok, false);
      assert.equal(result!.attempts, 1, 'a Promise is not read as "retry"');
      assert.match(result!.error!.message, /answered 500\. Not retried: Invalid retry\.shouldRetry: must answer true or false synchronously.* \(got a Promise\)\.$/);
      assert.equal(events.failed.length, 1);
    }
    assert.equal(server.requests.length, 2);
  });

  it('a shouldRetry that throws: not retried, and the failure says what it threw', async () => {
    const server = await serve((_res, _r, _i, req) => req.socket.resetAndDestroy());
    // Written for status failures alone: a network failure has no status.
    const final = new Set(['400', '410']);
    const shouldRetry = (f: { status?: number }) => !final.has(f.status!.toString());
    const { notifier, events } = harness({ url: server.url }, { retry: { ...quickRetry, attempts: 5, shouldRetry } });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 1);
    // It was reached: the server took the request, then reset the connection.
    assert.match(result!.error!.message, /closed the connection without answering: .*\. Not retried: retry\.shouldRetry threw TypeError: Cannot read properties of undefined \(reading 'toString'\); fix it to answer for every kind of failure\.$/);
    assert.equal(events.failed[0]!.error, result!.error);
  });

  it('a 3xx without a Location: a failure of kind redirect whose message claims no redirect', async () => {
    const server = await serve((res, _r, i) => res.writeHead([304, 300][i]!).end());
    const { notifier, events } = harness({ url: `${server.url}/in` }, { retry: { ...quickRetry, attempts: 2 } });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.attempts, 2);
    assert.deepEqual(events.attempt.map((e) => [e.status, e.error!.kind]), [[304, 'redirect'], [300, 'redirect']]);
    for (const [event, status] of [[events.attempt[0]!, 304], [events.attempt[1]!, 300]] as const) {
      assert.match(event.error!.message, new RegExp(`^POST http://127\\.0\\.0\\.1:\\d+/in answered ${status}, a 3xx without a Location; only a 2xx is success\\.$`));
    }
  });

  it('a receiver that hangs past the timeout: each attempt times out, then failure is reported', async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const { notifier, events } = harness({ url: server.url, timeout: 60 }, { retry: { ...quickRetry, attempts: 2 } });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 2);
    assert.equal(result!.status, undefined);
    assert.equal((result!.error!.cause as WebhookAttemptError).kind, 'timeout');
    assert.match(result!.error!.message, /did not answer within 60 ms/);
    assertIdenticalSignedBodies(server, 2);
    assert.deepEqual(events.attempt.map((e) => e.error?.kind), ['timeout', 'timeout']);
  });

  it('a receiver that resets the connection: network failures, retried, reported', async () => {
    const server = await serve((_res, _r, _i, req) => req.socket.resetAndDestroy());
    const { notifier } = harness({ url: server.url });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 3);
    assert.equal((result!.error!.cause as WebhookAttemptError).kind, 'network');
    assertIdenticalSignedBodies(server, 3);
  });

  it('a reset, then success', async () => {
    const server = await serve((res, _r, i, req) => (i === 0 ? req.socket.resetAndDestroy() : res.writeHead(204).end()));
    const { notifier } = harness({ url: server.url });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.deepEqual(result, { channel: 'webhook', ok: true, status: 204, attempts: 2 });
    assertIdenticalSignedBodies(server, 2);
  });

  /** Answers `status`, then dribbles up to 4 MiB in 16 KiB chunks until the client goes away. */
  const slowLargeBody = (status: number): Responder => (res) => {
    res.writeHead(status, { 'Content-Type': 'application/octet-stream' });
    let sent = 0;
    const chunk = Buffer.alloc(16 * 1024, 120);
    const timer = setInterval(() => {
      if (res.destroyed || sent >= 256) {
        clearInterval(timer);
        res.end();
        return;
      }
      res.write(chunk);
      sent += 1;
    }, 2);
    res.on('close', () => clearInterval(timer));
  };

  it('a slow, large 200 body: success as soon as the status arrives; the body is dropped after a small cap', async () => {
    const server = await serve(slowLargeBody(200));
    const { notifier } = harness({ url: server.url, timeout: 10_000 });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.deepEqual(result, { channel: 'webhook', ok: true, status: 200, attempts: 1 });
  });

  it('a slow, large 500 body: retried and reported like any 500', async () => {
    const server = await serve(slowLargeBody(500));
    const { notifier } = harness({ url: server.url, timeout: 10_000 });
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification());
    await notifier.close();
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 3);
    assert.equal(result!.status, 500);
    assertIdenticalSignedBodies(server, 3);
  });

  it('several hundred deliveries against a receiver failing a random third: none lost', async () => {
    const total = 300;
    const accepted = new Set<string>();
    const server = await serve((res, received, _i, req) => {
      const roll = Math.random();
      if (roll < 1 / 9) return req.socket.resetAndDestroy();
      if (roll < 2 / 9) return res.writeHead(503, { 'Retry-After': '0' }).end();
      if (roll < 3 / 9) return res.writeHead(500).end('nope');
      accepted.add(JSON.parse(received.body.toString()).data.idempotency_key);
      res.writeHead(204).end();
    });
    // 15 attempts: the chance that any of 300 deliveries fails them all is about 300 / 3^15, under 1 in 40,000.
    const { notifier, events } = harness({ url: server.url }, { retry: { attempts: 15, minDelay: 1, maxDelay: 5, maxRetryAfter: 5 } });
    const sends = Array.from({ length: total }, (_, i) => notifier.send({ type: 'invoice', id: i }, notification(`key-${i}`)));
    const results = (await Promise.all(sends)).flat();
    await notifier.close();

    assert.equal(results.length, total);
    const delivered = results.filter((r) => r.ok).length;
    assert.equal(delivered + events.failed.length, total, 'every delivery ends delivered or reported failed');
    assert.equal(delivered, total);
    assert.equal(accepted.size, total);
    assert.equal(events.sent.length, total);
    assert.ok(server.requests.length > total, 'some deliveries needed retries');
  });
});

describe('notifier bookkeeping', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((res, received) => (received.url === '/fail' ? res.writeHead(500).end() : setTimeout(() => res.writeHead(204).end(), 20)));
  });
  after(() => server.close());

  it('reports an unregistered channel name in the results and as a failed event, without throwing', async () => {
    const { notifier, events } = harness({ url: server.url });
    const results = await notifier.send({ type: 'user', id: 1 }, { ...notification(), via: () => ['webhook', 'sms'] });
    await notifier.close();
    assert.deepEqual(results.map((r) => [r.channel, r.ok, r.attempts]), [['webhook', true, 1], ['sms', false, 0]]);
    assert.ok(results[1]!.error instanceof WebhookDeliveryError);
    assert.match(results[1]!.error.message, /No channel is registered as "sms" \(registered: "webhook"\)/);
    assert.deepEqual(events.failed.map((e) => e.channel), ['sms']);
  });

  it('reports a message that cannot be built: toWebhook throws, no event name, unserialisable payload, bad notifiable', async () => {
    const { notifier, events } = harness({ url: server.url });
    const requestsBefore = server.requests.length;
    const cases: Array<[WebhookNotification, { type: string; id: number }, RegExp]> = [
      [{ via: () => ['webhook'], toWebhook: () => { throw new Error('template missing'); } }, { type: 'user', id: 1 }, /template missing/],
      [{ via: () => ['webhook'], toWebhook: () => newMessage().payload({ a: 1 }) }, { type: 'user', id: 1 }, /message\.event/],
      [{ via: () => ['webhook'], toWebhook: () => newMessage().event('x').payload({ big: 10n }) }, { type: 'user', id: 1 }, /message\.payload\.big: is a BigInt/],
      [{ via: () => ['webhook'], toWebhook: () => ({}) as never }, { type: 'user', id: 1 }, /newMessage/],
      [notification(), { type: '', id: 1 }, /notifiable\.type/],
    ];
    for (const [n, notifiable, message] of cases) {
      const [result] = await notifier.send(notifiable, n);
      assert.equal(result!.ok, false);
      assert.equal(result!.attempts, 0);
      assert.match(result!.error!.message, message);
    }
    await notifier.close();
    assert.equal(events.failed.length, cases.length);
    assert.equal(server.requests.length, requestsBefore, 'nothing was sent');
  });

  it('close() waits for deliveries in flight', async () => {
    const { notifier, events } = harness({ url: server.url });
    const pending = notifier.send({ type: 'user', id: 1 }, notification());
    await notifier.close();
    assert.equal(events.sent.length, 1, 'the delivery finished before close() resolved');
    assert.deepEqual(await pending, [{ channel: 'webhook', ok: true, status: 204, attempts: 1 }]);
  });

  it('close({ timeout }) hands back deliveries still waiting to retry, as failures with their body', async () => {
    const { notifier, events } = harness({ url: `${server.url}/fail` }, { retry: { attempts: 5, minDelay: 600_000, maxDelay: 600_000 } });
    const firstAttempt = new Promise<void>((resolve) => notifier.on('attempt', () => resolve()));
    const pending = notifier.send({ type: 'user', id: 1 }, notification());
    await firstAttempt;
    await notifier.close({ timeout: 0 });
    const [result] = await pending;
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 1);
    assert.match(result!.error!.message, /closed before the next retry/);
    assert.equal(events.failed.length, 1);
    assert.equal(JSON.parse(events.failed[0]!.body!).data.idempotency_key, 'n1');
  });

  it('refuses a close timeout that a timer cannot hold, or misspelt, and stays open', async () => {
    const { notifier, events } = harness({ url: server.url });
    for (const timeout of [2 ** 31, 3e9, Number.POSITIVE_INFINITY, -1, Number.NaN, '10' as never]) {
      await assert.rejects(notifier.close({ timeout }), (error: unknown) => error instanceof ConfigError && error.field === 'close timeout', String(timeout));
    }
    // Misspelt, the timeout would be no timeout: close() would wait for every retry.
    await assert.rejects(notifier.close({ timout: 0 } as never), (error: unknown) => error instanceof ConfigError && error.field === 'close options.timout' && /known fields: timeout/.test(error.message));
    await assert.rejects(notifier.close(null as never), (error: unknown) => error instanceof ConfigError && error.field === 'close options');
    const [result] = await notifier.send({ type: 'user', id: 1 }, notification());
    assert.equal(result!.ok, true, 'the notifier still sends');
    assert.equal(events.sent.length, 1);
    await notifier.close({ timeout: 2 ** 31 - 1 });
  });

  it('after close(), sends are reported failed, not thrown', async () => {
    const { notifier, events } = harness({ url: server.url });
    await notifier.close();
    const [result] = await notifier.send({ type: 'user', id: 1 }, notification());
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 0);
    assert.match(result!.error!.message, /closed/);
    assert.equal(events.failed.length, 1);
  });

  it('refuses listeners for unknown events', () => {
    const notifier = new Notifier();
    assert.throws(() => notifier.on('delivered' as never, () => {}), /attempt.*sent.*failed/);
    assert.throws(() => notifier.on('sent', 'log' as never), /must be a function/);
  });

  it('off() refuses an unknown event name as on() does, names on Object.prototype included, and removes a listener', async () => {
    const notifier = new Notifier();
    for (const name of ['delivered', 'toString', '__proto__', 'constructor']) {
      for (const call of [() => notifier.on(name as never, () => {}), () => notifier.off(name as never, () => {})]) {
        assert.throws(call, (error: unknown) => error instanceof ConfigError && error.field === 'event name' && /must be "attempt", "sent", "failed" or "error"/.test(error.message), name);
      }
    }
    const sent: SentEvent[] = [];
    const listener = (event: SentEvent) => sent.push(event);
    notifier.registerChannel('webhook', new WebhookChannel({ url: server.url }));
    notifier.on('sent', listener).off('sent', listener).off('sent', () => {});
    await notifier.send({ type: 'user', id: 1 }, notification());
    await notifier.close();
    assert.equal(sent.length, 0);
  });

  it('calls a listener added during an event from the next event on, as EventEmitter does', async () => {
    const { notifier } = harness({ url: server.url });
    let calls = 0;
    const addsAnother = () => {
      calls += 1;
      // Bounded: were new listeners called for the event that added them, this would go on forever.
      if (calls < 50) notifier.on('sent', () => addsAnother());
    };
    notifier.on('sent', addsAnother);
    await notifier.send({ type: 'user', id: 1 }, notification());
    assert.equal(calls, 1, 'the listener added during the first sent event is not called for it');
    await notifier.send({ type: 'user', id: 2 }, notification());
    assert.equal(calls, 3, 'both are called for the second');
    await notifier.close();
  });

  it('refuses Notifier and retry options it does not know, or of the wrong type, with ConfigError naming the field', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [null, 'Notifier options', /must be an object \(got null\)/],
      ['retry', 'Notifier options', /must be an object/],
      [{ retries: { attempts: 1 } }, 'Notifier options.retries', /is not a known field; known fields: retry \(got an object\)/],
      [{ retry: 1 }, 'retry', /must be an object \(got 1\)/],
      [{ retry: null }, 'retry', /must be an object \(got null\)/],
      [{ retry: { maxAttempts: 1 } }, 'retry.maxAttempts', /is not a known field; known fields: attempts, minDelay, maxDelay, jitter, maxRetryAfter, shouldRetry \(got 1\)/],
    ];
    for (const [options, field, message] of cases) {
      assert.throws(() => new Notifier(options as never), (error: unknown) => error instanceof ConfigError && error.field === field && message.test(error.message), field);
    }
    assert.equal(new Notifier({ retry: undefined }).retry.attempts, 5);
  });

  it('rejects a send whose notification is not an object or has no via(), with ConfigError, before anything is sent', async () => {
    const { notifier, events } = harness({ url: server.url });
    const requestsBefore = server.requests.length;
    const cases: Array<[unknown, string]> = [
      [null, 'notification'],
      [undefined, 'notification'],
      [{ toWebhook: notification().toWebhook }, 'notification.via'],
      [{ via: ['webhook'], toWebhook: notification().toWebhook }, 'notification.via'],
    ];
    for (const [n, field] of cases) {
      await assert.rejects(notifier.send({ type: 'user', id: 1 }, n as never), (error: unknown) => error instanceof ConfigError && error.field === field, field);
    }
    await notifier.close();
    assert.equal(events.failed.length, 0);
    assert.equal(server.requests.length, requestsBefore);
  });

  it('hands what a listener throws to the error listeners; deliveries go on', async () => {
    const { notifier } = harness({ url: server.url });
    const bug = new Error('listener bug');
    notifier.on('attempt', () => {
      throw bug;
    });
    notifier.on('sent', () => {
      throw 'not even an Error';
    });
    notifier.on('failed', () => {
      throw bug;
    });
    const errors: ListenerErrorEvent[] = [];
    notifier.on('error', (event) => errors.push(event));
    const results = await notifier.send({ type: 'user', id: 1 }, { ...notification(), via: () => ['webhook', 'sms'] });
    await notifier.close();
    await new Promise((resolve) => setImmediate(resolve)); // an uncaught rethrow would land here and fail the test
    assert.deepEqual(results.map((r) => [r.channel, r.ok, r.attempts]), [['webhook', true, 1], ['sms', false, 0]]);
    // The two deliveries run concurrently, so only the set of errors is fixed, not their order.
    assert.deepEqual(errors.sort((a, b) => a.source.localeCompare(b.source)), [
      { source: 'attempt', error: bug },
      { source: 'failed', error: bug },
      { source: 'sent', error: 'not even an Error' },
    ]);
  });

  it('hands what an async listener rejects with to the error listeners too, not to an unhandled rejection', async () => {
    const { notifier } = harness({ url: server.url });
    const bug = new Error('db insert failed');
    let settle!: () => void;
    const rejected = new Promise<void>((resolve) => (settle = resolve));
    notifier.on('failed', async () => {
      await Promise.resolve();
      throw bug;
    });
    const errors: ListenerErrorEvent[] = [];
    notifier.on('error', (event) => {
      errors.push(event);
      settle();
    });
    const [result] = await notifier.send({ type: 'user', id: 1 }, { ...notification(), via: () => ['sms'] });
    // Before, the rejection went unhandled (failOnUnhandledRejections fails the file) and this never settled.
    await settlesWithin(rejected, GUARD, 'the error listener hearing of the rejection');
    await notifier.close();
    assert.deepEqual([result!.ok, result!.attempts], [false, 0]);
    assert.deepEqual(errors, [{ source: 'failed', error: bug }]);
  });

  // Rethrowing is uncaught by design, so it is watched from another process.
  for (const [what, setup, thrown] of [
    ['without an error listener', '', 'listener bug'],
    ['when the error listener throws too', "notifier.on('error', () => { throw new Error('error listener bug'); });", 'error listener bug'],
  ] as const) {
    it(`rethrows a listener's error as an uncaught exception ${what}, after the send resolved`, async () => {
      const script = `
        import { Notifier, newMessage } from ${WEBHOOK_MODULE};
        const notifier = new Notifier();
        notifier.on('failed', () => { throw new Error('listener bug'); });
        ${setup}
        const [result] = await notifier.send({ type: 'user', id: 1 }, { via: () => ['missing'], toWebhook: () => newMessage().event('e').payload({}) });
        console.log('send resolved ok=' + result.ok);`;
      const { code, stdout, stderr } = await runInOwnProcess(script, 'the process ending on the uncaught exception', 15_000);
      assert.equal(stdout.trim(), 'send resolved ok=false');
      assert.equal(code, 1, stderr);
      assert.match(stderr, new RegExp(`Error: ${thrown}`));
    });
  }

  it('rejects duplicate or invalid channel registrations', () => {
    const notifier = new Notifier();
    const channel = new WebhookChannel({ url: server.url });
    notifier.registerChannel('webhook', channel);
    assert.throws(() => notifier.registerChannel('webhook', channel), /already registered/);
    assert.throws(() => notifier.registerChannel('', channel), /non-empty/);
    assert.throws(() => notifier.registerChannel('x', {} as never), /WebhookChannel/);
  });
});
