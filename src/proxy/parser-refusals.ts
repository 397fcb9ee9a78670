// Requests Node's HTTP parser refuses before the proxy sees them (the server's `clientError` event). One of them
// reaches pages: a method outside `http.METHODS` (`FOO`, or a lowercase `patch`, which browsers send as written).
// It gets a readable `method_not_allowed` refusal instead of Node's bare 400, which no page can read. So does
// CONNECT, which Node hands to the `connect` event instead of the request listener, and drops unanswered when no
// one listens, and a request whose headers are larger than the parser reads (a big cookie or token), which would
// otherwise read as a CORS failure. The rest (malformed requests, requests too slow to arrive) get the same JSON, with
// Node's statuses. Each answered refusal is told to `onRefusal`, as the proxy's own are. A TLS handshake (a client
// using https:// on this plain-HTTP port) is told apart from an unknown method, and its record carries the message,
// for the operator: the client gets the same kind of answer, which its TLS library reports as a "wrong version number"
// (the usual sign of this mistake), but cannot read.
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { methodRefusal, refusalMessage } from './cors-proxy.js';
import type { HeaderList } from './header-list.js';
import { formatByteSize, formatDuration } from './readable-units.js';
import { ProxyRefusal, WITHOUT_THE_PROXY, refusalRecord, type ProxyRefusalRecord } from './refusal.js';

/**
 * An error the server's `clientError` event carries: a parse error (`HPE_…`, with `rawPacket`, the bytes being
 * parsed), a request timeout, or a socket error.
 */
type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/**
 * True when `packet` opens with a TLS handshake record (content type 22, version 3.x): a client that took this
 * plain-HTTP port for HTTPS. Node's parser reads its first byte, 0x16, as a method it does not know.
 */
function opensTlsHandshake(packet: Buffer | undefined): boolean {
  return packet !== undefined && packet[0] === 0x16 && packet[1] === 0x03;
}

function tlsOnPlainPort(): ProxyRefusal {
  return new ProxyRefusal(
    'tls_on_plain_port',
    "A client started a TLS handshake (it used an https:// URL) on this proxy's port, which speaks plain HTTP only. To serve HTTPS, put a TLS-terminating reverse proxy or your platform's HTTPS in front of the proxy and give clients that https:// address; to reach this port, use http://.",
  );
}

function unknownMethod(): ProxyRefusal {
  return new ProxyRefusal(
    'method_not_allowed',
    "This proxy's HTTP server (Node.js) only accepts the standard request methods, in capitals (GET, POST, PUT, PATCH, DELETE…): it cannot forward others.",
  );
}

function headersTooLarge(): ProxyRefusal {
  return new ProxyRefusal(
    'request_headers_too_large',
    `The request's headers are larger than this proxy's HTTP server reads (${formatByteSize(maxHeaderSize)} with the request line). Send fewer or shorter headers, or ${WITHOUT_THE_PROXY}. Whoever runs the proxy can raise its limit with node --max-http-header-size.`,
  );
}

function chunkExtensionsTooLarge(): ProxyRefusal {
  return new ProxyRefusal('request_too_large', "The request body's chunk extensions are larger than this proxy's HTTP server (Node.js) reads; send the body without them.");
}

function requestTimedOut(server: Server): ProxyRefusal {
  return new ProxyRefusal(
    'request_timeout',
    `The request did not arrive in time (its headers within ${formatDuration(server.headersTimeout)}, the whole request within ${formatDuration(server.requestTimeout)}); send it again.`,
  );
}

/** `reason` is llhttp's description of the fault, a fixed text that quotes nothing of the request. */
function malformed(reason: string | undefined): ProxyRefusal {
  const why = reason ? ` (${reason.slice(0, 100)})` : '';
  return new ProxyRefusal('malformed_request', `The request is not valid HTTP/1.1${why}, so this proxy's HTTP server (Node.js) could not read it.`);
}

/** The refusal that answers `error`; `undefined` for a socket error (the client reset the connection), which is no request. */
function refusalFor(error: ClientError, server: Server): ProxyRefusal | undefined {
  switch (error.code) {
    case 'HPE_INVALID_METHOD':
      return opensTlsHandshake(error.rawPacket) ? tlsOnPlainPort() : unknownMethod();
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return chunkExtensionsTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimedOut(server);
    default:
      return error.code?.startsWith('HPE_') ? malformed(error.reason) : undefined;
  }
}

function serialise(status: number, headers: HeaderList, body = ''): string {
  const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`;
}

/** The bytes that answer `refusal`, or Node's own bare 400 for a socket error. */
function answerFor(refusal: ProxyRefusal | undefined): string {
  if (!refusal) return serialise(400, [['connection', 'close']]);
  // No Origin header was parsed: `*` lets any page read it, as it may read every refusal.
  const { headers, body } = refusalMessage(refusal, undefined, true);
  return serialise(refusal.status, headers, body);
}

/**
 * True when the refusal concerns a request. Node times out a connection that has sent nothing yet as it does one
 * whose request is late: a browser's or load balancer's unused pre-connection is answered, but is not logged.
 */
function concernsRequest(refusal: ProxyRefusal, socket: Socket): boolean {
  return refusal.reason !== 'request_timeout' || socket.bytesRead > 0;
}

/**
 * Makes `server` answer the requests Node's parser refuses as above, and tells `onRefusal` of each answered. Nothing
 * of such a request was read (no method, no header): its record has the code and status only.
 */
export function answerParserRefusals(server: Server, onRefusal?: (record: ProxyRefusalRecord) => void): void {
  // A response still being written on a connection must not be interleaved with an answer: such a connection is dropped.
  const openResponses = new WeakMap<Socket, number>();
  server.on('request', (request, response) => {
    const { socket } = request;
    openResponses.set(socket, (openResponses.get(socket) ?? 0) + 1);
    response.once('close', () => openResponses.set(socket, (openResponses.get(socket) ?? 1) - 1));
  });
  server.on('clientError', (error: ClientError, socket: Socket) => {
    const refusal = refusalFor(error, server);
    const answered = socket.writable && !openResponses.get(socket);
    if (answered) socket.end(answerFor(refusal));
    socket.destroySoon();
    if (answered && refusal && concernsRequest(refusal, socket)) {
      onRefusal?.(refusalRecord(refusal, { method: undefined, origin: undefined, target: undefined }));
    }
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    // Node hands the socket over with none of its own handling: a client that resets it would otherwise crash the
    // process with an unhandled 'error', and one that never closes its side would hold it (and `close()`) for ever.
    socket.on('error', () => socket.destroy());
    const refusal = methodRefusal('CONNECT');
    const { headers, body } = refusalMessage(refusal, request.headers.origin, true);
    socket.end(serialise(refusal.status, headers, body));
    socket.destroySoon();
    onRefusal?.(refusalRecord(refusal, { method: 'CONNECT', origin: request.headers.origin, target: undefined }));
  });
}
