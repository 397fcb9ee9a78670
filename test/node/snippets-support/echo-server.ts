// A loopback HTTP server that records exactly what arrives: method, raw request target, raw headers (names as
// sent, values as bytes in Latin-1) and body bytes. Requests are grouped by their first path segment, so
// concurrent snippet runs each get their own key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  target: string;
  rawHeaders: string[];
  body: Buffer;
}

export const ECHO_STATUS = 203;
export const ECHO_REPLY = 'echo-server-received-it';

export interface EchoServer {
  origin: string;
  received(key: string): ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * `host`: the loopback address to listen on (`::1` for an IPv6 origin). `maxHeaderSize`: the largest request head
 * taken, for tests of the clients' limits rather than Node's (16 KiB by default).
 */
export async function startEchoServer({ host = '127.0.0.1', maxHeaderSize }: { host?: string; maxHeaderSize?: number } = {}): Promise<EchoServer> {
  const byKey = new Map<string, ReceivedRequest[]>();
  const server: Server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = request.url ?? '';
      const key = /^\/([^/?#]*)/.exec(target)?.[1] ?? '';
      const list = byKey.get(key) ?? [];
      list.push({ method: request.method ?? '', target, rawHeaders: request.rawHeaders, body: Buffer.concat(chunks) });
      byKey.set(key, list);
      response.writeHead(ECHO_STATUS, { 'content-type': 'text/plain' });
      response.end(ECHO_REPLY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    received: (key) => byKey.get(key) ?? [],
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
