// Cancelling a send with the caller's AbortSignal: an attempt in flight or a retry wait ends at once, nothing more is
// sent, and every delivery it ends is reported failed with its body. Every wait is bounded by a guard far above the
// expected time, so a regression (a signal that is ignored) fails instead of hanging.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { EventEmitter, getEventListeners, once } from 'node:events';
import { Agent } from 'undici';
import { ConfigError, WebhookDeliveryError } from '../../src/core/errors.js';
import { Notifier, WebhookAttemptError, WebhookChannel, newMessage, type AttemptEvent, type DeliveryResult, type NotifierOptions, type WebhookChannelConfig, type WebhookNotification } from '../../src/webhook/index.js';
import { GUARD, SLOW, invoice, invoicePaid as notification, recordingNotifier } from './webhook-support/notifier-harness.js';
import { WEBHOOK_MODULE, failOnUnhandledRejections, runInOwnProcess, serversClosedAfterEachTest, settlesWithin, startBlackhole, type Responder } from './webhook-test-server.js';

failOnUnhandledRejections();

// GUARD is far above anything expected here: an ignored signal fails instead of hanging.
function harness(channels: Record<string, WebhookChannelConfig>, options: NotifierOptions) {
  return recordingNotifier(channels, options, { channelDefaults: { timeout: SLOW } });
}

/** A receiver that never answers, and a promise of its first request's arrival. */
function neverAnswers(): { respond: Responder; requested: Promise<void> } {
  let arrived!: () => void;
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  return { respond: () => arrived(), requested };
}

/** The first `attempt` event of a send. */
function firstAttempt(notifier: Notifier): Promise<AttemptEvent> {
  return new Promise((resolve) => notifier.on('attempt', resolve));
}

function cancelled(result: DeliveryResult | undefined): WebhookDeliveryError {
  assert.equal(result?.ok, false);
  assert.ok(result.error instanceof WebhookDeliveryError, String(result.error));
  assert.match(result.error.message, /was cancelled by the caller's signal/);
  return result.error;
}

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('webhook send with a signal', () => {
  const serve = serversClosedAfterEachTest();

  it('aborts an attempt in flight at once: an attempt event of kind aborted, not retried, reported failed with the body', async () => {
    const { respond, requested } = neverAnswers();
    const server = await serve(respond);
    const policySaw: string[] = [];
    const { notifier, events } = harness({ webhook: { url: `${server.url}/in` } }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5, shouldRetry: (failure) => {
      policySaw.push(failure.kind);
      return true;
    } } });
    const controller = new AbortController();
    const sending = notifier.send(invoice, notification, { signal: controller.signal });
    try {
      await settlesWithin(requested, GUARD, 'the request reaching the receiver');
      assert.equal(listeners(controller.signal), 1, 'the attempt in flight listens to the signal');
      controller.abort(new Error('user left'));
      const [result] = await settlesWithin(sending, GUARD, 'the send ending after the abort');

      const error = cancelled(result);
      assert.deepEqual([result!.attempts, result!.status, error.attempts, error.status], [1, undefined, 1, undefined]);
      assert.match(error.message, /^Webhook "invoice\.paid" through channel "webhook" was cancelled by the caller's signal after 1 attempt, the last aborted in flight \(reason: user left\)\.$/);
      assert.ok(error.cause instanceof WebhookAttemptError, String(error.cause));
      assert.equal(error.cause.kind, 'aborted');
      assert.equal(error.cause.code, 'ERR_WEBHOOK_ABORTED');
      assert.equal(error.cause.cause, controller.signal.reason);
      assert.match(error.cause.message, /^POST http:\/\/127\.0\.0\.1:\d+\/in was aborted in flight by the caller's signal \(reason: user left\)\.$/);

      assert.deepEqual(events.attempt.map((e) => [e.attempt, e.ok, e.error?.kind, e.error?.code, e.retryIn]), [[1, false, 'aborted', 'ERR_WEBHOOK_ABORTED', undefined]]);
      assert.deepEqual(policySaw, [], 'shouldRetry is not asked about an aborted attempt');
      assert.equal(events.failed.length, 1);
      assert.equal(events.failed[0]!.error, error);
      assert.equal(events.failed[0]!.body, server.requests[0]!.body.toString('utf8'), 'the failed event hands back the exact body');
      assert.equal(server.requests.length, 1);
      assert.equal(listeners(controller.signal), 0);
    } finally {
      controller.abort();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('aborts an attempt still connecting, without waiting for the connection', async () => {
    const blackhole = await startBlackhole();
    const agent = new Agent({ connect: { timeout: SLOW } });
    const { notifier, events } = harness({ webhook: { url: blackhole.url, dispatcher: agent } }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5 } });
    const controller = new AbortController();
    let connecting!: () => void;
    const connectStarted = new Promise<void>((resolve) => (connecting = resolve));
    const onConnect = () => connecting();
    diagnostics.subscribe('undici:client:beforeConnect', onConnect);
    try {
      const sending = notifier.send(invoice, notification, { signal: controller.signal });
      await settlesWithin(connectStarted, GUARD, 'undici starting to connect');
      controller.abort('page closed');
      const [result] = await settlesWithin(sending, GUARD, 'the send ending after the abort');
      assert.match(cancelled(result).message, /after 1 attempt, the last aborted in flight \(reason: page closed\)\.$/);
      assert.deepEqual(events.attempt.map((e) => e.error?.kind), ['aborted']);
      assert.equal(listeners(controller.signal), 0);
    } finally {
      diagnostics.unsubscribe('undici:client:beforeConnect', onConnect);
      controller.abort();
      await agent.destroy();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
      blackhole.close();
    }
  });

  it("with the channel's own agent, drops a connect given up by the abort: close() does not wait for the connect timeout", async () => {
    const blackhole = await startBlackhole();
    // The channel's timeout (SLOW) is also its own agent's connect timeout, which close() used to wait out.
    const { notifier } = harness({ webhook: { url: blackhole.url } }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5 } });
    const controller = new AbortController();
    const connectStarted = new Promise<void>((resolve) => diagnostics.subscribe('undici:client:beforeConnect', function onConnect() {
      diagnostics.unsubscribe('undici:client:beforeConnect', onConnect);
      resolve();
    }));
    try {
      const sending = notifier.send(invoice, notification, { signal: controller.signal });
      await settlesWithin(connectStarted, GUARD, 'undici starting to connect');
      controller.abort('shutting down');
      const [result] = await settlesWithin(sending, GUARD, 'the send ending after the abort');
      cancelled(result);
      await settlesWithin(notifier.close(), GUARD, 'notifier.close() after a connect was given up');
    } finally {
      blackhole.close();
    }
  });

  it('a connect given up by the abort does not keep the process alive', async () => {
    const blackhole = await startBlackhole();
    const script = `
      import { Notifier, WebhookChannel, newMessage } from ${WEBHOOK_MODULE};
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: ${JSON.stringify(blackhole.url)}, timeout: ${SLOW} }));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const [result] = await notifier.send({ type: 'u', id: 1 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('e').payload({}) }, { signal: controller.signal });
      console.log('ok=' + result.ok + ' attempts=' + result.attempts);   // no close(): the process must end by itself`;
    try {
      const { code, stdout, stderr } = await runInOwnProcess(script, 'the sending process exiting on its own');
      assert.equal(code, 0, stderr);
      assert.equal(stdout.trim(), 'ok=false attempts=1');
    } finally {
      blackhole.close();
    }
  });

  it('ends a retry wait at once; no further attempt is made', async () => {
    const server = await serve((res) => res.writeHead(503).end());
    const { notifier, events } = harness({ webhook: { url: server.url } }, { retry: { attempts: 5, minDelay: SLOW, maxDelay: SLOW } });
    const attempted = firstAttempt(notifier);
    const controller = new AbortController();
    const sending = notifier.send(invoice, notification, { signal: controller.signal });
    try {
      assert.equal((await settlesWithin(attempted, GUARD, 'the first attempt')).retryIn, SLOW);
      assert.equal(listeners(controller.signal), 1, 'the retry wait listens to the signal');
      controller.abort('shutting down');
      const [result] = await settlesWithin(sending, GUARD, 'the send ending after the abort');

      const error = cancelled(result);
      assert.deepEqual([result!.attempts, result!.status, error.status], [1, 503, 503]);
      assert.match(error.message, /^Webhook "invoice\.paid" through channel "webhook" was cancelled by the caller's signal after 1 attempt \(reason: shutting down\)\. The last attempt failed: POST http:\/\/127\.0\.0\.1:\d+\/ answered 503\.$/);
      assert.equal((error.cause as WebhookAttemptError).kind, 'status', 'the cause is the last attempt');
      assert.deepEqual(events.attempt.map((e) => [e.attempt, e.status, e.retryIn]), [[1, 503, SLOW]]);
      assert.equal(events.failed.length, 1);
      assert.equal(events.failed[0]!.body, server.requests[0]!.body.toString('utf8'));
      assert.equal(listeners(controller.signal), 0);
      // close() waits for every delivery and its retries: it ending means none is left to come.
      await settlesWithin(notifier.close(), GUARD, 'notifier.close() with no retry left');
      assert.equal(server.requests.length, 1, 'no request after the abort');
    } finally {
      controller.abort();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('sends nothing when the signal is already aborted: attempts 0, a failed event with the body that would have been sent', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const { notifier, events } = harness({ webhook: { url: server.url } }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5 } });
    const [result] = await notifier.send(invoice, notification, { signal: AbortSignal.abort('gone') });
    await settlesWithin(notifier.close(), GUARD, 'notifier.close()');
    const error = cancelled(result);
    assert.deepEqual([result!.attempts, result!.status, error.attempts], [0, undefined, 0]);
    assert.match(error.message, /^Webhook "invoice\.paid" through channel "webhook" was cancelled by the caller's signal after 0 attempts \(reason: gone\)\.$/);
    assert.equal(error.cause, 'gone');
    assert.equal(server.requests.length, 0);
    assert.equal(events.attempt.length, 0);
    assert.equal(events.failed.length, 1);
    assert.deepEqual(JSON.parse(events.failed[0]!.body!).data, { idempotency_key: 'k1' });
  });

  it("puts the signal's reason in the message when it is an Error or a string", async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const { notifier } = harness({ webhook: { url: server.url } }, { retry: { attempts: 1 } });
    const cases: Array<[unknown, RegExp]> = [
      [new Error('user left'), /after 0 attempts \(reason: user left\)\.$/],
      ['shutting down', /after 0 attempts \(reason: shutting down\)\.$/],
      [undefined, /after 0 attempts \(reason: This operation was aborted\)\.$/], // abort() with no reason: an AbortError
      [new Error(''), /after 0 attempts\.$/],
      [{ code: 42 }, /after 0 attempts\.$/],
      [42, /after 0 attempts\.$/],
    ];
    for (const [reason, message] of cases) {
      const [result] = await notifier.send(invoice, notification, { signal: AbortSignal.abort(reason) });
      assert.match(cancelled(result).message, message, String(reason));
    }
    await settlesWithin(notifier.close(), GUARD, 'notifier.close()');
    assert.equal(server.requests.length, 0);
  });

  it("cancels every channel's delivery of the send with the one signal", async () => {
    const { respond, requested } = neverAnswers();
    const hanging = await serve(respond);
    const failing = await serve((res) => res.writeHead(503).end());
    const { notifier, events } = harness({ hanging: { url: hanging.url }, failing: { url: failing.url } }, { retry: { attempts: 5, minDelay: SLOW, maxDelay: SLOW } });
    const waiting = firstAttempt(notifier); // the 503: the hanging one makes no attempt event before the abort
    const controller = new AbortController();
    const sending = notifier.send(invoice, { ...notification, via: () => ['hanging', 'failing'] }, { signal: controller.signal });
    try {
      await settlesWithin(Promise.all([requested, waiting]), GUARD, 'both deliveries under way');
      assert.equal(listeners(controller.signal), 1, 'one listener, however many attempts and waits watch the signal');
      controller.abort();
      const results = await settlesWithin(sending, GUARD, 'the send ending after the abort');
      assert.deepEqual(results.map((r) => [r.channel, r.ok, r.attempts, r.status]), [['hanging', false, 1, undefined], ['failing', false, 1, 503]]);
      assert.match(cancelled(results[0]).message, /"hanging" was cancelled .* the last aborted in flight/);
      assert.match(cancelled(results[1]).message, /"failing" was cancelled .* The last attempt failed: .* answered 503/);
      assert.deepEqual(events.failed.map((e) => e.channel).sort(), ['failing', 'hanging']);
      const bodies = Object.fromEntries(events.failed.map((e) => [e.channel, e.body]));
      assert.deepEqual(bodies, { hanging: hanging.requests[0]!.body.toString('utf8'), failing: failing.requests[0]!.body.toString('utf8') });
      assert.equal(listeners(controller.signal), 0);
      await settlesWithin(notifier.close(), GUARD, 'notifier.close() with no retry left');
      assert.deepEqual([hanging.requests.length, failing.requests.length], [1, 1]);
    } finally {
      controller.abort();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('leaves no listener on a long-lived signal after thousands of sends, retries included, and the signal still works', async () => {
    const total = 2_000;
    const workers = 16;
    const { respond: hang, requested } = neverAnswers();
    // Every fourth request fails, so that some deliveries wait for a retry too.
    const server = await serve((res, received, index, request) => (received.url === '/hang' ? hang(res, received, index, request) : res.writeHead(index % 4 === 0 ? 503 : 204).end()));
    const { notifier, events } = harness({ webhook: { url: server.url }, hang: { url: `${server.url}/hang` } }, { retry: { attempts: 20, minDelay: 1, maxDelay: 2 } });
    const controller = new AbortController();
    const { signal } = controller;
    const results: DeliveryResult[] = [];
    const worker = async () => {
      for (let i = 0; i < total / workers; i += 1) results.push(...(await notifier.send(invoice, notification, { signal })));
    };
    try {
      await settlesWithin(Promise.all(Array.from({ length: workers }, worker)), 60_000, `${total} sends`);
      assert.equal(results.length, total);
      assert.equal(results.filter((r) => r.ok).length + events.failed.length, total);
      assert.ok(events.attempt.some((e) => e.retryIn !== undefined), 'some deliveries waited for a retry');
      assert.equal(listeners(signal), 0);

      // The same signal, after all of them, still cancels a send, and is left without a listener once more.
      const sending = notifier.send(invoice, { ...notification, via: () => ['hang'] }, { signal });
      await settlesWithin(requested, GUARD, 'the request reaching the receiver');
      assert.equal(listeners(signal), 1);
      controller.abort();
      const [result] = await settlesWithin(sending, GUARD, 'the send ending after the abort');
      assert.equal(cancelled(result).attempts, 1);
      assert.equal(listeners(signal), 0);
    } finally {
      controller.abort();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('puts one listener on a signal shared by many concurrent sends, so Node never warns of a leak', async () => {
    const sends = 30;
    let arrived!: () => void;
    const allArrived = new Promise<void>((resolve) => (arrived = resolve));
    // Half never answer (attempts in flight), half answer 503 (then wait a minute to retry).
    const server = await serve((res, received, index) => {
      if (index === sends - 1) arrived();
      if (received.url !== '/hang') res.writeHead(503).end();
    });
    const { notifier, events } = harness({ hang: { url: `${server.url}/hang` }, failing: { url: server.url } }, { retry: { attempts: 5, minDelay: SLOW, maxDelay: SLOW } });
    let waited!: () => void;
    const allWaiting = new Promise<void>((resolve) => (waited = resolve));
    notifier.on('attempt', () => events.attempt.length === sends / 2 && waited());
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const controller = new AbortController();
    try {
      const sending = Array.from({ length: sends }, (_, i) => notifier.send({ type: 'invoice', id: i }, { ...notification, via: () => [i % 2 === 0 ? 'hang' : 'failing'] }, { signal: controller.signal }));
      await settlesWithin(allArrived, GUARD, `${sends} requests reaching the receiver`);
      await settlesWithin(allWaiting, GUARD, `${sends / 2} retries waiting`);
      assert.equal(listeners(controller.signal), 1);
      controller.abort();
      const results = (await settlesWithin(Promise.all(sending), GUARD, 'the sends ending after the abort')).flat();
      assert.equal(results.filter((r) => !r.ok && r.attempts === 1 && /cancelled by the caller's signal/.test(r.error!.message)).length, sends);
      assert.equal(listeners(controller.signal), 0);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      assert.deepEqual(warnings.map((w) => w.name), []);
    } finally {
      process.off('warning', onWarning);
      controller.abort();
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('refuses a signal that is not an AbortSignal with ConfigError, before via() runs or anything is sent', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const { notifier, events } = harness({ webhook: { url: server.url } }, { retry: { attempts: 1 } });
    let viaCalls = 0;
    const counted: WebhookNotification = {
      ...notification,
      via: () => {
        viaCalls += 1;
        return ['webhook'];
      },
    };
    for (const bad of [{}, 'abort', null, new EventEmitter(), new AbortController(), { aborted: false, addEventListener() {}, removeEventListener() {} }]) {
      await assert.rejects(notifier.send(invoice, counted, { signal: bad as never }), (error: unknown) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.equal(error.field, 'options.signal');
        assert.match(error.message, /^Invalid options\.signal: must be an AbortSignal/);
        return true;
      });
    }
    await settlesWithin(notifier.close(), GUARD, 'notifier.close()');
    assert.deepEqual([viaCalls, server.requests.length, events.failed.length], [0, 0, 0]);
  });

  it('refuses options that are not { signal }, the signal passed bare or a misspelt field, which would leave the send uncancellable', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const { notifier, events } = harness({ webhook: { url: server.url } }, { retry: { attempts: 1 } });
    const signal = new AbortController().signal;
    const bad: Array<[unknown, string, RegExp]> = [
      [signal, 'options', /^Invalid options: must be an object \{ signal \}: pass \{ signal \} rather than the signal itself \(got an AbortSignal\)\.$/],
      [{ sigal: signal }, 'options.sigal', /^Invalid options\.sigal: is not a known field; known fields: signal/],
      ['abort', 'options', /^Invalid options: must be an object/],
    ];
    const channel = new WebhookChannel({ url: server.url });
    try {
      const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
      for (const [options, field, message] of bad) {
        const refused = (error: unknown) => error instanceof ConfigError && error.field === field && message.test(error.message);
        await assert.rejects(notifier.send(invoice, notification, options as never), refused, String(options));
        await assert.rejects(channel.attempt(delivery, options as never), refused, String(options));
      }
    } finally {
      await channel.close();
    }
    await settlesWithin(notifier.close(), GUARD, 'notifier.close()');
    assert.deepEqual([server.requests.length, events.failed.length], [0, 0]);
  });
});

describe('a toWebhook whose promise does not settle', () => {
  const serve = serversClosedAfterEachTest();

  it("stops waiting at close()'s timeout: reported failed, nothing sent, and close() returns", async () => {
    const server = await serve((response) => response.writeHead(204).end());
    const { notifier, events } = harness({ webhook: { url: server.url } }, {});
    let rejectLate!: (error: Error) => void;
    const pending = new Promise<never>((_resolve, reject) => (rejectLate = reject));
    const sending = notifier.send(invoice, { via: () => ['webhook'], toWebhook: () => pending });
    await settlesWithin(notifier.close({ timeout: 10 }), GUARD, 'notifier.close() with a timeout');
    const [result] = await settlesWithin(sending, GUARD, 'the send');
    assert.equal(result!.ok, false);
    assert.equal(result!.attempts, 0);
    assert.match(result!.error!.message, /^The webhook for channel "webhook" was not sent: toWebhook\(\) had not returned its message when close\(\)'s timeout ended the wait\.$/);
    assert.equal(events.failed.length, 1);
    assert.equal(server.requests.length, 0);
    // Rejected after the wait ended: handled, not an unhandled rejection (failOnUnhandledRejections checks).
    rejectLate(new Error('too late'));
  });

  it("stops waiting when the caller's signal aborts, and leaves nothing on the signal", async () => {
    const server = await serve((response) => response.writeHead(204).end());
    const { notifier } = harness({ webhook: { url: server.url } }, {});
    const controller = new AbortController();
    try {
      const sending = notifier.send(invoice, { via: () => ['webhook'], toWebhook: () => new Promise<never>(() => {}) }, { signal: controller.signal });
      controller.abort(new Error('user left'));
      const [result] = await settlesWithin(sending, GUARD, 'the send after the abort');
      assert.equal(result!.attempts, 0);
      assert.match(result!.error!.message, /toWebhook\(\) had not returned its message when the caller's signal ended the wait\.$/);
      assert.equal(result!.error!.cause, controller.signal.reason);
      assert.equal(listeners(controller.signal), 0);
      assert.equal(server.requests.length, 0);
    } finally {
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });

  it('still sends what an async toWebhook returns, and reports what it rejects with', async () => {
    const server = await serve((response) => response.writeHead(204).end());
    const { notifier } = harness({ webhook: { url: server.url } }, {});
    const controller = new AbortController();
    try {
      const [sent] = await notifier.send(invoice, { via: () => ['webhook'], toWebhook: async () => newMessage().event('invoice.paid').payload({}) }, { signal: controller.signal });
      assert.deepEqual([sent!.ok, sent!.attempts], [true, 1]);
      const [refused] = await notifier.send(invoice, { via: () => ['webhook'], toWebhook: async () => { throw new Error('no such invoice'); } });
      assert.match(refused!.error!.message, /could not be built: no such invoice$/);
      assert.equal(listeners(controller.signal), 0);
    } finally {
      await settlesWithin(notifier.close({ timeout: 0 }), GUARD, 'notifier.close()');
    }
  });
});

describe('WebhookChannel.attempt with a signal', () => {
  const serve = serversClosedAfterEachTest();

  it('an attempt in flight ends at once as kind aborted, not timeout, and its listener is removed', async () => {
    const { respond, requested } = neverAnswers();
    const server = await serve(respond);
    const channel = new WebhookChannel({ url: server.url, timeout: SLOW });
    const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
    const controller = new AbortController();
    try {
      const attempting = channel.attempt(delivery, { signal: controller.signal });
      await settlesWithin(requested, GUARD, 'the request reaching the receiver');
      controller.abort();
      const outcome = await settlesWithin(attempting, GUARD, 'the attempt ending after the abort');
      assert.ok(!outcome.ok, 'the attempt failed');
      assert.equal(outcome.kind, 'aborted');
      assert.equal(outcome.error.code, 'ERR_WEBHOOK_ABORTED');
      assert.equal(outcome.status, undefined);
      assert.match(outcome.error.message, /was aborted in flight by the caller's signal \(reason: This operation was aborted\)\.$/);
      assert.equal(listeners(controller.signal), 0);
    } finally {
      await settlesWithin(channel.close(), GUARD, 'channel.close()');
    }
  });

  it('a signal already aborted sends nothing; one that is not an AbortSignal rejects with ConfigError', async () => {
    const server = await serve((res) => res.writeHead(204).end());
    const channel = new WebhookChannel({ url: server.url });
    const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
    try {
      const outcome = await channel.attempt(delivery, { signal: AbortSignal.abort('gone') });
      assert.ok(!outcome.ok, 'nothing was sent');
      assert.equal(outcome.kind, 'aborted');
      assert.match(outcome.error.message, /^POST http:\/\/127\.0\.0\.1:\d+\/ was not sent: the caller's signal was already aborted \(reason: gone\)\.$/);
      await assert.rejects(channel.attempt(delivery, { signal: {} as never }), (error: unknown) => error instanceof ConfigError && error.field === 'options.signal');
      assert.deepEqual(await channel.attempt(delivery), { ok: true, status: 204 }, 'without options, as before');
      assert.equal(server.requests.length, 1);
    } finally {
      await settlesWithin(channel.close(), GUARD, 'channel.close()');
    }
  });
});
