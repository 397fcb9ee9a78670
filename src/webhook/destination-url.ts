// The channel's URL, checked so that it can be sent as given: the path and query go on the wire byte for byte, so
// anything a URL parser would rewrite (dot segments, backslashes, spaces, characters it percent-encodes) is refused
// with the spelling to use instead, rather than silently sent as something else.
import { ConfigError } from '../core/errors.js';
import { afterAuthority, hasDotSegment, isHttpUrl } from '../core/http-syntax.js';

/** A destination split the way the HTTP client needs it. */
export interface Destination {
  /** Scheme, host and port, for the connection (the host is case-insensitive, so its spelling does not matter). */
  readonly origin: string;
  /** The request target exactly as configured: path and query, without the fragment, which is never sent. */
  readonly path: string;
}

// Characters RFC 3986 allows in a URI; anything else is percent-encoded by parsers, each in its own way.
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const HTTP_PREFIX = /^https?:\/\//i;
const BAD_PERCENT_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const FIELD = 'webhook.url';

/** Checks `url` (throwing `ConfigError` with the fix) and splits it into origin and request target. */
export function parseDestination(url: unknown): Destination {
  if (typeof url !== 'string' || !HTTP_PREFIX.test(url.trim())) {
    throw new ConfigError(FIELD, typeof url === 'string' ? urlForMessages(url) : url, 'must be an absolute URL starting with http:// or https://');
  }
  const shown = urlForMessages(url);
  if (!isHttpUrl(url)) throw new ConfigError(FIELD, shown, 'does not parse as a URL; check the host, and the port (1 to 65535)');
  if (url !== url.trim()) throw new ConfigError(FIELD, shown, 'has spaces or control characters at either end; remove them');
  const parsed = new URL(url);
  // Nothing can be reached there; most often the port of a server that listened on 0 before it was given its own.
  if (parsed.port === '0') throw new ConfigError(FIELD, shown, 'has port 0, where no server can be reached; a server listening on port 0 is given another: use server.address().port');
  if (parsed.username || parsed.password) {
    throw new ConfigError(FIELD, `${parsed.protocol}//…@${parsed.host}`, 'must not carry credentials; send them in headers (e.g. Authorization)');
  }
  const bad = [...url].find((character) => !URI_CHARACTERS.test(character));
  const target = afterAuthority(url);
  // A host never goes on the wire percent-encoded: parsers write it in IDNA form, so that is the spelling to give.
  // Only for a letter outside ASCII: a backslash ends the host, and is said below to turn into "/".
  if (bad !== undefined && bad > '\x7f' && url.indexOf(bad) < url.length - target.length) {
    throw new ConfigError(FIELD, shown, `has ${JSON.stringify(bad)} in its host, which URL parsers turn into IDNA form; write the host as ${parsed.hostname}`);
  }
  if (bad !== undefined) {
    const why = bad === '\\' ? 'which URL parsers turn into "/"' : 'which URL parsers percent-encode or drop';
    throw new ConfigError(FIELD, shown, `contains ${JSON.stringify(bad)}, ${why}; to send it as given, write it percent-encoded as ${percentEncoded(bad)}`);
  }
  // Brackets belong around an IPv6 host only.
  if (/[[\]]/.test(target)) throw new ConfigError(FIELD, shown, 'has "[" or "]" after the host; write them percent-encoded as %5B and %5D');
  const path = target.replace(/#.*/s, '');
  if (hasDotSegment(url)) {
    throw new ConfigError(FIELD, shown, `has a "." or ".." path segment, which URL parsers resolve before sending; write the resolved path (${parsed.pathname})`);
  }
  if (BAD_PERCENT_ESCAPE.test(url)) throw new ConfigError(FIELD, shown, 'has a "%" that does not start a %XX escape; write a literal "%" as %25');
  // An empty path is "/" on the wire: HTTP has no request target without one.
  return { origin: parsed.origin, path: path.startsWith('/') ? path : `/${path}` };
}

/**
 * `url` as messages show it: scheme, host and port, then the leading path segments that are plain words (letters,
 * `-` or `_` between them, an optional last digit, 20 characters at most: `services`, `api`, `v1`), "…" from the
 * first other segment on and for the query, "…@" for user info. Webhook URLs are bearer credentials, the secret in
 * the query or the path, first (Telegram `/bot<token>/…`, Make `/<id>`, webhook.site `/<uuid>`) or after fixed
 * words (Slack `/services/…`, Discord `/api/webhooks/…`); a word after an id may be one too (Zapier's). Used by every
 * message, a redirect's `Location` and the channel's inspect and JSON forms. Works on any string.
 */
export function urlForMessages(url: string): string {
  const end = url.search(/[?#]/);
  const head = end < 0 ? url : url.slice(0, end);
  const query = end >= 0 && url[end] === '?' ? '?…' : ''; // the fragment is never sent: left out
  const authority = /^([a-z][a-z0-9+.-]*:)?\/\/([^/\\]*)/i.exec(head); // a "\" ends the host for URL parsers
  const origin = authority ? `${authority[1] ?? ''}//${authority[2]!.replace(/^.*@/s, '…@')}` : '';
  const segments = head.slice(authority ? authority[0].length : 0).split('/');
  const hidden = segments.findIndex((segment) => !isPlainWord(segment));
  const shown = hidden < 0 ? segments : [...segments.slice(0, hidden), '…'];
  return origin + shown.join('/') + query;
}

/**
 * What `urlForMessages` hides of a request target (path and query): the path from the first segment it does not
 * show, each such segment, the query and each query value. For text that may repeat them, such as a receiver's
 * answer ("Cannot POST /services/T0/B0/XXXX").
 */
export function hiddenTargetParts(target: string): string[] {
  const queryStart = target.indexOf('?');
  const path = queryStart < 0 ? target : target.slice(0, queryStart);
  const query = queryStart < 0 ? '' : target.slice(queryStart + 1);
  const segments = path.split('/');
  const hidden = segments.findIndex((segment) => !isPlainWord(segment));
  const parts = hidden < 0 ? [] : [segments.slice(hidden).join('/'), ...segments.slice(hidden)];
  if (query !== '') parts.push(query, ...query.split('&').map((pair) => pair.slice(pair.indexOf('=') + 1)));
  return parts.filter((part) => part !== '');
}

// An empty segment (the path's leading "/", a trailing or doubled one) holds nothing.
function isPlainWord(segment: string): boolean {
  return segment === '' || (segment.length <= 20 && /^[a-z]+(?:[-_][a-z]+)*[0-9]?$/i.test(segment));
}

function percentEncoded(character: string): string {
  return [...new TextEncoder().encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
