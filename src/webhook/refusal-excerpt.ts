// What a receiver said when it refused a delivery, for the failed attempt's message: receivers (this package's among
// them) explain a refusal in its body, and without that the sender only sees "answered 401". Only a short excerpt of
// a text body, made safe to log: one line, control characters escaped, none of the channel's own credentials.
import type { Dispatcher } from 'undici';
import { isJsonContentType } from '../core/json-body.js';

/** Most characters of a receiver's words that a message shows; "…" marks a cut. */
const EXCERPT_LENGTH = 200;

/** Credentials shorter than this are not looked for: too likely to match ordinary words. */
const SHORTEST_HIDDEN = 8;
// Headers whose values describe the request rather than authenticate it, and that a refusal often names
// ("unsupported Content-Type application/xml"): left readable.
const DESCRIPTIVE_HEADERS = new Set(['content-type', 'accept', 'user-agent']);

// C0 and C1 controls (tab, line breaks and other whitespace are made spaces first), and the bidirectional controls
// that can make a log line read other than it is.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** What `readRefusalBody` got: the bytes, and whether they are the whole body. */
export interface RefusalBody {
  readonly bytes: Buffer;
  readonly complete: boolean;
}

/** Something that says when to stop waiting: the attempt's deadline, which the caller's signal and close() abort. */
export interface Stopper {
  readonly aborted: boolean;
  once(event: 'abort', listener: () => void): unknown;
  off(event: 'abort', listener: () => void): unknown;
}

/** True for a body worth quoting: JSON (`application/json`, `…+json`) or `text/*`. Binary or unlabelled: false. */
export function isTextual(contentType: unknown): boolean {
  const type = mediaType(contentType);
  return type !== undefined && (type.startsWith('text/') || isJsonContentType(type));
}

/**
 * Reads at most `limit` bytes of `body`, for at most `wait` ms, stopping early when `stop` aborts. A body cut short
 * is destroyed, which drops its connection: the rest is never read.
 */
export function readRefusalBody(body: Dispatcher.ResponseData['body'], limit: number, wait: number, stop: Stopper): Promise<RefusalBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (complete: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop.off('abort', cut);
      body.off('data', onData);
      if (!complete) body.destroy();
      resolve({ bytes: Buffer.concat(chunks, Math.min(size, limit)), complete });
    };
    const cut = (): void => finish(false);
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) finish(false);
    };
    const timer = setTimeout(cut, wait);
    if (stop.aborted || body.destroyed) return finish(false);
    stop.once('abort', cut);
    body.on('data', onData);
    body.once('end', () => finish(true));
    body.once('error', cut);
    body.once('close', cut);
  });
}

/**
 * A one-line excerpt of what a refusal's body says, at most `EXCERPT_LENGTH` characters, or `undefined` when it
 * says nothing worth quoting (binary, empty). From a JSON body, its `error` (or `error.message`), `message`, `title`
 * and `detail` strings when it has any; from HTML, its text. Every string in `hidden` (longest first, as
 * `credentialFragments` gives them) is replaced by "…".
 */
export function refusalExcerpt(body: RefusalBody, contentType: unknown, hidden: readonly string[]): string | undefined {
  const type = mediaType(contentType);
  if (type === undefined || !isTextual(type)) return undefined;
  const text = decode(body.bytes, contentType as string);
  const said = isJsonContentType(type) ? (body.complete ? jsonExplanation(text) : undefined) ?? text : type === 'text/html' ? htmlText(text) : text;
  // Credentials are replaced in the whole text (at most the 64 KiB read) before the cut: each replacement shortens the
  // line, and one cut first could move a credential's cut-off start into the excerpt, where it no longer matches.
  let line = said.replace(/\s+/gu, ' ').trim();
  for (const fragment of hidden) line = line.replaceAll(fragment, '…');
  // A body that stopped arriving in the middle of a credential ends with its start.
  if (!body.complete) line = withoutCredentialStart(line, hidden);
  if (line === '') return undefined;
  const excerpt = cutAt(line.replace(UNSAFE_CHARACTER, escaped), EXCERPT_LENGTH);
  // A body that was still arriving when the wait ended (or was past the cap) is cut too.
  return body.complete || excerpt.endsWith('…') ? excerpt : `${excerpt}…`;
}

// `line` without the start of a hidden string it ends with (4 characters or more), which is made "…".
function withoutCredentialStart(line: string, hidden: readonly string[]): string {
  for (const fragment of hidden) {
    for (let length = Math.min(fragment.length - 1, line.length); length >= 4; length -= 1) {
      if (line.endsWith(fragment.slice(0, length))) return `${line.slice(0, -length)}…`;
    }
  }
  return line;
}

/**
 * The strings of a channel's configuration that a receiver might repeat in its answer (a Bearer token in "invalid
 * token …", the URL's secret path in Express's "Cannot POST /…"), longest first: the secret, each header value
 * (but `Content-Type`, `Accept` and `User-Agent`) and its credentials after a scheme, and what `urlParts` holds, each
 * also as a receiver may escape it: in JSON (with "/" as "\/" too, as PHP writes it), percent-encoded or decoded.
 */
export function credentialFragments(secret: string | undefined, headers: Readonly<Record<string, string>>, urlParts: readonly string[]): string[] {
  const fragments = new Set<string>();
  const add = (fragment: string | undefined): void => {
    if (fragment === undefined || fragment.length < SHORTEST_HIDDEN) return;
    const json = JSON.stringify(fragment).slice(1, -1);
    for (const spelling of [fragment, json, json.replaceAll('/', '\\/'), encodeURIComponent(fragment), percentDecoded(fragment)]) {
      if (spelling !== undefined && spelling.length >= SHORTEST_HIDDEN) fragments.add(spelling);
    }
  };
  add(secret);
  for (const [name, value] of Object.entries(headers)) {
    if (DESCRIPTIVE_HEADERS.has(name.toLowerCase())) continue;
    add(value.trim());
    add(/^\S+\s+(\S.*)$/s.exec(value.trim())?.[1]);
  }
  for (const part of urlParts) add(part);
  return [...fragments].sort((a, b) => b.length - a.length);
}

function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function mediaType(contentType: unknown): string | undefined {
  if (typeof contentType !== 'string') return undefined;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' ? undefined : type;
}

// In the charset the Content-Type names, when Node knows it; UTF-8 otherwise (JSON's only encoding).
function decode(bytes: Buffer, contentType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

// `{"error":"…"}` (this package's receivers), `{"error":{"message":"…"}}` (Stripe, Google), `{"error":"Bad Request",
// "message":"…"}` (Fastify, NestJS, Spring), `{"message":"…"}` (GitHub), `{"title":"…","detail":"…"}` (RFC 9457);
// NestJS's validation pipe lists its messages: `{"error":"Bad Request","message":["…","…"]}`.
function jsonExplanation(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed === 'string') return parsed;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { error, message, title, detail } = parsed as Record<string, unknown>;
  const errorText = typeof error === 'object' && error !== null && !Array.isArray(error) ? (error as Record<string, unknown>).message : error;
  const parts = [errorText, message, title, detail].map(spokenText).filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : [...new Set(parts)].join(': ');
}

// A string that says something, or a list of them joined: "email must be an email; name should not be empty".
function spokenText(value: unknown): string | undefined {
  const said = (part: unknown): part is string => typeof part === 'string' && part.trim() !== '';
  if (said(value)) return value;
  if (!Array.isArray(value)) return undefined;
  const parts = value.filter(said);
  return parts.length === 0 ? undefined : parts.join('; ');
}

// An error page's words without its markup, styles or scripts: "502 Bad Gateway", "Cannot POST /hooks". Each pattern
// also ends at the end of the text, so that one left open (a body cut at the cap) is matched once, not retried from
// every later "<", which would take time growing with the square of the body's length.
function htmlText(html: string): string {
  return html
    .replace(/<(script|style)\b[^]*?(?:<\/\1\s*>|$)/gi, ' ')
    .replace(/<!--[^]*?(?:-->|$)/g, ' ')
    .replace(/<[^>]*(?:>|$)/g, ' ')
    .replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/gi, characterReference);
}

// The character an HTML reference stands for, so that the excerpt reads as the page does and a credential written
// with references ("&#x2F;" for "/") is found. A code point past Unicode stays as written.
function characterReference(reference: string, decimal?: string, hex?: string, name?: string): string {
  if (name !== undefined) return NAMED_CHARACTERS[name.toLowerCase()] ?? reference;
  const codePoint = decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16);
  return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : reference;
}

const NAMED_CHARACTERS: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function escaped(character: string): string {
  return `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;
}

// Whole characters (a surrogate pair is never split) and whole escapes.
function cutAt(line: string, length: number): string {
  const pieces = line.match(/\\u[0-9a-f]{4}|[^]/gu) ?? [];
  let kept = '';
  for (const piece of pieces) {
    if (kept.length + piece.length > length) return `${kept.trimEnd()}…`;
    kept += piece;
  }
  return kept;
}
