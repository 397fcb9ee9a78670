import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect as connectHttp2, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { request } from 'undici';
import { ConfigError } from '../../src/core/errors.js';
import { Notifier, WebhookChannel, createWebhookHandler, newMessage, type WebhookBody, type WebhookReceiverOptions } from '../../src/webhook/index.js';
import { listen, post, sign as signWith } from './webhook-support/receiver-requests.js';

const SECRET = 'receiver-secret';
const sign = (body: string | Buffer, secret = SECRET) => signWith(body, secret);
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { email: 'a@example.com' } });

describe('createWebhookHandler during a secret rotation', () => {
  it('accepts deliveries signed with the new or the old secret, and refuses others', async () => {
    const received: string[] = [];
    const server = createServer(createWebhookHandler({ secret: ['whsec_new', 'whsec_old'], onEvent: (event) => void received.push(event.event) }));
    const url = await listen(server);
    try {
      const notifier = new Notifier({ retry: { attempts: 1 } });
      notifier.registerChannel('new', new WebhookChannel({ url, secret: 'whsec_new' }));
      notifier.registerChannel('old', new WebhookChannel({ url, secret: 'whsec_old' }));
      notifier.registerChannel('other', new WebhookChannel({ url, secret: 'whsec_other' }));
      const results = await notifier.send({ type: 'user', id: 1 }, { via: () => ['new', 'old', 'other'], toWebhook: () => newMessage().event('user.rotated').payload({}) });
      await notifier.close();
      assert.deepEqual(results.map(({ channel, ok, status }) => ({ channel, ok, status })), [
        { channel: 'new', ok: true, status: 204 },
        { channel: 'old', ok: true, status: 204 },
        { channel: 'other', ok: false, status: 401 },
      ]);
      assert.deepEqual(received, ['user.rotated', 'user.rotated']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses an empty list of secrets at construction', () => {
    assert.throws(() => createWebhookHandler({ secret: [], onEvent: () => {} }), (error: unknown) => error instanceof ConfigError && /at least one secret/.test(error.message));
  });
});

describe('createWebhookHandler on an HTTP/2 server (node:http2)', () => {
  it('verifies, hands over the event, and answers 401 and 413 as over HTTP/1.1, with no warning', async () => {
    const received: string[] = [];
    // Node warns (UnsupportedWarning) of a Connection header set on an HTTP/2 response, and drops it.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const server = createHttp2Server(createWebhookHandler({ secret: SECRET, maxBodySize: 1024, onEvent: (event) => void received.push(event.event) }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const session = connectHttp2(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const post2 = (body: string, signature: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': signature });
        let status = 0;
        let text = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (text += chunk));
        stream.on('end', () => resolve({ status, text }));
        stream.on('error', reject);
        stream.end(body);
      });
    try {
      assert.deepEqual(await post2(eventBody, sign(eventBody)), { status: 204, text: '' });
      assert.deepEqual(received, ['user.created']);
      assert.equal((await post2(eventBody, sign(eventBody, 'other'))).status, 401);
      const big = JSON.stringify({ padding: 'x'.repeat(2048) });
      assert.deepEqual(await post2(big, sign(big)), { status: 413, text: '{"error":"body larger than 1024 bytes"}' });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
      session.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('createWebhookHandler with Node http', () => {
  const received: WebhookBody[] = [];
  let behaviour: 'ok' | 'throw' | 'respond' = 'ok';
  const options: WebhookReceiverOptions = {
    secret: SECRET,
    maxBodySize: 4096,
    onEvent: (event, { response, rawBody }) => {
      assert.ok(Buffer.isBuffer(rawBody));
      if (behaviour === 'throw') throw new Error('database down');
      received.push(event);
      if (behaviour === 'respond') response.writeHead(202).end('queued');
    },
  };
  const server = createServer(createWebhookHandler(options));
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('hands over the event sent by the channel, end to end', async () => {
    received.length = 0;
    const notifier = new Notifier();
    notifier.registerChannel('webhook', new WebhookChannel({ url, secret: SECRET }));
    const results = await notifier.send({ type: 'user', id: 42 }, { via: () => ['webhook'], toWebhook: () => newMessage().event('user.created').payload({ email: 'a@example.com' }) });
    await notifier.close();
    assert.deepEqual(results, [{ channel: 'webhook', ok: true, status: 204, attempts: 1 }]);
    assert.equal(received.length, 1);
    assert.equal(received[0]!.event, 'user.created');
    assert.deepEqual(received[0]!.notifiable, { type: 'user', id: 42 });
    assert.deepEqual(received[0]!.data, { email: 'a@example.com' });
  });

  it('answers 204 for a right signature, and keeps a response the handler made itself', async () => {
    behaviour = 'ok';
    assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
    behaviour = 'respond';
    assert.deepEqual(await post(url, eventBody, { 'x-signature': sign(eventBody) }), { status: 202, text: 'queued' });
    behaviour = 'ok';
  });

  it('answers 401 for a wrong secret, a tampered body, a missing or a garbage header, saying which', async () => {
    received.length = 0;
    const mismatch = 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)';
    for (const [body, headers, reason] of [
      [eventBody, { 'x-signature': sign(eventBody, 'wrong') }, mismatch],
      [eventBody.replace('42', '43'), { 'x-signature': sign(eventBody) }, mismatch],
      [JSON.stringify(JSON.parse(eventBody), null, 1), { 'x-signature': sign(eventBody) }, mismatch],
      [eventBody, {}, 'invalid signature: no X-Signature header (is a secret set on the sending channel?)'],
      [eventBody, { 'x-signature': 'garbage' }, 'invalid signature: X-Signature is not sha256= followed by 64 hex digits'],
      [eventBody, { 'x-signature': sign(eventBody).toUpperCase() }, 'invalid signature: X-Signature is not sha256= followed by 64 hex digits'],
      // Two lines, even both right: which one the sender meant cannot be told.
      [eventBody, { 'x-signature': [sign(eventBody), sign(eventBody)] }, 'invalid signature: more than one X-Signature header'],
      // Signed, but the body was lost on the way: before, this blamed the secrets.
      ['', { 'x-signature': sign(eventBody) }, 'invalid signature: the request arrived without a body, which X-Signature signs (something on the way dropped it, such as a proxy retrying the POST)'],
    ] as const) {
      const response = await post(url, body, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(JSON.parse(response.text), { error: reason });
    }
    assert.equal(received.length, 0);
  });

  it('answers 400 for a signed body that is not a webhook event', async () => {
    for (const body of ['not json', '[]', '{"event":"x"}', '{"event":"x","sent_at":"t","notifiable":{"type":"u","id":true},"data":{}}']) {
      assert.equal((await post(url, body, { 'x-signature': sign(body) })).status, 400, body);
    }
  });

  it('answers 413 for a body over maxBodySize, declared or streamed', async () => {
    const big = JSON.stringify({ event: 'x', sent_at: 't', notifiable: { type: 'u', id: 1 }, data: { pad: 'x'.repeat(5000) } });
    assert.equal((await post(url, big, { 'x-signature': sign(big) })).status, 413);
    const response = await request(url, {
      method: 'POST',
      headers: { 'x-signature': sign(big) },
      // Streamed in two chunks with no Content-Length, so the limit is hit while reading.
      body: Readable.from([Buffer.from(big.slice(0, 3000)), Buffer.from(big.slice(3000))]),
    });
    await response.body.dump();
    assert.equal(response.statusCode, 413);
  });

  it('answers 500 when onEvent throws, so the sender retries', async () => {
    behaviour = 'throw';
    assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
    behaviour = 'ok';
  });

  it('throws ConfigError when built without a secret', () => {
    assert.throws(() => createWebhookHandler({ secret: '', onEvent: () => {} }), ConfigError);
    // process.env.WEBHOOK_SECRET! when the variable is not set: the fix is to set it, never to leave it out.
    assert.throws(
      () => createWebhookHandler({ secret: process.env.TRY_IT_UNSET_WEBHOOK_SECRET!, onEvent: () => {} }),
      (error: unknown) => error instanceof ConfigError && error.field === 'secret' && /^Invalid secret: must be a non-empty string, the secret the sending channel signs with; is the variable it is read from set\? \(got undefined\)\.$/.test(error.message),
    );
  });

  it('throws ConfigError for options that are not an object', () => {
    for (const options of [undefined, null, SECRET, [SECRET]]) {
      assert.throws(
        () => createWebhookHandler(options as never),
        (error: unknown) => error instanceof ConfigError && error.field === 'createWebhookHandler options' && /must be an object/.test(error.message),
        String(options),
      );
    }
  });

  it('throws ConfigError for a misspelt option, listing the known ones and never showing the value', () => {
    for (const [options, field] of [
      [{ secret: SECRET, onEvent: () => {}, maxAgeMs: 600_000 }, 'maxAgeMs'], // would leave replay protection off
      [{ secret: SECRET, onEvent: () => {}, maxBodyBytes: 4096 }, 'maxBodyBytes'],
      [{ Secret: SECRET, onEvent: () => {} }, 'Secret'],
    ] as const) {
      assert.throws(
        () => createWebhookHandler(options as never),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.field === `createWebhookHandler options.${field}` &&
          // Only the case of Secret differs: the name to write is said.
          new RegExp(`is not a known field${field === 'Secret' ? '; names are case-sensitive: write secret' : ''}; known fields: secret, onEvent, onRefused, onError, maxBodySize, maxAge, bodyTimeout \\(got an? \\w+\\)\\.$`).test(error.message) &&
          !inspect(error).includes(SECRET),
        field,
      );
    }
  });
});

describe('createWebhookHandler with onRefused', () => {
  const refusals: Array<{ status: number; reason: string; rawBody: string | undefined; url: string | undefined }> = [];
  let behaviour: 'log' | 'throw' | 'respond' = 'log';
  const server = createServer(
    createWebhookHandler({
      secret: SECRET,
      maxBodySize: 4096,
      maxAge: 60_000,
      onEvent: () => undefined,
      onRefused: async ({ status, reason }, { request, response, rawBody }) => {
        await new Promise((resolve) => setImmediate(resolve)); // awaited before the answer
        if (behaviour === 'throw') throw new Error('log sink down');
        if (behaviour === 'respond') response.writeHead(403).end('go away');
        refusals.push({ status, reason, rawBody: rawBody?.toString('utf8'), url: request.url });
      },
    }),
  );
  let url: string;
  before(async () => {
    url = await listen(server);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('tells the operator about every refusal, with its status, reason and body, and answers as without it', async () => {
    refusals.length = 0;
    const fresh = JSON.stringify({ ...JSON.parse(eventBody), sent_at: new Date().toISOString() });
    const notAnEvent = '{"event":"x"}';
    const big = 'x'.repeat(5000);
    const answers = [
      await post(`${url}/hooks?a=1`, fresh, { 'x-signature': sign(fresh, 'wrong') }),
      await post(url, notAnEvent, { 'x-signature': sign(notAnEvent) }),
      await post(url, eventBody, { 'x-signature': sign(eventBody) }), // dated 2025: older than maxAge
      await post(url, big, { 'x-signature': sign(big) }),
      await post(url, fresh, { 'x-signature': sign(fresh) }), // accepted: not a refusal
    ];
    assert.deepEqual(answers.map((answer) => answer.status), [401, 400, 400, 413, 204]);
    assert.deepEqual(refusals, [
      { status: 401, reason: 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)', rawBody: fresh, url: '/hooks?a=1' },
      { status: 400, reason: 'body is not a webhook event: "sent_at" is not a string', rawBody: notAnEvent, url: '/' },
      { status: 400, reason: JSON.parse(answers[2]!.text).error, rawBody: eventBody, url: '/' },
      { status: 413, reason: 'body larger than 4096 bytes', rawBody: undefined, url: '/' },
    ]);
    assert.match(refusals[2]!.reason, /is older than maxAge \(60000 ms\)/);
  });

  it('keeps a response onRefused made, and answers 500 when it throws', async () => {
    behaviour = 'respond';
    assert.deepEqual(await post(url, eventBody, {}), { status: 403, text: 'go away' });
    behaviour = 'throw';
    assert.equal((await post(url, eventBody, {})).status, 500);
    behaviour = 'log';
  });

  it('closes the connection when onRefused throws on a body over maxBodySize, rather than read the rest', async () => {
    behaviour = 'throw';
    try {
      // Past the limit, then more to come: the body is still arriving when the handler answers.
      let finish!: () => void;
      const more = new Promise<void>((resolve) => (finish = resolve));
      const body = Readable.from((async function* () {
        yield Buffer.alloc(3000, 0x61);
        yield Buffer.alloc(3000, 0x62);
        await more;
        yield Buffer.alloc(3000, 0x63);
      })());
      const response = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      finish();
      await response.body.dump();
      assert.equal(response.statusCode, 500);
      assert.equal(response.headers.connection, 'close');
    } finally {
      behaviour = 'log';
    }
  });

  it('throws ConfigError for an onRefused that is not a function', () => {
    assert.throws(() => createWebhookHandler({ secret: SECRET, onEvent: () => undefined, onRefused: 'console.log' as never }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /onRefused.*must be a function/);
      return true;
    });
  });
});

describe('createWebhookHandler with maxAge', () => {
  const MAX_AGE = 60_000;
  const MINUTE = 60_000;
  const received: WebhookBody[] = [];
  const servers = {
    guarded: createServer(createWebhookHandler({ secret: SECRET, maxAge: MAX_AGE, onEvent: (event) => void received.push(event) })),
    open: createServer(createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event) })),
  };
  const urls: Record<string, string> = {};
  // Only prepare() is used: it serialises and signs with a chosen sent_at, as every retry of one delivery would.
  const channel = new WebhookChannel({ url: 'http://127.0.0.1/unused', secret: SECRET });
  const message = newMessage().event('user.created').payload({ email: 'a@example.com' });

  /** Posts a delivery the channel signed with `sentAt`. */
  async function deliver(url: string, sentAt: Date) {
    const delivery = await channel.prepare({ type: 'user', id: 42 }, message, sentAt);
    const response = await request(url, { method: 'POST', body: delivery.body, headers: { ...delivery.headers } });
    const text = await response.body.text();
    return { status: response.statusCode, error: text ? (JSON.parse(text) as { error: string }).error : undefined };
  }
  /** Posts a body with `sent_at` as given, signed by hand. */
  function postSentAt(url: string, sentAt: string) {
    const body = JSON.stringify({ ...(JSON.parse(eventBody) as object), sent_at: sentAt });
    return post(url, body, { 'x-signature': sign(body) });
  }

  before(async () => {
    for (const [name, server] of Object.entries(servers)) urls[name] = await listen(server);
  });
  after(() => Promise.all(Object.values(servers).map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  it('accepts a fresh event, and answers 400 with the reason for one older than maxAge without calling onEvent', async () => {
    received.length = 0;
    assert.deepEqual(await deliver(urls.guarded!, new Date()), { status: 204, error: undefined });
    assert.equal(received.length, 1);
    const old = new Date(Date.now() - 10 * MINUTE);
    assert.deepEqual(await deliver(urls.guarded!, old), { status: 400, error: `event sent_at ${old.toISOString()} is older than maxAge (60000 ms)` });
    assert.equal(received.length, 1);
    // The signature comes first: a caller without the secret learns nothing about the dates.
    const forged = JSON.stringify({ ...(JSON.parse(eventBody) as object), sent_at: old.toISOString() });
    assert.equal((await post(urls.guarded!, forged, { 'x-signature': sign(forged, 'wrong') })).status, 401);
  });

  it('without maxAge, accepts the same old delivery that maxAge refuses', async () => {
    received.length = 0;
    const old = new Date(Date.now() - 10 * MINUTE);
    assert.equal((await deliver(urls.open!, old)).status, 204);
    assert.equal((await deliver(urls.guarded!, old)).status, 400);
    assert.equal(received.length, 1);
  });

  it('accepts an event dated up to 5 minutes ahead of its clock, and refuses one further ahead', async () => {
    received.length = 0;
    assert.equal((await deliver(urls.guarded!, new Date(Date.now() + 4 * MINUTE))).status, 204);
    const ahead = new Date(Date.now() + 6 * MINUTE);
    assert.deepEqual(await deliver(urls.guarded!, ahead), { status: 400, error: `event sent_at ${ahead.toISOString()} is more than 300000 ms ahead of the receiver's clock` });
    assert.equal(received.length, 1);
  });

  it('answers 400 for a sent_at that is not an ISO 8601 timestamp, and reads one with an offset', async () => {
    received.length = 0;
    const now = new Date().toISOString();
    // Junk, and three that Date.parse would take: a date in words, a day February lacks, a time with no offset (local).
    for (const sentAt of ['yesterday', new Date().toDateString(), now.replace(/^\d{4}-\d{2}-\d{2}/, '2025-02-30'), now.slice(0, -1), '']) {
      const response = await postSentAt(urls.guarded!, sentAt);
      assert.equal(response.status, 400, sentAt);
      assert.match(JSON.parse(response.text).error, /^event sent_at ".*" is not an ISO 8601 timestamp/, sentAt);
    }
    assert.equal(received.length, 0);
    assert.equal((await postSentAt(urls.guarded!, now.replace('Z', '+00:00'))).status, 204);
    assert.equal(received.length, 1);
  });

  it('quotes at most 64 characters of a valid sent_at with a long fraction in the reason it sends back', async () => {
    received.length = 0;
    const fraction = '1'.repeat(2_000);
    const old = new Date(Date.now() - 10 * MINUTE).toISOString().replace('Z', `${fraction}Z`);
    const ahead = new Date(Date.now() + 10 * MINUTE).toISOString().replace('Z', `${fraction}Z`);
    const refused = [await postSentAt(urls.guarded!, old), await postSentAt(urls.guarded!, ahead)].map(({ status, text }) => [status, JSON.parse(text).error]);
    assert.deepEqual(refused, [
      [400, `event sent_at ${old.slice(0, 64)}… is older than maxAge (60000 ms)`],
      [400, `event sent_at ${ahead.slice(0, 64)}… is more than 300000 ms ahead of the receiver's clock`],
    ]);
    assert.equal(received.length, 0);
  });

  it('throws ConfigError naming maxAge unless it is a positive finite number', () => {
    for (const maxAge of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '60000', null]) {
      assert.throws(
        () => createWebhookHandler({ secret: SECRET, onEvent: () => {}, maxAge: maxAge as number }),
        (error: unknown) => error instanceof ConfigError && error.field === 'maxAge',
        String(maxAge),
      );
    }
    assert.doesNotThrow(() => createWebhookHandler({ secret: SECRET, onEvent: () => {}, maxAge: 0.5 }));
  });
});

describe('createWebhookHandler with an Express-style (req, res, next) chain', () => {
  type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => unknown;
  const errors: unknown[] = [];
  const received: WebhookBody[] = [];

  /** A minimal Connect/Express-style runner: middlewares in order, errors to a final handler. */
  function app(...middlewares: Middleware[]) {
    return createServer((req, res) => {
      let index = 0;
      const next = (error?: unknown) => {
        if (error !== undefined) {
          errors.push(error);
          res.writeHead(500).end('error handler');
          return;
        }
        const middleware = middlewares[index++];
        if (middleware) void middleware(req, res, next);
        else res.writeHead(404).end();
      };
      next();
    });
  }
  // What express.raw() and express.json() do to the request.
  const rawParser: Middleware = (req, _res, next) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      req.body = Buffer.concat(chunks);
      next();
    });
  };
  const jsonParser: Middleware = (req, _res, next) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      req.body = JSON.parse(Buffer.concat(chunks).toString());
      next();
    });
  };
  const utf8: Middleware = (req, _res, next) => {
    req.setEncoding('utf8');
    next();
  };
  const handler = createWebhookHandler({ secret: SECRET, onEvent: (event) => void received.push(event) });
  const servers = { direct: app(handler), raw: app(rawParser, handler), json: app(jsonParser, handler), utf8: app(utf8, handler) };
  const urls: Record<string, string> = {};
  before(async () => {
    for (const [name, server] of Object.entries(servers)) urls[name] = await listen(server);
  });
  after(() => Promise.all(Object.values(servers).map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

  it('reads the raw body itself when mounted before any body parser', async () => {
    received.length = 0;
    assert.equal((await post(urls.direct!, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
    assert.equal((await post(urls.direct!, eventBody, { 'x-signature': sign('other') })).status, 401);
    assert.equal(received.length, 1);
  });

  it('uses the Buffer that express.raw() leaves in req.body', async () => {
    received.length = 0;
    assert.equal((await post(urls.raw!, eventBody, { 'x-signature': sign(eventBody) })).status, 204);
    assert.equal((await post(urls.raw!, eventBody, { 'x-signature': sign(eventBody, 'wrong') })).status, 401);
    assert.equal(received.length, 1);
  });

  it('refuses to verify a body express.json() already parsed, and says how to fix it', async () => {
    errors.length = 0;
    assert.equal((await post(urls.json!, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ConfigError);
    assert.match((errors[0] as Error).message, /raw body.*express\.raw/);
  });

  it('refuses a request whose encoding was set before it with next(error), instead of crashing the process', async () => {
    errors.length = 0;
    assert.equal((await post(urls.utf8!, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof ConfigError);
    assert.match((errors[0] as Error).message, /raw bytes.*setEncoding\(\).*do not set an encoding before the webhook handler/);
  });
});

describe('createWebhookHandler with a request decoded as text', () => {
  it('answers 500 with the reason when the encoding was set before it, or while it read the body; never an uncaught exception', async () => {
    let when: 'before' | 'during' = 'before';
    const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
    const server = createServer((req, res) => {
      if (when === 'before') req.setEncoding('utf8');
      void handler(req, res);
      if (when === 'during') req.setEncoding('utf8');
    });
    const url = await listen(server);
    try {
      const before = await post(url, eventBody, { 'x-signature': sign(eventBody) });
      assert.equal(before.status, 500);
      assert.match(before.text, /raw bytes.*setEncoding\(\)/);
      when = 'during';
      assert.equal((await post(url, eventBody, { 'x-signature': sign(eventBody) })).status, 500);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
