// The channel's `timeout` against undici's own timeouts, and response bodies that never end. Every wait here is
// bounded by a guard far above the expected time, so a regression fails instead of hanging.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { Agent, type Dispatcher } from 'undici';
import { Notifier, WebhookAttemptError, WebhookChannel, newMessage, type DeliveryResult, type WebhookMessage, type WebhookChannelConfig, type WebhookNotification } from '../../src/webhook/index.js';
import { WEBHOOK_MODULE, runInOwnProcess, serversClosedAfterEachTest, settlesWithin, startBlackhole, startTestServer, type Blackhole, type Responder } from './webhook-test-server.js';

const notification: WebhookNotification = { via: () => ['webhook'], toWebhook: () => newMessage().event('invoice.paid').payload({ amount: 1999 }) };

/** One send through a fresh notifier (one attempt, no retries), then close. */
async function sendOnce(config: WebhookChannelConfig): Promise<DeliveryResult> {
  const notifier = new Notifier({ retry: { attempts: 1 } });
  notifier.registerChannel('webhook', new WebhookChannel(config));
  const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification);
  await settlesWithin(notifier.close(), 20_000, 'notifier.close()');
  return result!;
}

function attemptError(result: DeliveryResult): WebhookAttemptError {
  assert.equal(result.ok, false);
  assert.ok(result.error?.cause instanceof WebhookAttemptError);
  return result.error.cause;
}

/** Messages undici publishes on a diagnostics channel while the test runs. */
function listen<T>(name: string): { messages: T[]; next: Promise<T>; stop(): void } {
  const messages: T[] = [];
  let arrived!: (message: T) => void;
  const next = new Promise<T>((resolve) => (arrived = resolve));
  const onMessage = (message: unknown) => {
    messages.push(message as T);
    arrived(message as T);
  };
  diagnostics.subscribe(name, onMessage);
  return { messages, next, stop: () => diagnostics.unsubscribe(name, onMessage) };
}

describe('webhook timeouts: a connection that never completes', () => {
  let blackhole: Blackhole;
  before(async () => {
    blackhole = await startBlackhole();
  });
  after(() => blackhole.close());

  it("ends the attempt at the channel's timeout, and undici's connect timeout is the channel's, not its 10 s default", async () => {
    const { port } = new URL(blackhole.url);
    const connectErrors = listen<{ connectParams: { port: string | number }; error: Error & { code?: string } }>('undici:client:connectError');
    const connectStarted = listen('undici:client:beforeConnect');
    const channel = new WebhookChannel({ url: `${blackhole.url}/in`, timeout: 2_000 });
    try {
      const delivery = await channel.prepare({ type: 'invoice', id: 7 }, notification.toWebhook({ type: 'invoice', id: 7 }) as WebhookMessage);
      const first = channel.attempt(delivery);
      await settlesWithin(connectStarted.next, 20_000, 'undici starting to connect');
      // A second attempt still running when the first gives up keeps the first's connect going (a connect that no
      // running attempt waits for is dropped at once), so undici's own connect timeout fires: its value is the setting.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const second = channel.attempt(delivery);
      const outcome = await first;
      assert.equal(outcome.ok, false);
      assert.equal(outcome.ok || outcome.kind, 'timeout');
      assert.match(outcome.ok ? '' : outcome.error.message, /POST http:\/\/127\.0\.0\.1:\d+\/in did not answer within 2000 ms/);
      const { connectParams, error: connectError } = await settlesWithin(connectErrors.next, 20_000, "undici's connect timeout");
      assert.equal(String(connectParams.port), port);
      assert.equal(connectError.code, 'UND_ERR_CONNECT_TIMEOUT');
      assert.match(connectError.message, /timeout: 2000ms/);
      assert.equal((await second).ok, false);
      // Every connect started here has ended (the second attempt's is dropped), so none reports into the next test.
      for (let i = 0; i < 2_000 && connectErrors.messages.length < connectStarted.messages.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(connectErrors.messages.length, connectStarted.messages.length);
    } finally {
      connectErrors.stop();
      connectStarted.stop();
      await settlesWithin(channel.close(), 20_000, 'channel.close()');
    }
  });

  it("ends the attempt at the channel's timeout with a dispatcher of yours, whose connect timeout is longer", async () => {
    const agent = new Agent(); // connect timeout 10 s
    const connectErrors = listen<unknown>('undici:client:connectError');
    const notifier = new Notifier({ retry: { attempts: 1 } });
    notifier.registerChannel('webhook', new WebhookChannel({ url: blackhole.url, timeout: 300, dispatcher: agent }));
    try {
      const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification);
      // undici cannot abort a request that is still connecting: the attempt must not wait for it to give up.
      assert.equal(connectErrors.messages.length, 0, 'the attempt ended while undici was still connecting');
      const error = attemptError(result!);
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /did not answer within 300 ms/);
    } finally {
      connectErrors.stop();
      await agent.destroy();
      await settlesWithin(notifier.close(), 20_000, 'notifier.close()');
    }
  });

  it("reports undici's connect timeout as a timeout, not a network failure", async () => {
    const agent = new Agent({ connect: { timeout: 50 } });
    try {
      const error = attemptError(await sendOnce({ url: blackhole.url, timeout: 60_000, dispatcher: agent }));
      assert.equal(error.kind, 'timeout');
      assert.equal((error.cause as { code?: string }).code, 'UND_ERR_CONNECT_TIMEOUT');
      assert.match(error.message, /timed out: .*UND_ERR_CONNECT_TIMEOUT.*raise the timeouts of the dispatcher you passed/);
    } finally {
      await agent.destroy();
    }
  });
});

describe('webhook timeouts: a receiver that connects but never answers or never ends', () => {
  const serve = serversClosedAfterEachTest();

  it("reports undici's headers timeout as a timeout, not a network failure", async () => {
    const server = await serve(() => {
      /* never answers */
    });
    // A dispatcher whose headers timeout is shorter than the channel's, as a user's may be.
    const agent = new Agent();
    const impatient = agent.compose((dispatch) => (options: Dispatcher.DispatchOptions, handler) => dispatch({ ...options, headersTimeout: 50 }, handler));
    try {
      const error = attemptError(await sendOnce({ url: server.url, timeout: 60_000, dispatcher: impatient }));
      assert.equal(error.kind, 'timeout');
      assert.equal((error.cause as { code?: string }).code, 'UND_ERR_HEADERS_TIMEOUT');
    } finally {
      await agent.destroy();
    }
  });

  it("gives undici the channel's timeout as headers and body timeout, so a long one is not cut at undici's 300 s", async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const created = listen<{ request: { path: string; headersTimeout?: number; bodyTimeout?: number } }>('undici:request:create');
    const injected = new Agent(); // undici's defaults: 300 s for headers and for body
    try {
      assert.equal((await sendOnce({ url: `${server.url}/own`, timeout: 400_000 })).ok, true);
      assert.equal((await sendOnce({ url: `${server.url}/injected`, timeout: 400_000.5, dispatcher: injected })).ok, true);
    } finally {
      created.stop();
      await injected.close();
    }
    const timeouts = created.messages.filter(({ request }) => ['/own', '/injected'].includes(request.path)).map(({ request }) => [request.path, request.headersTimeout, request.bodyTimeout]);
    assert.deepEqual(timeouts, [
      ['/own', 400_000, 400_000],
      ['/injected', 400_001, 400_001], // whole milliseconds, rounded up so they never fire before the deadline
    ]);
  });

  /** Answers 200 and a few bytes, then never ends the body; resolves `closed` when the client drops it. */
  function endlessBody() {
    let closedByClient!: (unended: boolean) => void;
    const closed = new Promise<boolean>((resolve) => (closedByClient = resolve));
    const respond: Responder = (res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      res.on('close', () => closedByClient(!res.writableEnded));
    };
    return { respond, closed };
  }

  it('a 2xx whose body never ends: the send succeeds, and close() drops the body instead of waiting for the timeout', async () => {
    const { respond, closed } = endlessBody();
    const server = await serve(respond);
    const notifier = new Notifier({ retry: { attempts: 1 } });
    notifier.registerChannel('webhook', new WebhookChannel({ url: server.url, timeout: 120_000 }));
    const [result] = await notifier.send({ type: 'invoice', id: 7 }, notification);
    assert.deepEqual(result, { channel: 'webhook', ok: true, status: 200, attempts: 1 });
    await settlesWithin(notifier.close(), 20_000, 'close() while the body is still open');
    assert.equal(await settlesWithin(closed, 20_000, 'the client dropping the body'), true, 'the server never ended the body; the client closed it');
  });

  it('a 2xx whose body never ends does not keep the process alive', async () => {
    const { respond, closed } = endlessBody();
    const server = await serve(respond);
    const script = `
      import { Notifier, WebhookChannel, newMessage } from ${WEBHOOK_MODULE};
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: ${JSON.stringify(server.url)}, timeout: 120_000 }));
      const [result] = await notifier.send({ type: 'u', id: 1 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('e').payload({}) });
      console.log('ok=' + result.ok + ' status=' + result.status);   // no close(): the process must end by itself`;
    const { code, stdout, stderr } = await runInOwnProcess(script, 'the sending process exiting on its own');
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), 'ok=true status=200');
    assert.equal(await settlesWithin(closed, 20_000, 'the body being dropped'), true);
  });
});
