// Closing the notifier: close({ timeout }) bounds close() as a whole, attempts in flight included, and a `failed`
// listener that sends again after close() cannot recurse without end. Every wait is bounded by a guard far above the
// expected time and far below the channel's timeout, so an attempt close() does not abort fails instead of hanging.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { WebhookDeliveryError } from '../../src/core/errors.js';
import { Notifier, WebhookAttemptError, type DeliveryResult, type FailedEvent, type NotifierOptions, type WebhookChannelConfig, type WebhookNotification } from '../../src/webhook/index.js';
import { GUARD, SLOW, invoice, invoicePaid as notification, recordingNotifier } from './webhook-support/notifier-harness.js';
import { failOnUnhandledRejections, serversClosedAfterEachTest, settlesWithin, startBlackhole, type Responder } from './webhook-test-server.js';

failOnUnhandledRejections();

// The channel's timeout is SLOW: close() must never wait for it.
function harness(config: WebhookChannelConfig, options: NotifierOptions = {}) {
  return recordingNotifier({ webhook: config }, options, { channelDefaults: { timeout: SLOW }, recordListenerErrors: true });
}

/** A receiver that answers the first `answered` requests 500 and leaves the next hanging, and when that one arrived. */
function hangsAfter(answered: number): { respond: Responder; hanging: Promise<void> } {
  let arrived!: () => void;
  const hanging = new Promise<void>((resolve) => (arrived = resolve));
  const respond: Responder = (response, _received, index) => (index < answered ? response.writeHead(500).end() : arrived());
  return { respond, hanging };
}

function abortedByClose(result: DeliveryResult | undefined, attempts: number, timeout: number): WebhookAttemptError {
  assert.equal(result?.ok, false);
  assert.equal(result.attempts, attempts);
  assert.ok(result.error instanceof WebhookDeliveryError, String(result.error));
  const plural = attempts === 1 ? '' : 's';
  assert.equal(result.error.message, `Webhook "invoice.paid" through channel "webhook" failed after ${attempts} attempt${plural}: close()'s timeout (${timeout} ms) aborted the attempt in flight.`);
  const cause = result.error.cause;
  assert.ok(cause instanceof WebhookAttemptError, String(cause));
  assert.equal(cause.kind, 'aborted');
  assert.match(cause.message, /^POST http:\/\/127\.0\.0\.1:\d+\/in was aborted in flight by the notifier's close\(\) timeout\.$/);
  assert.ok(cause.cause instanceof DOMException && cause.cause.name === 'TimeoutError', String(cause.cause));
  return cause;
}

describe('notifier.close({ timeout }) with an attempt in flight', () => {
  const serve = serversClosedAfterEachTest();

  it("aborts the attempt when the timeout runs out: reported failed with the body, saying close()'s timeout did, and close() returns", async () => {
    const { respond, hanging } = hangsAfter(0);
    const server = await serve(respond);
    const { notifier, events } = harness({ url: `${server.url}/in` }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5 } });
    const sending = notifier.send(invoice, notification);
    await settlesWithin(hanging, GUARD, 'the request reaching the receiver');
    // Before, close() waited for the attempt's own timeout (SLOW), whatever its own.
    await settlesWithin(notifier.close({ timeout: 50 }), GUARD, 'notifier.close({ timeout: 50 }) with an attempt in flight');
    const [result] = await settlesWithin(sending, GUARD, 'the send');

    const cause = abortedByClose(result, 1, 50);
    assert.doesNotMatch(result!.error!.message, /caller's signal/);
    assert.deepEqual(events.attempt.map((e) => [e.attempt, e.ok, e.error?.kind, e.retryIn]), [[1, false, 'aborted', undefined]]);
    assert.equal(events.attempt[0]!.error, cause);
    assert.equal(events.failed.length, 1);
    assert.equal(events.failed[0]!.error, result!.error);
    assert.equal(events.failed[0]!.body, server.requests[0]!.body.toString('utf8'), 'the failed event hands back the exact body');
    assert.equal(server.requests.length, 1, 'not retried');
    assert.deepEqual(events.error, []);
  });

  it("aborts a retry in flight as well, and tells it from a cancel by the caller's signal, which it leaves no listener on", async () => {
    const { respond, hanging } = hangsAfter(1);
    const server = await serve(respond);
    const { notifier, events } = harness({ url: `${server.url}/in` }, { retry: { attempts: 5, minDelay: 1, maxDelay: 5 } });
    const controller = new AbortController();
    const sending = notifier.send(invoice, notification, { signal: controller.signal });
    await settlesWithin(hanging, GUARD, 'the retry reaching the receiver');
    await settlesWithin(notifier.close({ timeout: 20 }), GUARD, 'notifier.close({ timeout: 20 }) with a retry in flight');
    const [result] = await settlesWithin(sending, GUARD, 'the send');

    abortedByClose(result, 2, 20);
    assert.deepEqual(events.attempt.map((e) => [e.attempt, e.status, e.error?.kind]), [[1, 500, 'status'], [2, undefined, 'aborted']]);
    assert.equal(events.failed[0]!.body, server.requests[1]!.body.toString('utf8'));
    assert.equal(controller.signal.aborted, false);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it("aborts an attempt still connecting through the channel's own agent: close() does not wait for the connect timeout", async () => {
    const blackhole = await startBlackhole();
    let connecting!: () => void;
    const connectStarted = new Promise<void>((resolve) => (connecting = resolve));
    const onConnect = () => connecting();
    diagnostics.subscribe('undici:client:beforeConnect', onConnect);
    try {
      const { notifier, events } = harness({ url: `${blackhole.url}/in` }, { retry: { attempts: 1 } });
      const sending = notifier.send(invoice, notification);
      await settlesWithin(connectStarted, GUARD, 'undici starting to connect');
      await settlesWithin(notifier.close({ timeout: 20 }), GUARD, 'notifier.close({ timeout: 20 }) with a connect in progress');
      abortedByClose((await settlesWithin(sending, GUARD, 'the send'))[0], 1, 20);
      assert.equal(events.failed.length, 1);
    } finally {
      diagnostics.unsubscribe('undici:client:beforeConnect', onConnect);
      blackhole.close();
    }
  });

  it('leaves an attempt that ends within the timeout alone', async () => {
    let answer!: () => void;
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve((response) => {
      answer = () => response.writeHead(204).end();
      arrived();
    });
    const { notifier, events } = harness({ url: `${server.url}/in` });
    const sending = notifier.send(invoice, notification);
    await settlesWithin(requested, GUARD, 'the request reaching the receiver');
    const closing = notifier.close({ timeout: SLOW });
    answer();
    await settlesWithin(closing, GUARD, 'notifier.close() once the attempt has its answer');
    assert.deepEqual(await sending, [{ channel: 'webhook', ok: true, status: 204, attempts: 1 }]);
    assert.deepEqual(events.failed, []);
  });
});

describe('a failed listener that sends again after close()', () => {
  const serve = serversClosedAfterEachTest();

  it('gets the failed result of its send, with no further failed event, instead of recursing', async () => {
    const server = await serve((response) => response.writeHead(204).end());
    const { notifier, events } = harness({ url: server.url });
    await notifier.close();
    const resent: Array<Promise<DeliveryResult[]>> = [];
    // A naive re-queue. The cap only keeps a regression from overflowing the stack: it is never reached.
    notifier.on('failed', () => {
      if (resent.length < 100) resent.push(notifier.send(invoice, notification));
    });
    const [result] = await notifier.send(invoice, notification);

    assert.equal(result!.ok, false);
    assert.equal(result!.error!.message, 'The notifier is closed; channel "webhook" was not used.');
    assert.equal(events.failed.length, 1, 'one failed event: the first refusal');
    assert.equal(resent.length, 1, 'the listener ran once');
    const [again] = await resent[0]!;
    assert.deepEqual([again!.channel, again!.ok, again!.attempts], ['webhook', false, 0]);
    assert.ok(again!.error instanceof WebhookDeliveryError);
    assert.equal(
      again!.error.message,
      'The notifier is closed; channel "webhook" was not used. Sent from a "failed" listener hearing of another refused send: not reported as a "failed" event, which would call that listener again, endlessly.',
    );
    assert.deepEqual(events.error, []);
    assert.equal(server.requests.length, 0);
  });

  it("after close()'s timeout aborted a delivery: the listener's resend is refused and reported, the resend that report makes is not", async () => {
    const { respond, hanging } = hangsAfter(0);
    const server = await serve(respond);
    const { notifier, events } = harness({ url: `${server.url}/in` });
    const resent: Array<Promise<DeliveryResult[]>> = [];
    notifier.on('failed', () => {
      if (resent.length < 100) resent.push(notifier.send(invoice, notification));
    });
    const sending = notifier.send(invoice, notification);
    await settlesWithin(hanging, GUARD, 'the request reaching the receiver');
    await settlesWithin(notifier.close({ timeout: 10 }), GUARD, 'notifier.close({ timeout: 10 })');
    abortedByClose((await sending)[0], 1, 10);
    assert.deepEqual(events.failed.map((e) => e.error.message.replace(/ Sent from.*/, '')), [
      `Webhook "invoice.paid" through channel "webhook" failed after 1 attempt: close()'s timeout (10 ms) aborted the attempt in flight.`,
      'The notifier is closed; channel "webhook" was not used.',
    ]);
    assert.equal(resent.length, 2);
    // The inner send is pushed first: it runs, listener and all, inside the outer send() call.
    const results = (await Promise.all(resent)).flat();
    assert.deepEqual(results.map((r) => [r.ok, r.attempts, /not reported as a "failed" event/.test(r.error!.message)]), [[false, 0, true], [false, 0, false]]);
  });

  it('ends on its own when the listener awaits before sending again: its resend is refused unreported, as one made at once', async () => {
    const pauses: Array<[string, () => Promise<unknown>]> = [
      ['a timer', () => new Promise((resolve) => setTimeout(resolve, 0))],
      ['a resolved promise', () => Promise.resolve()],
    ];
    for (const [pauseName, pause] of pauses) {
      const server = await serve((response) => response.writeHead(204).end());
      const { notifier, events } = harness({ url: server.url });
      await notifier.close();
      const resent: DeliveryResult[] = [];
      const listening: Array<Promise<void>> = [];
      // Before, each refusal fired `failed` again and the listener resent, forever: the cap keeps this test finite.
      notifier.on('failed', () => {
        listening.push((async () => {
          await pause();
          if (resent.length < 1000) resent.push(...(await notifier.send(invoice, notification)));
        })());
      });
      const [result] = await notifier.send(invoice, notification);
      // Until no listener call is left running, and none has started since the last look.
      for (let heard = -1; heard < listening.length; ) {
        heard = listening.length;
        await settlesWithin(Promise.all(listening), GUARD, 'the listeners');
      }

      assert.equal(result!.error!.message, 'The notifier is closed; channel "webhook" was not used.', pauseName);
      assert.equal(events.failed.length, 1, `${pauseName}: one failed event, the first refusal`);
      assert.equal(resent.length, 1, `${pauseName}: the listener sent again once`);
      assert.deepEqual([resent[0]!.ok, resent[0]!.attempts], [false, 0]);
      assert.ok(resent[0]!.error instanceof WebhookDeliveryError);
      assert.equal(
        resent[0]!.error.message,
        'The notifier is closed; channel "webhook" was not used. Sent from a "failed" listener hearing of another refused send: not reported as a "failed" event, which would call that listener again, endlessly.',
      );
      assert.equal(server.requests.length, 0);
      assert.deepEqual(events.error, []);
    }
  });

  it('is bounded the same way for a channel name that is not registered, before close()', async () => {
    const notifier = new Notifier();
    const failed: FailedEvent[] = [];
    const resent: Array<Promise<DeliveryResult[]>> = [];
    const toMissing: WebhookNotification = { ...notification, via: () => ['missing'] };
    notifier.on('failed', (event) => {
      failed.push(event);
      if (resent.length < 100) resent.push(notifier.send(invoice, toMissing));
    });
    const [result] = await notifier.send(invoice, toMissing);
    assert.match(result!.error!.message, /^No channel is registered as "missing"/);
    assert.equal(failed.length, 1);
    assert.equal(resent.length, 1);
    assert.match((await resent[0]!)[0]!.error!.message, /^No channel is registered as "missing" .* not reported as a "failed" event/);
    await notifier.close();
  });

  it('is bounded the same way for a listener that awaits before sending to an unregistered channel again, before close()', async () => {
    const notifier = new Notifier();
    const failed: FailedEvent[] = [];
    const resent: DeliveryResult[] = [];
    const listening: Array<Promise<void>> = [];
    const toMissing: WebhookNotification = { ...notification, via: () => ['missing'] };
    // Before, each refusal fired `failed` again and the listener resent, forever: the cap keeps this test finite.
    notifier.on('failed', (event) => {
      failed.push(event);
      listening.push((async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (resent.length < 1000) resent.push(...(await notifier.send(invoice, toMissing)));
      })());
    });
    await notifier.send(invoice, toMissing);
    for (let heard = -1; heard < listening.length; ) {
      heard = listening.length;
      await settlesWithin(Promise.all(listening), GUARD, 'the listeners');
    }
    assert.equal(failed.length, 1);
    assert.equal(resent.length, 1);
    assert.match(resent[0]!.error!.message, /not reported as a "failed" event, which would call that listener again, endlessly\.$/);
    await notifier.close();
  });

  it('reports every other send refused after close(), up to 100: a queue that sends again whatever failed stops there', async () => {
    const { notifier, events } = harness({ url: 'http://127.0.0.1:9/unused' });
    // A queue of the app's own, fed by the failed listener and drained outside it: it would resend forever.
    const queue: number[] = [];
    notifier.on('failed', () => void queue.push(1));
    await notifier.close();
    // Sends from request handlers during shutdown: each is told of.
    const handlers = await Promise.all([1, 2, 3].map(() => notifier.send(invoice, notification)));
    assert.equal(events.failed.length, 3);
    assert.ok(handlers.flat().every((result) => !result.ok && result.attempts === 0));
    let sent = 3;
    while (queue.length > 0 && sent < 1000) {
      queue.shift();
      sent += 1;
      await notifier.send(invoice, notification);
    }
    assert.ok(sent < 1000, `the queue ran dry after ${sent} sends`);
    assert.equal(events.failed.length, 100);
    const [past] = await notifier.send(invoice, notification);
    assert.match(past!.error!.message, /Not reported as a "failed" event: the first 100 sends refused after close\(\) were, and more would be a loop/);
  });
});
