// The few rules of HTTP syntax that several parts check (config, engine, snippets, webhook), in one place.

/** RFC 9110 `token`: the characters allowed in a header name or a method. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** True when `text` is a token: what a header name and a method must be. */
export function isToken(text: string): boolean {
  return TOKEN.test(text);
}

/** True when `name` can be sent as a header name. */
export function isHeaderName(name: string): boolean {
  return isToken(name);
}

/** True when `method` is a syntactically valid HTTP method (any token, custom methods included). */
export function isMethod(method: string): boolean {
  return isToken(method);
}

// Control characters other than tab: no HTTP client sends them in a header value (fetch and undici refuse them).
const CONTROL_CHARACTER = /[\x00-\x08\x0A-\x1F\x7F]/;

/** Why a header value cannot be sent, or `undefined` when it can. CR or LF would split the header. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n]/.test(value)) return 'contains a line break (CR or LF), which would split the header';
  if (CONTROL_CHARACTER.test(value)) return 'contains a NUL or other control character, which HTTP clients refuse to send';
  return undefined;
}

/** Methods browsers refuse to send (fetch's forbidden methods): the console and its proxy refuse them up front. */
export const FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** True when `url` parses as an absolute http: or https: URL. */
export function isHttpUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}

/** The path, query and fragment of an absolute URL written with `//` after its scheme: all after the host and port. */
export function afterAuthority(url: string): string {
  const authorityStart = url.indexOf('//') + 2;
  const authorityLength = url.slice(authorityStart).search(/[/?#]/);
  return authorityLength < 0 ? '' : url.slice(authorityStart + authorityLength);
}

const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

/**
 * True when the path of an absolute URL written with `//` has a `.` or `..` segment (`%2e` too), which URL parsers
 * resolve before sending. The query and fragment are sent as written, so they may hold any.
 */
export function hasDotSegment(url: string): boolean {
  return DOT_SEGMENT.test(afterAuthority(url).replace(/[?#].*/s, ''));
}

/**
 * True when every character of `value` fits in one byte (U+0000 to U+00FF). `fetch` and undici send header
 * values as bytes and refuse anything wider; a snippet, which writes UTF-8, is not bound by this.
 */
export function isByteString(value: string): boolean {
  return !/[^\x00-\xff]/.test(value);
}

/**
 * `value` as fetch must be given it to send its UTF-8 bytes, one character per byte (fetch sends each character as
 * one byte, Latin-1): a value outside ASCII goes out as every snippet sends it. ASCII is returned as it is.
 */
export function utf8ByteString(value: string): string {
  if (!/[^\x00-\x7f]/.test(value)) return value;
  let bytes = '';
  for (const byte of new TextEncoder().encode(value)) bytes += String.fromCharCode(byte);
  return bytes;
}

/**
 * Headers an HTTP client derives from the request itself (framing and connection management): a copy set by
 * hand would contradict what the client sends, so snippets and the webhook channel refuse them.
 */
export const CLIENT_OWNED_HEADERS: ReadonlySet<string> = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection']);
