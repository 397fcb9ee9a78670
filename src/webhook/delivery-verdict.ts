// What a webhook receiver decides about a request once it holds the raw bytes: the event to hand over, or a refusal
// with its reason. Shared by the Node request handler and the Fetch one, which differ only in how they read and answer.
import { parseIsoTimestamp } from './iso-timestamp.js';
import type { ReceiverSettings, WebhookRefusal } from './receiver-options.js';
import { verifiedByAny, wellFormedSignature } from './signature.js';
import type { WebhookBody } from './webhook-channel.js';

/** The event to hand to `onEvent`, or why the request is refused. */
export type DeliveryVerdict<Data> = { readonly event: WebhookBody<Data>; readonly refusal?: undefined } | { readonly event?: undefined; readonly refusal: WebhookRefusal };

/** What the request says about its signature, for the reason of a `401`. Only read when the signature did not verify. */
export interface SignatureEvidence {
  /** X-Signature as the server hands it over; undefined when absent. */
  readonly header: string | readonly string[] | undefined;
  /** The request carried more than one X-Signature line. */
  readonly repeated: boolean;
  /** Content-Encoding of bytes the handler read as they arrived; undefined when absent or when a parser decoded them. */
  readonly contentEncoding: string | undefined;
  /** Besides turning the compression off, how to have the body decompressed before the handler, when the server has a way (`''` when not). */
  readonly decompressHint: string;
}

// How far a sender's clock may run ahead of this server's when maxAge is set; Stripe and Standard Webhooks allow 5 minutes.
const MAX_CLOCK_SKEW = 5 * 60_000;
// The longest part of a sent_at a refusal quotes.
const MAX_QUOTED = 64;

/** The methods a channel sends deliveries with, for the `Allow` header of a `405`. */
export const DELIVERY_METHODS = 'POST, PUT, PATCH';

/**
 * The refusal of a GET or HEAD (someone opening the endpoint in a browser, a health check): no delivery comes without
 * a body, and "no X-Signature header" would send its reader after the secrets.
 */
export function methodRefusal(method: string | undefined): WebhookRefusal | undefined {
  return method === 'GET' || method === 'HEAD' ? { status: 405, reason: `method ${method} carries no webhook: deliveries come as ${DELIVERY_METHODS} requests with a signed JSON body` } : undefined;
}

/** The refusal of a body over `maxBodySize`, read or declared. */
export function tooLarge(maxBodySize: number): WebhookRefusal {
  return { status: 413, reason: `body larger than ${maxBodySize} bytes` };
}

/** The refusal of a body that had not all arrived `bodyTimeout` ms after the handler began to read it. */
export function bodyTooSlow(bodyTimeout: number): WebhookRefusal {
  return { status: 408, reason: `body not received within ${bodyTimeout} ms` };
}

/**
 * A refusal that leaves the rest of the body unread (`413`, `408`): the connection cannot carry another request, so
 * the answer closes it (HTTP/1) or resets the stream (HTTP/2).
 */
export function leavesBodyUnread(status: WebhookRefusal['status']): boolean {
  return status === 413 || status === 408;
}

/**
 * Checks `rawBody` against `header` in constant time, then that it is a webhook event, then (with `maxAge`) that it is
 * in date, in that order. `evidence` is asked for only when the signature does not verify.
 */
export async function judgeDelivery<Data>(rawBody: Buffer, header: string | readonly string[] | undefined, settings: ReceiverSettings, evidence: () => SignatureEvidence): Promise<DeliveryVerdict<Data>> {
  if (!(await verifiedByAny(settings.signers, rawBody, header))) return { refusal: { status: 401, reason: signatureProblem(evidence(), rawBody.length === 0) } };
  const event = parseEvent<Data>(rawBody);
  if (typeof event === 'string') return { refusal: { status: 400, reason: `body is not a webhook event: ${event}` } };
  const outOfDate = settings.maxAge === undefined ? undefined : sentAtProblem(event.sent_at, settings.maxAge, Date.now());
  // 400, as Stripe's and Standard Webhooks' examples answer: retrying never makes a stale event fresh, so not 5xx
  // or 429 ("try again"); not 2xx, which would hide the loss from the sender (refused on every retry, it reports
  // the delivery failed, with its body); not 410, which many senders read as "stop sending to this endpoint".
  if (outOfDate) return { refusal: { status: 400, reason: outOfDate } };
  return { event };
}

// Why a signature that did not verify was refused. It tells the sender nothing about the secret, and tells the
// operator where to look.
function signatureProblem({ header, repeated, contentEncoding, decompressHint }: SignatureEvidence, bodyEmpty: boolean): string {
  if (header === undefined) return 'invalid signature: no X-Signature header (is a secret set on the sending channel?)';
  if (repeated) return 'invalid signature: more than one X-Signature header';
  if (wellFormedSignature(header) === undefined) return 'invalid signature: X-Signature is not sha256= followed by 64 hex digits';
  if (contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity') {
    return `invalid signature: the body arrived with Content-Encoding: ${contentEncoding}, and X-Signature signs the bytes before any compression; the channel never compresses, so something on the way did: turn that off${decompressHint}`;
  }
  // The channel never sends an empty body: the secrets are not the likely cause, and pointing at them misleads.
  if (bodyEmpty) return 'invalid signature: the request arrived without a body, which X-Signature signs (something on the way dropped it, such as a proxy retrying the POST)';
  return 'invalid signature: X-Signature does not match the body (the secrets differ, or the body was changed on the way)';
}

// The event, or what is wrong with the body: the operator reading onRefused needs to know which part.
function parseEvent<Data>(rawBody: Buffer): WebhookBody<Data> | string {
  let value: unknown;
  const text = rawBody.toString('utf8');
  try {
    // RFC 8259 §8.1: a sender must not start JSON with a byte order mark, but a parser may ignore one, as
    // express.json() and Request.json() do; the signature, over the bytes, covers it either way.
    value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
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
  if (time === undefined) return `event sent_at ${JSON.stringify(sentAt.slice(0, MAX_QUOTED))} is not an ISO 8601 timestamp like 2025-01-02T03:04:05.678Z`;
  // Quoted as far as the first 64 characters: a valid timestamp may carry a fraction of any length, and the reason
  // goes back to the sender in the answer.
  const shown = sentAt.length > MAX_QUOTED ? `${sentAt.slice(0, MAX_QUOTED)}…` : sentAt;
  if (now - time > maxAge) return `event sent_at ${shown} is older than maxAge (${maxAge} ms)`;
  if (time - now > MAX_CLOCK_SKEW) return `event sent_at ${shown} is more than ${MAX_CLOCK_SKEW} ms ahead of the receiver's clock`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
