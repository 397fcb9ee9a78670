// The receivers as backend frameworks use them: the raw body a parser kept as text (koa-bodyparser, fastify-raw-body,
// `req.rawBody = buf.toString()`), a framework's wrapper passed instead of Node's request, a Response made with the
// undici package, a signed body that starts with a byte order mark, and an async onError that rejects.
import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Response as UndiciResponse } from 'undici';
import { InvalidArgumentError } from '../../src/core/errors.js';
import { createWebhookFetchHandler, createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { listen, post, sign as signWith } from './webhook-support/receiver-requests.js';
import { WEBHOOK_MODULE, runInOwnProcess } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
const sign = (body: string | Buffer, secret = SECRET) => signWith(body, secret);
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { name: 'Zoë ✓' } });

describe('createWebhookHandler after a parser that kept the raw body as text in req.rawBody', () => {
  const received: string[] = [];
  const refusals: WebhookRefusal[] = [];
  const errors: unknown[] = [];
  const handler = createWebhookHandler({
    secret: SECRET,
    maxBodySize: 4096,
    onEvent: (event) => void received.push(event.data.name as string),
    onRefused: (refusal) => void refusals.push(refusal),
    onError: (error) => void errors.push(error),
  });
  // As koa-bodyparser (ctx.request.rawBody, handed on as ctx.req.rawBody) and fastify-raw-body keep it: decoded UTF-8.
  const server = createServer((req: IncomingMessage & { rawBody?: unknown; body?: unknown }, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      req.rawBody = text;
      req.body = JSON.parse(text);
      void handler(req, res);
    });
  });
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('verifies that text: 204 when it matches, 401 when not, 413 when its bytes pass maxBodySize', async () => {
    assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
    assert.deepEqual(received, ['Zoë ✓']);
    assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody, 'other-secret') })).status, 401);
    // 2,100 characters, 4,200 bytes.
    const big = JSON.stringify({ event: 'e', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 1 }, data: { text: 'é'.repeat(2100) } });
    assert.equal((await post(url, big, { 'x-signature': sign(big) })).status, 413);
    assert.deepEqual(refusals.map(({ status }) => status), [401, 413]);
    assert.deepEqual(errors, []);
  });
});

describe("createWebhookHandler given a framework's wrapper instead of Node's request", () => {
  const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
  const call = handler as unknown as (request: unknown, response?: unknown) => Promise<void>;
  const nodeRequest = new IncomingMessage(new Socket());
  const nodeResponse = new ServerResponse(nodeRequest);

  it("says to pass Koa's ctx.req and ctx.res for a Koa context or request", async () => {
    for (const wrapper of [{ req: nodeRequest, res: nodeResponse, request: {} }, { req: nodeRequest, ctx: {} }]) {
      await assert.rejects(call(wrapper, nodeResponse), (error: unknown) => error instanceof InvalidArgumentError && /with Koa, pass ctx\.req and ctx\.res/.test(error.message));
    }
  });

  it("says to pass Fastify's request.raw and reply.raw for Fastify's request", async () => {
    await assert.rejects(call({ raw: nodeRequest, body: {} }, { raw: nodeResponse }), (error: unknown) => error instanceof InvalidArgumentError && /with Fastify, pass request\.raw and reply\.raw/.test(error.message));
  });
});

describe('createWebhookFetchHandler given a Response made with the undici package', () => {
  const signed = (body = eventBody, secret = SECRET) => new Request('http://127.0.0.1/hooks', { method: 'POST', body, headers: { 'x-signature': sign(body, secret) } });

  it('answers with the one onEvent returns, not 204: a 503 that asks the sender to retry is not lost', async () => {
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => new UndiciResponse('busy', { status: 503, headers: { 'retry-after': '30' } }) });
    const answer = await handler(signed());
    assert.equal(answer.status, 503);
    assert.equal(answer.headers.get('retry-after'), '30');
    assert.equal(await answer.text(), 'busy');
  });

  it('answers with the one onRefused returns, instead of the refusal', async () => {
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, onRefused: () => new UndiciResponse(null, { status: 404 }) });
    assert.equal((await handler(signed(eventBody, 'other-secret'))).status, 404);
  });
});

describe('a receiver given a signed body that starts with a byte order mark', () => {
  // RFC 8259 lets a parser ignore one; express.json() and Request.json() do. The signature covers it.
  const withBom = `\uFEFF${eventBody}`;

  it('hands over the event after it (Fetch handler)', async () => {
    const received: string[] = [];
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: (event) => void received.push(event.event) });
    const answer = await handler(new Request('http://127.0.0.1/hooks', { method: 'POST', body: withBom, headers: { 'x-signature': sign(withBom) } }));
    assert.deepEqual([answer.status, await answer.text()], [204, '']);
    assert.deepEqual(received, ['user.created']);
  });

  it('hands over the event after it (Node handler), and still refuses the same body signed without it', async () => {
    const received: string[] = [];
    const server = createServer(createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event.event) }));
    const url = await listen(server);
    try {
      assert.equal((await post(url, withBom, { 'x-signature': sign(withBom) })).status, 204);
      assert.equal((await post(url, withBom, { 'x-signature': sign(eventBody) })).status, 401);
      assert.deepEqual(received, ['user.created']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a receiver whose async onError rejects', () => {
  it('writes both errors to the console, and the process goes on (no unhandled rejection)', async () => {
    const { code, stdout, stderr } = await runInOwnProcess(
      `
      import { createHmac } from 'node:crypto';
      import { createServer } from 'node:http';
      import { createWebhookFetchHandler, createWebhookHandler } from ${WEBHOOK_MODULE};
      const body = ${JSON.stringify(eventBody)};
      const headers = { 'x-signature': 'sha256=' + createHmac('sha256', 's3cret').update(body).digest('hex') };
      const options = (where) => ({
        secret: 's3cret',
        onEvent: () => { throw new Error(where + ' onEvent failed'); },
        onError: async () => { throw new Error(where + ' log sink down'); },
      });
      const fetchAnswer = await createWebhookFetchHandler(options('fetch'))(new Request('http://h/', { method: 'POST', body, headers }));
      const server = createServer(createWebhookHandler(options('node')));
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const nodeAnswer = await fetch('http://127.0.0.1:' + server.address().port + '/', { method: 'POST', body, headers });
      server.close();
      await new Promise((resolve) => setImmediate(resolve));
      console.log(fetchAnswer.status, nodeAnswer.status);
      `,
      'the handlers answering',
    );
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), '500 500');
    assert.match(stderr, /Webhook handler failed: Error: fetch onEvent failed[^]*and its onError threw: Error: fetch log sink down/);
    assert.match(stderr, /Webhook handler failed: Error: node onEvent failed[^]*and its onError threw: Error: node log sink down/);
  });
});
