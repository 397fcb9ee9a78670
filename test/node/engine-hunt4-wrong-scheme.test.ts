// An https:// URL to a server that serves plain http (a local API, most often): Node's TLS reads the plain answer as a
// record of the wrong version. Told to write http://, not "could not reach… check that the server is up", which it is.
// The server is the test's own, on 127.0.0.1. Failed on the code as it was before: "Could not reach https://127.0.0.1:…
// (ERR_SSL_WRONG_VERSION_NUMBER); check the address and that the server is up."
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestEngine, RequestError } from '../../src/core/index.js';

describe('an https URL to a plain http server', () => {
  let server: Server;
  let port: number;
  before(async () => {
    server = createServer((_request, response) => response.end('plain'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));

  it('is told to write http://, and goes once it is', async () => {
    const engine = new RequestEngine();
    const error = await engine.send({ method: 'GET', url: `https://127.0.0.1:${port}/pets` }).then(() => undefined, (failure: unknown) => failure);
    assert.ok(error instanceof RequestError, String(error));
    assert.equal(error.kind, 'network');
    assert.match(error.message, new RegExp(`^https://127\\.0\\.0\\.1:${port} answers plain http, not https \\(ERR_SSL_[A-Z_]+\\); write the URL with http://\\.$`));
    assert.equal((await engine.send({ method: 'GET', url: `http://127.0.0.1:${port}/pets` })).text, 'plain');
  });
});
