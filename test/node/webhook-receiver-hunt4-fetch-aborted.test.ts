// createWebhookFetchHandler given a request whose client went away mid-body: as the Node handler does, it settles
// and tells onError "the request was aborted before its body arrived" (the README's words for both handlers), not the
// runtime's own error ("aborted", "terminated"), which says nothing of what happened to a webhook.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookFetchHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { settlesWithin, startFetchServer } from './webhook-test-server.js';

const GUARD = 5_000;
const SIGNATURE = `sha256=${'0'.repeat(64)}`;

describe('createWebhookFetchHandler given a request whose client went away mid-body', () => {
  it('settles, and onError hears that the request was aborted before its body arrived; no refusal, no event', async () => {
    const told = { events: 0, refusals: [] as WebhookRefusal[], errors: [] as unknown[] };
    let errorTold!: () => void;
    const onErrorCalled = new Promise<void>((resolve) => (errorTold = resolve));
    const handler = createWebhookFetchHandler({
      secret: 'receiver-secret',
      onEvent: () => void told.events++,
      onRefused: (refusal) => void told.refusals.push(refusal),
      onError: (error) => {
        told.errors.push(error);
        errorTold();
      },
    });
    const server = await startFetchServer(handler);
    try {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(`POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Signature: ${SIGNATURE}\r\n\r\n{"event":`);
      // Gone once the handler has read what came: the rest never will.
      for (let i = 0; i < 200 && (server.bodyBytesRead[0] ?? 0) === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      socket.destroy();
      await settlesWithin(onErrorCalled, GUARD, 'onError');
      assert.deepEqual(told.refusals, []);
      assert.equal(told.events, 0);
      assert.equal(told.errors.length, 1);
      assert.ok(!(told.errors[0] instanceof ConfigError), String(told.errors[0]));
      assert.match((told.errors[0] as Error).message, /^the request was aborted before its body arrived$/);
      assert.deepEqual(server.rejections, []);
    } finally {
      await server.close();
    }
  });
});
