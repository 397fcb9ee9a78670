// createWebhookHandler on a real loopback HTTP/2 server (node:http2's compatibility API), refusing a body over
// maxBodySize: HTTP/2 has no `Connection: close`, so the handler must reset the stream itself once it has answered,
// or a client could upload without end.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { connect, constants, createServer, type ClientHttp2Session, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createWebhookHandler } from '../../src/webhook/index.js';
import { settlesWithin } from './webhook-test-server.js';

const SECRET = 'receiver-secret';
const MAX_BODY = 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');
/** What a client offers to upload: far more than the flow-control windows let through before it is stopped. */
const UPLOAD = 32 * 1024 * 1024;

interface BoundedUpload {
  status: number;
  text: string;
  /** Bytes the client handed to its stream before it was stopped, or all of UPLOAD. */
  written: number;
  /** The RST_STREAM code the server sent, when it reset the stream. */
  resetCode: number | undefined;
}

/**
 * POSTs up to UPLOAD bytes, 64 KiB at a time, and stops writing as soon as the server resets the stream (Node's
 * client reports that as `aborted`) or the stream closes: a client that cannot upload without end, whatever the
 * server does.
 */
async function boundedUpload(session: ClientHttp2Session, headers: Record<string, string | number> = {}): Promise<BoundedUpload> {
  const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': `sha256=${'0'.repeat(64)}`, ...headers });
  let status = 0;
  let text = '';
  let stopped = false;
  const stop = () => (stopped = true);
  stream.on('response', (answer) => (status = Number(answer[':status'])));
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('aborted', stop);
  stream.on('close', stop);
  stream.on('error', stop);
  const answered = once(stream, 'end');
  let written = 0;
  while (!stopped && written < UPLOAD) {
    written += CHUNK.length;
    if (!stream.write(CHUNK)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done).off('aborted', done).off('close', done);
          resolve();
        };
        stream.on('drain', done).on('aborted', done).on('close', done);
      });
    }
  }
  if (!stopped) stream.end();
  await answered;
  const resetCode = stopped ? stream.rstCode : undefined;
  stream.destroy();
  return { status, text, written, resetCode };
}

describe('createWebhookHandler on an HTTP/2 server, given a body over maxBodySize', () => {
  let server: Http2Server;
  let session: ClientHttp2Session;
  before(async () => {
    server = createServer(createWebhookHandler({ secret: SECRET, maxBodySize: MAX_BODY, onEvent: () => {} }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  after(async () => {
    session.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers 413, then resets the stream with NO_ERROR, so the client stops uploading instead of sending without end', async () => {
    const upload = await settlesWithin(boundedUpload(session), 15_000, 'the upload ending');
    assert.equal(upload.status, 413);
    assert.equal(upload.text, `{"error":"body larger than ${MAX_BODY} bytes"}`);
    assert.equal(upload.resetCode, constants.NGHTTP2_NO_ERROR, 'the server reset the stream, without an error (RFC 9113 §8.1)');
    assert.ok(upload.written < UPLOAD, `the client was stopped, not left to upload all ${UPLOAD} bytes (it wrote ${upload.written})`);
  });

  it('answers 413 for a declared Content-Length over maxBodySize and resets the stream, rather than leave the client waiting on flow control', async () => {
    const upload = await settlesWithin(boundedUpload(session, { 'content-length': UPLOAD }), 15_000, 'the upload ending');
    assert.equal(upload.status, 413);
    assert.equal(upload.resetCode, constants.NGHTTP2_NO_ERROR);
    assert.ok(upload.written < UPLOAD);
  });

  it('still verifies a body within maxBodySize on the same connection afterwards', async () => {
    const body = JSON.stringify({ event: 'user.created', sent_at: new Date().toISOString(), notifiable: { type: 'user', id: 1 }, data: {} });
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    const stream = session.request({ ':method': 'POST', ':path': '/hooks', 'content-type': 'application/json', 'x-signature': signature });
    const [headers] = (await settlesWithin(once(stream.end(body), 'response'), 15_000, 'the answer')) as [Record<string, unknown>];
    stream.resume();
    await once(stream, 'close');
    assert.equal(headers[':status'], 204);
  });
});
