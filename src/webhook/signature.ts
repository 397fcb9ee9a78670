// HMAC-SHA256 signing in the `X-Signature: sha256=<lowercase hex>` format (the same format as GitHub's
// `X-Hub-Signature-256`), with Web Crypto so the key is imported once and reused.
import { timingSafeEqual } from 'node:crypto';
import { types } from 'node:util';
import { ConfigError, InvalidArgumentError } from '../core/errors.js';
import { classOrKindOf, kindOf, withArticle } from './value-kind.js';

/**
 * The header that carries the signature, as the channel sends it. Node lowercases the names of the headers it
 * receives, so `req.headers[SIGNATURE_HEADER]` is always `undefined`: read `req.headers['x-signature']` (or
 * `req.headers[SIGNATURE_HEADER.toLowerCase()]`). A Fetch API `Headers` ignores case: `request.headers.get(SIGNATURE_HEADER)`.
 */
export const SIGNATURE_HEADER = 'X-Signature';

const PREFIX = 'sha256=';
// Hex is case-insensitive: some senders (.NET's Convert.ToHexString) write uppercase digits for the same digest.
const WELL_FORMED = /^sha256=[0-9a-fA-F]{64}$/;
const encoder = new TextEncoder();
/** Said of a secret that is not one, so that an unset environment variable is recognised. */
const IS_IT_SET = 'is the variable it is read from set?';
/** Said of arguments given in another order, which would refuse every request without a word. */
const SWAPPED = 'the arguments are (rawBody, header, secret)';
const LOOKS_LIKE_HEADER = `looks like an X-Signature header; ${SWAPPED}`;
/** What a receiver's secret must be. */
const RECEIVER_SECRET = `must be a non-empty string, the secret the sending channel signs with; ${IS_IT_SET}`;

/** The bytes a receiver got, in any of the shapes Node servers hand them over. */
export type RawBody = string | Uint8Array | ArrayBuffer;

/**
 * The secret a receiver checks signatures with, or several while the sender's secret is rotated (the new one and
 * the old, until every sender uses the new one): a signature made with any of them is accepted.
 */
export type ReceiverSecret = string | readonly string[];

/** Signs and verifies with one secret. The HMAC key is imported on first use and then reused. */
export class WebhookSigner {
  readonly #secret: string;
  #key: Promise<CryptoKey> | undefined;
  #importedKey: CryptoKey | undefined;
  // Settles once the latest signature asked for is out; see sign().
  #lastSignature: Promise<unknown> = Promise.resolve();

  /** @param secret the shared secret; a non-empty string. */
  constructor(secret: string) {
    this.#secret = checkedSecret(secret, 'secret', `must be a non-empty string; ${IS_IT_SET}`);
  }

  /**
   * `sha256=<lowercase hex HMAC-SHA256 of body>`. Signatures resolve in the order they were asked for: Web Crypto
   * signs on a pool of threads, where a short body overtakes a long one, and a channel's deliveries would then reach
   * its request slots (and, with `maxConcurrent: 1`, the receiver) in another order than they were sent.
   */
  sign(body: RawBody): Promise<string> {
    let signature: Promise<string>;
    try {
      signature = this.#signAfter(this.#lastSignature, toBytes(body));
    } catch (error) {
      return Promise.reject(error);
    }
    this.#lastSignature = signature.catch(() => undefined);
    return signature;
  }

  // Computed at once, alongside the ones before it, but settled only after `previous`, failed or not.
  async #signAfter(previous: Promise<unknown>, bytes: BufferSource): Promise<string> {
    try {
      return PREFIX + Buffer.from(await this.#digest(bytes)).toString('hex');
    } finally {
      await previous;
    }
  }

  /**
   * True only when `headerValue` is exactly `sha256=` plus 64 hex digits (either case) and matches the HMAC of
   * `rawBody`. The comparison takes the same time wherever the first differing byte is. Never throws for a
   * missing or malformed header; throws `InvalidArgumentError` when `rawBody` is not bytes, or `headerValue` is
   * something no request header is (the whole headers object), or the two are swapped.
   */
  async verify(rawBody: RawBody, headerValue: string | readonly string[] | null | undefined): Promise<boolean> {
    const bytes = toBytes(rawBody); // first, so that a wrong body type throws whatever the header
    checkHeaderType(headerValue);
    const header = wellFormedSignature(headerValue);
    if (header === undefined) {
      // (header, rawBody) the other way round: every request would be refused, with nothing pointing at the call.
      if (typeof rawBody === 'string' && WELL_FORMED.test(rawBody)) throw new InvalidArgumentError('rawBody', 'a signature', LOOKS_LIKE_HEADER, 'a signature');
      return false;
    }
    const expected = Buffer.from(await this.#digest(bytes));
    const received = Buffer.from(header.slice(PREFIX.length), 'hex');
    return timingSafeEqual(expected, received);
  }

  async #digest(bytes: BufferSource): Promise<ArrayBuffer> {
    // Once imported, the key is used directly: awaiting a settled promise on every send costs a turn.
    const key = this.#importedKey ?? (this.#importedKey = await (this.#key ??= this.#importKey()));
    return crypto.subtle.sign('HMAC', key, bytes);
  }

  #importKey(): Promise<CryptoKey> {
    return crypto.subtle.importKey('raw', encoder.encode(this.#secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  }
}

/** Signs `body` with `secret`: `sha256=<lowercase hex>`. For repeated use, keep one `WebhookSigner`. */
export function signPayload(body: RawBody, secret: string): Promise<string> {
  return new WebhookSigner(secret).sign(body);
}

/**
 * Checks an `X-Signature` header against the raw request body, in constant time. Pass the bytes exactly as
 * received, never a re-serialised object. `secret` may be a list while the sender's secret is rotated. A missing or
 * malformed header gives `false`; an empty secret throws `ConfigError` and a body that is not bytes (a parsed object,
 * a number) `InvalidArgumentError`, because those are setup mistakes rather than bad requests.
 *
 * @example
 * const ok = await verifySignature(rawBody, req.headers['x-signature'], process.env.WEBHOOK_SECRET!);
 */
export async function verifySignature(rawBody: RawBody | null | undefined, headerValue: string | readonly string[] | null | undefined, secret: ReceiverSecret): Promise<boolean> {
  // Libraries differ in argument order; the other way round, every request would simply be refused.
  if (typeof secret === 'string' && WELL_FORMED.test(secret)) {
    throw new ConfigError('secret', 'a signature', LOOKS_LIKE_HEADER, 'a signature');
  }
  const signers = receiverSigners(secret, 'secret');
  // Before the body's absence answers: the whole headers object passed as the header is a mistake to name either way.
  checkHeaderType(headerValue);
  // A request that arrived without a body cannot be verified (see the README's receiver guidance).
  if (rawBody === null || rawBody === undefined) return false;
  return verifiedByAny(signers, rawBody, headerValue);
}

/**
 * The signature in `headerValue` when it has the form of one, right or wrong: a single `sha256=` plus 64 hex digits
 * of either case. Otherwise `undefined`.
 */
export function wellFormedSignature(headerValue: string | readonly string[] | null | undefined): string | undefined {
  const header = Array.isArray(headerValue) ? (headerValue.length === 1 ? headerValue[0] : undefined) : headerValue;
  return typeof header === 'string' && WELL_FORMED.test(header) ? header : undefined;
}

/** One signer per secret a receiver accepts; a `ConfigError` for `field` (or `field[i]`) names a bad one. */
export function receiverSigners(secret: unknown, field: string): WebhookSigner[] {
  if (!Array.isArray(secret)) return [new WebhookSigner(checkedSecret(secret, field, RECEIVER_SECRET))];
  if (secret.length === 0) throw new ConfigError(field, secret, 'must hold at least one secret; during a rotation, list the new one and the old', 'an empty list');
  return secret.map((one, index) => new WebhookSigner(checkedSecret(one, `${field}[${index}]`, RECEIVER_SECRET)));
}

/**
 * True when `headerValue` is the signature of `rawBody` under any of `signers`. Every one is checked, so the time
 * taken does not say which secret matched. Throws `InvalidArgumentError` when `rawBody` is not bytes.
 */
export async function verifiedByAny(signers: readonly WebhookSigner[], rawBody: RawBody, headerValue: string | readonly string[] | null | undefined): Promise<boolean> {
  const matches = await Promise.all(signers.map((signer) => signer.verify(rawBody, headerValue)));
  return matches.includes(true);
}

/**
 * `secret` when it is a non-empty string without whitespace around it; otherwise a `ConfigError` for `field` saying
 * `problem`, or what is wrong with the whitespace. A secret of the wrong type (a number from a config file, a Buffer
 * from readFileSync) is still a secret: its type is said, not its value.
 */
export function checkedSecret(secret: unknown, field: string, problem: string): string {
  if (typeof secret === 'string' && secret.length > 0) {
    const padded = paddingProblem(secret);
    // Neither in the message nor in the error's `value`: a secret with a stray newline is still the secret.
    if (padded !== undefined) throw new ConfigError(field, SECRET_NOT_SHOWN, padded, SECRET_NOT_SHOWN);
    return secret;
  }
  const shown = typeof secret === 'string' ? '""' : ArrayBuffer.isView(secret) ? withArticle(secret.constructor.name) : kindOf(secret);
  // Bytes (randomBytes(32), a file read without an encoding): the key is the text both sides share, so say which.
  const bytes = ArrayBuffer.isView(secret) ? "must be text, the one both sides share: pass the bytes' text (buffer.toString('utf8')) or, for random bytes, their hex (buffer.toString('hex')), and give the other side the same" : undefined;
  throw new ConfigError(field, typeof secret === 'string' ? secret : shown, bytes ?? problem, shown);
}

const SECRET_NOT_SHOWN = 'a secret not shown';

// The HMAC key is every character of the secret. Whitespace around it is a slip, a file's last newline or a space
// copied with it, that the other side's copy does not have: every signature would differ, and every delivery be
// refused 401 "the secrets differ" with nothing pointing here.
function paddingProblem(secret: string): string | undefined {
  if (secret.trim() === '') return `is only whitespace; ${IS_IT_SET}`;
  if (/[\r\n]$/.test(secret)) return 'ends with a line break, as a value read from a file often does; trim it';
  if (secret.startsWith('\uFEFF')) return 'starts with a byte order mark (U+FEFF), as a file saved by some editors does; remove it';
  if (/^\s/.test(secret)) return 'starts with whitespace, which would be part of the HMAC key; trim it';
  if (/\s$/.test(secret)) return 'ends with whitespace, which would be part of the HMAC key; trim it';
  return undefined;
}

// A header is a string, a list of them, or absent. Anything else (req.headers, a Fetch Headers) would make every
// request look unsigned, refused without a word. Only its kind is kept: a headers object holds credentials.
function checkHeaderType(headerValue: unknown): void {
  if (headerValue === undefined || headerValue === null || typeof headerValue === 'string' || Array.isArray(headerValue)) return;
  const kind = classOrKindOf(headerValue);
  // Bytes where the header goes: most likely the body, passed as (header, rawBody).
  if (ArrayBuffer.isView(headerValue) || types.isAnyArrayBuffer(headerValue)) throw new InvalidArgumentError('header', kind, `is bytes, not the X-Signature header's value; ${SWAPPED}`, kind);
  throw new InvalidArgumentError(
    'header',
    kind,
    "must be the X-Signature header's value, e.g. req.headers['x-signature'] or, with a Fetch API Request, request.headers.get('x-signature'); not the whole headers object",
    kind,
  );
}

function toBytes(body: RawBody): BufferSource {
  if (typeof body === 'string') return encoder.encode(body);
  // Not instanceof: an ArrayBuffer from another realm (a vm context, Jest's environment) is bytes all the same, and
  // Web Crypto takes it once seen through a view of this realm (no copy).
  if (types.isArrayBuffer(body)) return new Uint8Array(body);
  // Web Crypto refuses shared memory with a TypeError of its own: those bytes are copied out first.
  if (types.isSharedArrayBuffer(body)) return new Uint8Array(body).slice();
  if (ArrayBuffer.isView(body)) {
    if (types.isSharedArrayBuffer(body.buffer)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength).slice();
    // Buffer and friends are typed over ArrayBufferLike; Web Crypto reads any view of bytes.
    return body as Uint8Array<ArrayBuffer>;
  }
  throw notBytes(body);
}

const READ_IT_WHOLE = 'Buffer.from(await request.arrayBuffer())';

// What was passed instead of the bytes, and how to get them from it. Only its kind goes in the error: a request
// holds credentials in its headers.
function notBytes(body: unknown): InvalidArgumentError {
  const kind = classOrKindOf(body);
  const candidate = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const has = (method: string) => typeof candidate[method] === 'function';
  let fix: string | undefined;
  if (has('then')) fix = `is a Promise of the body, not the body: await it, e.g. ${READ_IT_WHOLE}`;
  else if (has('getReader')) fix = `is a stream of the body (request.body), not its bytes: read it whole first, ${READ_IT_WHOLE}, or use createWebhookFetchHandler(options), which does`;
  else if (has('arrayBuffer') && typeof (candidate.headers as { get?: unknown } | undefined)?.get === 'function') {
    fix = `is the Fetch API Request (or Response), not its body: pass ${READ_IT_WHOLE}, or use createWebhookFetchHandler(options), which reads it`;
  } else if (has('arrayBuffer')) fix = 'is a Blob, not bytes: pass Buffer.from(await blob.arrayBuffer())';
  else if (has('on') && has('pipe')) {
    fix = 'is a stream of the body (Node\'s request, an IncomingMessage), not its bytes: use createWebhookHandler(options), which reads the raw body, or read it first with express.raw({ type: "application/json", limit: "1mb" })';
  }
  if (fix !== undefined) return new InvalidArgumentError('rawBody', kind, `must be the raw body bytes; it ${fix}`, kind);
  // Most often a body a JSON parser already turned into an object: its bytes, the ones signed, are gone.
  return new InvalidArgumentError(
    'rawBody',
    body,
    'must be the raw body bytes exactly as received (a string, Buffer, Uint8Array or ArrayBuffer), not a parsed object; read the body before any JSON parser, e.g. with express.raw({ type: "application/json", limit: "1mb" })',
  );
}
