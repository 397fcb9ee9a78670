// bodyTimeout: Infinity turns the receivers' body timer off (0 stays refused: elsewhere in this package 0 is a number of
// milliseconds, and the message points to Infinity). A receiver with it off still reads a body that comes in two parts
// and hands the event over; what is no usable value, null included, is a ConfigError rather than the default kept
// silently. Real loopback http, http2 and Fetch-style servers; no timing is asserted.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as pause } from 'node:timers/promises';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookFetchHandler, createWebhookHandler } from '../../src/webhook/index.js';
import { sign } from './webhook-support/receiver-requests.js';
import { failOnUnhandledRejections, settlesWithin, startFetchServer } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
const GUARD = 4_000;
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { email: 'a@example.com' } });
const firstPart = eventBody.slice(0, 40);
const secondPart = eventBody.slice(40);

failOnUnhandledRejections();

const builders = [
  ['createWebhookHandler', (options: Record<string, unknown>) => createWebhookHandler({ secret: SECRET, onEvent: () => {}, ...options })],
  ['createWebhookFetchHandler', (options: Record<string, unknown>) => createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, ...options })],
] as const;

/** POSTs the event on a raw connection in two writes, a short pause apart; what the server answered once it closed. */
async function postInTwoParts(port: number): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  try {
    await once(socket, 'connect');
    const head = ['POST /hooks HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(eventBody)}`, `X-Signature: ${sign(eventBody, SECRET)}`, 'Connection: close'];
    socket.write(`${head.join('\r\n')}\r\n\r\n${firstPart}`);
    await pause(50);
    socket.write(secondPart);
    await settlesWithin(once(socket, 'end'), GUARD, 'the answer');
    return answer;
  } finally {
    socket.destroy();
  }
}

describe('bodyTimeout: Infinity, as given to either builder', () => {
  it('is taken as "no limit" by both builders', () => {
    for (const [name, build] of builders) assert.equal(typeof build({ bodyTimeout: Infinity }), 'function', name);
  });

  it('refuses 0, null, -Infinity and the like with a ConfigError that says Infinity means no limit', () => {
    for (const [name, build] of builders) {
      for (const bodyTimeout of [0, null, -Infinity, Number.NaN, 2 ** 31, '10000', false]) {
        assert.throws(
          () => build({ bodyTimeout }),
          (error: unknown) => error instanceof ConfigError && error.field === 'bodyTimeout' && /or Infinity for no limit/.test(error.message),
          `${name} ${String(bodyTimeout)}`,
        );
      }
    }
  });

  it('refuses maxBodySize: null instead of keeping the 1 MiB default without a word', () => {
    for (const [name, build] of builders) {
      assert.throws(() => build({ maxBodySize: null }), (error: unknown) => error instanceof ConfigError && error.field === 'maxBodySize', name);
    }
  });
});

describe('a receiver with bodyTimeout: Infinity', () => {
  it('createWebhookHandler on HTTP/1.1 reads a body sent in two parts and answers 204', async () => {
    const events: unknown[] = [];
    const server = createServer(createWebhookHandler({ secret: SECRET, bodyTimeout: Infinity, onEvent: (event) => void events.push(event) }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const answer = await postInTwoParts((server.address() as AddressInfo).port);
      assert.match(answer, /^HTTP\/1\.1 204 /, answer);
      assert.deepEqual(events, [JSON.parse(eventBody)]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('createWebhookHandler on HTTP/2 reads a body sent in two parts and answers 204', async () => {
    const events: unknown[] = [];
    const server = createHttp2Server(createWebhookHandler({ secret: SECRET, bodyTimeout: Infinity, onEvent: (event) => void events.push(event) }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': sign(eventBody, SECRET) });
      stream.write(firstPart);
      await pause(50);
      stream.end(secondPart);
      const [headers] = (await settlesWithin(once(stream, 'response'), GUARD, 'the answer')) as [Record<string, unknown>];
      stream.resume();
      assert.equal(headers[':status'], 204);
      assert.deepEqual(events, [JSON.parse(eventBody)]);
    } finally {
      session.destroy();
      server.close();
    }
  });

  it('createWebhookFetchHandler reads a body sent in two parts and answers 204', async () => {
    const events: unknown[] = [];
    const server = await startFetchServer(createWebhookFetchHandler({ secret: SECRET, bodyTimeout: Infinity, onEvent: (event) => void events.push(event) }));
    try {
      const answer = await postInTwoParts(Number(new URL(server.url).port));
      assert.match(answer, /^HTTP\/1\.1 204 /, answer);
      assert.deepEqual(events, [JSON.parse(eventBody)]);
      assert.deepEqual(server.rejections, []);
    } finally {
      await server.close();
    }
  });
});
