// The raw body a framework kept, in the shapes frameworks keep it: a Uint8Array (not a Buffer), a view into a larger
// buffer, an ArrayBuffer, a DataView, in req.rawBody or (from a raw parser) in req.body. Anything else there is named,
// with what to pass instead, rather than blamed on a body parser.
import assert from 'node:assert/strict';
import { IncomingMessage, createServer, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { listen, post, sign as signWith } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const sign = (body: string | Buffer, secret = SECRET) => signWith(body, secret);
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { name: 'Zoë ✓' } });

type Request = IncomingMessage & { body?: unknown; rawBody?: unknown };
type Keep = (req: Request, bytes: Buffer) => void;

// A view of `bytes` at an offset inside a larger buffer, as a pooled allocator hands them out.
function offsetView(bytes: Buffer): Uint8Array {
  const pool = new Uint8Array(bytes.length + 16);
  pool.set(bytes, 7);
  return pool.subarray(7, 7 + bytes.length);
}
const arrayBufferOf = (bytes: Buffer) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);

const KEEPERS: Record<string, Keep> = {
  uint8Array: (req, bytes) => void (req.rawBody = new Uint8Array(bytes)),
  offsetView: (req, bytes) => void (req.rawBody = offsetView(bytes)),
  arrayBuffer: (req, bytes) => void (req.rawBody = arrayBufferOf(bytes)),
  dataView: (req, bytes) => void (req.rawBody = new DataView(arrayBufferOf(bytes))),
  bodyUint8Array: (req, bytes) => void (req.body = offsetView(bytes)),
  bodyArrayBuffer: (req, bytes) => void (req.body = arrayBufferOf(bytes)),
  promise: (req, bytes) => void (req.rawBody = Promise.resolve(bytes)),
  parsedObject: (req, bytes) => void (req.rawBody = JSON.parse(bytes.toString())),
  number: (req) => void (req.rawBody = 42),
};

describe('createWebhookHandler after a parser that kept the raw body as bytes other than a Buffer', () => {
  const received: string[] = [];
  const refusals: WebhookRefusal[] = [];
  const errors: unknown[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    maxBodySize: 4096,
    onEvent: (event) => void received.push(event.data.name as string),
    onRefused: (refusal) => void refusals.push(refusal),
  });
  // Express-style: the error goes to next(), which answers 500.
  const server = createServer((req: Request, res: ServerResponse) => {
    const keep = KEEPERS[new URL(req.url!, 'http://x').pathname.slice(1)]!;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      const bytes = Buffer.concat(chunks);
      if (req.body === undefined) req.body = JSON.parse(bytes.toString());
      keep(req, bytes);
      void handler(req, res, (error) => {
        errors.push(error);
        res.writeHead(500).end();
      });
    });
  });
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const shape of ['uint8Array', 'offsetView', 'arrayBuffer', 'dataView', 'bodyUint8Array', 'bodyArrayBuffer']) {
    it(`verifies a ${shape}: 204 when it matches, 401 when not, 413 over maxBodySize`, async () => {
      received.length = 0;
      refusals.length = 0;
      errors.length = 0;
      assert.equal((await post(`${url}/${shape}`, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
      assert.deepEqual(received, ['Zoë ✓']);
      assert.equal((await post(`${url}/${shape}`, eventBody, { 'x-signature': sign(eventBody, 'other-secret') })).status, 401);
      const big = JSON.stringify({ event: 'e', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 1 }, data: { text: 'x'.repeat(5000) } });
      assert.equal((await post(`${url}/${shape}`, big, { 'x-signature': sign(big) })).status, 413);
      assert.deepEqual(refusals.map(({ status }) => status), [401, 413]);
      assert.deepEqual(errors, []);
    });
  }

  for (const [shape, kind] of [['promise', 'a Promise'], ['parsedObject', 'an object'], ['number', 'a number']] as const) {
    it(`names req.rawBody holding ${kind}, and what to keep there instead`, async () => {
      errors.length = 0;
      assert.equal((await post(`${url}/${shape}`, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
      assert.equal(errors.length, 1);
      const error = errors[0];
      assert.ok(error instanceof ConfigError, String(error));
      assert.equal(error.field, 'req.rawBody');
      assert.ok(error.message.includes(`(got ${kind})`), error.message);
      assert.match(error.message, /Buffer, Uint8Array, ArrayBuffer or UTF-8 text/);
      // Its type only: a parsed body is the sender's data.
      assert.ok(!error.message.includes('user.created'), error.message);
    });
  }
});
