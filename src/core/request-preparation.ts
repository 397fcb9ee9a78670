import type { ResolvedConsoleConfig } from './console-config.js';
import type { EnvironmentManager, ResolveResult } from './environment-manager.js';
import { RequestError, ResolveLimitError } from './errors.js';
import type { WrittenRequest } from './history-entry.js';
import { CLIENT_OWNED_HEADERS, FORBIDDEN_METHODS, headerValueProblem, isByteString, isHeaderName, isHttpUrl, isMethod } from './http-syntax.js';
import { isCrossOrigin, isPotentiallyTrustworthy, proxiedUrl } from './proxy-route.js';
import { setOwnProperty } from './validation.js';

/** One header row as the console edits it: rows can be switched off without deleting them. */
export interface HeaderRow {
  name: string;
  value: string;
  /** @default true */
  enabled?: boolean;
}

/** A request as the user wrote it: placeholders unresolved, the URL possibly relative to `base_url`. */
export interface ConsoleRequest {
  method: string;
  url: string;
  headers?: Record<string, string> | HeaderRow[];
  body?: string;
}

/** A request ready to go: resolved, merged, checked and routed. */
export interface PreparedRequest {
  /** Uppercased. */
  method: string;
  /** The real target URL: what history and snippets show. */
  url: string;
  /** Default headers under the request's own (which win, compared case-insensitively), all resolved. */
  headers: Record<string, string>;
  /** `undefined` when there is none to send. */
  body: string | undefined;
  /** What is actually fetched: the target, or the proxy URL carrying it. */
  fetchUrl: string;
  viaProxy: boolean;
  /** Placeholders no variable of the active environment could fill, left as written. */
  missing: string[];
  /** Things the user should know that do not stop the send, e.g. a header browsers refuse to set. */
  warnings: string[];
  /** The request as written, when it differs from this one: what its history entry loads back. */
  written?: WrittenRequest;
}

export interface PreparationContext {
  config: ResolvedConsoleConfig;
  environments: EnvironmentManager;
  /** The page's origin; `undefined` outside a browser, where there is no same-origin. */
  pageOrigin: string | undefined;
}

/** Headers a page cannot set: browsers drop them silently, so we say so. (Fetch standard, forbidden request-header.) */
const FORBIDDEN_HEADERS = new Set([
  'accept-charset', 'accept-encoding', 'access-control-request-headers', 'access-control-request-method', 'connection',
  'content-length', 'cookie', 'cookie2', 'date', 'dnt', 'expect', 'host', 'keep-alive', 'origin', 'referer',
  'set-cookie', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via',
]);

/** A request with its placeholders resolved and the default headers merged in: steps 1 and 2 of a send. */
export interface ResolvedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Placeholders no variable of the active environment could fill (or that refer to themselves). */
  missing: string[];
  /** Of `missing`, the names that are defined but refer back to themselves, or nest more than 10 levels deep. */
  cyclic: string[];
}

/** Steps 1-4 of a send (DESIGN §5): resolve placeholders, merge default headers, check, route. */
export function prepareRequest(request: ConsoleRequest, context: PreparationContext): PreparedRequest {
  const resolved = resolveRequest(request, context);
  const { missing, cyclic } = resolved;
  if (context.config.strictVariables && missing.length > 0) {
    throw new RequestError('unresolved-variables', `Not sent: ${unresolvedExplanation(missing, cyclic, context.environments.active()?.name)}`);
  }
  const prepared: PreparedRequest = { ...checkAndRoute(resolved, context), missing };
  const written = writtenRequest(request, resolved);
  if (written) prepared.written = written;
  return prepared;
}

/** `request` as written (switched-on rows only), or `undefined` when resolving and merging changed nothing. */
function writtenRequest(request: ConsoleRequest, resolved: ResolvedRequest): WrittenRequest | undefined {
  const url = request.url.trim();
  const headers: Record<string, string> = {};
  for (const row of headerRows(request.headers)) setOwnProperty(headers, row.name.trim(), row.value);
  const body = request.body === '' ? undefined : request.body;
  const sameHeaders = JSON.stringify(Object.entries(headers)) === JSON.stringify(Object.entries(resolved.headers));
  if (url === resolved.url && body === resolved.body && sameHeaders) return undefined;
  return body === resolved.body ? { url, headers } : { url, headers, body: body ?? '' };
}

/** Why the placeholders stayed as written, and what to do: undefined names and cycles need different fixes. */
function unresolvedExplanation(missing: string[], cyclic: string[], environment: string | undefined): string {
  const placeholders = (names: string[]) => names.map((name) => `{{${name}}}`).join(', ');
  const undefinedNames = missing.filter((name) => !cyclic.includes(name));
  const sentences: string[] = [];
  if (undefinedNames.length > 0) {
    const one = undefinedNames.length === 1;
    sentences.push(`${placeholders(undefinedNames)} ${one ? 'has' : 'have'} no value in ${environment ? `environment "${environment}"` : 'any environment'}. Define ${one ? 'it' : 'them'} there, or pick another environment.`);
  }
  if (cyclic.length > 0) {
    const one = cyclic.length === 1;
    sentences.push(`${placeholders(cyclic)} ${one ? 'refers' : 'refer'} back to ${one ? 'itself' : 'themselves'} through ${one ? 'its value' : 'their values'}, or ${one ? 'nests' : 'nest'} more than 10 levels deep. Change ${one ? 'that value' : 'those values'} to end in plain text.`);
  }
  return sentences.join(' ');
}

/** Steps 1 and 2: every placeholder resolved with the active environment, default headers merged under the request's. */
export function resolveRequest(request: ConsoleRequest, { config, environments }: Omit<PreparationContext, 'pageOrigin'>): ResolvedRequest {
  const missing = new Set<string>();
  const cyclic = new Set<string>();
  const resolve = (text: string) => {
    let result: ResolveResult;
    try {
      result = environments.resolveDetailed(text);
    } catch (error) {
      if (error instanceof ResolveLimitError) throw new RequestError('invalid-request', `Not sent: ${error.message}`, { cause: error });
      throw error;
    }
    for (const name of result.missing) missing.add(name);
    for (const name of result.cyclic) {
      missing.add(name);
      cyclic.add(name);
    }
    return result.text;
  };
  let url = resolve(request.url.trim());
  // A relative URL is taken from the active environment's base_url.
  const base = environments.active()?.variables.base_url;
  if (isRelative(url)) {
    if (base !== undefined) url = resolve(base).replace(/\/+$/, '') + url;
    else missing.add('base_url');
  }
  const headers = mergeHeaders(config.defaultHeaders, headerRows(request.headers), resolve, 'refuse');
  const body = request.body === undefined || request.body === '' ? undefined : resolve(request.body);
  return { method: request.method.trim().toUpperCase(), url, headers, body, missing: [...missing], cyclic: [...cyclic] };
}

// The console's proxy, a Node server, cannot receive methods outside Node's list; like the methods fetch
// refuses, they would otherwise surface as "could not reach".
const NODE_METHODS = new Set([
  'ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE', 'MKACTIVITY',
  'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY',
  'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE',
]);

/**
 * Steps 3 and 4: checks a resolved request and routes it. Run again on a request the page rewrote in a
 * before-send handler, so a rewrite is checked and routed like the original.
 */
export function checkAndRoute(
  request: Pick<ResolvedRequest, 'method' | 'url' | 'headers' | 'body'>,
  { config, pageOrigin }: Pick<PreparationContext, 'config' | 'pageOrigin'>,
): Omit<PreparedRequest, 'missing'> {
  const method = request.method.toUpperCase();
  const { url, headers, body } = request;
  if (!isMethod(method)) throw new RequestError('invalid-request', `${JSON.stringify(request.method)} is not an HTTP method; use one such as GET or POST.`);
  if (FORBIDDEN_METHODS.has(method)) throw new RequestError('invalid-request', `${method} cannot be sent from a web page (browsers refuse it); use another method, or a snippet outside the browser.`);
  if (isRelative(url)) {
    throw new RequestError('invalid-url', `${JSON.stringify(url)} is relative, and the active environment has no base_url variable; add base_url (e.g. https://api.example.com) or write the full URL.`);
  }
  if (!isHttpUrl(url)) {
    throw new RequestError('invalid-url', `${JSON.stringify(url)} is not an absolute http(s) URL; write it as https://host/path, and check the variables it uses.`);
  }
  const { username, password } = new URL(url);
  if (username !== '' || password !== '') {
    throw new RequestError('invalid-url', `${JSON.stringify(url)} holds a user name or password, which fetch refuses to send; remove it from the URL and add an Authorization header instead.`);
  }
  checkHeaders(headers);
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new RequestError('invalid-request', `A ${method} request cannot carry a body in a browser; remove the body or use POST.`);
  }
  const viaProxy = config.corsProxy !== undefined && isCrossOrigin(url, pageOrigin);
  if (viaProxy && !NODE_METHODS.has(method)) {
    throw new RequestError('invalid-request', `The CORS proxy cannot relay the custom method ${method}: its HTTP server accepts only the standard methods. Use a standard method, or call an API that allows this page's origin directly.`);
  }
  const fetchUrl = viaProxy ? proxiedUrl(config.corsProxy!, url) : url;
  if (pageOrigin?.startsWith('https:') && !isPotentiallyTrustworthy(new URL(fetchUrl))) {
    throw new RequestError(
      'mixed-content',
      `Blocked as mixed content: this page is served over https, so the browser refuses plain-http ${viaProxy ? 'proxy ' : ''}URL ${fetchUrl}. Use the https address of the ${viaProxy ? 'proxy' : 'API'}${viaProxy ? '' : ', or route it through an https corsProxy'}.`,
    );
  }
  const warnings = Object.keys(headers)
    .filter(isForbiddenHeader)
    .map((name) =>
      CLIENT_OWNED_HEADERS.has(name.toLowerCase())
        ? `The ${name} header is set by every HTTP client from the request itself; it will not be sent from here, and the snippets refuse it. Remove it.`
        : `Browsers do not let a page set the ${name} header; it will not be sent from here (the snippets do send it).`,
    );
  return { method, url, headers: { ...headers }, body, fetchUrl, viaProxy, warnings };
}

/** A header a page cannot set: browsers drop it, and the engine does too, so a send behaves alike everywhere. */
export function isForbiddenHeader(name: string): boolean {
  return FORBIDDEN_HEADERS.has(name.toLowerCase()) || /^(proxy|sec)-/i.test(name);
}

/**
 * The request as a reader would copy it, placeholders kept: default headers merged in, and a relative URL
 * written after `{{base_url}}`, as the console would send it. What `<code-snippet>` shows.
 */
export function requestTemplate(request: ConsoleRequest, config: Pick<ResolvedConsoleConfig, 'defaultHeaders'>): ResolvedRequest {
  const url = request.url.trim();
  const headers = mergeHeaders(config.defaultHeaders, headerRows(request.headers), (text) => text, 'keep');
  const body = request.body === undefined || request.body === '' ? undefined : request.body;
  return { method: request.method.trim().toUpperCase(), url: isRelative(url) ? `{{base_url}}${url}` : url, headers, body, missing: [], cyclic: [] };
}

function isRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

function headerRows(headers: ConsoleRequest['headers']): HeaderRow[] {
  if (headers === undefined) return [];
  if (Array.isArray(headers)) return headers.filter((row) => row.enabled !== false && row.name.trim() !== '');
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/**
 * Default headers first, each replaced by the request's own header of the same name (any case). Two rows of
 * one name would be sent joined by ", " or one of them lost, neither of which is what was written: a send
 * refuses them, a template keeps them for the snippet generator to explain.
 */
function mergeHeaders(defaults: Record<string, string>, rows: HeaderRow[], resolve: (text: string) => string, duplicates: 'refuse' | 'keep'): Record<string, string> {
  const resolved = rows.map((row) => ({ name: resolve(row.name).trim(), value: resolve(row.value) }));
  const own = new Set<string>();
  for (const { name } of resolved) {
    if (own.has(name.toLowerCase()) && duplicates === 'refuse') {
      throw new RequestError('invalid-request', `The header ${name} appears in two rows (names ignore case); merge the values into one row, separated by ", ", or switch one off.`);
    }
    own.add(name.toLowerCase());
  }
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) {
    if (!own.has(name.toLowerCase())) setOwnProperty(merged, name, resolve(value));
  }
  for (const { name, value } of resolved) setOwnProperty(merged, name, value);
  return merged;
}

/** Checked after resolving: a variable's value can hold a line break, or a character fetch cannot send. */
function checkHeaders(headers: Record<string, string>): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new RequestError('invalid-request', `${JSON.stringify(name)} is not a valid header name; use letters, digits and - only.`);
    if (seen.has(name.toLowerCase())) {
      throw new RequestError('invalid-request', `The header ${name} appears twice (names ignore case); merge the values into one, separated by ", ".`);
    }
    seen.add(name.toLowerCase());
    const problem = headerValueProblem(value);
    if (problem) throw new RequestError('invalid-request', `The value of header ${name} ${problem}; remove it.`);
    if (!isByteString(value)) {
      throw new RequestError('invalid-request', `The value of header ${name} holds characters beyond Latin-1 (such as ${JSON.stringify([...value].find((c) => !isByteString(c)))}), which browsers cannot send in a header; percent-encode them or use ASCII.`);
    }
  }
}
