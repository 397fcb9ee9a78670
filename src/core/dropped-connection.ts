/**
 * The codes of a connection the server took and then closed or reset before any response, as undici and Node give
 * them (a crash while handling the request, a TLS port given plain HTTP, an idle connection closed as it was reused):
 * the server is up, so "could not be reached" would mislead. The proxy, the engine in Node and the webhook channel
 * all word them so.
 */
export const DROPPED_CONNECTION_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * OpenSSL's codes for TLS records that do not parse: what a client reads when the port it asked for https answers in
 * plain HTTP. The server is up, on http://; the proxy, the engine in Node and the webhook channel all say so.
 */
export const NOT_TLS_CODES: ReadonlySet<string> = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

/**
 * Why `target`'s server, which is up, gave no usable answer: it sent something other than HTTP/1.1 (`notHttp`, with
 * `detail` saying what), or took the connection and closed it unanswered (`code` in DROPPED_CONNECTION_CODES).
 * Undefined for any other failure. `server` names it in the advice ("the API").
 */
export function unansweredExplanation(target: URL, code: string | undefined, { notHttp, detail, server }: { notHttp: boolean; detail: string; server: string }): string | undefined {
  if (notHttp) return `${target.origin} sent something other than a valid HTTP/1.1 response (${detail}); fix ${server}'s response, or what stands in front of it.`;
  if (code === undefined || !DROPPED_CONNECTION_CODES.has(code)) return undefined;
  // A TLS port given plain HTTP closes so; a written port may be one (8443), the default 80 hardly.
  const scheme = target.protocol === 'http:' && target.port ? ` If ${server} serves https on port ${target.port}, write https://.` : '';
  return `${target.origin} accepted the connection, then closed it without answering (${code}); look in ${server}'s log for a failure on this request.${scheme}`;
}
