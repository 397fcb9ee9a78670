// A channel's cap on requests in flight (maxConcurrent): sends beyond it wait for a slot, in order, off the clock of
// their timeout; a caller's signal and close() still end them there, and none is lost. Against real loopback servers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { Agent } from 'undici';
import { ConfigError } from '../../src/core/errors.js';
import { Notifier, WebhookChannel, newMessage, type WebhookAttemptError, type WebhookChannelConfig } from '../../src/webhook/index.js';
import { GUARD, invoice, invoicePaid, recordingNotifier } from './webhook-support/notifier-harness.js';
import { WEBHOOK_MODULE, failOnUnhandledRejections, serversClosedAfterEachTest, settlesWithin, type Responder } from './webhook-test-server.js';

failOnUnhandledRejections();

const numbered = (i: number) => ({ via: () => ['webhook'], toWebhook: () => newMessage().event('invoice.paid').payload({ n: i }) });

/** A responder that answers 204 after `holdMs`, and what it saw: the most requests it held at once. */
function holding(holdMs: number): { respond: Responder; mostAtOnce: () => number } {
  let held = 0;
  let most = 0;
  return {
    respond: (response) => {
      held += 1;
      most = Math.max(most, held);
      setTimeout(() => {
        held -= 1;
        response.writeHead(204).end();
      }, holdMs);
    },
    mostAtOnce: () => most,
  };
}

/** A responder that holds every request until `release()`, and resolves `arrived(n)` once `n` have come. */
function gated(): { respond: Responder; release: () => void; arrived: (count: number) => Promise<void> } {
  const waiting: ServerResponse[] = [];
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  let seen = 0;
  return {
    respond: (response) => {
      seen += 1;
      waiting.push(response);
      for (const watcher of watchers.filter((w) => w.count <= seen)) watcher.resolve();
    },
    release: () => {
      for (const response of waiting.splice(0)) response.writeHead(204).end();
    },
    arrived: (count) => (seen >= count ? Promise.resolve() : new Promise((resolve) => watchers.push({ count, resolve }))),
  };
}

describe('WebhookChannel maxConcurrent', () => {
  const serve = serversClosedAfterEachTest();

  it('is 32 by default, and refuses anything but a positive integer with ConfigError', () => {
    const url = 'https://hooks.example.com/in';
    assert.equal(new WebhookChannel({ url }).maxConcurrent, 32);
    assert.equal(new WebhookChannel({ url, maxConcurrent: 1 }).maxConcurrent, 1);
    for (const maxConcurrent of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '8', null]) {
      assert.throws(
        () => new WebhookChannel({ url, maxConcurrent: maxConcurrent as never }),
        (error: unknown) => error instanceof ConfigError && error.field === 'webhook.maxConcurrent' && /must be a positive integer, the requests in flight at once \(default 32\)/.test(error.message),
        String(maxConcurrent),
      );
    }
  });

  it('by default holds 100 concurrent sends to 32 requests in flight and 32 connections, and delivers every one', async () => {
    const receiver = holding(20);
    let requests = 0;
    let connections = 0;
    const server = createServer((request, response) => {
      requests += 1;
      request.resume();
      request.on('end', () => receiver.respond(response, undefined as never, requests - 1, request));
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { notifier } = recordingNotifier({ webhook: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, secret: 'whsec' } }, { retry: { attempts: 1 } });
      const results = await settlesWithin(Promise.all(Array.from({ length: 100 }, (_, i) => notifier.send(invoice, numbered(i)))), GUARD, 'the sends');
      await notifier.close();
      assert.equal(results.filter(([result]) => result!.ok).length, 100);
      assert.equal(requests, 100);
      assert.ok(receiver.mostAtOnce() <= 32, `at most 32 requests at once (saw ${receiver.mostAtOnce()})`);
      // A slot freed is handed on once undici can reuse the connection it freed, not sooner (which opens another).
      assert.ok(connections <= 32, `at most 32 connections (opened ${connections})`);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('holds a slot until the body of its answer is drained, so a receiver whose 2xx body trickles gets maxConcurrent connections', async () => {
    let connections = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        // The status and part of the body at once, the rest a little later: the outcome is known before the body ends.
        response.write('x'.repeat(100));
        setTimeout(() => response.end('y'), 50);
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const channel = new WebhookChannel({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, maxConcurrent: 4 });
    try {
      const deliveries = await Promise.all(Array.from({ length: 40 }, (_, i) => channel.prepare(invoice, numbered(i).toWebhook())));
      const outcomes = await settlesWithin(Promise.all(deliveries.map((delivery) => channel.attempt(delivery))), GUARD, 'the attempts');
      assert.equal(outcomes.filter((outcome) => outcome.ok).length, 40);
      assert.ok(connections <= 4, `at most 4 connections (opened ${connections})`);
    } finally {
      await channel.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('holds a lower maxConcurrent, and sends what waited in the order it came', async () => {
    const receiver = holding(10);
    const server = await serve(receiver.respond);
    for (const maxConcurrent of [3, 1]) {
      server.requests.length = 0;
      const channel = new WebhookChannel({ url: `${server.url}/hooks`, maxConcurrent });
      const deliveries = await Promise.all(Array.from({ length: 12 }, (_, i) => channel.prepare(invoice, newMessage().event('invoice.paid').payload({ n: i }))));
      const outcomes = await settlesWithin(Promise.all(deliveries.map((delivery) => channel.attempt(delivery))), GUARD, 'the attempts');
      await channel.close();
      assert.deepEqual(outcomes.map((outcome) => outcome.ok), Array(12).fill(true));
      assert.ok(receiver.mostAtOnce() <= 3, `at most 3 at once (saw ${receiver.mostAtOnce()})`);
      // One at a time, the order of arrival is the order of the calls.
      if (maxConcurrent === 1) assert.deepEqual(server.requests.map((request) => (JSON.parse(request.body.toString()) as { data: { n: number } }).data.n), [...Array(12).keys()]);
    }
  });

  it("starts each attempt's timeout when its request goes out: a send that waited longer than the timeout still succeeds", async () => {
    const timeout = 500;
    // The first two never answer, so each holds the one slot for its whole timeout; the third is answered at once.
    const server = await serve((response, _received, index) => {
      if (index >= 2) response.writeHead(204).end();
    });
    const channel = new WebhookChannel({ url: `${server.url}/hooks`, timeout, maxConcurrent: 1 });
    const deliveries = await Promise.all([0, 1, 2].map((i) => channel.prepare(invoice, newMessage().event('invoice.paid').payload({ n: i }))));
    const outcomes = await settlesWithin(Promise.all(deliveries.map((delivery) => channel.attempt(delivery))), GUARD, 'the attempts');
    await channel.close();
    assert.deepEqual(outcomes.map((outcome) => (outcome.ok ? 'ok' : outcome.kind)), ['timeout', 'timeout', 'ok'], 'the third waited two timeouts for its slot');
    assert.match((outcomes[0] as { error: WebhookAttemptError }).error.message, /did not answer within 500 ms/);
  });

  it("ends an attempt waiting for a slot at its caller's signal, saying it was not sent, and keeps the slot for the next", async () => {
    const receiver = gated();
    const server = await serve(receiver.respond);
    const channel = new WebhookChannel({ url: `${server.url}/hooks`, maxConcurrent: 1 });
    const [first, second, third] = await Promise.all([1, 2, 3].map((i) => channel.prepare(invoice, newMessage().event('invoice.paid').payload({ n: i }))));
    const firstOutcome = channel.attempt(first!);
    const controller = new AbortController();
    const waiting = channel.attempt(second!, { signal: controller.signal });
    controller.abort(new Error('user left'));
    const stopped = await settlesWithin(waiting, GUARD, 'the attempt waiting');
    assert.equal(stopped.ok, false);
    assert.equal(stopped.ok === false && stopped.kind, 'aborted');
    assert.match(stopped.ok === false ? stopped.error.message : '', /^POST http:\/\/127\.0\.0\.1:\d+\/hooks was not sent: the caller's signal aborted it while it waited for one of the channel's requests in flight to end \(maxConcurrent: 1\) \(reason: user left\)\.$/);
    const next = channel.attempt(third!);
    await settlesWithin(receiver.arrived(1), GUARD, 'the first request');
    receiver.release();
    assert.equal((await firstOutcome).ok, true);
    await settlesWithin(receiver.arrived(2), GUARD, 'the third request');
    receiver.release();
    assert.equal((await next).ok, true);
    await channel.close();
    assert.deepEqual(server.requests.map((request) => (JSON.parse(request.body.toString()) as { data: { n: number } }).data.n), [1, 3]);
  });

  it("ends a send waiting for a slot at its caller's signal: nothing sent, 0 attempts, reported with its body, and the slot still works", async () => {
    const receiver = gated();
    const server = await serve(receiver.respond);
    const { notifier, events } = recordingNotifier({ webhook: { url: `${server.url}/hooks`, secret: 'whsec', maxConcurrent: 1 } }, { retry: { attempts: 1 } });
    const first = notifier.send(invoice, numbered(1));
    await settlesWithin(receiver.arrived(1), GUARD, 'the first request');
    const controller = new AbortController();
    const second = notifier.send(invoice, numbered(2), { signal: controller.signal });
    // Signing the second takes turns of the event loop; it then waits for the slot the first holds (the message below
    // says it did: an abort before that would read as a send cancelled before its first attempt, no slot named).
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(new Error('user left'));
    const [cancelled] = await settlesWithin(second, GUARD, 'the cancelled send');
    assert.equal(cancelled!.ok, false);
    assert.equal(cancelled!.attempts, 0);
    assert.equal(cancelled!.error!.message, 'Webhook "invoice.paid" through channel "webhook" was cancelled by the caller\'s signal after 0 attempts, the next waiting for a free request slot of the channel (see maxConcurrent) (reason: user left).');
    assert.match((cancelled!.error!.cause as Error).message, /while it waited for one of the channel's requests in flight to end \(maxConcurrent: 1\)/);
    assert.deepEqual(JSON.parse(events.failed[0]!.body!).data, { n: 2 });
    assert.equal(events.attempt.length, 0, 'no attempt event for a request that never went out');
    receiver.release();
    assert.equal((await first)[0]!.ok, true);
    // The slot the cancelled send waited for is not lost.
    const third = notifier.send(invoice, numbered(3));
    await settlesWithin(receiver.arrived(2), GUARD, 'the third request');
    receiver.release();
    assert.equal((await third)[0]!.ok, true);
    await notifier.close();
    assert.deepEqual(server.requests.map((request) => (JSON.parse(request.body.toString()) as { data: { n: number } }).data.n), [1, 3]);
  });

  it("hands sends waiting for a slot back when close()'s timeout runs out: failures with their body, never sent", async () => {
    const receiver = gated();
    const server = await serve(receiver.respond);
    const { notifier, events } = recordingNotifier({ webhook: { url: `${server.url}/hooks`, maxConcurrent: 1 } }, { retry: { attempts: 1 } });
    const sends = [1, 2, 3].map((i) => notifier.send(invoice, numbered(i)));
    await settlesWithin(receiver.arrived(1), GUARD, 'the first request');
    await settlesWithin(notifier.close({ timeout: 100 }), GUARD, 'close()');
    const results = (await Promise.all(sends)).map(([result]) => result!);
    assert.deepEqual(results.map(({ ok, attempts }) => ({ ok, attempts })), [
      { ok: false, attempts: 1 },
      { ok: false, attempts: 0 },
      { ok: false, attempts: 0 },
    ]);
    assert.match(results[0]!.error!.message, /failed after 1 attempt: close\(\)'s timeout \(100 ms\) aborted the attempt in flight\.$/);
    for (const waited of results.slice(1)) {
      assert.equal(waited.error!.message, 'Webhook "invoice.paid" through channel "webhook" was not sent: close()\'s timeout (100 ms) ran out before its first attempt.');
      assert.match((waited.error!.cause as Error).message, /was not sent: the notifier's close\(\) timeout ran out while it waited for one of the channel's requests in flight to end \(maxConcurrent: 1\)\.$/);
    }
    assert.deepEqual(events.failed.map((event) => (JSON.parse(event.body!) as { data: { n: number } }).data.n).sort(), [1, 2, 3], 'every body handed back');
    assert.equal(server.requests.length, 1);
  });

  it('close() without a timeout waits for the sends waiting for a slot, and delivers them all', async () => {
    const server = await serve(holding(10).respond);
    const { notifier } = recordingNotifier({ webhook: { url: `${server.url}/hooks`, maxConcurrent: 1 } }, { retry: { attempts: 1 } });
    const sends = [1, 2, 3, 4, 5].map((i) => notifier.send(invoice, numbered(i)));
    await settlesWithin(notifier.close(), GUARD, 'close()');
    assert.deepEqual((await Promise.all(sends)).map(([result]) => result!.ok), [true, true, true, true, true]);
    assert.equal(server.requests.length, 5);
  });

  it("with a dispatcher limited to 2 connections and maxConcurrent 2, no send times out waiting in the dispatcher's queue; left at 32, the timeout says why", async () => {
    const server = await serve(holding(300).respond);
    const run = async (config: Partial<WebhookChannelConfig>) => {
      const dispatcher = new Agent({ connections: 2 });
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('webhook', new WebhookChannel({ url: `${server.url}/hooks`, timeout: 1_000, dispatcher, ...config }));
      const results = await settlesWithin(Promise.all(Array.from({ length: 10 }, (_, i) => notifier.send(invoice, numbered(i)))), GUARD, 'the sends');
      await notifier.close();
      await dispatcher.close();
      return results.map(([result]) => result!);
    };
    assert.deepEqual((await run({ maxConcurrent: 2 })).map((result) => result.ok), Array(10).fill(true));
    const timedOut = (await run({})).filter((result) => !result.ok);
    assert.ok(timedOut.length > 0, 'waiting in the dispatcher, some ran out of time');
    assert.match(
      timedOut[0]!.error!.message,
      /did not answer within 1000 ms; .* If the dispatcher you passed limits its connections, keep the channel's maxConcurrent \(now 32\) no higher, or requests wait in its queue, unsent, while their timeout runs\.$/,
    );
  });
});

describe('a send that finds this process out of file descriptors', () => {
  const serve = serversClosedAfterEachTest();

  it("says it is this machine's limit, not the receiver's fault, and what to do: lower maxConcurrent, raise ulimit -n", async () => {
    const server = await serve(holding(100).respond);
    // 200 connections at once in a process allowed 64 open files.
    const script = `
      import { WebhookChannel, newMessage } from ${WEBHOOK_MODULE};
      const channel = new WebhookChannel({ url: ${JSON.stringify(`${server.url}/hooks`)}, maxConcurrent: 200 });
      const message = newMessage().event('invoice.paid').payload({});
      await channel.attempt(await channel.prepare({ type: 'invoice', id: 0 }, message)); // loads what a connection needs
      const deliveries = await Promise.all(Array.from({ length: 200 }, (_, i) => channel.prepare({ type: 'invoice', id: i }, message)));
      const failed = (await Promise.all(deliveries.map((delivery) => channel.attempt(delivery)))).filter((outcome) => !outcome.ok);
      console.log(JSON.stringify(failed.map((outcome) => ({ kind: outcome.kind, message: outcome.error.message }))));
      await channel.close();
    `;
    const child = spawn('/bin/sh', ['-c', 'ulimit -n 64 && exec "$0" "$@"', process.execPath, '--import', 'tsx', '--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    try {
      const [code] = (await settlesWithin(once(child, 'exit'), 30_000, 'the process with 64 open files')) as [number | null];
      assert.equal(code, 0, stderr);
    } finally {
      child.kill('SIGKILL');
    }
    const failed = JSON.parse(stdout) as Array<{ kind: string; message: string }>;
    assert.ok(failed.length > 0, 'some connections could not be opened');
    const emfile = failed.filter(({ message }) => message.includes('EMFILE'));
    assert.ok(emfile.length > 0, stdout);
    for (const { kind, message } of emfile) {
      assert.equal(kind, 'network');
      assert.match(
        message,
        /^POST http:\/\/127\.0\.0\.1:\d+\/hooks could not be sent: this process ran out of file descriptors \(each connection is one\): .*\(EMFILE\)\. That is a limit of this machine, not a fault of the receiver: lower the channel's maxConcurrent \(now 200\), or send through fewer channels at once, or raise the process's limit of open files \(ulimit -n; LimitNOFILE= in a systemd unit\)\.$/,
      );
      assert.ok(!message.includes('could not be reached'));
    }
  });
});
