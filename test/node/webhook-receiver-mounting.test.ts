// The receiver helper where frameworks put it: after a parser that kept the raw bytes aside, behind something that
// compressed the body, called the Fetch way, and with a body that is signed but no event. Each mistake is explained.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IncomingMessage, createServer, type Server, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { inspect } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConfigError, InvalidArgumentError } from '../../src/core/errors.js';
import { createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { listen, post, sign as signWith } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const sign = (body: string | Buffer, secret = SECRET) => signWith(body, secret);
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { email: 'a@example.com' } });

type Request = IncomingMessage & { body?: unknown; rawBody?: unknown };
type Middleware = (req: Request, res: ServerResponse, next: (error?: unknown) => void) => unknown;

// Reads the whole body, as body parsers do, and hands it to `keep`.
const parser =
  (keep: (req: Request, bytes: Buffer) => void): Middleware =>
  (req, _res, next) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      keep(req, Buffer.concat(chunks));
      next();
    });
  };

describe('createWebhookHandler after a parser that kept the raw bytes in req.rawBody', () => {
  const received: string[] = [];
  const refusals: WebhookRefusal[] = [];
  const errors: unknown[] = [];
  const handler = createWebhookHandler({ secret: SECRET, maxBodySize: 4096, onEvent: (event) => void received.push(event.event), onRefused: (refusal) => void refusals.push(refusal) });

  /** A minimal Connect/Express-style runner: middlewares in order, errors to a final handler. */
  function app(...middlewares: Middleware[]): Server {
    return createServer((req, res) => {
      let index = 0;
      const next = (error?: unknown) => {
        if (error !== undefined) {
          errors.push(error);
          res.writeHead(500).end();
          return;
        }
        const middleware = middlewares[index++];
        if (middleware) void middleware(req, res, next);
        else res.writeHead(404).end();
      };
      next();
    });
  }
  // express.json({ verify: (req, res, buf) => { req.rawBody = buf } }); NestJS's rawBody: true and Cloud Functions do the same.
  const jsonKeepingRaw = parser((req, bytes) => {
    req.rawBody = bytes;
    req.body = JSON.parse(bytes.toString());
  });
  const jsonOnly = parser((req, bytes) => {
    req.body = JSON.parse(bytes.toString());
  });
  const servers = { kept: app(jsonKeepingRaw, handler), parsed: app(jsonOnly, handler) };
  const urls: Record<string, string> = {};
  before(async () => {
    for (const [name, server] of Object.entries(servers)) urls[name] = await listen(server);
  });
  after(() => Promise.all(Object.values(servers).map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  it('verifies the bytes in req.rawBody: 204 when they match, 401 when not, 413 over maxBodySize', async () => {
    received.length = 0;
    refusals.length = 0;
    errors.length = 0;
    assert.equal((await post(urls.kept!, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
    assert.equal((await post(urls.kept!, eventBody, { 'x-signature': sign(eventBody, 'wrong') })).status, 401);
    const big = JSON.stringify({ ...JSON.parse(eventBody), data: { pad: 'x'.repeat(5000) } });
    assert.equal((await post(urls.kept!, big, { 'x-signature': sign(big) })).status, 413);
    assert.deepEqual(received, ['user.created']);
    assert.deepEqual(refusals.map((refusal) => refusal.status), [401, 413]);
    assert.deepEqual(errors, []);
  });

  it('without req.rawBody, refuses a body read before it and names every way to keep the bytes', async () => {
    errors.length = 0;
    assert.equal((await post(urls.parsed!, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ConfigError);
    assert.match(errors[0].message, /before any body parser.*express\.raw\(.*req\.rawBody/);
  });
});

describe('createWebhookHandler with a compressed body', () => {
  const refusals: WebhookRefusal[] = [];
  const received: string[] = [];
  const handler = createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event.event), onRefused: (refusal) => void refusals.push(refusal) });
  // What express.raw() does with a gzip body: it hands on the bytes decompressed.
  const inflating = parser((req, bytes) => {
    req.body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes;
  });
  const direct = createServer((req, res) => void handler(req, res));
  const behindParser = createServer((req, res) => void inflating(req, res, () => void handler(req, res)));
  const urls: string[] = [];
  before(async () => {
    urls.push(await listen(direct), await listen(behindParser));
  });
  after(() => Promise.all([direct, behindParser].map((server) => new Promise<void>((resolve) => server.close(() => resolve())))));

  it('says the compression is why the signature does not match when it read the bytes itself, and accepts them decompressed', async () => {
    refusals.length = 0;
    received.length = 0;
    const headers = { 'content-encoding': 'gzip', 'x-signature': sign(eventBody) };
    const refused = await post(urls[0]!, gzipSync(eventBody), headers);
    assert.equal(refused.status, 401);
    assert.match(JSON.parse(refused.text).error, /^invalid signature: the body arrived with Content-Encoding: gzip, .*express\.raw/);
    assert.equal((await post(urls[1]!, gzipSync(eventBody), headers)).status, 204);
    // Decompressed by the parser yet signed with another secret: the encoding is not what went wrong.
    assert.equal((await post(urls[1]!, gzipSync(eventBody), { ...headers, 'x-signature': sign(eventBody, 'wrong') })).status, 401);
    assert.match(refusals[1]!.reason, /the secrets differ/);
    assert.deepEqual(received, ['user.created']);
  });
});

describe('createWebhookHandler given a signed body that is no webhook event', () => {
  const refusals: WebhookRefusal[] = [];
  const server = createServer(createWebhookHandler({ secret: SECRET, onEvent: () => {}, onRefused: (refusal) => void refusals.push(refusal) }));
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 400 saying which part is wrong', async () => {
    const event = JSON.parse(eventBody) as Record<string, unknown>;
    const cases: Array<[string, string]> = [
      ['', 'it is empty'],
      ['not json', 'it is not JSON'],
      ['[]', 'it is a JSON array, not an object'],
      ['"text"', 'it is a JSON string, not an object'],
      [JSON.stringify({ ...event, event: 1 }), '"event" is not a string'],
      [JSON.stringify({ ...event, sent_at: undefined }), '"sent_at" is not a string'],
      [JSON.stringify({ ...event, notifiable: 'user' }), '"notifiable" is not an object'],
      [JSON.stringify({ ...event, notifiable: { id: 1 } }), '"notifiable.type" is not a string'],
      [JSON.stringify({ ...event, notifiable: { type: 'user', id: true } }), '"notifiable.id" is not a string or a number'],
      [JSON.stringify({ ...event, data: [1] }), '"data" is not an object'],
    ];
    for (const [body, why] of cases) {
      const answer = await post(url, body, { 'x-signature': sign(body) });
      assert.equal(answer.status, 400, body);
      assert.deepEqual(JSON.parse(answer.text), { error: `body is not a webhook event: ${why}` }, body);
    }
    assert.deepEqual(refusals.map((refusal) => refusal.reason), cases.map(([, why]) => `body is not a webhook event: ${why}`));
  });
});

describe('createWebhookHandler called the Fetch way', () => {
  const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });

  it('rejects with InvalidArgumentError saying to use createWebhookFetchHandler, for a Fetch API Request', async () => {
    const fetchRequest = new Request('http://127.0.0.1/hooks', { method: 'POST', body: eventBody, headers: { 'x-signature': sign(eventBody), authorization: 'Bearer hook-token' } });
    const call = handler as unknown as (request: unknown, response?: unknown) => Promise<void>;
    // Logged whole (util.inspect), the error must not carry the request and its credentials.
    await assert.rejects(
      call(fetchRequest),
      (error: unknown) => error instanceof InvalidArgumentError && /not a Fetch API Request; with one \(a Next\.js route handler, Hono, Bun, Deno\), use createWebhookFetchHandler\(options\)/.test(error.message) && !inspect(error, { depth: 5 }).includes('hook-token'),
    );
  });

  it("rejects with InvalidArgumentError when the request or the response is not Node's", async () => {
    const call = handler as unknown as (request: unknown, response?: unknown) => Promise<void>;
    await assert.rejects(call({ headers: {} }, {}), (error: unknown) => error instanceof InvalidArgumentError && /request.*IncomingMessage/.test(error.message));
    const nodeRequest = new IncomingMessage(new Socket());
    await assert.rejects(call(nodeRequest), (error: unknown) => error instanceof InvalidArgumentError && /response.*ServerResponse/.test(error.message));
  });
});
