// For the engine's URL-advice tests: a loopback server to send to, an engine with one environment, and the message of
// a URL refused.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, RequestEngine, RequestError } from '../../../src/core/index.js';

/** A server on 127.0.0.1 that answers 200 with the path and query it was asked for, and counts the requests. */
export async function startPathEcho() {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count += 1;
    response.writeHead(200, { 'content-type': 'text/plain' }).end(request.url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    count: () => count,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

export type PathEcho = Awaited<ReturnType<typeof startPathEcho>>;

/** An engine whose one environment, "Prod", holds `variables`. */
export function engineWith(variables: Record<string, string>): RequestEngine {
  return new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables }) });
}

/** The message of the `invalid-url` RequestError that `action` throws. */
export function refusal(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, 'invalid-url', error.message);
    return error.message;
  }
  assert.fail('expected an invalid-url refusal');
}
