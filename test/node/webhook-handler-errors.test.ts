// What both receivers do with an error they answer 500 for (onEvent or onRefused throwing, a body read before them):
// told to onError when given, else written to the console, or left to Express's next(error), which logs it. Before,
// it became a 500 no one on the receiving side could see.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { ConfigError } from '../../src/core/errors.js';
import { WebhookChannel, createWebhookFetchHandler, createWebhookHandler, newMessage } from '../../src/webhook/index.js';
import { WEBHOOK_MODULE, runInOwnProcess } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
const failing = () => {
  throw new Error('database down');
};

/** A real channel's signed delivery, as a Fetch API Request to the handler. */
async function signedRequest(): Promise<Request> {
  const channel = new WebhookChannel({ url: 'http://127.0.0.1:1/unused', secret: SECRET });
  const { body, headers } = await channel.prepare({ type: 'user', id: 1 }, newMessage().event('user.created').payload({}));
  return new Request('http://127.0.0.1/hooks', { method: 'POST', body: new Uint8Array(body), headers });
}

/** Node's handler behind a loopback server; `next`, when given, is passed as Express passes it. */
async function postToNodeHandler(handler: ReturnType<typeof createWebhookHandler>, next?: (error: unknown, response: ServerResponse) => void): Promise<number> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => void handler(req, res, next && ((error) => next(error, res))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const signed = await signedRequest();
    const response = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, {
      method: 'POST',
      headers: Object.fromEntries(signed.headers),
      body: Buffer.from(await signed.arrayBuffer()),
    });
    await response.body.dump();
    return response.statusCode;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('a receiver answering 500', () => {
  it('tells onError what onEvent threw, with the request (Fetch handler)', async () => {
    const told: Array<[unknown, Request]> = [];
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: failing, onError: (error, { request: req }) => void told.push([error, req]) });
    const signed = await signedRequest();
    const answer = await handler(signed);
    assert.equal(answer.status, 500);
    assert.equal(told.length, 1);
    assert.equal((told[0]![0] as Error).message, 'database down');
    assert.equal(told[0]![1], signed);
  });

  it('tells onError what onEvent threw, with the request and response (Node handler), and still hands it to next under Express', async () => {
    const told: unknown[] = [];
    const onError = (error: unknown, context: { request: IncomingMessage; response: ServerResponse }) => void told.push(error, context.request.url, typeof context.response.writeHead);
    assert.equal(await postToNodeHandler(createWebhookHandler({ secret: SECRET, onEvent: failing, onError })), 500);
    assert.deepEqual(told.map((item) => (item instanceof Error ? item.message : item)), ['database down', '/hooks', 'function']);
    const nexted: unknown[] = [];
    const status = await postToNodeHandler(createWebhookHandler({ secret: SECRET, onEvent: failing, onError }), (error, response) => {
      nexted.push(error);
      response.writeHead(502).end();
    });
    assert.deepEqual([status, nexted.length, told.length], [502, 1, 6]);
  });

  it('writes the error to the console without onError, but not under Express, whose error handler logs it; an onError that throws is written too', async () => {
    const { code, stdout, stderr } = await runInOwnProcess(
      `
      import { createServer } from 'node:http';
      import { WebhookChannel, createWebhookFetchHandler, createWebhookHandler, newMessage } from ${WEBHOOK_MODULE};
      const channel = new WebhookChannel({ url: 'http://127.0.0.1:1/unused', secret: 's3cret' });
      const { body, headers } = await channel.prepare({ type: 'user', id: 1 }, newMessage().event('user.created').payload({}));
      const fail = (text) => () => { throw new Error(text); };
      const fetchAnswer = await createWebhookFetchHandler({ secret: 's3cret', onEvent: fail('fetch onEvent failed') })(new Request('http://h/', { method: 'POST', body, headers }));
      const thrower = createWebhookFetchHandler({ secret: 's3cret', onEvent: fail('second failure'), onError: fail('onError failed too') });
      const secondAnswer = await thrower(new Request('http://h/', { method: 'POST', body, headers }));
      // Under Express: next(error) gets it, and nothing more is written.
      const express = createWebhookHandler({ secret: 's3cret', onEvent: fail('express onEvent failed') });
      const server = createServer((req, res) => void express(req, res, () => res.writeHead(500).end()));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const nodeAnswer = await fetch('http://127.0.0.1:' + server.address().port + '/', { method: 'POST', body, headers });
      server.close();
      console.log(fetchAnswer.status, secondAnswer.status, nodeAnswer.status);
      `,
      'the handlers answering',
    );
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), '500 500 500');
    assert.match(stderr, /Webhook handler failed: Error: fetch onEvent failed/);
    assert.match(stderr, /Webhook handler failed: Error: second failure[^]*and its onError threw: Error: onError failed too/);
    assert.doesNotMatch(stderr, /express onEvent failed/);
  });

  it('refuses an onError that is not a function, at construction', () => {
    // One signature for both: their type parameters differ (the Node handler's request and response types).
    const creators: ReadonlyArray<(options: { secret: string; onEvent: () => undefined; onError: never }) => unknown> = [createWebhookHandler, createWebhookFetchHandler];
    for (const create of creators) {
      assert.throws(() => create({ secret: SECRET, onEvent: () => undefined, onError: 'console.error' as never }), (error: unknown) => error instanceof ConfigError && error.field === 'onError');
    }
  });
});
