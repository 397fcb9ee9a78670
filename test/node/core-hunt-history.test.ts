import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, InvalidArgumentError, REDACTED, valueForms, type StoredHistoryRecord } from '../../src/core/index.js';
import { MapStore } from './history-support/map-store.js';
import { subscriberChangeTests } from './core-support/subscriber-changes.js';

describe('History: values with # or ? given to redactValue', () => {
  it('replaces the value, and leaves every other character of the entry alone', async () => {
    // A password with `#` is common; what a URL parser keeps of it in a query is only what comes before the `#`.
    for (const value of ['#abcd', 'p#ssw0rd', 'x?secretvalue', '/../']) {
      const store = new MapStore();
      const history = new History({ enabled: true }, { store });
      history.redactValue(value);
      const entry = history.add({
        method: 'POST',
        url: 'https://api.example/path/x?page=2',
        headers: { 'X-Note': `key ${value}` },
        body: `{"password":"${value}","note":"plain text"}`,
        status: 200,
        duration: 1,
      });
      await history.flush();
      for (const kept of [entry, (store.records.get(entry.id) as StoredHistoryRecord).entry]) {
        assert.equal(kept.url, 'https://api.example/path/x?page=2', value);
        assert.deepEqual(kept.headers, { 'X-Note': `key ${REDACTED}` }, value);
        assert.equal(kept.body, `{"password":"${REDACTED}","note":"plain text"}`, value);
      }
    }
  });

  it('gives no form of a value shorter than the values it redacts', () => {
    for (const value of ['#abcd', 'p#ssw0rd', 'x?secretvalue', '/../', 'abcd#efgh']) {
      assert.deepEqual(valueForms(value).filter((form) => form.length < 4), [], value);
    }
    // Nor the part a query or a path keeps of a value cut by "#" or "?": `admin` of `admin#2024!` is an ordinary word.
    assert.deepEqual(valueForms('admin#2024!'), ['admin#2024!', 'admin%232024!']);
    assert.deepEqual(valueForms('key?2024'), ['key?2024', 'key%3F2024']); // a query keeps it whole, as written
    // Nor what a path keeps of one with `..` in it, or a URL of one with a tab: other words, found elsewhere.
    assert.deepEqual(valueForms('x/../admin'), ['x/../admin', 'x%2F..%2Fadmin']);
    assert.ok(!valueForms('tab\tvalue').includes('tabvalue'));
  });

  it('redacts a value cut by "#" whole, and not the word before its "#" wherever that appears', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    history.redactValue('admin#2024!');
    history.add({ method: 'GET', url: 'https://api.example/admin/users?role=admin&p=admin%232024!', headers: { 'X-Note': 'administrator', 'X-Pass': 'admin#2024!' }, body: '', status: 200, duration: 1 });
    await history.flush();
    const [stored] = [...store.records.values()] as StoredHistoryRecord[];
    assert.equal(stored!.entry.url, `https://api.example/admin/users?role=admin&p=${REDACTED}`);
    assert.deepEqual(stored!.entry.headers, { 'X-Note': 'administrator', 'X-Pass': REDACTED });
  });
});

describe('History: subscribers changing their subscription while told of a change', () => {
  subscriberChangeTests(() => {
    const history = new History({ enabled: true });
    return { owner: history, changes: [() => history.add({ method: 'GET', url: 'https://api.example/', status: 200, duration: 1 }), () => history.clear()] };
  });
});

describe('History: entries given headers as a Headers or a Map', () => {
  it('refuses them, naming what to pass, rather than storing the entry without its headers', () => {
    const history = new History({ enabled: true });
    const request = { method: 'GET', url: 'https://api.example/', status: 200, duration: 1 };
    for (const headers of [new Headers({ Accept: 'application/json' }), new Map([['Accept', 'application/json']])]) {
      const kind = headers.constructor.name;
      assert.throws(
        () => history.add({ ...request, headers: headers as never }),
        (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'entry.headers' && error.message.includes(`Object.fromEntries(headers) (got a ${kind})`),
      );
      assert.throws(() => history.add({ ...request, written: { url: request.url, headers: headers as never } }), (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'entry.written.headers');
    }
    assert.equal(history.size, 0);
  });
});
