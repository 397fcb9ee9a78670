/**
 * The codes of a connection the server took and then closed or reset before any response, as undici and Node give
 * them (a crash while handling the request, a TLS port given plain HTTP, an idle connection closed as it was reused):
 * the server is up, so "could not be reached" would mislead. The proxy and the webhook channel both word them so.
 */
export const DROPPED_CONNECTION_CODES: ReadonlySet<string> = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
