// What a JSON body looks like once persisted: credential members redacted by the key the server reads, and the whole
// body within maxStoredBodyLength, redaction included.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, REDACTED, type HistoryEntryInput } from '../../src/core/index.js';
import { MapStore } from './history-support/map-store.js';

const post = (id: string, body: string, contentType = 'application/json'): HistoryEntryInput => ({
  id,
  method: 'POST',
  url: 'https://api.example/login',
  headers: { 'Content-Type': contentType },
  body,
  status: 200,
  duration: 1,
});

async function storedBody(config: { maxStoredBodyLength?: number; redactQueryParameters?: string[] }, body: string) {
  const store = new MapStore();
  const history = new History({ enabled: true, ...config }, { store });
  history.add(post('a', body));
  await history.flush();
  return { body: store.stored('a').body, truncated: store.stored('a').bodyTruncated, inMemory: history.get('a').body };
}

describe('History: a JSON body as stored', () => {
  it('redacts a credential member whose key is written with JSON escapes, as the server reads it', async () => {
    const body = String.raw`{"pass\u0077ord": "hunter2", "api\u005fkey": "x", "client\u0053ecret": "s", "\u0075ser": "ada"}`;
    const stored = await storedBody({}, body);
    assert.equal(stored.body, String.raw`{"pass\u0077ord": "${REDACTED}", "api\u005fkey": "${REDACTED}", "client\u0053ecret": "${REDACTED}", "\u0075ser": "ada"}`);
    assert.equal(stored.inMemory, body, 'memory keeps the request as sent');
  });

  it('redacts an escaped key listed in redactQueryParameters, and reads \\" and \\\\ in a key as before', async () => {
    const body = String.raw`{"pin\u0043ode": "1234", "a\"b": "v", "c\\d": "w"}`;
    const stored = await storedBody({ redactQueryParameters: ['pincode', 'a"b'] }, body);
    assert.equal(stored.body, String.raw`{"pin\u0043ode": "${REDACTED}", "a\"b": "${REDACTED}", "c\\d": "w"}`);
  });

  it('never stores more than maxStoredBodyLength, when redaction makes a short body longer', async () => {
    // 17 characters as sent, 25 once redacted: cut to the cap, and flagged so, like any body cut.
    const stored = await storedBody({ maxStoredBodyLength: 20 }, '{"password":"ab"}');
    assert.ok(stored.body.length <= 20, `${stored.body.length} characters stored`);
    assert.equal(stored.body, `{"password":"${REDACTED}`.slice(0, 20));
    assert.equal(stored.truncated, true);
  });

  it('cuts an escaped credential only after redacting it: no part of the secret is stored', async () => {
    const stored = await storedBody({ maxStoredBodyLength: 20 }, String.raw`{"pass\u0077ord":"hunter2"}`);
    assert.equal(stored.body.length, 20);
    assert.doesNotMatch(stored.body, /hu/);
    assert.equal(stored.truncated, true);
  });
});
