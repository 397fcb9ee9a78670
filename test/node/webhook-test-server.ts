// A real HTTP receiver on 127.0.0.1 (ephemeral port) that records every request it gets, for the webhook tests,
// a listener that never completes a connection, and a bound for waits that must not hang.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** Header names in the order and case they arrived. */
  headerNames: string[];
  /** Names and values in the order they arrived, alternating: what `headers` cannot hold (`__proto__`). */
  rawHeaders: string[];
  body: Buffer;
}

/** Answers one request; `index` counts from 0. May leave `response` hanging or destroy the socket. */
export type Responder = (response: ServerResponse, received: ReceivedRequest, index: number, request: IncomingMessage) => void;

export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(respond: Responder = (response) => response.writeHead(204).end()): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        headerNames: request.rawHeaders.filter((_, i) => i % 2 === 0),
        rawHeaders: request.rawHeaders,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      respond(response, received, requests.length - 1, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** At file level: the file fails if any promise rejects unhandled while its tests run (deliveries must never do so). */
export function failOnUnhandledRejections(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => {
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, [], 'no unhandled rejections');
  });
}

/**
 * Inside a `describe`: a `serve` that starts a test server, every one of them closed after each test.
 */
export function serversClosedAfterEachTest(): (respond: Responder) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (respond) => {
    const server = await startTestServer(respond);
    servers.push(server);
    return server;
  };
}

export interface Blackhole {
  /** `http://127.0.0.1:<port>`: connecting there never completes. */
  url: string;
  close(): void;
}

// Python, because a Node server accepts every connection on its own. The listener never accepts; its backlog of
// one is filled first, so the kernel drops every later SYN and a client's connect() hangs until it gives up. It
// exits when its stdin closes (with this process) or after a minute, whichever comes first.
const BLACKHOLE = `
import select, socket, sys
server = socket.socket()
server.bind(('127.0.0.1', 0))
server.listen(0)
fillers = []
for _ in range(3):
    filler = socket.socket()
    filler.setblocking(False)
    filler.connect_ex(server.getsockname())
    fillers.append(filler)
print(server.getsockname()[1], flush=True)
select.select([sys.stdin], [], [], 60)
`;

/** A loopback address whose TCP handshake never completes, for connect timeouts. */
export async function startBlackhole(): Promise<Blackhole> {
  const child = spawn('/usr/bin/python3', ['-c', BLACKHOLE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}`, close: () => child.kill() };
}

/** `promise`, or a failure naming `what` when it has not settled after `ms`: a bound, never a measurement. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** The webhook entry as an import specifier for a script run by `runInOwnProcess`. */
export const WEBHOOK_MODULE = JSON.stringify(new URL('../../src/webhook/index.ts', import.meta.url).href);

/**
 * Runs `script` (an ES module; TypeScript allowed) in a Node process of its own and waits for it to exit by itself,
 * for what only another process shows: an uncaught exception, or a handle keeping the process alive. Past `ms` the
 * wait fails naming `what`; the process is killed either way.
 */
export async function runInOwnProcess(script: string, what: string, ms = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  try {
    const [code] = (await settlesWithin(once(child, 'exit'), ms, what)) as [number | null];
    return { code, stdout, stderr };
  } finally {
    child.kill('SIGKILL');
  }
}

export interface FetchTestServer {
  url: string;
  /** For each request, in arrival order, how many bytes of its body the handler read. */
  bodyBytesRead: number[];
  /** What the handler rejected with, if it did. */
  rejections: unknown[];
  close(): Promise<void>;
}

/**
 * A loopback `node:http` server that hands each request to `handle` as a Fetch API `Request`, as Next.js, Hono's Node
 * adapter and the like do, and writes back the `Response` it resolves with. The body stream is pulled only as the
 * handler reads it, so `bodyBytesRead` tells what the handler read, not what arrived.
 */
export async function startFetchServer(handle: (request: Request) => Promise<Response>): Promise<FetchTestServer> {
  const bodyBytesRead: number[] = [];
  const rejections: unknown[] = [];
  const server = createServer((incoming, outgoing) => {
    const index = bodyBytesRead.push(0) - 1;
    const headers = new Headers();
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
    const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await chunks.next();
          if (done) return controller.close();
          bodyBytesRead[index]! += value.length;
          controller.enqueue(new Uint8Array(value));
        },
      },
      { highWaterMark: 0 },
    );
    const method = incoming.method ?? 'GET';
    const init = { method, headers, body: method === 'GET' || method === 'HEAD' ? null : body, duplex: 'half' };
    handle(new Request(`http://${incoming.headers.host}${incoming.url}`, init as RequestInit)).then(
      async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      },
      (error: unknown) => {
        rejections.push(error);
        outgoing.writeHead(502).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodyBytesRead,
    rejections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
