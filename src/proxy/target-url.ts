// Reads the target URL out of a proxy request, in both styles the console produces (DESIGN §5 step 4), and
// writes one back for a redirect the page is to follow through the proxy:
//   query style   /?url=https%3A%2F%2Fapi.example.com%2Fv1%2Fusers%3Fpage%3D2
//   unencoded     /?url=https://api.example.com/v1/users?page=2&sort=name   (the rest of the query is the target)
//   prefix style  /https://api.example.com/v1/users?page=2
//   bare query    /?https://api.example.com/v1/users?page=2   (a corsProxy ending in `?`, as some public proxies take)
// A redirect's follow-up that must go without credentials carries a mark (`PROXY_CREDENTIALS_PARAMETER`):
//   query style   /?url=https%3A%2F%2Fother.example%2F&try-it-proxy-credentials=omit
//   prefix style  /try-it-proxy-credentials=omit/https://other.example/
import { PROXY_CREDENTIALS_PARAMETER, withoutCredentialsSegment } from '../core/proxy-route.js';
import { ProxyRefusal } from './refusal.js';

const USAGE = 'Send /?url=<encoded absolute URL> or /<absolute URL>, e.g. /https://api.example.com/v1/users.';
// A query that is itself the target (`/?https://…`, or encoded): the console writes it so for a corsProxy ending in `?`.
const BARE_QUERY_TARGET = /^https?(?::|%3a)/i;
// A prefix-style target whose `//` after the scheme a front merged into one `/`, after the credentials mark if any.
const COLLAPSED_SCHEME_SLASHES = new RegExp(`^(/(?:${PROXY_CREDENTIALS_PARAMETER}=[^/]*/)?https?:)/(?!/)`, 'i');

/** The path and the query of a request path (`request.url` as Node gives it); the query without its `?`. */
function splitRequestPath(requestPath: string): { path: string; query: string | undefined } {
  const queryStart = requestPath.indexOf('?');
  return queryStart === -1 ? { path: requestPath, query: undefined } : { path: requestPath.slice(0, queryStart), query: requestPath.slice(queryStart + 1) };
}

/** What a proxy request asks for. */
export interface ProxyRequestTarget {
  target: URL;
  /** True when the request is marked as the follow-up of a redirect that credentials must not follow. */
  omitCredentials: boolean;
}

/** The absolute target URL of a proxy request (`request.url` as Node gives it), or a `bad_target_url` refusal. */
export function targetFromRequestPath(requestPath: string | undefined): ProxyRequestTarget {
  if (!requestPath?.startsWith('/')) {
    // `GET http://api.example.com/ HTTP/1.1`, as a client set up to use a forward proxy writes it: it names a target.
    const absolute = requestPath !== undefined && URL.canParse(requestPath);
    throw new ProxyRefusal('bad_target_url', absolute ? `This proxy is not a forward proxy (HTTP_PROXY, curl -x): name the target in the path instead. ${USAGE}` : `The request has no target URL. ${USAGE}`);
  }
  const { path, query } = splitRequestPath(requestPath);
  const { raw, omitCredentials } =
    path !== '/' ? prefixStyleTarget(requestPath) : query !== undefined && BARE_QUERY_TARGET.test(query) ? { raw: query, omitCredentials: false } : queryStyleTarget(query);
  return { target: parseTarget(repairCollapsedSlashes(decodeIfEncoded(raw))), omitCredentials };
}

/**
 * A reference, for a `Location` header, that asks this proxy for `target` in the style of `requestPath`:
 * `?url=<encoded target>` with the request's other query parameters kept, or `<target>` after as many `../` as
 * `requestPath` has segments; marked when the follow-up is to go without credentials. Both are relative, so they
 * keep whatever path the proxy is reached by (`/proxy/` on a docs site, a reverse proxy's prefix), which it never sees.
 */
export function proxyReferenceFor(target: URL, requestPath: string, omitCredentials: boolean): string {
  const { path, query } = splitRequestPath(requestPath);
  if (path !== '/') return `${upToProxyPath(path)}${omitCredentials ? `${PROXY_CREDENTIALS_PARAMETER}=omit/` : ''}${target.href}`;
  // A bare query has no other parameters to keep, nor room for the mark: with the mark, the `url=` style says it.
  const bare = query !== undefined && BARE_QUERY_TARGET.test(query);
  if (bare && !omitCredentials) return `?${target.href}`;
  // The proxy's own parameters only: an unencoded target's query is not among them.
  const parameters = new URLSearchParams(bare ? '' : query === undefined ? '' : (splitAtUnencodedTarget(query)?.before ?? query));
  parameters.set('url', target.href);
  if (omitCredentials) parameters.set(PROXY_CREDENTIALS_PARAMETER, 'omit');
  return `?${parameters}`;
}

/**
 * The relative path from a prefix-style request path back to the proxy's own path: one `../` per `/` after the first
 * (`/https://api.example/v1/users` → `../../../../`), or `./` when there is none, so that a target's `https:` is not
 * read as the reference's own scheme.
 */
function upToProxyPath(path: string): string {
  // Counted on the path as the browser wrote it, which it resolves `../` against: a front that merges slashes (nginx's
  // default) hands over `https:/api…` for `https://api…`.
  const depth = path.replace(COLLAPSED_SCHEME_SLASHES, '$1//').split('/').length - 2;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** The first `url=` parameter of a query, its name written plainly (as everyone writes it). */
const URL_PARAMETER = /(?:^|&)url=/;

/**
 * The query split at a `url=` whose value is an unencoded URL (`url=https://api…?a=1&b=2`, typed by hand): the value
 * runs to the end of the query, as written. Decoded as a parameter, it would lose `&b=2`, read `+` as a space and
 * decode the target's own escapes: a different request than the one asked for.
 */
function splitAtUnencodedTarget(query: string): { before: string; raw: string } | undefined {
  const match = URL_PARAMETER.exec(query);
  if (match === null) return undefined;
  const raw = query.slice(match.index + match[0].length);
  return /^https?:/i.test(raw) ? { before: query.slice(0, match.index), raw } : undefined;
}

function queryStyleTarget(query: string | undefined): { raw: string; omitCredentials: boolean } {
  // Read from the whole query, even one that is part of the target: a mark there only ever drops credentials.
  const parameters = new URLSearchParams(query ?? '');
  const omitCredentials = parameters.has(PROXY_CREDENTIALS_PARAMETER);
  const unencoded = query === undefined ? undefined : splitAtUnencodedTarget(query);
  if (unencoded !== undefined) return { raw: unencoded.raw, omitCredentials };
  const url = parameters.get('url');
  if (!url) throw new ProxyRefusal('bad_target_url', `The request has no target URL. ${USAGE}`);
  return { raw: url, omitCredentials };
}

function prefixStyleTarget(requestPath: string): { raw: string; omitCredentials: boolean } {
  const { path, omitCredentials } = withoutCredentialsSegment(requestPath.slice(1));
  return { raw: path, omitCredentials };
}

/** Prefix style with the whole target percent-encoded (`/https%3A%2F%2Fapi…`). */
function decodeIfEncoded(raw: string): string {
  if (!/^https?%3a/i.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Some clients and servers collapse `//` in a path, turning `/https://host` into `/https:/host`. */
function repairCollapsedSlashes(raw: string): string {
  return raw.replace(/^(https?):\/*/i, '$1://');
}

/** `host:port` at the start (`localhost:8080/v1`), which the URL parser takes for a scheme (`localhost:`). */
const HOST_AND_PORT = /^(?:localhost|[^/:?#]*\.[^/:?#]*):\d*(?:[/?#]|$)/i;

/**
 * `raw` with `https://` put before it, when it is a host and path without a scheme (`api.example.com/v1`,
 * `localhost:8080/v1`, `//api.example.com`): what the person most likely meant.
 */
function withSchemeAdded(raw: string): string | undefined {
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(raw) || (URL.canParse(raw) && !HOST_AND_PORT.test(raw))) return undefined;
  const guess = `https://${raw.replace(/^\/+/, '')}`;
  if (!URL.canParse(guess)) return undefined;
  const { hostname } = new URL(guess);
  return hostname === 'localhost' || hostname.includes('.') || hostname.startsWith('[') ? guess : undefined;
}

function parseTarget(raw: string): URL {
  const guess = withSchemeAdded(raw);
  if (guess !== undefined) {
    throw new ProxyRefusal('bad_target_url', `${JSON.stringify(raw.slice(0, 200))} has no scheme: write https:// or http:// before the host (${JSON.stringify(guess.slice(0, 200))}). ${USAGE}`);
  }
  if (!URL.canParse(raw)) {
    throw new ProxyRefusal('bad_target_url', `${JSON.stringify(raw.slice(0, 200))} is not an absolute URL. ${USAGE}`);
  }
  return new URL(raw);
}
