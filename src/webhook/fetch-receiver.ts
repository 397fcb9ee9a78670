// The receiving side for servers that speak the Fetch API (Next.js route handlers, Hono, Bun, Deno): a handler that
// takes a Request, verifies the signature over the raw bytes before anything parses them, and resolves with the
// Response. It decides as the Node handler does (delivery-verdict.ts); only reading and answering differ.
import { ConfigError, InvalidArgumentError } from '../core/errors.js';
import { DELIVERY_METHODS, bodyTooSlow, judgeDelivery, leavesBodyUnread, methodRefusal, tooLarge, type SignatureEvidence } from './delivery-verdict.js';
import { ABORTED_BEFORE_BODY, receiverSettings, reportHandlerError, type WebhookRefusal, type WebhookVerificationOptions } from './receiver-options.js';
import { wellFormedSignature } from './signature.js';
import { classOrKindOf } from './value-kind.js';
import type { WebhookBody } from './webhook-channel.js';

/**
 * What the Fetch handler passes along with each verified event. `Req`: a framework's own Request type (Next.js's
 * `NextRequest`), given to `createWebhookFetchHandler`.
 */
export interface WebhookFetchReceiverContext<Req extends Request = Request> {
  request: Req;
  /** The exact bytes the signature was checked against. */
  rawBody: Buffer;
}

export interface WebhookFetchReceiverOptions<Data = Record<string, unknown>, Req extends Request = Request> extends WebhookVerificationOptions {
  /**
   * Called with each verified event. Answer quickly: a `Response` it returns (or resolves to) is the answer; anything
   * else is awaited and ignored, and the handler answers `204 No Content`, so `(event) => queue.push(event)` fits.
   * When it throws, the answer is `500`, so the sender retries.
   */
  onEvent(event: WebhookBody<Data>, context: WebhookFetchReceiverContext<Req>): unknown;
  /**
   * Called with each refused request before it is answered, so the operator can log why deliveries fail (this
   * package's sender quotes the answer's `error` in its failure, but other senders may show only the status).
   * `rawBody` is undefined for a `413`, a `408` or a `405`: the body was not read, or not to its end. What it returns
   * is awaited; a `Response` it returns is the answer instead; when it throws, the request is answered as when
   * `onEvent` throws.
   * @example
   * onRefused: ({ status, reason }, { request }) => log.warn(`webhook to ${request.url} refused: ${status} ${reason}`)
   */
  onRefused?: ((refusal: WebhookRefusal, context: Omit<WebhookFetchReceiverContext<Req>, 'rawBody'> & { rawBody: Buffer | undefined }) => unknown) | undefined;
  /**
   * Called with each error the handler answers `500` for: what `onEvent` or `onRefused` threw, a body that broke off,
   * a Request whose body was read before the handler. It is not awaited; when it throws or rejects, both errors are
   * written to the console. Left out, such errors are written to the console (the framework never sees them: the
   * handler answers instead of throwing).
   * @example
   * onError: (error, { request }) => log.error({ err: error, url: request.url }, 'webhook handler failed')
   */
  onError?: ((error: unknown, context: Omit<WebhookFetchReceiverContext<Req>, 'rawBody'>) => unknown) | undefined;
}

/**
 * Takes the `Request` and resolves with the `Response`. Never rejects, but when it is given something other than a
 * Fetch API `Request` (Node's request, a Hono context): the `InvalidArgumentError` then says what to pass instead.
 */
export type WebhookFetchHandler<Req extends Request = Request> = (request: Req) => Promise<Response>;

const NODE_REQUEST =
  "takes a Fetch API Request, as Next.js route handlers, Hono (c.req.raw), Bun.serve and Deno.serve give it, not Node's request; with http.createServer, Express and the like, use createWebhookHandler(options), which takes Node's (request, response)";
const NOT_A_REQUEST = 'must be a Fetch API Request, as Next.js route handlers, Hono (c.req.raw, not the context c), Bun.serve and Deno.serve give it';
const ALREADY_READ =
  "needs the raw body, but the Request's body was read, or taken by a reader, before it (request.json(), request.text(), request.body.getReader() or a middleware): pass the Request unread, or a request.clone() made before reading it";

/**
 * Builds the handler for servers that speak the Fetch API. As `createWebhookHandler` does, it reads the raw body (at
 * most `maxBodySize` bytes, `Content-Length` first, within `bodyTimeout`), checks `X-Signature` in constant time,
 * answers `401` on a mismatch, `400` when the body is not a webhook event or (with `maxAge`) its `sent_at` is out of
 * date, `413` above `maxBodySize`, `408` when the body has not all arrived within `bodyTimeout`, `405` for a GET or
 * HEAD, and otherwise hands the parsed event to `onEvent`. A refusal's JSON `error` says why; a `413` or `408` comes
 * with `Connection: close`, the rest of the body left unread.
 *
 * @example
 * // Next.js, app/hooks/route.ts
 * export const POST = createWebhookFetchHandler({ secret: process.env.WEBHOOK_SECRET!, onEvent: (event) => queue.push(event) });
 * // Hono: the Request is c.req.raw
 * app.post('/hooks', (c) => handler(c.req.raw));
 * // Bun and Deno
 * Bun.serve({ fetch: handler });
 * Deno.serve(handler);
 */
export function createWebhookFetchHandler<Data = Record<string, unknown>, Req extends Request = Request>(options: WebhookFetchReceiverOptions<Data, Req>): WebhookFetchHandler<Req> {
  const settings = receiverSettings(options, 'createWebhookFetchHandler options');

  return async (request) => {
    const misuse = requestProblem(request);
    if (misuse) throw misuse;
    let bodyRead = false;
    const refuse = async ({ status, reason }: WebhookRefusal, rawBody: Buffer | undefined): Promise<Response> => {
      const own: unknown = await options.onRefused?.({ status, reason }, { request, rawBody });
      // A 413 or a 408 leaves the rest of the body unread: the connection cannot carry another request, also after
      // an answer onRefused made itself. Headers that cannot change (a fetched Response's) are copied into a new one.
      const unread = leavesBodyUnread(status);
      if (!isResponse(own)) return answer(status, reason, unread);
      if (!unread) return own;
      try {
        own.headers.set('Connection', 'close');
        return own;
      } catch {
        const headers = new Headers(own.headers);
        headers.set('Connection', 'close');
        return new Response(own.body, { status: own.status, statusText: own.statusText, headers });
      }
    };
    try {
      const wrongMethod = methodRefusal(request.method);
      if (wrongMethod) return await refuse(wrongMethod, undefined);
      const rawBody = await rawBodyOf(request, settings.maxBodySize, settings.bodyTimeout);
      if (rawBody === 'already-read' || rawBody === 'locked') {
        const error = new ConfigError('webhook handler', rawBody === 'locked' ? 'a Request whose body a reader holds' : 'a Request whose body was read', ALREADY_READ);
        reportHandlerError(options.onError, error, { request }, false);
        return answer(500, error.message);
      }
      if (rawBody === 'too-large') return await refuse(tooLarge(settings.maxBodySize), undefined);
      if (rawBody === 'timed-out') return await refuse(bodyTooSlow(settings.bodyTimeout), undefined);
      bodyRead = true;
      const verdict = await judgeDelivery<Data>(rawBody, request.headers.get('x-signature') ?? undefined, settings, () => signatureEvidence(request));
      if (verdict.refusal) return await refuse(verdict.refusal, rawBody);
      const own: unknown = await options.onEvent(verdict.event, { request, rawBody });
      return isResponse(own) ? own : new Response(null, { status: 204 });
    } catch (error) {
      reportHandlerError(options.onError, error, { request }, false);
      return answer(500, 'webhook handler failed', !bodyRead);
    }
  };
}

// Only the kind of what was given goes in the error: a request holds credentials in its headers.
function requestProblem(request: unknown): InvalidArgumentError | undefined {
  const candidate = request as { headers?: { get?: unknown }; arrayBuffer?: unknown; on?: unknown } | null | undefined;
  if (typeof candidate?.headers?.get === 'function' && typeof candidate.arrayBuffer === 'function') return undefined;
  const kind = classOrKindOf(request);
  if (typeof candidate?.on === 'function') return new InvalidArgumentError('webhook handler request', kind, NODE_REQUEST, kind);
  return new InvalidArgumentError('webhook handler request', kind, NOT_A_REQUEST, kind);
}

async function rawBodyOf(request: Request, limit: number, timeout: number): Promise<Buffer | 'too-large' | 'timed-out' | 'already-read' | 'locked'> {
  if (request.bodyUsed) return 'already-read';
  // A middleware that took a reader and has not read yet: bodyUsed is still false, but no one else can read it.
  if (request.body?.locked) return 'locked';
  // Declared too large: refused without reading a byte of it.
  if (Number(request.headers.get('content-length')) > limit) return 'too-large';
  if (request.body === null) return Buffer.alloc(0);
  return readWithin(request.body, limit, timeout);
}

// Stops at the chunk that crosses `limit`, or when the whole body has taken over `timeout` ms (the whole body, not
// the pause between chunks, which a client dripping a byte a second never exceeds). The rest is left unread, not
// cancelled: every server copes with a handler that answers before reading to the end (any early answer does), and
// the 413 or 408 asks to close the connection, whereas cancelling makes some (Node adapters) drop it unanswered.
async function readWithin(body: ReadableStream<Uint8Array>, limit: number, timeout: number): Promise<Buffer | 'too-large' | 'timed-out'> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Infinity: a promise that never settles, and no timer (setTimeout would fire it at once).
  const timedOut = new Promise<'timed-out'>((resolve) => (timer = timeout === Infinity ? undefined : setTimeout(() => resolve('timed-out'), timeout)));
  try {
    for (;;) {
      const read = await Promise.race([reader.read().catch(aborted), timedOut]);
      if (read === 'timed-out') return read;
      const { done, value } = read;
      if (done) return Buffer.concat(chunks, size);
      size += value.byteLength;
      if (size > limit) return 'too-large';
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
    releaseWithReadPending(reader);
  }
}

// A body stream errors when its connection broke ("aborted", "terminated", by runtime): said as the Node handler says it,
// the runtime's own error kept as the cause.
function aborted(cause: unknown): never {
  throw new Error(ABORTED_BEFORE_BODY, { cause });
}

// With a read still pending (the body timed out), releaseLock rejects that read, whose rejection the race above has
// handled; platforms that follow the older Streams spec throw instead, and the reader then simply stays locked.
function releaseWithReadPending(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    reader.releaseLock();
  } catch {
    // Nothing reads this body after the refusal.
  }
}

// Not instanceof alone: a Response made with the undici package (which this one depends on), or in another realm, is
// no instance of this global's, yet it is the answer the callback meant, such as a 503 asking the sender to retry.
function isResponse(value: unknown): value is Response {
  return value instanceof Response || Object.prototype.toString.call(value) === '[object Response]';
}

function signatureEvidence(request: Request): SignatureEvidence {
  const header = request.headers.get('x-signature') ?? undefined;
  // Headers joins repeated lines with ", ", and a signature holds no comma: several well-formed ones are several lines.
  const parts = header?.split(',') ?? [];
  return {
    header,
    repeated: parts.length > 1 && parts.every((part) => wellFormedSignature(part.trim()) !== undefined),
    contentEncoding: request.headers.get('content-encoding') ?? undefined,
    decompressHint: '',
  };
}

function answer(status: number, error?: string, closeConnection = false): Response {
  const headers = new Headers();
  if (closeConnection) headers.set('Connection', 'close');
  if (status === 405) headers.set('Allow', DELIVERY_METHODS);
  if (error === undefined) return new Response(null, { status, headers });
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify({ error }), { status, headers });
}
