// The CORS side of the proxy: the headers that let a page read a response, and the preflight answer.
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { FORBIDDEN_METHODS, isHeaderName, isMethod } from '../core/http-syntax.js';
import { headerValues, withoutHeaders, type HeaderList } from './header-list.js';
import { addHardeningHeaders } from './response-hardening.js';

/** A method a preflight permits: any token but those browsers never send. Methods the proxy cannot forward included. */
function isPermittedMethod(method: string): boolean {
  return isMethod(method) && !FORBIDDEN_METHODS.has(method.toUpperCase());
}

/** Browsers cache a preflight answer this long (seconds); Chromium caps it at 7200. */
const PREFLIGHT_MAX_AGE = 600;

/** A CORS preflight: `OPTIONS` carrying `Access-Control-Request-Method`. Any other `OPTIONS` is forwarded. */
export function isPreflight(request: IncomingMessage): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/** Adds `value` to the `Vary` lines, as one, without repeating it, and leaves `Vary: *` alone. */
function mergeVary(existing: readonly string[], value: string): string {
  const current = existing.join(', ');
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
export function addCorsHeaders(headers: HeaderList, origin: string | undefined): HeaderList {
  // Each name once, whatever its case and however often it is repeated.
  const exposed = [...new Set(headers.map(([name]) => name.toLowerCase()))].filter((name) => name !== 'vary');
  const result: HeaderList = [
    ...withoutHeaders(headers, ['vary']),
    ['access-control-allow-origin', origin ?? '*'],
    ['vary', mergeVary(headerValues(headers, 'vary'), 'Origin')],
  ];
  if (exposed.length > 0) result.push(['access-control-expose-headers', exposed.join(', ')]);
  return addHardeningHeaders(result);
}

/**
 * The answer to a preflight. It permits the method and headers the page asked for, to any page: the
 * real request is where origins, targets, addresses and methods are checked, and its refusal is readable JSON,
 * which a failed preflight would not be. So any method that is a token is permitted, those the proxy cannot
 * receive included (`FOO`, a lowercase `patch`): their request gets the readable `method_not_allowed`. Only the
 * methods browsers never send (CONNECT, TRACE, TRACK) and text that is no method are not (only GET is offered).
 */
export function preflightHeaders(request: IncomingMessage, originAllowed: boolean): OutgoingHttpHeaders {
  const method = String(request.headers['access-control-request-method']).trim();
  const requested = request.headers['access-control-request-headers'] ?? '';
  const names = requested.split(',').map((name) => name.trim()).filter((name) => name !== '' && isHeaderName(name));
  const headers: OutgoingHttpHeaders = {
    'access-control-allow-origin': request.headers.origin ?? '*',
    'access-control-allow-methods': isPermittedMethod(method) ? method : 'GET',
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
