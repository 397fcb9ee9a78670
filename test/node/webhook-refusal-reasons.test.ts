// A receiver that refuses a delivery says why in its answer's body: the failed attempt's message, and so the
// delivery's, quotes a short, one-line excerpt of it, read within the drain's cap. Real loopback receivers only.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookDeliveryError } from '../../src/core/errors.js';
import { WebhookChannel, createWebhookHandler, newMessage, type AttemptOutcome, type WebhookChannelConfig } from '../../src/webhook/index.js';
import { GUARD, invoice, invoicePaid, recordingNotifier } from './webhook-support/notifier-harness.js';
import { failOnUnhandledRejections, serversClosedAfterEachTest, settlesWithin } from './webhook-test-server.js';

failOnUnhandledRejections();

/** One attempt through a channel of its own, closed afterwards; the failure's message. */
async function refusalMessage(config: WebhookChannelConfig): Promise<string> {
  const outcome = await attemptOnce(config);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.kind, 'status');
  return outcome.error.message;
}

async function attemptOnce(config: WebhookChannelConfig): Promise<AttemptOutcome> {
  const channel = new WebhookChannel(config);
  try {
    const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({ idempotency_key: 'k1' }));
    return await settlesWithin(channel.attempt(delivery), GUARD, 'the attempt');
  } finally {
    await channel.close();
  }
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const answered = (status: number, said?: string) => new RegExp(`^POST http://127\\.0\\.0\\.1:\\d+/(?:hooks)? answered ${status}${said === undefined ? '' : `, saying "${escapeRegExp(said)}"`}\\.$`);

describe("this package's receiver, refusing", () => {
  let server: Server;
  let url: string;

  before(async () => {
    server = createServer(createWebhookHandler({ secret: 'whsec_receiver', onEvent: () => {} }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('a delivery signed with the wrong secret: the attempt and the delivery say the secrets differ', async () => {
    const { notifier, events } = recordingNotifier({ webhook: { url, secret: 'whsec_sender' } }, { retry: { attempts: 1 } });
    const [result] = await settlesWithin(notifier.send(invoice, invoicePaid), GUARD, 'the send');
    await notifier.close();
    const why = 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)';
    assert.match(events.attempt[0]!.error!.message, answered(401, why));
    assert.ok(result!.error instanceof WebhookDeliveryError);
    assert.equal(result!.error.status, 401);
    assert.match(result!.error.message, new RegExp(`^Webhook "invoice\\.paid" through channel "webhook" failed after 1 attempt: POST http://127\\.0\\.0\\.1:\\d+/hooks answered 401, saying "${escapeRegExp(why)}"\\.$`));
  });

  it('an unsigned delivery: asks whether a secret is set on the sending channel', async () => {
    assert.match(await refusalMessage({ url }), answered(401, 'invalid signature: no X-Signature header (is a secret set on the sending channel?)'));
  });
});

describe('other receivers, refusing', () => {
  const serve = serversClosedAfterEachTest();
  const answering = async (status: number, headers: Record<string, string>, body: string | Buffer) => {
    const server = await serve((response) => response.writeHead(status, headers).end(body));
    return `${server.url}/hooks`;
  };

  it('a plain-text 500: its text on one line, control and bidirectional characters escaped', async () => {
    const url = await answering(500, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Database down.\r\n\tRetry\u00a0later \u001b[31mplease\u202e\n');
    assert.match(await refusalMessage({ url }), answered(500, 'Database down. Retry later \\u001b[31mplease\\u202e'));
  });

  it('a JSON body: its error message, with an error object (Stripe, Google), a status phrase and a message (Fastify), or title and detail (RFC 9457)', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['quota exceeded for project 42', 'application/json', { error: { message: 'quota exceeded for project 42', code: 429 } }],
      ['Bad Request: body/data must be object', 'application/json; charset=utf-8', { statusCode: 400, error: 'Bad Request', message: 'body/data must be object' }],
      ['Invalid signature: The body was signed with another key', 'application/problem+json', { type: 'about:blank', title: 'Invalid signature', detail: 'The body was signed with another key', status: 401 }],
      ['Bad credentials', 'application/json', { message: 'Bad credentials', documentation_url: 'https://docs.example/auth' }],
      ['{"ok":false,"reason":"paused"}', 'application/json', { ok: false, reason: 'paused' }],
      ['{"error": not json', 'application/json', undefined],
    ];
    for (const [said, type, json] of cases) {
      const url = await answering(422, { 'Content-Type': type }, json === undefined ? '{"error": not json' : JSON.stringify(json));
      assert.match(await refusalMessage({ url }), answered(422, said), said);
    }
  });

  it('a NestJS validation refusal: its list of messages, joined, after the status phrase', async () => {
    const body = { statusCode: 400, message: ['email must be an email', 'name should not be empty'], error: 'Bad Request' };
    const url = await answering(400, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(body));
    // Before, the list was dropped: only "Bad Request" was quoted.
    assert.match(await refusalMessage({ url }), answered(400, 'Bad Request: email must be an email; name should not be empty'));
    const onlyLists = { error: ['', 'validation failed'], message: ['', 42, 'data.email must be a string'], detail: [] };
    assert.match(await refusalMessage({ url: await answering(422, { 'Content-Type': 'application/json' }, JSON.stringify(onlyLists)) }), answered(422, 'validation failed: data.email must be a string'));
  });

  it('an HTML error page: its words, without markup, styles or scripts', async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title><style>body { color: red }</style><script>track()</script></head>\n<body><!-- upstream: 10.0.0.7 --><h1>502 Bad Gateway</h1><hr><center>nginx</center></body></html>\n';
    const url = await answering(502, { 'Content-Type': 'text/html' }, page);
    assert.match(await refusalMessage({ url }), answered(502, '502 Bad Gateway 502 Bad Gateway nginx'));
  });

  it('a binary body, or one without a Content-Type: not shown', async () => {
    const bodies: Array<[Record<string, string>, Buffer | string]> = [
      [{ 'Content-Type': 'application/octet-stream' }, Buffer.from([0, 1, 2, 0xff, 0xfe])],
      [{ 'Content-Type': 'image/png' }, Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')],
      [{}, 'no type said'],
    ];
    for (const [headers, body] of bodies) {
      assert.match(await refusalMessage({ url: await answering(500, headers, body) }), answered(500), JSON.stringify(headers));
    }
  });

  it('a huge body: its start, cut at 200 characters, and the rest never read (the connection is dropped)', async () => {
    // Written as fast as the client reads, for as long as it does: what it took is what the server could write.
    const endless = 256 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((response: ServerResponse) => {
      response.on('close', () => closed());
      response.writeHead(503, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const writeMore = (): void => {
        while (!response.destroyed && written < endless) {
          written += chunk.length;
          if (!response.write(written === chunk.length ? Buffer.concat([Buffer.from('Overloaded: '), chunk]) : chunk)) return void response.once('drain', writeMore);
        }
      };
      writeMore();
    });
    const message = await refusalMessage({ url: `${server.url}/hooks` });
    const [, said] = /, saying "(.*)"\.$/.exec(message) ?? [];
    assert.equal(said, `Overloaded: ${'x'.repeat(200 - 'Overloaded: '.length)}…`);
    await settlesWithin(connectionClosed, GUARD, 'the connection closing');
    assert.ok(written < endless, `the client stopped reading (the server wrote ${written} bytes)`);
  });

  it('a body that never ends: what came within the drain time, marked as cut, and the connection is dropped', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = await serve((response) => {
      response.on('close', () => closed());
      response.writeHead(500, { 'Content-Type': 'text/plain' }).write('Still thinking');
    });
    assert.match(await refusalMessage({ url: `${server.url}/hooks` }), answered(500, 'Still thinking…'));
    await settlesWithin(connectionClosed, GUARD, 'the connection closing');
  });

  it("keeps the channel's own credentials out when a receiver repeats them: the URL's secret path and query, header values, the secret", async () => {
    const token = 'sk_live_51Habcdefgh12345678';
    const server = await serve((response, received) => {
      const page = `<pre>Cannot POST ${received.url}</pre><p>Token ${received.headers.authorization} is not valid; key ${received.headers['x-api-key']}; secret whsec_sender_secret</p>`;
      response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    });
    const config = {
      url: `${server.url}/services/T0123ABCD/B0456EFGH/XXXXXXXXXXXXXXXXXXXXXXXX?key=q1w2e3r4t5y6`,
      secret: 'whsec_sender_secret',
      headers: { Authorization: `Bearer ${token}`, 'X-Api-Key': 'ak_0123456789' },
    };
    const message = await refusalMessage(config);
    assert.match(message, /^POST http:\/\/127\.0\.0\.1:\d+\/services\/…\?… answered 404, saying "Cannot POST \/services\/…\?… Token … is not valid; key …; secret …"\.$/);
    for (const secret of [token, 'T0123ABCD', 'B0456EFGH', 'XXXXXXXXXXXXXXXXXXXXXXXX', 'q1w2e3r4t5y6', 'ak_0123456789', 'whsec_sender_secret']) assert.ok(!message.includes(secret), secret);
  });

  it('hides a credential that the 200-character cut would split, and leaves descriptive headers readable', async () => {
    const token = 'sk_live_51Habcdefgh12345678';
    const server = await serve((response, received) => {
      const text = received.url === '/type' ? `Unsupported Content-Type ${received.headers['content-type']}` : `${'Refused. '.repeat(21)}Token: ${received.headers.authorization?.slice('Bearer '.length)}`;
      response.writeHead(415, { 'Content-Type': 'text/plain' }).end(text);
    });
    const cut = await refusalMessage({ url: `${server.url}/cut`, headers: { Authorization: `Bearer ${token}` } });
    assert.match(cut, /, saying "(Refused\. ){21}Token: …"\.$/);
    assert.ok(!cut.includes('sk_'), cut);
    const readable = await refusalMessage({ url: `${server.url}/type`, headers: { 'Content-Type': 'application/vnd.acme+json' } });
    assert.match(readable, /, saying "Unsupported Content-Type application\/vnd\.acme\+json"\.$/);
  });

  it('hides a credential repeated past the cut, and the start of one where the body stopped arriving', async () => {
    const token = 'tok_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0';
    const server = await serve((response, received) => {
      const credential = received.headers.authorization!.slice('Bearer '.length);
      if (received.url === '/stalls') {
        // The start of the token, then nothing more until the drain time ends the wait.
        response.writeHead(401, { 'Content-Type': 'text/plain' }).write(`rejected token ${credential.slice(0, 12)}`);
        return;
      }
      // Three times, the last across the 200-character cut once the first two are replaced.
      response.writeHead(401, { 'Content-Type': 'text/plain' }).end(`${'x'.repeat(60)} received ${credential}, received ${credential}, received ${credential}`);
    });
    const repeated = await refusalMessage({ url: `${server.url}/repeats`, headers: { Authorization: `Bearer ${token}` } });
    const stalled = await refusalMessage({ url: `${server.url}/stalls`, headers: { Authorization: `Bearer ${token}` } });
    assert.match(stalled, /, saying "rejected token …"\.$/);
    for (const message of [repeated, stalled]) assert.ok(!message.includes('tok_A1b2'), message);
  });

  it('reuses the connection after a short refusal, and leaves successes and redirects as they were', async () => {
    const sockets = new Set<unknown>();
    const server = await serve((response, _received, index, request) => {
      sockets.add(request.socket);
      if (index < 2) response.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"nope"}');
      else if (index === 2) response.writeHead(302, { 'Content-Type': 'text/plain', Location: '/elsewhere' }).end('Found. Redirecting to /elsewhere');
      else response.writeHead(200, { 'Content-Type': 'text/plain' }).end('accepted, thanks');
    });
    const channel = new WebhookChannel({ url: `${server.url}/hooks` });
    try {
      const delivery = await channel.prepare(invoice, newMessage().event('invoice.paid').payload({}));
      const outcomes = [];
      for (let i = 0; i < 4; i += 1) {
        outcomes.push(await settlesWithin(channel.attempt(delivery), GUARD, `attempt ${i + 1}`));
        // undici takes a connection back a turn after its response's body ended.
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.match(outcomes[0]!.ok ? '' : outcomes[0]!.error.message, answered(401, 'nope'));
      assert.match(outcomes[1]!.ok ? '' : outcomes[1]!.error.message, answered(401, 'nope'));
      assert.match(outcomes[2]!.ok ? '' : outcomes[2]!.error.message, /answered 302 \(a redirect to http:\/\/127\.0\.0\.1:\d+\/elsewhere\); redirects are not followed/);
      assert.deepEqual(outcomes[3], { ok: true, status: 200 });
      assert.equal(sockets.size, 1, 'one connection for all four');
    } finally {
      await channel.close();
    }
  });
});
