// Which headers cross the proxy, in each direction. Hop-by-hop headers describe one connection and must
// not be forwarded (RFC 9110 §7.6.1); others describe the page or the proxy hop, not the API request.
import { UPSTREAM_WWW_AUTHENTICATE_HEADER, isClientAddressHeader } from '../core/proxy-route.js';
import { headerValues, type HeaderList } from './header-list.js';
import { PROXY_ERROR_HEADER, PROXY_FINAL_URL_HEADER } from './refusal.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Request headers about the page or the hop to the proxy, not about the API call; so are those carrying the reader's address (isClientAddressHeader). */
const REQUEST_ONLY_TO_PROXY = new Set([
  'host', // set from the target URL
  'origin', // the docs page's origin, meaningless (and misleading) to the API
  'referer', // would leak the docs page's URL to every API called
  'expect', // `100-continue` is answered hop by hop
  'via', // the proxies in front of this one, often by internal host name
]);

// `Sec-Fetch-Site`, `-Mode`, `-Dest`, `-User` describe the page's request to the proxy, as `Origin` does: an API
// would read a docs page on the proxy's own origin as `same-origin` to it.
const FETCH_METADATA_PREFIX = 'sec-fetch-';

/**
 * Response headers that act for the whole origin that sends them, or on the tab that shows the response. Relayed,
 * they would bind the proxy's origin (shared by every API it relays, perhaps by the docs site too) instead of the
 * API's: HTTPS pinning (`Strict-Transport-Security`), alternative services, wiping its cookies and storage
 * (`Clear-Site-Data`), having its network errors reported to the API (`NEL`, `Report-To`), the client hints sent to
 * it (`Accept-CH`), its agent cluster (`Origin-Agent-Cluster`), its sign-in state (`Set-Login`), a service worker's
 * reach over it (`Service-Worker-Allowed`); and `Refresh`, which sends a tab on the proxy's origin to any site.
 */
const ORIGIN_POLICY_HEADERS = new Set([
  'strict-transport-security', 'alt-svc', 'clear-site-data', 'nel', 'report-to',
  'accept-ch', 'origin-agent-cluster', 'set-login', 'service-worker-allowed', 'refresh',
]);

/**
 * Response headers that tell caches which URLs this response answers. The proxy's URL is not the API's: in the query
 * style its query is `url=<target>`, so `No-Vary-Search: params` (which Chromium's HTTP cache reads) would let the
 * browser answer a proxy URL naming another target, another API's included, with this response.
 */
const CACHE_KEY_HEADERS = new Set(['no-vary-search']);

/**
 * The proxy's own headers, which must only ever come from the proxy, or the console would take the API's answer for
 * the proxy's refusal, or show a redirect that never happened.
 */
const PROXY_OWN_HEADERS = new Set([PROXY_ERROR_HEADER, PROXY_FINAL_URL_HEADER, UPSTREAM_WWW_AUTHENTICATE_HEADER]);

function isDropped(name: string, connectionTokens: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(name) || connectionTokens.has(name) || name.startsWith('proxy-');
}

/** Header names listed in `Connection` (every `Connection` line) are hop-by-hop for that message too. */
function connectionTokens(fields: HeaderList): Set<string> {
  const text = headerValues(fields, 'connection').join(',');
  return new Set(text.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}

export interface HeaderFilterOptions {
  /** Forward `Cookie` upstream and `Set-Cookie` back. */
  forwardCookies: boolean;
}

/**
 * This proxy's entry in `Via` (RFC 9110 §7.6.3): sent upstream, so that a request that comes back to a try-it-proxy
 * (a target that is the proxy itself, directly or by another name) is recognised and refused instead of looping.
 */
export const VIA_PSEUDONYM = 'try-it-proxy';

/**
 * True when `via` (the request's `Via` lines) says the request already passed a try-it-proxy. Compared ignoring case,
 * as host names are: a hop in between may rewrite it.
 */
export function passedThisProxy(via: string | undefined): boolean {
  return via !== undefined && via.split(',').some((hop) => hop.trim().split(/\s+/)[1]?.toLowerCase() === VIA_PSEUDONYM);
}

/**
 * Header lines to send upstream for a page's request (its `rawHeaders`, paired), each kept as the page wrote it, and
 * this proxy's `Via` line.
 */
export function upstreamRequestHeaders(fields: HeaderList, options: HeaderFilterOptions): HeaderList {
  const tokens = connectionTokens(fields);
  const kept = fields.filter(([field]) => {
    const name = field.toLowerCase();
    if (isDropped(name, tokens) || REQUEST_ONLY_TO_PROXY.has(name)) return false;
    if (name.startsWith('access-control-request-') || name.startsWith(FETCH_METADATA_PREFIX) || isClientAddressHeader(name)) return false;
    return name !== 'cookie' || options.forwardCookies;
  });
  kept.push(['via', `1.1 ${VIA_PSEUDONYM}`]);
  return kept;
}

/**
 * Upstream response header lines to pass to the page, each kept as the API wrote it. Upstream CORS headers are
 * dropped: the proxy answers for CORS itself, and two sets would contradict each other.
 */
export function downstreamResponseHeaders(fields: HeaderList, options: HeaderFilterOptions): HeaderList {
  const tokens = connectionTokens(fields);
  const relayed: HeaderList = [];
  for (const [field, value] of fields) {
    const name = field.toLowerCase();
    if (isDropped(name, tokens) || ORIGIN_POLICY_HEADERS.has(name) || CACHE_KEY_HEADERS.has(name) || PROXY_OWN_HEADERS.has(name)) continue;
    if (name.startsWith('access-control-')) continue;
    if ((name === 'set-cookie' || name === 'set-cookie2') && !options.forwardCookies) continue;
    relayed.push([name === 'www-authenticate' ? UPSTREAM_WWW_AUTHENTICATE_HEADER : field, value]);
  }
  return relayed;
}
