// How the console reaches a cross-origin API through the CORS proxy, and how it recognises the proxy's
// own refusals. Shared with the proxy server (src/proxy), which writes what this reads.

/**
 * Header on every answer the proxy writes itself (refusals and upstream failures), holding its code.
 * It tells a refusal apart from an API that happens to answer with similar JSON.
 */
export const PROXY_ERROR_HEADER = 'x-try-it-proxy-error';

/**
 * Header the proxy adds when it followed redirects: the URL the response finally came from. A page cannot see
 * redirects the proxy followed any other way.
 */
export const PROXY_FINAL_URL_HEADER = 'x-try-it-proxy-final-url';

/**
 * The name the API's `WWW-Authenticate` reaches the page under. As it is, a challenge (`Basic`) may make the browser
 * ask the reader for a password on the proxy's origin (a page there, a tab opened on a proxy URL), then send it on
 * every later request to the proxy, which forwards it to whichever API is asked. The console shows it under its own
 * name again.
 */
export const UPSTREAM_WWW_AUTHENTICATE_HEADER = 'x-try-it-proxy-www-authenticate';

/**
 * Query parameter (`?url=…&try-it-proxy-credentials=omit`), or first path segment in the prefix style
 * (`/try-it-proxy-credentials=omit/https://…`), that the proxy adds to the `Location` of a redirect it hands to the
 * page when the follow-up must go without credentials: the redirect leads to another origin, or an earlier one in the
 * chain did. The page's fetch sees a redirect from the proxy to itself and keeps `Authorization`; the proxy drops it.
 * Present with any value, it drops credentials, so a forged one can do no harm.
 */
export const PROXY_CREDENTIALS_PARAMETER = 'try-it-proxy-credentials';

/** The prefix-style path segment carrying `PROXY_CREDENTIALS_PARAMETER`, with the `/` that ends it. */
const CREDENTIALS_SEGMENT = new RegExp(`^${PROXY_CREDENTIALS_PARAMETER}=[^/]*/`);

/**
 * The rest of a prefix-style proxy path (`request.url` without its leading `/`) with the credentials segment taken
 * off, and whether it was there.
 */
export function withoutCredentialsSegment(path: string): { path: string; omitCredentials: boolean } {
  const segment = CREDENTIALS_SEGMENT.exec(path);
  return segment === null ? { path, omitCredentials: false } : { path: path.slice(segment[0].length), omitCredentials: true };
}

/**
 * The policy the proxy adds to every answer, beside the API's own: a browser that opens a proxy URL as a page (a
 * link, a frame) shows the API's HTML sandboxed, loading and running nothing, instead of as a page of the proxy's
 * origin. A page's fetch() reads the response as usual. The console shows the API's own policy without it.
 */
export const PROXY_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'";

/**
 * Request headers carrying the reader's address and whereabouts, as load balancers and CDNs in front of the proxy
 * pass them on. The proxy leaves them out of what it forwards, and the console warns of one sent through it.
 */
const CLIENT_ADDRESS_HEADERS = new Set([
  'forwarded', 'x-forwarded', 'x-real-ip', 'x-client-ip', 'client-ip', 'true-client-ip', 'x-cluster-client-ip', 'x-originating-ip',
  'x-envoy-external-address', 'fastly-client-ip', 'akamai-client-ip', 'x-akamai-edgescape', 'fly-client-ip',
  'x-azure-clientip', 'x-azure-socketip', 'x-vercel-forwarded-for', 'x-nf-client-connection-ip', 'x-nf-geo',
  'cf-connecting-ip', 'cf-connecting-ipv6', 'cf-pseudo-ipv4', 'cf-region', 'cf-region-code', 'cf-metro-code', 'cf-postal-code', 'cf-timezone',
]);

/**
 * Families of such headers, by prefix: `X-Forwarded-For` and the rest, ingress-nginx's `X-Original-Forwarded-For`,
 * Vercel's `X-Vercel-IP-Country`, `-City`, `-Latitude`…, CloudFront's `CloudFront-Viewer-Address`, `-Country`…,
 * Cloudflare's `CF-IPCountry`, `CF-IPCity`… and App Engine's `X-AppEngine-Country`, `-CityLatLong`….
 */
const CLIENT_ADDRESS_PREFIXES = ['x-forwarded-', 'x-original-forwarded-', 'x-vercel-ip-', 'cloudfront-viewer-', 'cf-ip', 'x-appengine-'];

/** True for a header (lowercased name) that carries a client's address or whereabouts: see CLIENT_ADDRESS_HEADERS. */
export function isClientAddressHeader(lowercaseName: string): boolean {
  return CLIENT_ADDRESS_HEADERS.has(lowercaseName) || CLIENT_ADDRESS_PREFIXES.some((prefix) => lowercaseName.startsWith(prefix));
}

/** The JSON body of a proxy refusal. */
export interface ProxyErrorBody {
  error: { code: string; message: string };
}

/**
 * The URL to fetch for `target` through `corsProxy`: with `{url}` in the proxy URL, that is replaced by the
 * encoded target (`https://proxy.example/?url={url}`); otherwise the target is appended (prefix style), encoded
 * after a final `=` as for `{url}` (`https://proxy.example/?url=`), as written after `/` or `?`.
 */
export function proxiedUrl(corsProxy: string, target: string): string {
  const template = templateOf(corsProxy);
  return template === undefined ? corsProxy + target : template.replaceAll('{url}', encodeURIComponent(target));
}

/**
 * The target inside a URL of the proxy, the inverse of `proxiedUrl`; `undefined` when `url` is not of that form.
 * For a redirect the page followed: the proxy points the `Location` it hands over back through itself.
 */
export function targetOfProxiedUrl(corsProxy: string, url: string): string | undefined {
  const template = templateOf(corsProxy);
  if (template === undefined) {
    if (!url.startsWith(corsProxy)) return undefined;
    const rest = url.slice(corsProxy.length);
    // After a prefix ending in `?`, try-it-proxy answers a redirect that must drop credentials in its `url=` style,
    // which has room for that mark.
    if (corsProxy.endsWith('?') && !/^https?:/i.test(rest)) return new URLSearchParams(rest).get('url') ?? undefined;
    return withoutCredentialsSegment(rest).path;
  }
  // The template's `{url}` is a query parameter's value (`?url={url}`): read that parameter.
  const sample = new URL(template.replaceAll('{url}', 'TARGET'));
  const name = [...sample.searchParams].find(([, value]) => value === 'TARGET')?.[0];
  const proxied = URL.canParse(url) ? new URL(url) : undefined;
  if (name === undefined || proxied?.origin !== sample.origin || proxied.pathname !== sample.pathname) return undefined;
  return proxied.searchParams.get(name) ?? undefined;
}

/**
 * The `{url}` template `corsProxy` amounts to, or `undefined` for a raw prefix. A prefix ending in `=` ends a query
 * parameter, which a proxy reads decoded: appended raw, the target would lose everything after its first `&`, and
 * its `+` would become spaces. After `/` or `?` the target stays raw, as proxies such as corsproxy.io read it.
 */
function templateOf(corsProxy: string): string | undefined {
  if (corsProxy.includes('{url}')) return corsProxy;
  return corsProxy.endsWith('=') ? `${corsProxy}{url}` : undefined;
}

/** True when a page at `pageOrigin` cannot call `target` directly as same-origin. No page (Node): always. */
export function isCrossOrigin(target: string, pageOrigin: string | undefined): boolean {
  return pageOrigin === undefined || new URL(target).origin !== pageOrigin;
}

/**
 * Browsers treat these hosts as secure even over http, so an https page may call them: no mixed content.
 * (https://w3c.github.io/webappsec-secure-contexts/#is-origin-trustworthy)
 */
export function isPotentiallyTrustworthy(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const host = url.hostname;
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

// The Fetch standard's "bad ports": browsers and Node's fetch refuse to connect to them (reporting it as any failed
// connection), and the proxy refuses them too, so that it is no way around that (think SMTP or IRC smuggled inside an
// HTTP body).
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether fetch refuses to connect to `port` (a "bad port" of the Fetch standard). */
export function isBadPort(port: number): boolean {
  return BAD_PORTS.has(port);
}
