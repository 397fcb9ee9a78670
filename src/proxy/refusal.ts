// Why the proxy did not deliver a request, as a stable code, an HTTP status and a message for the person
// at the console. The console engine reads these from the JSON body: the codes are public API.
import { TryItError } from '../core/errors.js';
import type { ProxyErrorBody } from '../core/proxy-route.js';

/** HTTP status of each refusal. Client-side problems are 4xx; upstream failures are 502/504. */
const STATUS_BY_CODE = {
  bad_target_url: 400,
  malformed_request: 400,
  tls_on_plain_port: 400,
  method_not_allowed: 405,
  websocket_not_supported: 501,
  origin_not_allowed: 403,
  destination_not_allowed: 403,
  target_not_allowed: 403,
  private_address: 403,
  request_too_large: 413,
  request_headers_too_large: 431,
  request_timeout: 408,
  response_too_large: 502,
  too_many_redirects: 502,
  insecure_redirect: 502,
  upstream_unreachable: 502,
  upstream_timeout: 504,
  internal_error: 500,
} as const;

/** Stable codes of every refusal, as sent in `{"error":{"code"}}` and the `X-Try-It-Proxy-Error` header. */
export type ProxyRefusalCode = keyof typeof STATUS_BY_CODE;

/** Every refusal code, e.g. for a console that maps each to its own explanation. */
export const PROXY_REFUSAL_CODES = Object.keys(STATUS_BY_CODE) as readonly ProxyRefusalCode[];

/**
 * The way forward when only one of the proxy's own limits stands in the way, not the API's: the console's snippet sends
 * the same request from the reader's machine. Ends a sentence that offers another way first ("Send a smaller body, or …").
 */
export const WITHOUT_THE_PROXY = 'send the request from your own machine, without the proxy: the code under Code does';

/** The header that marks the proxy's own answers; shared with the console engine, which reads it. */
export { PROXY_ERROR_HEADER, PROXY_FINAL_URL_HEADER } from '../core/proxy-route.js';

/** The JSON body of every refusal: the engine's `ProxyErrorBody`, with the code narrowed. */
export interface ProxyRefusalBody extends ProxyErrorBody {
  error: { code: ProxyRefusalCode; message: string };
}

/** A request the proxy refused or could not complete. `code` is `ERR_PROXY_<REASON>`. */
export class ProxyRefusal extends TryItError {
  readonly reason: ProxyRefusalCode;
  readonly status: number;

  constructor(reason: ProxyRefusalCode, message: string, options?: { cause?: unknown }) {
    super(`ERR_PROXY_${reason.toUpperCase()}`, message, options);
    this.reason = reason;
    this.status = STATUS_BY_CODE[reason];
  }

  /** The body the proxy sends for this refusal. */
  toBody(): ProxyRefusalBody {
    return { error: { code: this.reason, message: this.message } };
  }
}

/** True for a `ProxyRefusal`, optionally with one reason. */
export function isProxyRefusal(error: unknown, reason?: ProxyRefusalCode): error is ProxyRefusal {
  return error instanceof ProxyRefusal && (reason === undefined || error.reason === reason);
}

/**
 * A refusal as `onRefusal` reports it: what an operator's log needs, and nothing that may carry a secret of the
 * page's request (the message may quote the target URL, query included, so it is left out).
 */
export interface ProxyRefusalRecord {
  code: ProxyRefusalCode;
  status: number;
  /** The request's method; `undefined` for a request Node's HTTP parser refused, which hands over none. */
  method: string | undefined;
  /** The `Origin` header as the page (or any client) sent it; `undefined` without one, or when no header was read. */
  origin: string | undefined;
  /**
   * The target's origin (scheme, host and port); `undefined` when the request named no usable target, and for refusals
   * made before the target is read (`origin_not_allowed`, `destination_not_allowed`, `method_not_allowed`, `websocket_not_supported`, a `Via` loop).
   */
  target: string | undefined;
  /** For `internal_error`, the error behind it: a bug in the proxy, to report. */
  cause?: unknown;
  /**
   * For `tls_on_plain_port`, the refusal's message (what to change), which the client, expecting TLS, cannot read:
   * the operator's log is where it is seen. A fixed text: nothing of the request.
   */
  message?: string;
}

/** The record of `refusal` for `onRefusal`: what is known of the request, never its path, query or a header but Origin. */
export function refusalRecord(refusal: ProxyRefusal, request: { method: string | undefined; origin: string | undefined; target: URL | undefined }): ProxyRefusalRecord {
  return {
    code: refusal.reason,
    status: refusal.status,
    method: request.method,
    origin: request.origin,
    target: request.target?.origin,
    ...(refusal.reason === 'internal_error' ? { cause: refusal.cause } : {}),
    ...(refusal.reason === 'tls_on_plain_port' ? { message: refusal.message } : {}),
  };
}
