// The Fetch API receiver, behind a real loopback server that hands it each request as a Request (as Next.js, Hono's
// Node adapter, Bun and Deno do) and writes back its Response. Deliveries come from a real WebhookChannel, signed by it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { ConfigError, InvalidArgumentError } from '../../src/core/errors.js';
import { sign as signWith } from './webhook-support/receiver-requests.js';
import {
  Notifier,
  WebhookChannel,
  createWebhookFetchHandler,
  newMessage,
  type WebhookBody,
  type WebhookFetchHandler,
  type WebhookFetchReceiverOptions,
  type WebhookRefusal,
} from '../../src/webhook/index.js';
import { failOnUnhandledRejections, settlesWithin, startFetchServer, type FetchTestServer } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
const GUARD = 15_000;
const sign = (body: string | Buffer, secret = SECRET) => signWith(body, secret);
const user = { type: 'user', id: 42 };
const created = () => newMessage().event('user.created').payload({ email: 'a@example.com' });

failOnUnhandledRejections();

async function post(url: string, body: string | Buffer, headers: Record<string, string | readonly string[]> = {}) {
  const response = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** A real channel's delivery of `message`, signed with `secret` (or unsigned), dated `sentAt`. */
async function delivery(secret: string | undefined, sentAt = new Date()) {
  const channel = new WebhookChannel({ url: 'http://127.0.0.1:1/unused', secret });
  return channel.prepare(user, created(), sentAt);
}

interface Received {
  event: WebhookBody<{ email: string }>;
  rawBody: Buffer;
  request: Request;
}

/** The handler behind a loopback server, with what reached onEvent and onRefused. */
async function serveHandler(options: Partial<WebhookFetchReceiverOptions<{ email: string }>> = {}) {
  const received: Received[] = [];
  const refusals: Array<WebhookRefusal & { rawBody: Buffer | undefined; url: string }> = [];
  const handler = createWebhookFetchHandler<{ email: string }>({
    secret: SECRET,
    onEvent: (event, { request, rawBody }) => void received.push({ event, rawBody, request }),
    onRefused: (refusal, { request, rawBody }) => void refusals.push({ ...refusal, rawBody, url: request.url }),
    ...options,
  });
  const server = await startFetchServer(handler);
  return { server, handler, received, refusals };
}

describe('createWebhookFetchHandler behind a server that speaks the Fetch API', () => {
  let server: FetchTestServer;
  let received: Received[];
  let refusals: Array<WebhookRefusal & { rawBody: Buffer | undefined; url: string }>;
  before(async () => {
    ({ server, received, refusals } = await serveHandler({ maxBodySize: 4096 }));
  });
  after(() => server.close());

  it('hands the event a WebhookChannel sent to onEvent, with the exact bytes it signed and the Request, and answers 204', async () => {
    received.length = 0;
    const channel = new WebhookChannel({ url: `${server.url}/hooks?from=test`, secret: SECRET });
    const sent = await channel.prepare(user, created());
    try {
      assert.deepEqual(await channel.attempt(sent), { ok: true, status: 204 });
    } finally {
      await channel.close();
    }
    assert.equal(received.length, 1);
    const [{ event, rawBody, request }] = received as [Received];
    assert.ok(Buffer.isBuffer(rawBody));
    assert.ok(rawBody.equals(sent.body), 'onEvent gets the bytes the channel signed');
    assert.deepEqual(event, JSON.parse(sent.body.toString('utf8')));
    assert.equal(event.data.email, 'a@example.com');
    assert.ok(request instanceof Request);
    assert.equal(request.url, `${server.url}/hooks?from=test`);
    assert.equal(request.headers.get('x-signature'), sent.headers['X-Signature']);
  });

  it('answers 401 for a wrong secret, a tampered body, a missing, malformed or repeated header, saying which, and never calls onEvent', async () => {
    received.length = 0;
    refusals.length = 0;
    const { body } = await delivery(SECRET);
    const mismatch = 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)';
    const cases: Array<[string | Buffer, Record<string, string | readonly string[]>, string]> = [
      [body, { 'x-signature': sign(body, 'wrong') }, mismatch],
      [Buffer.from(body.toString().replace('42', '43')), { 'x-signature': sign(body) }, mismatch],
      [body, {}, 'invalid signature: no X-Signature header (is a secret set on the sending channel?)'],
      [body, { 'x-signature': 'garbage' }, 'invalid signature: X-Signature is not sha256= followed by 64 hex digits'],
      [body, { 'x-signature': [sign(body), sign(body)] }, 'invalid signature: more than one X-Signature header'],
      [
        gzipSync(body),
        { 'x-signature': sign(body), 'content-encoding': 'gzip' },
        'invalid signature: the body arrived with Content-Encoding: gzip, and X-Signature signs the bytes before any compression; the channel never compresses, so something on the way did: turn that off',
      ],
      // Signed, but the body was lost on the way: before, this blamed the secrets.
      ['', { 'x-signature': sign(body) }, 'invalid signature: the request arrived without a body, which X-Signature signs (something on the way dropped it, such as a proxy retrying the POST)'],
    ];
    for (const [sentBody, headers, reason] of cases) {
      const answer = await post(server.url, sentBody, headers);
      assert.equal(answer.status, 401, reason);
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(answer.text), { error: reason });
    }
    assert.deepEqual(received, []);
    assert.deepEqual(refusals.map(({ status, reason }) => ({ status, reason })), cases.map(([, , reason]) => ({ status: 401, reason })));
    assert.ok(refusals[0]!.rawBody?.equals(body), 'onRefused gets the bytes received');
  });

  it('answers 400 for a signed body that is not a webhook event, saying which part is wrong', async () => {
    refusals.length = 0;
    const event = JSON.parse((await delivery(SECRET)).body.toString()) as Record<string, unknown>;
    const cases: Array<[string, string]> = [
      ['', 'it is empty'],
      ['not json', 'it is not JSON'],
      ['[]', 'it is a JSON array, not an object'],
      [JSON.stringify({ ...event, sent_at: 5 }), '"sent_at" is not a string'],
      [JSON.stringify({ ...event, data: [1] }), '"data" is not an object'],
    ];
    for (const [body, why] of cases) {
      const answer = await post(server.url, body, { 'x-signature': sign(body) });
      assert.equal(answer.status, 400, body);
      assert.deepEqual(JSON.parse(answer.text), { error: `body is not a webhook event: ${why}` }, body);
    }
    assert.deepEqual(refusals.map((refusal) => refusal.reason), cases.map(([, why]) => `body is not a webhook event: ${why}`));
  });

  it('answers 413 for a body declared larger than maxBodySize, without reading any of it', async () => {
    refusals.length = 0;
    const big = JSON.stringify({ pad: 'x'.repeat(5000) });
    const before = server.bodyBytesRead.length;
    const answer = await post(server.url, big, { 'x-signature': sign(big) });
    assert.deepEqual([answer.status, answer.text, answer.headers.connection], [413, '{"error":"body larger than 4096 bytes"}', 'close']);
    assert.equal(server.bodyBytesRead[before], 0, 'not a byte of the body was read');
    assert.deepEqual(refusals.map(({ status, rawBody }) => [status, rawBody]), [[413, undefined]]);
  });

  it('answers 413 for a streamed body once it passes maxBodySize, before the rest of it is even sent', async () => {
    let sendTheRest!: () => void;
    const restHeld = new Promise<void>((resolve) => (sendTheRest = resolve));
    // No Content-Length: the limit is found while reading. The last chunk waits for the answer, so a handler that
    // read the whole body would never answer.
    const body = Readable.from(
      (async function* () {
        yield Buffer.alloc(3000, 0x61);
        yield Buffer.alloc(3000, 0x62);
        await restHeld;
        yield Buffer.alloc(3000, 0x63);
      })(),
    );
    const before = server.bodyBytesRead.length;
    const response = await settlesWithin(request(server.url, { method: 'POST', headers: { 'x-signature': sign('x') }, body }), GUARD, 'the 413 before the whole body was sent');
    sendTheRest();
    assert.equal(response.statusCode, 413);
    assert.equal(response.headers.connection, 'close');
    assert.deepEqual(JSON.parse(await response.body.text()), { error: 'body larger than 4096 bytes' });
    const read = server.bodyBytesRead[before]!;
    assert.ok(read > 4096 && read <= 6000, `read up to the chunk that crossed the limit (${read} bytes)`);
  });
});

describe('createWebhookFetchHandler during a secret rotation', () => {
  it('accepts deliveries signed with the new or the old secret, and refuses others', async () => {
    const { server, received } = await serveHandler({ secret: ['whsec_new', 'whsec_old'] });
    try {
      const notifier = new Notifier({ retry: { attempts: 1 } });
      for (const name of ['new', 'old', 'other']) notifier.registerChannel(name, new WebhookChannel({ url: server.url, secret: `whsec_${name}` }));
      const results = await notifier.send(user, { via: () => ['new', 'old', 'other'], toWebhook: created });
      await notifier.close();
      assert.deepEqual(results.map(({ channel, ok, status }) => ({ channel, ok, status })), [
        { channel: 'new', ok: true, status: 204 },
        { channel: 'old', ok: true, status: 204 },
        { channel: 'other', ok: false, status: 401 },
      ]);
      assert.equal(received.length, 2);
    } finally {
      await server.close();
    }
  });
});

describe('createWebhookFetchHandler with maxAge', () => {
  it('answers 400 for a delivery older than maxAge without calling onEvent, and accepts a fresh one', async () => {
    const { server, received, refusals } = await serveHandler({ maxAge: 60_000 });
    try {
      const stale = await delivery(SECRET, new Date(Date.now() - 10 * 60_000));
      const answer = await post(server.url, stale.body, stale.headers);
      assert.equal(answer.status, 400);
      assert.match(JSON.parse(answer.text).error, /^event sent_at \d{4}-\d\d-\d\dT[\d:.]+Z is older than maxAge \(60000 ms\)$/);
      assert.deepEqual(received, []);
      assert.equal(refusals[0]!.status, 400);
      const fresh = await delivery(SECRET);
      assert.equal((await post(server.url, fresh.body, fresh.headers)).status, 204);
      assert.equal(received.length, 1);
    } finally {
      await server.close();
    }
  });
});

describe('createWebhookFetchHandler answers', () => {
  it('with the Response onEvent returns, 204 for anything else, and 500 when onEvent throws', async () => {
    let behaviour: 'respond' | 'count' | 'throw' = 'respond';
    const { server } = await serveHandler({
      onEvent: async () => {
        if (behaviour === 'throw') throw new Error('database down');
        if (behaviour === 'respond') return new Response('queued', { status: 202, headers: { 'x-queue': 'q1' } });
        return 3; // what queue.push(event) returns: not an answer
      },
    });
    try {
      const { body, headers } = await delivery(SECRET);
      const answered = await post(server.url, body, headers);
      assert.deepEqual([answered.status, answered.text, answered.headers['x-queue']], [202, 'queued', 'q1']);
      behaviour = 'count';
      assert.deepEqual([(await post(server.url, body, headers)).status], [204]);
      behaviour = 'throw';
      const failed = await post(server.url, body, headers);
      assert.deepEqual([failed.status, JSON.parse(failed.text)], [500, { error: 'webhook handler failed' }]);
      assert.deepEqual(server.rejections, [], 'the handler resolved every time');
    } finally {
      await server.close();
    }
  });

  it('with the Response onRefused returns instead of the refusal, and 500 when onRefused throws', async () => {
    let behaviour: 'respond' | 'throw' = 'respond';
    const { server } = await serveHandler({
      onRefused: () => {
        if (behaviour === 'throw') throw new Error('log sink down');
        return new Response('go away', { status: 403 });
      },
    });
    try {
      const { body } = await delivery(SECRET);
      assert.deepEqual(await post(server.url, body, { 'x-signature': sign(body, 'wrong') }).then(({ status, text }) => [status, text]), [403, 'go away']);
      behaviour = 'throw';
      assert.equal((await post(server.url, body, { 'x-signature': sign(body, 'wrong') })).status, 500);
    } finally {
      await server.close();
    }
  });

  it('500 saying why for a Request whose body was read before it', async () => {
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => undefined });
    // A middleware that parsed the body first.
    const server = await startFetchServer(async (request) => {
      await request.json();
      return handler(request);
    });
    try {
      const { body, headers } = await delivery(SECRET);
      const answer = await post(server.url, body, headers);
      assert.equal(answer.status, 500);
      assert.match(JSON.parse(answer.text).error, /needs the raw body, but the Request's body was read, or taken by a reader, before it .*request\.clone\(\)/);
    } finally {
      await server.close();
    }
  });

  it('500 saying why for a Request whose body a middleware took a reader of (getReader()), not a vague "webhook handler failed"', async () => {
    const told: unknown[] = [];
    const handler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => undefined, onError: (error) => void told.push(error) });
    const { body, headers } = await delivery(SECRET);
    const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: new Uint8Array(body), headers });
    request.body!.getReader(); // held, never read: bodyUsed stays false
    assert.equal(request.bodyUsed, false);
    const answer = await handler(request);
    assert.equal(answer.status, 500);
    const { error } = (await answer.json()) as { error: string };
    assert.match(error, /^Invalid webhook handler: needs the raw body, but the Request's body was read, or taken by a reader, before it \(request\.json\(\), request\.text\(\), request\.body\.getReader\(\) or a middleware\)/);
    assert.match(error, /\(got "a Request whose body a reader holds"\)\.$/);
    assert.equal(told.length, 1);
    assert.ok(told[0] instanceof ConfigError, 'onError is told the ConfigError, not a TypeError about a locked stream');
  });
});

describe('createWebhookFetchHandler called the wrong way', () => {
  const handler: WebhookFetchHandler = createWebhookFetchHandler({ secret: SECRET, onEvent: () => {} });
  const call = handler as unknown as (request: unknown) => Promise<Response>;

  it("rejects with InvalidArgumentError pointing at createWebhookHandler for Node's request, without showing it", async () => {
    const nodeRequest = new IncomingMessage(new Socket());
    nodeRequest.headers = { authorization: 'Bearer hook-token' };
    await assert.rejects(call(nodeRequest), (error: unknown) => {
      assert.ok(error instanceof InvalidArgumentError, String(error));
      assert.equal(
        error.message,
        "Invalid webhook handler request: takes a Fetch API Request, as Next.js route handlers, Hono (c.req.raw), Bun.serve and Deno.serve give it, not Node's request; with http.createServer, Express and the like, use createWebhookHandler(options), which takes Node's (request, response) (got an IncomingMessage).",
      );
      assert.ok(!inspect(error, { depth: 5 }).includes('hook-token'));
      return true;
    });
  });

  it('rejects with InvalidArgumentError for anything else that is no Request, a Hono context among them', async () => {
    class Context {
      req = { raw: new Request('http://127.0.0.1/hooks', { method: 'POST', body: '{}' }) };
    }
    for (const [value, kind] of [[new Context(), 'a Context'], [undefined, 'undefined'], ['{}', 'a string']] as const) {
      await assert.rejects(call(value), (error: unknown) => error instanceof InvalidArgumentError && error.message === `Invalid webhook handler request: must be a Fetch API Request, as Next.js route handlers, Hono (c.req.raw, not the context c), Bun.serve and Deno.serve give it (got ${kind}).`, kind);
    }
  });

  it('throws ConfigError at construction for options it does not know or cannot use, naming the function', () => {
    assert.throws(
      () => createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, maxAgeMs: 600_000 } as never),
      (error: unknown) => error instanceof ConfigError && error.field === 'createWebhookFetchHandler options.maxAgeMs' && /known fields: secret, onEvent, onRefused, onError, maxBodySize, maxAge/.test(error.message),
    );
    assert.throws(() => createWebhookFetchHandler({ secret: '', onEvent: () => {} }), (error: unknown) => error instanceof ConfigError && error.field === 'secret');
    assert.throws(() => createWebhookFetchHandler({ secret: [], onEvent: () => {} }), (error: unknown) => error instanceof ConfigError && /at least one secret/.test(error.message));
    assert.throws(() => createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, maxBodySize: 0 }), (error: unknown) => error instanceof ConfigError && error.field === 'maxBodySize');
  });
});
