// A request loaded back from history holds the marker of each value the history did not keep (`Bearer [redacted]`):
// sent as written, the API answered 401 and the response said nothing of it. Now, when the API refuses the request
// (400 or more), a warning in the response names where the marker was and what to do; the request still goes (a body
// may quote the text). While it is edited, the console's own note says so. Sends go to a loopback server of the test's
// own. Failed on the code as it was before: no warning.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, REDACTED, RequestEngine } from '../../src/core/index.js';
import { MapStore } from './history-support/map-store.js';

/** A server on 127.0.0.1 that answers 401 unless the Authorization header is the real token, with what it got. */
async function startApi() {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { path: request.url, authorization: request.headers.authorization, body: Buffer.concat(chunks).toString() };
      response.writeHead(request.headers.authorization === 'Bearer sk_live_secret' ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(got));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The warning of a refused response to a request that held the marker in `places`. */
const told = (places: string) => `Sent with ${REDACTED} (in ${places}) as written: it marks a value the history did not keep. Type that value in its place, and send again.`;

describe('the marker of a value history did not keep, in a request the API refused', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  before(async () => {
    api = await startApi();
  });
  after(() => api.close());

  it('loaded back from history and sent as written, gets a warning with the 401 naming the header', async () => {
    const store = new MapStore();
    const before = new RequestEngine({ historyStore: () => store });
    const first = await before.send({ method: 'GET', url: `${api.origin}/me`, headers: { Authorization: 'Bearer sk_live_secret' } });
    assert.equal(first.status, 200);
    assert.deepEqual(first.warnings, []);
    // The page loaded again: its history read from the store, an entry loaded back as the console loads it (the
    // request as written, or as sent).
    const engine = new RequestEngine({ historyStore: () => store });
    await engine.history.ready();
    const entry = engine.history.list()[0]!;
    const loaded = { method: entry.method, ...(entry.written ?? { url: entry.url, headers: entry.headers }) };
    assert.equal(loaded.headers.Authorization, `Bearer ${REDACTED}`, 'the history kept the marker, not the token');
    const again = await engine.send(loaded);
    assert.equal(again.status, 401);
    assert.equal(JSON.parse(again.text).authorization, `Bearer ${REDACTED}`, 'sent as written');
    assert.deepEqual(again.warnings, [told('the Authorization header')]);
    // Filled in, no warning.
    const filled = await engine.send({ ...loaded, headers: { Authorization: 'Bearer sk_live_secret' } });
    assert.deepEqual([filled.status, filled.warnings], [200, []]);
  });

  it('is named in the URL (as written, or percent-encoded by a query row) and in the body, each place once', async () => {
    const engine = new RequestEngine();
    for (const key of [REDACTED, encodeURIComponent(REDACTED)]) {
      const response = await engine.send({ method: 'GET', url: `${api.origin}/pets?api_key=${key}&other=${key}` });
      assert.deepEqual([response.status, response.warnings], [401, [told('the URL')]], key);
    }
    const body = `{"password":"${REDACTED}"}`;
    const response = await engine.send({ method: 'POST', url: `${api.origin}/login`, headers: { 'Content-Type': 'application/json', 'X-Key': REDACTED }, body });
    assert.equal(JSON.parse(response.text).body, body, 'sent as written');
    assert.deepEqual(response.warnings, [told('the X-Key header, the body')]);
  });

  it('gets no warning when the API accepted the request: it did without the value (the console drops its note then too)', async () => {
    const engine = new RequestEngine();
    const response = await engine.send({ method: 'GET', url: `${api.origin}/me?note=${REDACTED}`, headers: { Authorization: 'Bearer sk_live_secret' } });
    assert.deepEqual([response.status, response.warnings], [200, []]);
  });
});
