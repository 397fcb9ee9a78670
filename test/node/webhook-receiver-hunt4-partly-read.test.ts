// A request whose body something else began to read before the handler (a middleware counting 'data' events, one
// that resumed the request): what is left is not the bytes that were signed, and a 401 blaming the secrets would send
// the operator the wrong way. It is a setup mistake, answered 500 saying so.
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { listen, sign } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { pad: 'x'.repeat(2000) } });

describe('createWebhookHandler after a middleware that read part of the body', () => {
  const refusals: WebhookRefusal[] = [];
  const errors: unknown[] = [];
  let events = 0;
  const handler = createWebhookHandler({ secret: SECRET, onEvent: () => void events++, onRefused: (refusal) => void refusals.push(refusal), onError: (error) => void errors.push(error) });
  let handlerCalled: () => void = () => {};
  // The middleware counts bytes as they come and hands on at its first chunk: the rest is still to arrive.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let handedOn = false;
    req.on('data', () => {
      if (handedOn) return;
      handedOn = true;
      void handler(req, res);
      handlerCalled();
    });
  });
  let origin: string;
  before(async () => {
    origin = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends the first half of the body, the second once the handler has been called; the status and answer. */
  function postInTwoHalves(): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const half = eventBody.length / 2;
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(eventBody), 'x-signature': sign(eventBody, SECRET) };
      const outgoing = request(`${origin}/hooks`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      outgoing.on('error', reject);
      handlerCalled = () => outgoing.end(eventBody.slice(half));
      outgoing.write(eventBody.slice(0, half));
    });
  }

  it('answers 500 saying part of the body was read before it, never 401 blaming the secrets', async () => {
    const { status, text } = await postInTwoHalves();
    assert.equal(status, 500);
    assert.deepEqual(refusals, []);
    assert.equal(events, 0);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ConfigError, String(errors[0]));
    assert.match(errors[0].message, /part of the body was read before it/);
    assert.equal(JSON.parse(text).error, errors[0].message);
  });
});
