// Which web pages may read responses through the proxy. The browser sends the page's origin in `Origin`.
import { ConfigError } from '../core/errors.js';

/**
 * Page origins allowed to use the proxy:
 * - `'loopback'`: pages served from `localhost`, `*.localhost`, `127.0.0.1` or `[::1]` on any port (local development);
 * - `'*'`: any page (and requests without an `Origin` header);
 * - a list of origins such as `https://docs.example.com` (a `'*'` entry allows any page);
 * - a predicate over the `Origin` header's value.
 */
export type OriginAllowList = 'loopback' | '*' | readonly string[] | ((origin: string) => boolean);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const { protocol, hostname: written } = new URL(origin);
  // `localhost.` is `localhost` fully qualified: browsers treat a page there as local too.
  const hostname = written.endsWith('.') ? written.slice(0, -1) : written;
  return (protocol === 'http:' || protocol === 'https:') && (LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost'));
}

/** `https://Docs.Example.com:443/` → `https://docs.example.com`; anything that is not a bare origin is a config error. */
export function normaliseOrigin(entry: string, field: string): string {
  // One entry holding a list (`--allow-origin "$ORIGINS"`): the URL parser may take it as one host, which no page has.
  if (entry.includes(',')) throw new ConfigError(field, entry, 'must be one origin: give each as an entry of its own (with try-it-proxy, one --allow-origin per origin)');
  const url = URL.canParse(entry) ? new URL(entry) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ConfigError(field, entry, 'must be an http(s) origin such as https://docs.example.com, or "*"');
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new ConfigError(field, entry, 'must be an origin only (scheme, host and port), without a path, query or credentials');
  }
  // The URL parser takes `*` in a host, and no page's origin holds one: the entry would match nothing, unseen.
  if (url.hostname.includes('*')) {
    throw new ConfigError(field, entry, 'cannot hold a wildcard: list each origin, or pass a function (origin) => boolean that checks its scheme and host');
  }
  return url.origin;
}

/** Decides, per request, whether the page that sent it may read proxied responses. */
export class OriginPolicy {
  readonly #allows: (origin: string | undefined) => boolean;
  /** Human summary for the CLI banner and refusal messages. */
  readonly description: string;

  constructor(allow: OriginAllowList = 'loopback', field = 'allowOrigins') {
    if (allow === '*' || (Array.isArray(allow) && allow.includes('*'))) {
      this.#allows = () => true;
      this.description = 'any origin';
    } else if (allow === 'loopback') {
      this.#allows = (origin) => origin !== undefined && isLoopbackOrigin(origin);
      this.description = 'loopback pages only (localhost, 127.0.0.1, [::1])';
    } else if (typeof allow === 'function') {
      this.#allows = (origin) => origin !== undefined && allow(origin);
      this.description = 'origins accepted by a custom predicate';
    } else if (Array.isArray(allow)) {
      const origins = new Set(allow.map((entry, i) => normaliseOrigin(entry, `${field}[${i}]`)));
      this.#allows = (origin) => origin !== undefined && origins.has(origin);
      this.description = [...origins].join(', ') || 'no origins';
    } else {
      throw new ConfigError(field, allow, 'must be "loopback", "*", a list of origins or a function');
    }
  }

  /** True when a request with this `Origin` header (or none) may read proxied responses. */
  allows(origin: string | undefined): boolean {
    return this.#allows(origin);
  }
}
