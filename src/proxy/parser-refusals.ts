// Requests Node's HTTP parser refuses before the proxy sees them (the server's `clientError` event). One of them
// reaches pages: a method outside `http.METHODS` (`FOO`, or a lowercase `patch`, which browsers send as written).
// It gets a readable `method_not_allowed` refusal instead of Node's bare 400, which no page can read. So does
// CONNECT, which Node hands to the `connect` event instead of the request listener, and drops unanswered when no
// one listens, and a request whose headers are larger than the parser reads (a big cookie or token), which would
// otherwise read as a CORS failure.
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { methodRefusal, refusalMessage } from './cors-proxy.js';
import type { HeaderList } from './header-list.js';
import { ProxyRefusal } from './refusal.js';

/** Node's own answers to the other parse errors (as its default `clientError` handling writes them). */
const STATUS_BY_PARSE_ERROR: Readonly<Record<string, number>> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

function unknownMethod(): ProxyRefusal {
  return new ProxyRefusal(
    'method_not_allowed',
    "This proxy's HTTP server (Node.js) only accepts the standard request methods, in capitals (GET, POST, PUT, PATCH, DELETE…): it cannot forward others.",
  );
}

function serialise(status: number, headers: HeaderList, body = ''): string {
  const lines = headers.map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`;
}

function headersTooLarge(): ProxyRefusal {
  return new ProxyRefusal(
    'request_headers_too_large',
    `The request's headers are larger than this proxy's HTTP server reads (${maxHeaderSize / 1024} KiB with the request line): send fewer or shorter headers, or raise the limit with node --max-http-header-size.`,
  );
}

/** The bytes that answer a request the parser refused with `code`. */
function answerFor(code: string | undefined): string {
  const refusal = code === 'HPE_INVALID_METHOD' ? unknownMethod() : code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge() : undefined;
  if (refusal) {
    // No Origin header was parsed: `*` lets any page read it, as it may read every refusal.
    const { headers, body } = refusalMessage(refusal, undefined, true);
    return serialise(refusal.status, headers, body);
  }
  return serialise(STATUS_BY_PARSE_ERROR[code ?? ''] ?? 400, [['connection', 'close']]);
}

/** Makes `server` answer the requests Node's parser refuses as above, and the others as Node would. */
export function answerParserRefusals(server: Server): void {
  // A response still being written on a connection must not be interleaved with an answer: such a connection is dropped.
  const openResponses = new WeakMap<Socket, number>();
  server.on('request', (request, response) => {
    const { socket } = request;
    openResponses.set(socket, (openResponses.get(socket) ?? 0) + 1);
    response.once('close', () => openResponses.set(socket, (openResponses.get(socket) ?? 1) - 1));
  });
  server.on('clientError', (error: Error & { code?: string }, socket: Socket) => {
    if (socket.writable && !openResponses.get(socket)) socket.end(answerFor(error.code));
    socket.destroySoon();
  });
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    const refusal = methodRefusal('CONNECT');
    const { headers, body } = refusalMessage(refusal, request.headers.origin, true);
    socket.end(serialise(refusal.status, headers, body));
  });
}
