// The receiving side: a request handler for Node `http` and Express-style servers that verifies the signature
// over the raw bytes before anything parses them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError, InvalidArgumentError } from '../core/errors.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { parseIsoTimestamp } from './iso-timestamp.js';
import { receiverSigners, verifiedByAny, wellFormedSignature, type ReceiverSecret } from './signature.js';
import { kindOf } from './value-kind.js';
import type { WebhookBody } from './webhook-channel.js';

/** What the handler passes along with each verified event. */
export interface WebhookReceiverContext {
  request: IncomingMessage;
  response: ServerResponse;
  /** The exact bytes the signature was checked against. */
  rawBody: Buffer;
}

/** A request the handler refused before `onEvent`: the status it answers and why (also the answer's `error`). */
export interface WebhookRefusal {
  /** `401` for the signature, `400` for a body that is no webhook event or (with `maxAge`) is out of date, `413` for a body over `maxBodySize`. */
  status: 400 | 401 | 413;
  reason: string;
}

export interface WebhookReceiverOptions<Data = Record<string, unknown>> {
  /** The channel's secret; while it is rotated, a list of the new one and the old (a signature by either is accepted). */
  secret: ReceiverSecret;
  /**
   * Called with each verified event. Answer quickly: when it returns without responding, the handler answers
   * `204 No Content`; when it throws, `500` (or Express's `next(error)`), so the sender retries. What it returns is
   * awaited and otherwise ignored, so `(event) => queue.push(event)` fits.
   */
  onEvent(event: WebhookBody<Data>, context: WebhookReceiverContext): unknown;
  /**
   * Called with each refused request before it is answered, so the operator can log why deliveries fail (the sender
   * only sees the status). `rawBody` is undefined for a `413`: the body was not read. What it returns is awaited; a
   * response it makes itself is kept; when it throws, the request is answered as when `onEvent` throws.
   * @example
   * onRefused: ({ status, reason }, { request }) => log.warn(`webhook from ${request.socket.remoteAddress} refused: ${status} ${reason}`)
   */
  onRefused?: ((refusal: WebhookRefusal, context: Omit<WebhookReceiverContext, 'rawBody'> & { rawBody: Buffer | undefined }) => unknown) | undefined;
  /**
   * Largest body read, in bytes; a bigger one is answered `413`.
   * @default 1048576
   */
  maxBodySize?: number | undefined;
  /**
   * Milliseconds after its `sent_at` that an event is still accepted, so that a captured request cannot be replayed
   * later; an older one, or one dated more than 5 minutes ahead of this server's clock, is answered `400` and never
   * reaches `onEvent`. Every retry resends the first attempt's `sent_at`: keep this above the sender's whole retry
   * schedule (3 minutes with the default retry policy and timeout), or late retries are refused. Off when undefined.
   * @default undefined
   * @example 600_000 // 10 minutes
   */
  maxAge?: number | undefined;
}

/**
 * `(req, res)` for `http.createServer`, `(req, res, next)` for Express, Connect, Polka and the like. Never rejects,
 * but when it is given something other than Node's request and response (a Fetch API `Request`): there is then no
 * response to answer with, and the `InvalidArgumentError` says what to use instead.
 */
export type WebhookRequestHandler = (request: IncomingMessage & { body?: unknown; rawBody?: unknown }, response: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

const RECEIVER_FIELDS = ['secret', 'onEvent', 'onRefused', 'maxBodySize', 'maxAge'];
const DEFAULT_MAX_BODY = 1024 * 1024;
const ALREADY_READ =
  'needs the raw body, but a body parser (express.json() or another) read it first: mount the handler before any body parser, use express.raw({ type: "application/json", limit: "1mb" }) on its route, or keep the bytes in req.rawBody (express.json({ verify: (req, res, buf) => { req.rawBody = buf; } }), NestJS rawBody: true)';
const FETCH_REQUEST =
  "takes Node's (request, response), as http.createServer and Express give them, not a Fetch API Request; with one (a Next.js route handler, Hono, Bun), verify with verifySignature(await request.arrayBuffer(), request.headers.get('x-signature'), secret)";
// How far a sender's clock may run ahead of this server's when maxAge is set; Stripe and Standard Webhooks allow 5 minutes.
const MAX_CLOCK_SKEW = 5 * 60_000;

/**
 * Builds the handler. It reads the raw body (or takes the Buffer that `express.raw()` left in `req.body`), checks
 * `X-Signature` in constant time, answers `401` on a mismatch, `400` when the body is not a webhook event or (with
 * `maxAge`) its `sent_at` is out of date, and otherwise hands the parsed event to `onEvent`.
 *
 * @example
 * http.createServer(createWebhookHandler({ secret, onEvent: (event) => queue.push(event) })).listen(3000);
 * app.post('/hooks', createWebhookHandler({ secret, onEvent }));   // before any express.json()
 */
export function createWebhookHandler<Data = Record<string, unknown>>(options: WebhookReceiverOptions<Data>): WebhookRequestHandler {
  const input = expectPlainObject(options, 'createWebhookHandler options');
  // A misspelt secret still holds it: only the value's type is shown. A misspelt maxAge would turn replay protection off.
  expectKnownFields(input, RECEIVER_FIELDS, 'createWebhookHandler options', kindOf);
  const signers = receiverSigners(input.secret, 'secret');
  if (typeof input.onEvent !== 'function') throw new ConfigError('onEvent', input.onEvent, 'must be a function (event, context) => void');
  if (input.onRefused !== undefined && typeof input.onRefused !== 'function') {
    throw new ConfigError('onRefused', input.onRefused, 'must be a function ({ status, reason }, context) => void, or left out');
  }
  const maxBodySize = (input.maxBodySize ?? DEFAULT_MAX_BODY) as number;
  if (!Number.isInteger(maxBodySize) || maxBodySize <= 0) throw new ConfigError('maxBodySize', maxBodySize, 'must be a positive integer of bytes');
  const { maxAge } = input;
  if (maxAge !== undefined && (typeof maxAge !== 'number' || !Number.isFinite(maxAge) || maxAge <= 0)) {
    throw new ConfigError('maxAge', maxAge, 'must be a positive number of milliseconds, e.g. 600000 for 10 minutes (omit it to accept events of any age)');
  }

  return async (request, response, next) => {
    const misuse = callProblem(request, response);
    if (misuse) throw misuse;
    // Decoded by a parser (express.raw() inflates gzip): a Content-Encoding header then says nothing about the bytes.
    const readHere = !Buffer.isBuffer(request.body) && !request.readableEnded;
    const refuse = async (status: WebhookRefusal['status'], reason: string, rawBody: Buffer | undefined) => {
      await options.onRefused?.({ status, reason }, { request, response, rawBody });
      // HTTP/2 (Node's compatibility API) has no Connection header, and refuses to set one: the stream ends alone.
      if (!response.headersSent) answer(response, status, reason, status === 413 && request.httpVersionMajor < 2);
    };
    try {
      const rawBody = await rawBodyOf(request, maxBodySize);
      if (rawBody === 'already-parsed') {
        const error = new ConfigError('webhook handler', 'a parsed body', ALREADY_READ);
        if (next) return next(error);
        return answer(response, 500, error.message);
      }
      if (rawBody === 'decoded') {
        const error = new ConfigError('webhook handler', request.readableEncoding, 'needs the raw bytes, but request.setEncoding() was called before it, so they arrive decoded as text; do not set an encoding before the webhook handler');
        if (next) return next(error);
        return answer(response, 500, error.message);
      }
      if (rawBody === 'too-large') return await refuse(413, `body larger than ${maxBodySize} bytes`, undefined);
      const signature = request.headers['x-signature'];
      if (!(await verifiedByAny(signers, rawBody, signature))) return await refuse(401, signatureProblem(request, readHere), rawBody);
      const event = parseEvent<Data>(rawBody);
      if (typeof event === 'string') return await refuse(400, `body is not a webhook event: ${event}`, rawBody);
      const outOfDate = maxAge === undefined ? undefined : sentAtProblem(event.sent_at, maxAge, Date.now());
      // 400, as Stripe's and Standard Webhooks' examples answer: retrying never makes a stale event fresh, so not 5xx
      // or 429 ("try again"); not 2xx, which would hide the loss from the sender (refused on every retry, it reports
      // the delivery failed, with its body); not 410, which many senders read as "stop sending to this endpoint".
      if (outOfDate) return await refuse(400, outOfDate, rawBody);
      await options.onEvent(event, { request, response, rawBody });
      if (!response.headersSent) answer(response, 204);
    } catch (error) {
      // A body left unread (an onRefused that threw on a 413) would otherwise be read to its end, whatever its size.
      const unread = !request.readableEnded && request.httpVersionMajor < 2;
      if (unread && !response.headersSent) response.setHeader('Connection', 'close');
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
    return new InvalidArgumentError('webhook handler request', kindOf(request), "must be Node's request (an IncomingMessage), as http.createServer and Express give it", kindOf(request));
  }
  if (typeof (response as { writeHead?: unknown } | null | undefined)?.writeHead !== 'function') {
    return new InvalidArgumentError('webhook handler response', kindOf(response), "must be Node's response (a ServerResponse) that came with the request: the handler answers with it", kindOf(response));
  }
  return undefined;
}

// Why a signature that did not verify was refused. It tells the sender nothing about the secret, and tells the
// operator where to look.
function signatureProblem(request: IncomingMessage, readHere: boolean): string {
  const header = request.headers['x-signature'];
  if (header === undefined) return 'invalid signature: no X-Signature header (is a secret set on the sending channel?)';
  // Node joins repeated lines with ", ": only the raw lines tell two signatures from a malformed one.
  const lines = request.rawHeaders.filter((item, index) => index % 2 === 0 && item.toLowerCase() === 'x-signature').length;
  if (lines > 1) return 'invalid signature: more than one X-Signature header';
  if (wellFormedSignature(header) === undefined) return 'invalid signature: X-Signature is not sha256= followed by 64 lowercase hex digits';
  const encoding = request.headers['content-encoding'];
  if (readHere && encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return `invalid signature: the body arrived with Content-Encoding: ${encoding}, and X-Signature signs the bytes before any compression; the channel never compresses, so something on the way did: turn that off, or mount the handler after a parser that decompresses, e.g. express.raw({ type: "application/json", limit: "1mb" })`;
  }
  return 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)';
}

async function rawBodyOf(request: IncomingMessage & { body?: unknown; rawBody?: unknown }, limit: number): Promise<Buffer | 'too-large' | 'already-parsed' | 'decoded'> {
  if (Buffer.isBuffer(request.body)) return withinLimit(request.body, limit);
  // Read before us: the bytes are gone, unless kept where express.json({ verify }), NestJS and Cloud Functions keep them.
  if (request.readableEnded) return Buffer.isBuffer(request.rawBody) ? withinLimit(request.rawBody, limit) : 'already-parsed';
  // Decoded text is not the bytes that were signed (invalid UTF-8 is replaced), and the chunks are no longer Buffers.
  if (request.readableEncoding !== null) return 'decoded';
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return 'too-large';
  return readStream(request, limit);
}

function withinLimit(bytes: Buffer, limit: number): Buffer | 'too-large' {
  return bytes.length > limit ? 'too-large' : bytes;
}

function readStream(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
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
      if (size > limit) {
        request.off('data', onData);
        request.resume(); // let the rest flow away; the 413 closes the connection
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    request.on('data', onData);
    request.once('end', guarded(() => resolve(Buffer.concat(chunks, size))));
    request.once('error', reject);
    request.once('close', () => {
      if (!request.readableEnded) reject(new Error('the request was aborted before its body arrived'));
    });
  });
}

// The event, or what is wrong with the body: the operator reading onRefused needs to know which part.
function parseEvent<Data>(rawBody: Buffer): WebhookBody<Data> | string {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return rawBody.length === 0 ? 'it is empty' : 'it is not JSON';
  }
  if (!isObject(value)) return `it is ${value === null ? 'JSON null' : `a JSON ${Array.isArray(value) ? 'array' : typeof value}`}, not an object`;
  if (typeof value.event !== 'string') return '"event" is not a string';
  if (typeof value.sent_at !== 'string') return '"sent_at" is not a string';
  const { notifiable, data } = value;
  if (!isObject(notifiable)) return '"notifiable" is not an object';
  if (typeof notifiable.type !== 'string') return '"notifiable.type" is not a string';
  if (!['string', 'number'].includes(typeof notifiable.id)) return '"notifiable.id" is not a string or a number';
  if (!isObject(data)) return '"data" is not an object';
  return value as unknown as WebhookBody<Data>;
}

// Why `sentAt` is refused under `maxAge`, or `undefined` when it is accepted.
function sentAtProblem(sentAt: string, maxAge: number, now: number): string | undefined {
  const time = parseIsoTimestamp(sentAt);
  if (time === undefined) return `event sent_at ${JSON.stringify(sentAt.slice(0, 64))} is not an ISO 8601 timestamp like 2025-01-02T03:04:05.678Z`;
  if (now - time > maxAge) return `event sent_at ${sentAt} is older than maxAge (${maxAge} ms)`;
  if (time - now > MAX_CLOCK_SKEW) return `event sent_at ${sentAt} is more than ${MAX_CLOCK_SKEW} ms ahead of the receiver's clock`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function answer(response: ServerResponse, status: number, error?: string, closeConnection = false): void {
  if (closeConnection) response.setHeader('Connection', 'close');
  if (error === undefined) {
    response.writeHead(status).end();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error }));
}
