// bodyTimeout on both receivers: a client that sends the headers, then drips the body or stops sending it while
// keeping the connection open, is answered 408 once bodyTimeout has passed, instead of holding the handler without end
// (an HTTP/2 server sets no timeout of its own). A slow body that completes in time is accepted, and a slow onEvent is
// not a slow body. Real loopback http and http2 servers; every wait is bounded by the test's own timeout.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect as connectHttp2, constants as http2Constants, createServer as createHttp2Server, type ClientHttp2Session, type Http2Server } from 'node:http2';
import { connect, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { setTimeout as pause } from 'node:timers/promises';
import { ConfigError } from '../../src/core/errors.js';
import { createWebhookFetchHandler, createWebhookHandler, type WebhookRefusal } from '../../src/webhook/index.js';
import { post, sign } from './webhook-support/receiver-requests.js';
import { failOnUnhandledRejections, settlesWithin, startFetchServer } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
/** bodyTimeout where it must fire. */
const SHORT = 200;
/** bodyTimeout where it must not: far more than a few short pauses take. */
const GENEROUS = 10_000;
/** Bounds every wait: past it the test fails, closing its clients, instead of hanging. */
const GUARD = 4_000;
/** Each test's own timeout, a last resort above GUARD so that a failed wait still closes what the test opened. */
const TEST_TIMEOUT = { timeout: GUARD * 2 };
const eventBody = JSON.stringify({ event: 'user.created', sent_at: '2025-01-02T03:04:05.678Z', notifiable: { type: 'user', id: 42 }, data: { email: 'a@example.com' } });
/** Pieces a dripped body comes in, SHORT / 4 apart: all of them take ten times SHORT, and less than GUARD. */
const DRIPS = 40;
const TIMED_OUT = { status: 408, reason: `body not received within ${SHORT} ms` };

failOnUnhandledRejections();

/** What the receivers told: refusals (with whether a rawBody came along), events, errors. */
function recorder() {
  const told = { refusals: [] as Array<WebhookRefusal & { rawBody: Buffer | undefined }>, events: 0, errors: [] as unknown[] };
  return {
    told,
    onRefused: (refusal: WebhookRefusal, { rawBody }: { rawBody: Buffer | undefined }) => void told.refusals.push({ ...refusal, rawBody }),
    onError: (error: unknown) => void told.errors.push(error),
  };
}

async function listenOn(server: Server | Http2Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

/**
 * Sends `head` on a raw TCP connection, then each piece of `pieces` after `gap` ms, stopping as soon as the server
 * closes the connection; resolves with all the server wrote once it has closed. The socket is destroyed either way.
 */
async function rawExchange(port: number, head: string, pieces: readonly string[], gap: number): Promise<{ answer: string; piecesSent: number }> {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => {});
  const serverClosed = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
  }).then(() => (closed = true));
  try {
    await once(socket, 'connect');
    socket.write(head);
    let piecesSent = 0;
    for (const piece of pieces) {
      await Promise.race([pause(gap), serverClosed]);
      if (closed) break;
      socket.write(piece);
      piecesSent++;
    }
    await settlesWithin(serverClosed, GUARD, 'the server closing the connection');
    return { answer, piecesSent };
  } finally {
    socket.destroy();
  }
}

function postHead(length: number, signature: string, connection = 'keep-alive'): string {
  return `POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: ${connection}\r\nX-Signature: ${signature}\r\n\r\n`;
}

/** `eventBody` cut into `count` pieces of about the same size. */
function piecesOf(body: string, count: number): string[] {
  const size = Math.ceil(body.length / count);
  return Array.from({ length: count }, (_, index) => body.slice(index * size, (index + 1) * size)).filter((piece) => piece !== '');
}

function assertAnswered408(answer: string): void {
  assert.match(answer, /^HTTP\/1\.1 408 /, answer);
  assert.match(answer, /\r\nconnection: close\r\n/i, answer);
  assert.ok(answer.includes(JSON.stringify({ error: TIMED_OUT.reason })), answer); // chunked: the body is not all that follows
}

describe('createWebhookHandler on an HTTP/1.1 server, with bodyTimeout', () => {
  async function serve(bodyTimeout: number, onEvent: () => unknown = () => {}) {
    const { told, onRefused, onError } = recorder();
    const server = createServer(createWebhookHandler({ secret: SECRET, bodyTimeout, onEvent: () => (told.events++, onEvent()), onRefused, onError }));
    const port = await listenOn(server);
    const close = () => {
      server.closeAllConnections();
      server.close();
    };
    return { port, told, close };
  }

  it('answers 408 with Connection: close to a body that stops coming, tells onRefused, and closes the connection', TEST_TIMEOUT, async () => {
    const { port, told, close } = await serve(SHORT);
    try {
      // The headers and a third of the body; then nothing, the connection left open.
      const { answer } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET)), [eventBody.slice(0, eventBody.length / 3)], 0);
      assertAnswered408(answer);
      assert.deepEqual(told.refusals, [{ ...TIMED_OUT, rawBody: undefined }]);
      assert.equal(told.events, 0);
      assert.deepEqual(told.errors, []);
    } finally {
      close();
    }
  });

  it('answers 408 to a body dripped a piece at a time, each piece well within bodyTimeout of the last: the whole body is timed', TEST_TIMEOUT, async () => {
    const { port, told, close } = await serve(SHORT);
    try {
      const pieces = piecesOf(eventBody, DRIPS);
      const { answer, piecesSent } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET)), pieces, SHORT / 4);
      assertAnswered408(answer);
      assert.ok(piecesSent < pieces.length, `the 408 came before the body was all sent (${piecesSent} of ${pieces.length} pieces)`);
      assert.deepEqual(told.refusals, [{ ...TIMED_OUT, rawBody: undefined }]);
    } finally {
      close();
    }
  });

  it('accepts a body that arrives in pieces but completes within bodyTimeout', TEST_TIMEOUT, async () => {
    const { port, told, close } = await serve(GENEROUS);
    try {
      const { answer } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET), 'close'), piecesOf(eventBody, 4), 50);
      assert.match(answer, /^HTTP\/1\.1 204 /, answer);
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
    } finally {
      close();
    }
  });

  it('does not time onEvent: an onEvent that outlasts bodyTimeout, once the body is read, is answered 204', TEST_TIMEOUT, async () => {
    const { port, told, close } = await serve(SHORT, () => pause(SHORT * 3));
    try {
      assert.deepEqual(await settlesWithin(post(`http://127.0.0.1:${port}/hooks`, eventBody, { 'x-signature': sign(eventBody, SECRET) }), GUARD, 'the answer'), { status: 204, text: '' });
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
      assert.deepEqual(told.errors, []);
    } finally {
      close();
    }
  });
});

describe('createWebhookHandler on an HTTP/1.1 server, when onRefused answers a body left unread itself', () => {
  for (const [status, head] of [
    [408, postHead(eventBody.length, sign(eventBody, SECRET))],
    // Declared over maxBodySize: refused before a byte of the body is read.
    [413, postHead(64 * 1024, sign(eventBody, SECRET))],
  ] as const) {
    it(`closes the connection after its own ${status}, rather than wait for a body that is not coming`, TEST_TIMEOUT, async () => {
      const server = createServer(
        createWebhookHandler({
          secret: SECRET,
          bodyTimeout: SHORT,
          maxBodySize: 1024,
          onEvent: () => {},
          onRefused: (_refusal, { response }) => void response.writeHead(status, { 'Content-Type': 'text/plain' }).end('refused by the site'),
        }),
      );
      const port = await listenOn(server);
      try {
        // The headers alone: the body never comes, the connection is left open by the client.
        const { answer } = await rawExchange(port, head, [], 0);
        assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), answer);
        assert.match(answer, /\r\nconnection: close\r\n/i, answer);
        assert.ok(answer.includes('refused by the site'), answer); // chunked
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  }
});

describe('createWebhookHandler on an HTTP/2 server, with bodyTimeout', () => {
  async function serve(bodyTimeout: number, onEvent: () => unknown = () => {}) {
    const { told, onRefused, onError } = recorder();
    const server = createHttp2Server(createWebhookHandler({ secret: SECRET, bodyTimeout, onEvent: () => (told.events++, onEvent()), onRefused, onError }));
    const port = await listenOn(server);
    const session = connectHttp2(`http://127.0.0.1:${port}`);
    session.on('error', () => {});
    const close = () => {
      session.destroy();
      server.close();
    };
    return { session, told, close };
  }

  /** POSTs `pieces` of a body signed for `eventBody`, `gap` ms apart, ending the stream after the last unless `keepOpen`. */
  async function upload(session: ClientHttp2Session, pieces: readonly string[], gap: number, keepOpen = false) {
    const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': sign(eventBody, SECRET) });
    stream.on('error', () => {});
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    const closed = once(stream, 'close');
    try {
      const response = once(stream, 'response') as Promise<[Record<string, unknown>]>;
      for (const piece of pieces) {
        await pause(gap);
        stream.write(piece);
      }
      if (!keepOpen) stream.end();
      const [headers] = await settlesWithin(response, GUARD, 'the answer');
      await settlesWithin(closed, GUARD, 'the stream closing');
      return { status: headers[':status'], text, resetCode: stream.rstCode };
    } finally {
      stream.destroy();
    }
  }

  it('answers 408 to a body that stops coming, then resets the stream with NO_ERROR rather than wait on it', TEST_TIMEOUT, async () => {
    const { session, told, close } = await serve(SHORT);
    try {
      const answered = await upload(session, [eventBody.slice(0, eventBody.length / 3)], 0, true);
      assert.deepEqual(answered, { status: 408, text: JSON.stringify({ error: TIMED_OUT.reason }), resetCode: http2Constants.NGHTTP2_NO_ERROR });
      assert.deepEqual(told.refusals, [{ ...TIMED_OUT, rawBody: undefined }]);
      assert.equal(told.events, 0);
      assert.deepEqual(told.errors, []);
    } finally {
      close();
    }
  });

  it('accepts a body that arrives in pieces but completes within bodyTimeout', TEST_TIMEOUT, async () => {
    const { session, told, close } = await serve(GENEROUS);
    try {
      const answered = await upload(session, piecesOf(eventBody, 4), 50);
      assert.equal(answered.status, 204);
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
    } finally {
      close();
    }
  });

  it('does not time onEvent: an onEvent that outlasts bodyTimeout, once the body is read, is answered 204', TEST_TIMEOUT, async () => {
    const { session, told, close } = await serve(SHORT, () => pause(SHORT * 3));
    try {
      const answered = await upload(session, [eventBody], 0);
      assert.equal(answered.status, 204);
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
      assert.deepEqual(told.errors, []);
    } finally {
      close();
    }
  });
});

describe('createWebhookFetchHandler, with bodyTimeout, behind a server that hands it a Request', () => {
  async function serve(bodyTimeout: number, onEvent: () => unknown = () => {}) {
    const { told, onRefused, onError } = recorder();
    const server = await startFetchServer(createWebhookFetchHandler({ secret: SECRET, bodyTimeout, onEvent: () => (told.events++, onEvent()), onRefused, onError }));
    return { port: Number(new URL(server.url).port), url: server.url, told, server };
  }

  it('answers 408 with Connection: close to a body that stops coming, and tells onRefused', TEST_TIMEOUT, async () => {
    const { port, told, server } = await serve(SHORT);
    try {
      const { answer } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET)), [eventBody.slice(0, eventBody.length / 3)], 0);
      assertAnswered408(answer);
      assert.deepEqual(told.refusals, [{ ...TIMED_OUT, rawBody: undefined }]);
      assert.equal(told.events, 0);
      assert.deepEqual(told.errors, []);
      assert.deepEqual(server.rejections, []);
    } finally {
      await server.close();
    }
  });

  it('answers 408 to a body dripped a piece at a time, each piece well within bodyTimeout of the last', TEST_TIMEOUT, async () => {
    const { port, told, server } = await serve(SHORT);
    try {
      const pieces = piecesOf(eventBody, DRIPS);
      const { answer, piecesSent } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET)), pieces, SHORT / 4);
      assertAnswered408(answer);
      assert.ok(piecesSent < pieces.length, `the 408 came before the body was all sent (${piecesSent} of ${pieces.length} pieces)`);
      assert.deepEqual(told.refusals, [{ ...TIMED_OUT, rawBody: undefined }]);
    } finally {
      await server.close();
    }
  });

  it('accepts a body that arrives in pieces but completes within bodyTimeout', TEST_TIMEOUT, async () => {
    const { port, told, server } = await serve(GENEROUS);
    try {
      const { answer } = await rawExchange(port, postHead(eventBody.length, sign(eventBody, SECRET), 'close'), piecesOf(eventBody, 4), 50);
      assert.match(answer, /^HTTP\/1\.1 204 /, answer);
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
    } finally {
      await server.close();
    }
  });

  it('does not time onEvent: an onEvent that outlasts bodyTimeout, once the body is read, is answered 204', TEST_TIMEOUT, async () => {
    const { url, told, server } = await serve(SHORT, () => pause(SHORT * 3));
    try {
      assert.deepEqual(await settlesWithin(post(`${url}/hooks`, eventBody, { 'x-signature': sign(eventBody, SECRET) }), GUARD, 'the answer'), { status: 204, text: '' });
      assert.equal(told.events, 1);
      assert.deepEqual(told.refusals, []);
      assert.deepEqual(told.errors, []);
    } finally {
      await server.close();
    }
  });
});

describe('createWebhookFetchHandler, when onRefused answers a body left unread itself', () => {
  const bodies = {
    // Never ends: timed out.
    408: () => new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }),
    // Crosses maxBodySize in its first chunk.
    413: () => new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(new Uint8Array(2048)) }),
  };
  for (const status of [408, 413] as const) {
    it(`asks to close the connection in its own ${status}, as in the handler's`, TEST_TIMEOUT, async () => {
      const handle = createWebhookFetchHandler({
        secret: SECRET,
        bodyTimeout: SHORT,
        maxBodySize: 1024,
        onEvent: () => {},
        onRefused: () => new Response('refused by the site', { status }),
      });
      const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: bodies[status](), duplex: 'half', headers: { 'X-Signature': sign(eventBody, SECRET) } } as RequestInit);
      const response = await settlesWithin(handle(request), GUARD, 'the answer');
      assert.equal(response.status, status);
      assert.equal(response.headers.get('connection'), 'close');
      assert.equal(await response.text(), 'refused by the site');
    });
  }

  it('asks it of a Response whose headers cannot change (a fetched one), in a copy with its status and body', TEST_TIMEOUT, async () => {
    const site = createServer((_request, response) => response.writeHead(413, 'Too Big Here', { 'X-Site': 'yes' }).end('refused upstream'));
    const port = await listenOn(site);
    try {
      const handle = createWebhookFetchHandler({ secret: SECRET, maxBodySize: 1024, onEvent: () => {}, onRefused: () => fetch(`http://127.0.0.1:${port}/`) });
      const request = new Request('http://127.0.0.1/hooks', { method: 'POST', body: bodies[413](), duplex: 'half', headers: { 'X-Signature': sign(eventBody, SECRET) } } as RequestInit);
      const response = await settlesWithin(handle(request), GUARD, 'the answer');
      assert.deepEqual([response.status, response.statusText, response.headers.get('x-site'), response.headers.get('connection')], [413, 'Too Big Here', 'yes', 'close']);
      assert.equal(await response.text(), 'refused upstream');
    } finally {
      site.closeAllConnections();
      site.close();
    }
  });
});

describe('bodyTimeout, as given to either builder', () => {
  const builders = [
    ['createWebhookHandler', (bodyTimeout: unknown) => createWebhookHandler({ secret: SECRET, onEvent: () => {}, bodyTimeout: bodyTimeout as number })],
    ['createWebhookFetchHandler', (bodyTimeout: unknown) => createWebhookFetchHandler({ secret: SECRET, onEvent: () => {}, bodyTimeout: bodyTimeout as number })],
  ] as const;

  it('throws ConfigError naming bodyTimeout for what is no usable number of milliseconds', () => {
    // 2 ** 31: setTimeout would fire at once (Infinity is "no limit").
    for (const [name, build] of builders) {
      for (const bodyTimeout of [0, -1, Number.NaN, 2 ** 31, '10000', true]) {
        assert.throws(
          () => build(bodyTimeout),
          (error: unknown) => error instanceof ConfigError && error.field === 'bodyTimeout' && /must be a positive number of milliseconds, at most 2147483647/.test(error.message),
          `${name} ${String(bodyTimeout)}`,
        );
      }
    }
  });

  it('takes a positive number of milliseconds up to 2147483647, and leaves the default when left out', () => {
    for (const [, build] of builders) {
      for (const bodyTimeout of [1, 0.5, 30_000, 2 ** 31 - 1, undefined]) assert.equal(typeof build(bodyTimeout), 'function', String(bodyTimeout));
    }
  });
});
