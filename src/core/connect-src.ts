// Reading a page's Content-Security-Policy to tell which connection it refused. Chromium reports a refused redirect
// under the URL the request started from (the target stays hidden), so "connect-src blocked this URL" is also what
// a request to an allowed API whose redirect leads elsewhere gets. The policy's own text tells the two apart.

const SCHEME_SOURCE = /^([a-z][a-z\d+.-]*):$/i;
// [scheme://]host[:port][/path], host possibly `*` or `*.` followed by a domain.
const HOST_SOURCE = /^(?:([a-z][a-z\d+.-]*):\/\/)?(\*|(?:\*\.)?[^/:]+)(?::(\d+|\*))?(\/.*)?$/i;
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/**
 * Whether `policy` (one Content-Security-Policy's text) lets a page on `pageOrigin` connect to `url`, by its
 * connect-src or else its default-src, as CSP 3 matches a source list for a request before any redirect.
 * A policy without either directive is not read as allowing it: its violation came from somewhere else.
 */
export function policyAllowsConnection(policy: string, url: string, pageOrigin: string | undefined): boolean {
  const directives = new Map<string, string[]>();
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    // The first of a repeated directive counts; later ones are ignored.
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  const sources = directives.get('connect-src') ?? directives.get('default-src');
  if (!sources || !URL.canParse(url)) return false;
  const target = new URL(url);
  const page = pageOrigin !== undefined && URL.canParse(pageOrigin) ? new URL(pageOrigin) : undefined;
  return sources.some((source) => sourceMatches(source, target, page));
}

function sourceMatches(source: string, target: URL, page: URL | undefined): boolean {
  const lower = source.toLowerCase();
  if (lower === "'self'") return page !== undefined && (target.origin === page.origin || (page.protocol === 'http:' && target.protocol === 'https:' && target.host === page.host));
  if (lower === '*') return /^(?:https?|wss?):$/.test(target.protocol) || target.protocol === page?.protocol;
  const scheme = SCHEME_SOURCE.exec(source);
  if (scheme) return schemeMatches(`${scheme[1]!.toLowerCase()}:`, target.protocol);
  const host = HOST_SOURCE.exec(source);
  // Keywords and nonces ('none', 'unsafe-inline'…) match the pattern's host part but no URL's host (hostMatches).
  if (!host) return false;
  const [, sourceScheme, sourceHost, sourcePort, sourcePath] = host as unknown as [string, string | undefined, string, string | undefined, string | undefined];
  // Without a scheme, the page's (or its secure upgrade) is expected.
  const expectedScheme = sourceScheme ? `${sourceScheme.toLowerCase()}:` : page?.protocol;
  if (expectedScheme === undefined || !schemeMatches(expectedScheme, target.protocol)) return false;
  if (!hostMatches(sourceHost.toLowerCase(), target.hostname)) return false;
  if (!portMatches(sourcePort, target)) return false;
  return sourcePath === undefined || pathMatches(sourcePath, target.pathname);
}

// A policy that allows an insecure scheme allows its secure upgrade too (and ws: allows http: and https:).
function schemeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === 'http:' && actual === 'https:') || (expected === 'ws:' && /^(?:wss|https?):$/.test(actual)) || (expected === 'wss:' && actual === 'https:');
}

function hostMatches(expected: string, actual: string): boolean {
  if (expected === '*') return true;
  return expected.startsWith('*.') ? actual.endsWith(expected.slice(1)) : expected === actual;
}

// No port written: the URL's must be its scheme's default, so `http://host` allows `https://host`, not `https://host:8443`.
function portMatches(expected: string | undefined, target: URL): boolean {
  if (expected === '*' || (expected ?? '') === target.port) return true;
  return target.port === '' && expected === DEFAULT_PORTS[target.protocol];
}

// A path ending in `/` allows everything under it; any other, that path alone.
function pathMatches(expected: string, actual: string): boolean {
  return expected.endsWith('/') ? actual.startsWith(expected) : actual === expected;
}

/**
 * The connect-src source that allows `url`'s origin, for a page's Content-Security-Policy. CSP has no syntax for an
 * IPv6 address (browsers drop `http://[::1]:8787` as invalid): any host on that scheme and port is the closest.
 * @example connectSourceFor('http://[::1]:8787/') // 'http://*:8787'
 */
export function connectSourceFor(url: string): string {
  const { protocol, hostname, port, origin } = new URL(url);
  return hostname.startsWith('[') ? `${protocol}//*:${port || DEFAULT_PORTS[protocol]}` : origin;
}
