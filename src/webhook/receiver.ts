// The receiving side: a request handler for Node `http` (and `http2`) and Express-style servers that verifies the
// signature over the raw bytes before anything parses them. The Fetch API one is in fetch-receiver.ts; both decide
// with delivery-verdict.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as http2Constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { types } from 'node:util';
import { ConfigError, InvalidArgumentError } from '../core/errors.js';
import { DELIVERY_METHODS, bodyTooSlow, judgeDelivery, leavesBodyUnread, methodRefusal, tooLarge, type SignatureEvidence } from './delivery-verdict.js';
import { ABORTED_BEFORE_BODY, receiverSettings, reportHandlerError, type WebhookRefusal, type WebhookVerificationOptions } from './receiver-options.js';
import { classOrKindOf, kindOf } from './value-kind.js';
import type { WebhookBody } from './webhook-channel.js';

// Node's request and response as `http.createServer`, `http2.createServer` (its compatibility API) and Express give them.
type NodeWebhookRequest = IncomingMessage | Http2ServerRequest;
type NodeWebhookResponse = ServerResponse | Http2ServerResponse;

/**
 * What the handler passes along with each verified event. On an HTTP/2 server, `request` and `response` are
 * `node:http2`'s `Http2ServerRequest` and `Http2ServerResponse`, typed here as HTTP/1's so that callbacks written for
 * `http.createServer` and Express keep compiling: what a handler uses (`headers`, `url`, `socket`, `writeHead`, `end`)
 * is on both. A framework's own types are given to `createWebhookHandler` (`<Data, express.Request, express.Response>`).
 */
export interface WebhookReceiverContext<Req = IncomingMessage, Res = ServerResponse> {
  request: Req;
  response: Res;
  /** The exact bytes the signature was checked against. */
  rawBody: Buffer;
}

export interface WebhookReceiverOptions<Data = Record<string, unknown>, Req = IncomingMessage, Res = ServerResponse> extends WebhookVerificationOptions {
  /**
   * Called with each verified event. Answer quickly: when it returns without responding, the handler answers
   * `204 No Content`; when it throws, `500` (or Express's `next(error)`), so the sender retries. What it returns is
   * awaited and otherwise ignored, so `(event) => queue.push(event)` fits.
   */
  onEvent(event: WebhookBody<Data>, context: WebhookReceiverContext<Req, Res>): unknown;
  /**
   * Called with each refused request before it is answered, so the operator can log why deliveries fail (this
   * package's sender quotes the answer's `error` in its failure, but other senders may show only the status).
   * `rawBody` is undefined for a `413`, a `408` or a `405`: the body was not read, or not to its end. What it returns
   * is awaited; a response it makes itself is kept; when it throws, the request is answered as when `onEvent` throws.
   * @example
   * onRefused: ({ status, reason }, { request }) => log.warn(`webhook from ${request.socket.remoteAddress} refused: ${status} ${reason}`)
   */
  onRefused?: ((refusal: WebhookRefusal, context: Omit<WebhookReceiverContext<Req, Res>, 'rawBody'> & { rawBody: Buffer | undefined }) => unknown) | undefined;
  /**
   * Called with each error the handler answers `500` for: what `onEvent` or `onRefused` threw, a request that ended
   * before its body arrived, a body parser that read the body first. It is not awaited; when it throws or rejects,
   * both errors are written to the console. Left out, such errors are written to the console, or, under Express,
   * passed to `next(error)` alone, whose error handler logs them; given, it is called and `next(error)` too.
   * @example
   * onError: (error, { request }) => log.error({ err: error, url: request.url }, 'webhook handler failed')
   */
  onError?: ((error: unknown, context: Omit<WebhookReceiverContext<Req, Res>, 'rawBody'>) => unknown) | undefined;
}

/**
 * `(req, res)` for `http.createServer`, `https.createServer` and `http2.createServer` / `createSecureServer` (their
 * request handler), `(req, res, next)` for Express, Connect, Polka and the like. Never rejects, but when it is given
 * something other than Node's request and response (a Fetch API `Request`): there is then no response to answer
 * with, and the `InvalidArgumentError` says what to use instead.
 */
export type WebhookRequestHandler = (request: NodeWebhookRequest & { body?: unknown; rawBody?: unknown }, response: NodeWebhookResponse, next?: (error?: unknown) => void) => Promise<void>;

const ALREADY_READ =
  'needs the raw body, but a body parser (express.json() or another) read it first: mount the handler before any body parser, use express.raw({ type: "application/json", limit: "1mb" }) on its route, or keep the bytes in req.rawBody (express.json({ verify: (req, res, buf) => { req.rawBody = buf; } }), NestJS rawBody: true)';
const FETCH_REQUEST =
  "takes Node's (request, response), as http.createServer and Express give them, not a Fetch API Request; with one (a Next.js route handler, Hono, Bun, Deno), use createWebhookFetchHandler(options), which takes the Request and returns the Response";
const PARTLY_READ =
  "needs the whole raw body, but part of the body was read before it (a middleware listening for 'data', or one that piped or resumed the request): leave the request unread until the handler, or keep the bytes in req.rawBody";
const COMPRESSED_HINT = ', or mount the handler after a parser that decompresses, e.g. express.raw({ type: "application/json", limit: "1mb" })';

/**
 * Builds the handler. It reads the raw body (or takes the bytes that `express.raw()` left in `req.body`), checks
 * `X-Signature` in constant time, answers `401` on a mismatch, `400` when the body is not a webhook event or (with
 * `maxAge`) its `sent_at` is out of date, `413` above `maxBodySize`, `408` when the body has not all arrived within
 * `bodyTimeout`, `405` for a GET or HEAD, and otherwise hands the parsed event to `onEvent`. A `413` or `408` stops
 * reading: on HTTP/1 it comes with `Connection: close`, on HTTP/2 the stream is reset once it is answered.
 *
 * `Req` and `Res` type the callbacks' `request` and `response` as the framework's (Express's, with `ip`, `status()`…):
 * the handler is given what the framework gives it.
 *
 * @example
 * http.createServer(createWebhookHandler({ secret, onEvent: (event) => queue.push(event) })).listen(3000);
 * app.post('/hooks', createWebhookHandler({ secret, onEvent }));   // before any express.json()
 * app.post('/hooks', createWebhookHandler<OrderEvent, express.Request, express.Response>({ secret, onEvent: (event, { request }) => log(request.ip) }));
 */
export function createWebhookHandler<Data = Record<string, unknown>, Req extends NodeWebhookRequest = IncomingMessage, Res extends NodeWebhookResponse = ServerResponse>(
  options: WebhookReceiverOptions<Data, Req, Res>,
): WebhookRequestHandler {
  const settings = receiverSettings(options, 'createWebhookHandler options');

  return async (request, response, next) => {
    const misuse = callProblem(request, response);
    if (misuse) throw misuse;
    // Decoded by a parser (express.raw() inflates gzip): a Content-Encoding header then says nothing about the bytes.
    const readHere = bufferOf(request.body) === undefined && !request.readableEnded;
    // Typed as HTTP/1's for the callbacks, an HTTP/2 pair included, or as the framework's (see WebhookReceiverContext).
    const context = { request, response } as unknown as Omit<WebhookReceiverContext<Req, Res>, 'rawBody'>;
    const failed = (error: unknown) => reportHandlerError(options.onError, error, context, next !== undefined);
    const refuse = async ({ status, reason }: WebhookRefusal, rawBody: Buffer | undefined) => {
      const unread = leavesBodyUnread(status);
      // Before onRefused, so that an answer it writes itself closes the connection too (a stalled body would otherwise
      // hold it until Node's requestTimeout). HTTP/2 (Node's compatibility API) has no Connection header, and refuses
      // to set one: its stream is reset instead.
      if (unread && request.httpVersionMajor < 2) response.setHeader('Connection', 'close');
      await options.onRefused?.({ status, reason }, { ...context, rawBody });
      if (!response.headersSent) answer(response, status, reason);
      if (unread) resetHttp2StreamOnceAnswered(request);
    };
    try {
      const wrongMethod = methodRefusal(request.method);
      if (wrongMethod) return await refuse(wrongMethod, undefined);
      const rawBody = await rawBodyOf(request, settings.maxBodySize, settings.bodyTimeout);
      // A setup mistake: the bytes cannot be had. Said in the answer too, as the operator tries the endpoint.
      if (rawBody instanceof ConfigError) {
        failed(rawBody);
        if (next) return next(rawBody);
        return answer(response, 500, rawBody.message);
      }
      if (rawBody === 'too-large') return await refuse(tooLarge(settings.maxBodySize), undefined);
      if (rawBody === 'timed-out') return await refuse(bodyTooSlow(settings.bodyTimeout), undefined);
      const verdict = await judgeDelivery<Data>(rawBody, request.headers['x-signature'], settings, () => signatureEvidence(request, readHere));
      if (verdict.refusal) return await refuse(verdict.refusal, rawBody);
      await options.onEvent(verdict.event, { ...context, rawBody });
      if (!response.headersSent) answer(response, 204);
    } catch (error) {
      // A body left unread (an onRefused that threw on a 413 or a 408) would otherwise be read to its end, whatever its
      // size, or waited for without end.
      const unread = !request.readableEnded;
      if (unread && request.httpVersionMajor < 2 && !response.headersSent) response.setHeader('Connection', 'close');
      if (unread) resetHttp2StreamOnceAnswered(request);
      failed(error);
      if (next) return next(error);
      if (!response.headersSent) answer(response, 500, 'webhook handler failed');
      else response.destroy();
    }
  };
}

// Called the Fetch way, or with anything else that is not Node's pair: nothing to read from or answer with. The error
// keeps only the kind of what was given: a request holds credentials in its headers.
function callProblem(request: unknown, response: unknown): InvalidArgumentError | undefined {
  const fetchLike = request as { arrayBuffer?: unknown; headers?: { get?: unknown } } | null | undefined;
  if (typeof fetchLike?.arrayBuffer === 'function' && typeof fetchLike.headers?.get === 'function') {
    return new InvalidArgumentError('webhook handler request', 'a Fetch API Request', FETCH_REQUEST, 'a Fetch API Request');
  }
  if (typeof (request as { on?: unknown } | null | undefined)?.on !== 'function') {
    return new InvalidArgumentError('webhook handler request', kindOf(request), `must be Node's request (an IncomingMessage), as http.createServer and Express give it${wrapperHint(request)}`, kindOf(request));
  }
  if (typeof (response as { writeHead?: unknown } | null | undefined)?.writeHead !== 'function') {
    return new InvalidArgumentError('webhook handler response', kindOf(response), "must be Node's response (a ServerResponse) that came with the request: the handler answers with it", kindOf(response));
  }
  return undefined;
}

// Koa's context and request hold Node's request as `req`, Fastify's request as `raw`: say which to pass.
function wrapperHint(request: unknown): string {
  const wrapper = request as { req?: { on?: unknown }; raw?: { on?: unknown } } | null | undefined;
  if (typeof wrapper?.req?.on === 'function') return '; with Koa, pass ctx.req and ctx.res, not ctx or ctx.request, and set ctx.respond = false';
  if (typeof wrapper?.raw?.on === 'function') return "; with Fastify, pass request.raw and reply.raw, after reply.hijack(), not Fastify's request and reply";
  return '';
}

function signatureEvidence(request: NodeWebhookRequest, readHere: boolean): SignatureEvidence {
  // Node joins repeated lines with ", ": only the raw lines tell two signatures from a malformed one.
  const lines = request.rawHeaders.filter((item, index) => index % 2 === 0 && item.toLowerCase() === 'x-signature').length;
  return {
    header: request.headers['x-signature'],
    repeated: lines > 1,
    contentEncoding: readHere ? request.headers['content-encoding'] : undefined,
    decompressHint: COMPRESSED_HINT,
  };
}

async function rawBodyOf(
  request: NodeWebhookRequest & { body?: unknown; rawBody?: unknown },
  limit: number,
  timeout: number,
): Promise<Buffer | 'too-large' | 'timed-out' | ConfigError> {
  // Left by a raw parser (express.raw()), as a Buffer or another view of the bytes.
  const bodyBytes = bufferOf(request.body);
  if (bodyBytes) return withinLimit(bodyBytes, limit);
  // Before the next check: an HTTP/2 request the client cancelled ends too, with whatever part of the body came.
  if (abandoned(request)) throw new Error(ABORTED_BEFORE_BODY);
  // Read before us: the bytes are gone, unless kept where express.json({ verify }), NestJS and Cloud Functions keep them.
  if (request.readableEnded) return keptRawBody(request.rawBody, limit);
  // Decoded text is not the bytes that were signed (invalid UTF-8 is replaced), and the chunks are no longer Buffers.
  if (request.readableEncoding !== null) {
    return new ConfigError('webhook handler', request.readableEncoding, 'needs the raw bytes, but request.setEncoding() was called before it, so they arrive decoded as text; do not set an encoding before the webhook handler');
  }
  // Chunks another listener took first (a middleware counting 'data'): the rest would be refused as a wrong signature.
  if (request.readableDidRead) return new ConfigError('webhook handler', 'a body partly read', PARTLY_READ);
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return 'too-large';
  return readStream(request, limit, timeout);
}

// Text rather than bytes (`req.rawBody = buf.toString()`, or koa-bodyparser's and fastify-raw-body's text copied onto
// Node's request): the channel sends UTF-8, so encoding the text again gives the bytes it signed.
function keptRawBody(rawBody: unknown, limit: number): Buffer | 'too-large' | ConfigError {
  const bytes = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : bufferOf(rawBody);
  if (bytes) return withinLimit(bytes, limit);
  if (rawBody === undefined || rawBody === null) return new ConfigError('webhook handler', 'a parsed body', ALREADY_READ);
  // Only its kind: a parsed body is the sender's data.
  const kind = classOrKindOf(rawBody);
  return new ConfigError('req.rawBody', kind, `must be the raw body as received, a ${RAW_BODY_TYPES}, not a parsed body or a Promise of one: e.g. express.json({ verify: (req, res, buf) => { req.rawBody = buf; } })`, kind);
}

const RAW_BODY_TYPES = 'Buffer, Uint8Array, ArrayBuffer or UTF-8 text';

// Bytes however a framework holds them (a Buffer, a Uint8Array or other view, an ArrayBuffer), as a Buffer over the
// same memory; `undefined` for anything else. Not instanceof: bytes from another realm (a vm context) are bytes too.
function bufferOf(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value;
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (types.isAnyArrayBuffer(value)) return Buffer.from(value);
  return undefined;
}

// The client went away before the whole body came. HTTP/1: the request is destroyed unended, and, its 'close' being
// past when a slow middleware hands it on, says so no other way. HTTP/2 (compatibility API): `aborted`.
function abandoned(request: NodeWebhookRequest): boolean {
  if (request.httpVersionMajor >= 2) return (request as Http2ServerRequest).aborted;
  return request.destroyed && !request.readableEnded;
}

function withinLimit(bytes: Buffer, limit: number): Buffer | 'too-large' {
  return bytes.length > limit ? 'too-large' : bytes;
}

// Reads the body until its end, `limit` bytes, or `timeout` ms, whichever comes first. The timeout counts the whole
// body, not the pause between chunks: a client dripping a byte a second would never trip the latter.
function readStream(request: NodeWebhookRequest, limit: number, timeout: number): Promise<Buffer | 'too-large' | 'timed-out'> {
  return new Promise((settleWith, rejectWith) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Infinity is off: no timer (setTimeout would fire at once).
    const timer = timeout === Infinity ? undefined : setTimeout(() => stopReading('timed-out'), timeout);
    const resolve = (value: Buffer | 'too-large' | 'timed-out') => {
      clearTimeout(timer);
      settleWith(value);
    };
    const reject = (error: unknown) => {
      clearTimeout(timer);
      rejectWith(error);
    };
    // HTTP/1.1: let the rest flow away, the answer closes the connection. HTTP/2 closes no connection: reading stops
    // here (flow control then holds the client back) and the stream is reset once answered.
    const stopReading = (why: 'too-large' | 'timed-out') => {
      request.off('data', onData);
      if (request.httpVersionMajor < 2) request.resume();
      else request.pause();
      resolve(why);
    };
    // These run from the stream, outside the handler's try/catch: whatever throws in one must reject the promise,
    // never become an uncaught exception that ends the process.
    const guarded = <A extends unknown[]>(callback: (...args: A) => void) => (...args: A) => {
      try {
        callback(...args);
      } catch (error) {
        reject(error);
      }
    };
    const onData = guarded((chunk: Buffer) => {
      if (!Buffer.isBuffer(chunk)) throw new Error('the request body arrived as text: request.setEncoding() was called while the webhook handler read it');
      size += chunk.length;
      if (size > limit) return stopReading('too-large');
      chunks.push(chunk);
    });
    request.on('data', onData);
    // A cancelled HTTP/2 request ends like a complete one: the part that came would read as a wrong signature.
    request.once('end', guarded(() => (abandoned(request) ? reject(new Error(ABORTED_BEFORE_BODY)) : resolve(Buffer.concat(chunks, size)))));
    request.once('error', reject);
    request.once('close', () => {
      if (!request.readableEnded) reject(new Error(ABORTED_BEFORE_BODY));
    });
  });
}

/**
 * HTTP/2's way to refuse the rest of a body: once the answer is complete, RST_STREAM with NO_ERROR asks the client to
 * stop sending it (RFC 9113 §8.1); otherwise it could upload without end, or wait forever on flow control. Waits for
 * the stream's end, which an onRefused that answers itself may reach later: reset before it, the answer would be cut.
 */
function resetHttp2StreamOnceAnswered(request: NodeWebhookRequest): void {
  if (request.httpVersionMajor < 2) return;
  const { stream } = request as Http2ServerRequest;
  const reset = () => {
    stream.close(http2Constants.NGHTTP2_NO_ERROR);
    request.resume(); // what arrived before the reset, so that the stream ends and its session can close
  };
  if (stream.writableFinished) reset();
  else stream.once('finish', reset);
}

function answer(response: NodeWebhookResponse, status: number, error?: string): void {
  if (status === 405) response.setHeader('Allow', DELIVERY_METHODS);
  if (error === undefined) {
    response.writeHead(status).end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error }));
}
