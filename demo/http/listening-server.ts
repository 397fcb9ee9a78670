// Starting and stopping one of the demo's HTTP servers, so every server reports its port and closes the same way.
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface ListeningServer {
  server: Server;
  /** The port actually listened on (useful with port 0). */
  port: number;
  /** `http://host:port`, no trailing slash. */
  origin: string;
  /** Stops accepting, drops idle and open connections, resolves once closed. */
  close(): Promise<void>;
}

/** Thrown when a port is taken, with the flag that changes it, instead of Node's bare EADDRINUSE. */
export class PortInUseError extends Error {
  readonly code = 'ERR_DEMO_PORT_IN_USE';

  constructor(readonly what: string, readonly port: number, readonly hint: string, options?: { cause?: unknown }) {
    super(`The ${what} could not listen on port ${port}: it is already in use. ${hint}`, options);
    this.name = 'PortInUseError';
  }
}

/** The host part of a URL for `host` (IPv6 literals in brackets; a wildcard address becomes loopback). */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

export async function listen(what: string, handler: RequestListener, port: number, host: string, hint: string): Promise<ListeningServer> {
  const server = createServer(handler);
  // Browsers keep connections alive; a short idle timeout keeps close() quick after a page was open.
  server.keepAliveTimeout = 2_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(what, port, hint, { cause: error }) : error);
    });
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    origin: `http://${urlHost(host)}:${actual}`,
    close: () => closeServer(server),
  };
}

/**
 * The origin of a port nothing listens on (the system's free port of the moment, released at once): the demo's
 * "server that does not answer". Browsers and the proxy refuse low ports such as 9 outright, which shows another error.
 */
export async function closedOrigin(host: string): Promise<string> {
  const probe = await listen('closed-port probe', () => {}, 0, host, '');
  await probe.close();
  return probe.origin;
}

/**
 * The other loopback address of `server`'s port (`[::1]:8080` for a server on 127.0.0.1:8080) when another program
 * listens there. Browsers send `http://localhost:<port>/` to either address, IPv6 first, so that program, not the
 * demo, would get the page: a dev server on `localhost` listens on ::1 alone on macOS, and is no obstacle to
 * listening on 127.0.0.1.
 */
export async function otherLocalhostListener(server: Server): Promise<string | undefined> {
  const { address, port } = server.address() as AddressInfo;
  const other = address === '127.0.0.1' ? '::1' : address === '::1' ? '127.0.0.1' : undefined;
  if (!other) return undefined;
  const answered = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: other, port, timeout: 1_000 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => done(true));
    // Refused (nothing there), or no IPv6 on this machine: localhost can only mean this server.
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
  return answered ? `${urlHost(other)}:${port}` : undefined;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    // Open keep-alive and streaming connections (a slow endpoint, an SSE-less poll) would hold close() open.
    server.closeAllConnections();
  });
}
