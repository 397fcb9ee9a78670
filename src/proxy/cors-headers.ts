// The CORS side of the proxy: the headers that let a page read a response, and the preflight answer.
import { METHODS, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { FORBIDDEN_METHODS, isHeaderName } from '../core/http-syntax.js';
import { addHardeningHeaders } from './response-hardening.js';

/** The only methods Node's HTTP parser lets through (case-sensitive): a request with any other never reaches the proxy. */
const RECEIVABLE_METHODS: ReadonlySet<string> = new Set(METHODS);

/** True for a method the proxy can receive and forward, as written (`PATCH`, not `patch`). */
function isProxiableMethod(method: string): boolean {
  return RECEIVABLE_METHODS.has(method) && !FORBIDDEN_METHODS.has(method);
}

/** Browsers cache a preflight answer this long (seconds); Chromium caps it at 7200. */
const PREFLIGHT_MAX_AGE = 600;

/** A CORS preflight: `OPTIONS` carrying `Access-Control-Request-Method`. Any other `OPTIONS` is forwarded. */
export function isPreflight(request: IncomingMessage): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** Adds `value` to a `Vary` header without repeating it, and leaves `Vary: *` alone. */
function mergeVary(existing: OutgoingHttpHeaders[string], value: string): string {
  const current = Array.isArray(existing) ? existing.join(', ') : existing === undefined ? '' : String(existing);
  const names = current.split(',').map((name) => name.trim()).filter(Boolean);
  if (names.includes('*') || names.some((name) => name.toLowerCase() === value.toLowerCase())) return current;
  return [...names, value].join(', ');
}

/**
 * Adds the headers that let the page at `origin` read this response and every header on it. The page's
 * fetch uses `credentials: 'omit'`, so `Access-Control-Allow-Credentials` is never sent. Adds the proxy's
 * hardening headers too (`addHardeningHeaders`), after the list of exposed ones is taken: the page sees them only
 * where the API sent the same header, so the console shows what the API sent.
 */
export function addCorsHeaders(headers: OutgoingHttpHeaders, origin: string | undefined): OutgoingHttpHeaders {
  const exposed = Object.keys(headers).filter((name) => name !== 'vary');
  headers['access-control-allow-origin'] = origin ?? '*';
  headers['vary'] = mergeVary(headers['vary'], 'Origin');
  if (exposed.length > 0) headers['access-control-expose-headers'] = exposed.join(', ');
  return addHardeningHeaders(headers);
}

/**
 * The answer to a preflight. It permits the method and headers the page asked for, to any page: the
 * real request is where origins, targets and addresses are checked, and its refusal is readable JSON,
 * which a failed preflight would not be. A method the proxy cannot receive or forward is not permitted (only
 * GET is offered), so the browser does not send a request that could only fail.
 */
export function preflightHeaders(request: IncomingMessage, originAllowed: boolean): OutgoingHttpHeaders {
  const method = String(request.headers['access-control-request-method']).trim();
  const requested = request.headers['access-control-request-headers'] ?? '';
  const names = requested.split(',').map((name) => name.trim()).filter((name) => name !== '' && isHeaderName(name));
  const headers: OutgoingHttpHeaders = {
    'access-control-allow-origin': request.headers.origin ?? '*',
    'access-control-allow-methods': isProxiableMethod(method) ? method : 'GET',
    'access-control-max-age': String(PREFLIGHT_MAX_AGE),
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers, Access-Control-Request-Private-Network',
    'content-length': '0',
  };
  if (names.length > 0) headers['access-control-allow-headers'] = names.join(', ');
  // Chromium's Private Network Access: a public page may use a proxy on a private address only if it says so.
  if (originAllowed && request.headers['access-control-request-private-network'] === 'true') {
    headers['access-control-allow-private-network'] = 'true';
  }
  return headers;
}
