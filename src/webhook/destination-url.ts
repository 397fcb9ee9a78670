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
 * `url` as messages show it: scheme, host, port and the first path segment, with "…" for the rest of the path and
 * for the query. Webhook URLs are bearer credentials: tokens travel in the query (`?token=`), and the common
 * services keep the secret in the path after a fixed first segment (Slack `/services/T…/B…/<secret>`, Discord
 * `/api/webhooks/<id>/<token>`, Teams `/webhookb2/…`). What is left still tells one destination from another in a
 * log. Error messages, the attempt errors and a redirect's `Location` all use this one form. Works on a string
 * that does not parse as a URL too.
 */
export function urlForMessages(url: string): string {
  const end = url.search(/[?#]/);
  const head = end < 0 ? url : url.slice(0, end);
  const query = end >= 0 && url[end] === '?' ? '?…' : ''; // the fragment is never sent: left out
  const authority = head.indexOf('//');
  const pathStart = head.indexOf('/', authority < 0 ? 0 : authority + 2);
  const secondSlash = pathStart < 0 ? -1 : head.indexOf('/', pathStart + 1);
  const path = secondSlash < 0 || secondSlash === head.length - 1 ? head : `${head.slice(0, secondSlash)}/…`;
  return path + query;
}

function percentEncoded(character: string): string {
  return [...new TextEncoder().encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
