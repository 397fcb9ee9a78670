import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { History, RequestEngine } from '../../src/core/index.js';

// SPEC A4: an entry's timestamp is "when the request was made". Checked by order only: the timestamp comes no later
// than the moment the server received the request, which is before the (delayed) response was even started.
describe('History entries recorded by the engine', () => {
  let server: Server;
  let origin = '';
  /** When each path was first received, by the server's clock (the same process, so the same clock). */
  const receivedAt = new Map<string, number>();

  before(async () => {
    server = createServer((request, response) => {
      const path = request.url ?? '';
      if (!receivedAt.has(path)) receivedAt.set(path, Date.now());
      // /hang never answers (the engine's timeout ends it); /slow answers once the clock has moved on.
      if (path === '/hang') return;
      setTimeout(() => response.writeHead(200, { 'content-type': 'text/plain' }).end('slow'), 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('are stamped with when the request was made, not when its response ended', async () => {
    const history = new History({ enabled: true });
    const sentAt = Date.now();
    const response = await new RequestEngine({ history }).send({ method: 'GET', url: `${origin}/slow` });
    const stamped = history.list()[0]!.timestamp.getTime();
    assert.equal(response.historyEntry!.timestamp.getTime(), stamped);
    assert.ok(sentAt <= stamped, 'not before send() was called');
    assert.ok(stamped <= receivedAt.get('/slow')!, `stamped ${stamped - receivedAt.get('/slow')!} ms after the server received the request`);
  });

  it('are stamped with when the request was made when it got no response either', async () => {
    const history = new History({ enabled: true });
    const sentAt = Date.now();
    await assert.rejects(new RequestEngine({ config: { timeout: 300 }, history }).send({ method: 'GET', url: `${origin}/hang` }), { kind: 'timeout' });
    const [entry] = history.list();
    assert.equal(entry!.status, 0);
    const stamped = entry!.timestamp.getTime();
    assert.ok(sentAt <= stamped && stamped <= receivedAt.get('/hang')!, 'between send() and the server receiving it');
  });
});
