import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  History,
  HistoryEntryNotFoundError,
  IdbHistoryStore,
  InvalidArgumentError,
  REDACTED,
  type HistoryEntryInput,
  type HistoryStore,
  type HistoryStoreChange,
  type StoredHistoryRecord,
} from '../../src/core/index.js';
import { withReportedErrors } from './reported-errors.js';
import { MapStore, PartialReadStore } from './history-support/map-store.js';

/** What a change from another tab is checked against: every record stored, or only those it names. */
const STORES = [
  ['reading every record', MapStore],
  ['reading the record named', PartialReadStore],
] as const;

const ids = (history: History) => history.list().map((e) => e.id);

const request = (n: number, extra: Partial<HistoryEntryInput> = {}): HistoryEntryInput => ({
  method: 'GET',
  url: `https://api.example/items/${n}`,
  headers: { accept: 'application/json' },
  body: '',
  status: 200,
  duration: n,
  ...extra,
});

describe('History: the spec operations', () => {
  it('Add stores; List returns newest first', () => {
    const history = new History({ enabled: true });
    for (let n = 1; n <= 3; n += 1) history.add(request(n, { id: `e${n}` }));
    assert.deepEqual(history.list().map((e) => e.id), ['e3', 'e2', 'e1']);
  });

  it('List orders by when entries were added, not by their timestamps', () => {
    const history = new History({ enabled: true });
    history.add(request(1, { id: 'late', timestamp: new Date('2030-01-01T00:00:00Z') }));
    history.add(request(2, { id: 'early', timestamp: new Date('2001-01-01T00:00:00Z') }));
    assert.deepEqual(history.list().map((e) => e.id), ['early', 'late']);
  });

  it('evicts the oldest entry when MaxItems is reached (default 50)', () => {
    const history = new History({ enabled: true });
    for (let n = 1; n <= 51; n += 1) history.add(request(n, { id: `e${n}` }));
    assert.equal(history.list().length, 50);
    assert.throws(() => history.get('e1'), HistoryEntryNotFoundError);
    assert.equal(history.list().at(-1)!.id, 'e2');
    const small = new History({ enabled: true, maxItems: 2 });
    for (let n = 1; n <= 5; n += 1) small.add(request(n, { id: `e${n}` }));
    assert.deepEqual(small.list().map((e) => e.id), ['e5', 'e4']);
  });

  it('Clear removes all entries', () => {
    const history = new History({ enabled: true });
    history.add(request(1, { id: 'a' }));
    history.clear();
    assert.deepEqual(history.list(), []);
    assert.throws(() => history.get('a'), HistoryEntryNotFoundError);
  });

  it('Get returns the entry with that id, and an error for an unknown id', () => {
    const history = new History({ enabled: true });
    const added = history.add(request(7, { id: 'abc', headers: { 'x-one': '1' }, body: '{"a":1}', status: 201 }));
    assert.deepEqual(history.get('abc'), added);
    assert.equal(added.status, 201);
    assert.throws(
      () => history.get('nope'),
      (error: unknown) => error instanceof HistoryEntryNotFoundError && error.code === 'ERR_HISTORY_ENTRY_NOT_FOUND' && error.id === 'nope',
    );
  });

  it('gives an entry added without id a random UUID and without timestamp the current time', () => {
    const history = new History({ enabled: true });
    const before = Date.now();
    const a = history.add(request(1));
    const b = history.add(request(2));
    assert.match(a.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a.id, b.id);
    assert.ok(a.timestamp.getTime() >= before && a.timestamp.getTime() <= Date.now());
  });

  it('replaces an entry added again with an existing id, which becomes the newest', () => {
    const history = new History({ enabled: true });
    history.add(request(1, { id: 'a' }));
    history.add(request(2, { id: 'b' }));
    history.add(request(3, { id: 'a', status: 500 }));
    assert.deepEqual(history.list().map((e) => [e.id, e.status]), [['a', 500], ['b', 200]]);
  });

  it('keeps nothing when disabled', () => {
    const store = new MapStore();
    const history = new History({ enabled: false }, { store });
    const returned = history.add(request(1, { id: 'a' }));
    assert.equal(returned.id, 'a');
    assert.deepEqual(history.list(), []);
    assert.throws(() => history.get('a'), HistoryEntryNotFoundError);
    assert.equal(store.records.size, 0);
  });

  it('hands out copies', () => {
    const history = new History({ enabled: true });
    const input = request(1, { id: 'a' });
    const added = history.add(input);
    input.headers!.accept = 'changed';
    added.headers.accept = 'changed';
    history.list()[0]!.headers.accept = 'changed';
    history.get('a').timestamp.setFullYear(1999);
    assert.equal(history.get('a').headers.accept, 'application/json');
    assert.notEqual(history.get('a').timestamp.getFullYear(), 1999);
  });

  it('deletes single entries', () => {
    const history = new History({ enabled: true });
    history.add(request(1, { id: 'a' }));
    history.add(request(2, { id: 'b' }));
    assert.equal(history.delete('a'), true);
    assert.equal(history.delete('a'), false);
    assert.deepEqual(history.list().map((e) => e.id), ['b']);
  });
});

describe('History: bad input', () => {
  it('refuses maxItems 0, negative or fractional, and unknown fields, naming them', () => {
    for (const maxItems of [0, -1, 1.5, Number.NaN, '10']) {
      assert.throws(
        () => new History({ enabled: true, maxItems: maxItems as number }),
        (error: unknown) => error instanceof ConfigError && error.field === 'history.maxItems',
      );
    }
    assert.throws(() => new History({ enabled: true, maxitems: 5 } as never), /history\.maxitems.*not a known field/);
    assert.throws(() => new History({ enabled: 'yes' } as never), ConfigError);
    for (const redactQueryParameters of ['key', [''], [7]]) {
      assert.throws(
        () => new History({ enabled: true, redactQueryParameters: redactQueryParameters as never }),
        (error: unknown) => error instanceof ConfigError && error.field.startsWith('history.redactQueryParameters'),
      );
    }
  });

  it('refuses an IndexedDB openTimeout a timer cannot wait, which would give up on every open at once', () => {
    assert.ok(new IdbHistoryStore('t', { openTimeout: 2 ** 31 - 1 }));
    for (const openTimeout of [2 ** 31, 0, 1.5, '5000']) {
      assert.throws(
        () => new IdbHistoryStore('t', { openTimeout: openTimeout as number }),
        (error: unknown) => error instanceof ConfigError && error.field === 'openTimeout',
        String(openTimeout),
      );
    }
    assert.throws(() => new IdbHistoryStore('t', { openTimeout: 3_000_000_000 }), /openTimeout: must be at most 2147483647 ms \(about 24\.8 days\)/);
  });

  it('refuses malformed entries with the field named', () => {
    const history = new History({ enabled: true });
    const cases: [Partial<Record<keyof HistoryEntryInput, unknown>>, string][] = [
      [{ method: '' }, 'entry.method'],
      [{ method: 'GE T' }, 'entry.method'],
      [{ url: 42 }, 'entry.url'],
      [{ status: 1000 }, 'entry.status'],
      [{ status: 200.5 }, 'entry.status'],
      [{ duration: -1 }, 'entry.duration'],
      [{ duration: Number.POSITIVE_INFINITY }, 'entry.duration'],
      [{ headers: { a: 1 } }, 'entry.headers["a"]'],
      [{ body: {} }, 'entry.body'],
      [{ id: '' }, 'entry.id'],
      [{ timestamp: 'not a date' }, 'entry.timestamp'],
      [{ timestamp: true }, 'entry.timestamp'],
      [{ timestamp: [2020] }, 'entry.timestamp'],
      [{ written: 'GET /x' }, 'entry.written'],
      [{ written: { headers: {} } }, 'entry.written.url'],
      [{ written: { url: '/x', headers: { a: null } } }, 'entry.written.headers["a"]'],
      [{ written: { url: '/x', headers: {}, body: 1 } }, 'entry.written.body'],
    ];
    for (const [patch, field] of cases) {
      assert.throws(
        () => history.add({ ...request(1), ...patch } as HistoryEntryInput),
        (error: unknown) => error instanceof InvalidArgumentError && error.argument === field,
        field,
      );
    }
    assert.throws(() => history.add(null as never), InvalidArgumentError);
    assert.equal(history.size, 0);
    // null means "not given", as for the id: the current time, not 1970.
    const before = Date.now();
    const stamped = history.add({ ...request(1), timestamp: null } as unknown as HistoryEntryInput);
    assert.ok(stamped.timestamp.getTime() >= before);
  });

  it('keeps its settings as given: the resolved config cannot be changed afterwards', () => {
    const history = new History({ enabled: true, maxItems: 2, redactHeaders: ['X-One'] });
    assert.throws(() => ((history.config as { maxItems: number }).maxItems = Number.NaN), TypeError);
    assert.throws(() => history.config.redactHeaders.push('X-Two'), TypeError);
    for (let n = 0; n < 5; n += 1) history.add(request(n));
    assert.equal(history.size, 2);
  });

  it('finishes a change and tells every subscriber even when one throws, reporting the error', () => {
    const history = new History({ enabled: true });
    withReportedErrors((reported) => {
      let later = 0;
      history.subscribe(() => {
        throw new Error('faulty subscriber');
      });
      history.subscribe(() => (later += 1));
      history.add(request(1, { id: 'a' }));
      assert.deepEqual(history.list().map((e) => e.id), ['a']);
      assert.equal(later, 1);
      assert.deepEqual(reported.map((error) => (error as Error).message), ['faulty subscriber']);
    });
  });
});

describe('History: values kept out with redactValue', () => {
  it('replaces the value, and its percent-encoded form, in the URL, header values and body of entries added afterwards, in memory and in the store', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const key = 'my key/42+ok';
    const before = history.add({ method: 'GET', url: `https://api.example/weather?appid=${encodeURIComponent(key)}`, status: 200, duration: 1 });
    history.redactValue(key);
    history.redactValue('my key'); // held by the longer one: that is replaced whole
    const after = history.add({
      method: 'POST',
      url: `https://api.example/weather?appid=${encodeURIComponent(key)}`,
      headers: { 'X-Note': `uses ${key}` },
      body: JSON.stringify({ key }),
      written: { url: 'https://api.example/weather?appid={{api_key}}', headers: { 'X-Note': 'uses {{api_key}}' }, body: '{"key":"{{api_key}}"}' },
      status: 200,
      duration: 1,
    });
    await history.flush();
    const stored = (store.records.get(after.id) as StoredHistoryRecord).entry;
    for (const entry of [history.get(after.id), stored]) {
      assert.equal(entry.url, `https://api.example/weather?appid=${REDACTED}`);
      assert.deepEqual(entry.headers, { 'X-Note': `uses ${REDACTED}` });
      assert.equal(entry.body, JSON.stringify({ key: REDACTED }));
      // The request as written names it by its placeholder: loaded again, it resolves again.
      assert.equal(entry.written?.url, 'https://api.example/weather?appid={{api_key}}');
    }
    assert.equal(history.get(before.id).url, `https://api.example/weather?appid=${encodeURIComponent(key)}`, 'entries added before are left as they were');
  });

  it('finds the value as the URL parser writes it in a query or a path', () => {
    const history = new History({ enabled: true });
    const key = 'a|b"c^{d}';
    history.redactValue(key);
    // What a browser sends for the key put in a query and in a path: | ^ { } kept, " encoded.
    const sent = new URL(`https://api.example/v1/${key}?key=${key}`).href;
    assert.equal(history.add({ method: 'GET', url: sent, status: 200, duration: 1 }).url, `https://api.example/v1/${REDACTED}?key=${REDACTED}`);
  });

  it('leaves values under 4 characters, keeps everything with keepCredentials, and refuses a value that is not a string', () => {
    const short = new History({ enabled: true });
    short.redactValue('abc');
    assert.equal(short.add({ method: 'GET', url: 'https://api.example/abc', status: 200, duration: 1 }).url, 'https://api.example/abc');
    const keeping = new History({ enabled: true, keepCredentials: true });
    keeping.redactValue('secret-value');
    assert.equal(keeping.add({ method: 'GET', url: 'https://api.example/?k=secret-value', status: 200, duration: 1 }).url, 'https://api.example/?k=secret-value');
    assert.throws(() => short.redactValue(42 as never), (error: unknown) => error instanceof InvalidArgumentError && /must be a string/.test(error.message));
  });
});

describe('History: persistence', () => {
  it('stores one record per entry and loads them back in order', async () => {
    const store = new MapStore();
    const first = new History({ enabled: true }, { store });
    for (let n = 1; n <= 3; n += 1) first.add(request(n, { id: `e${n}` }));
    await first.flush();
    assert.equal(store.records.size, 3);
    const second = new History({ enabled: true }, { store });
    assert.deepEqual(second.list(), []);
    await second.ready();
    assert.deepEqual(second.list().map((e) => e.id), ['e3', 'e2', 'e1']);
    assert.deepEqual(second.get('e2'), first.get('e2'));
  });

  it('merges what was added before the load finished', async () => {
    const store = new MapStore();
    const first = new History({ enabled: true }, { store });
    // Added a second earlier: in the same millisecond, the order would be by id, "old" before "new".
    const realNow = Date.now;
    Date.now = () => realNow() - 1000;
    try {
      first.add(request(1, { id: 'old' }));
    } finally {
      Date.now = realNow;
    }
    await first.flush();
    const second = new History({ enabled: true }, { store });
    second.add(request(2, { id: 'new' }));
    await second.ready();
    assert.deepEqual(second.list().map((e) => e.id), ['new', 'old']);
  });

  it('persists eviction and trims an over-full store on load', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, maxItems: 3 }, { store });
    for (let n = 1; n <= 5; n += 1) history.add(request(n, { id: `e${n}` }));
    await history.flush();
    assert.deepEqual([...store.records.keys()].sort(), ['e3', 'e4', 'e5']);
    const smaller = new History({ enabled: true, maxItems: 2 }, { store });
    await smaller.ready();
    await smaller.flush();
    assert.deepEqual(smaller.list().map((e) => e.id), ['e5', 'e4']);
    assert.deepEqual([...store.records.keys()].sort(), ['e4', 'e5']);
  });

  it('redacts credential headers in what it stores, but not in memory', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, redactHeaders: ['X-Session'] }, { store });
    const headers = { Authorization: 'Bearer s3cret', 'Proxy-Authorization': 'Basic x', Cookie: 'sid=1', 'X-API-Key': 'k', 'x-session': 'abc', Accept: 'text/plain' };
    history.add(request(1, { id: 'a', headers }));
    await history.flush();
    assert.deepEqual(store.stored('a').headers, {
      // The scheme names no secret: kept, so only the token is to type again.
      Authorization: `Bearer ${REDACTED}`,
      'Proxy-Authorization': `Basic ${REDACTED}`,
      Cookie: REDACTED,
      'X-API-Key': REDACTED,
      'x-session': REDACTED,
      Accept: 'text/plain',
    });
    assert.deepEqual(history.get('a').headers, headers);
    // A key without a scheme, and a scheme-like start elsewhere than Authorization, are redacted whole.
    history.add(request(2, { id: 'b', headers: { Authorization: 'sk_live_0123456789', 'X-API-Key': 'Bearer s3cret' } }));
    // A key with a space after it keeps nothing of itself; a scheme is kept as written.
    history.add(request(3, { id: 'c', headers: { Authorization: 'ghp_abcdefghijklmnopqrst1234 extra', 'Proxy-Authorization': 'bearer  t0ken' } }));
    await history.flush();
    assert.deepEqual(store.stored('b').headers, { Authorization: REDACTED, 'X-API-Key': REDACTED });
    assert.deepEqual(store.stored('c').headers, { Authorization: REDACTED, 'Proxy-Authorization': `bearer  ${REDACTED}` });
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(2, { id: 'b', headers }));
    await keeping.flush();
    assert.deepEqual(store.stored('b').headers, headers);
  });

  it('redacts the many vendor spellings of a credential header, and nothing else', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const secret = ['X-Auth-Token', 'Private-Token', 'X-Session-Id', 'Ocp-Apim-Subscription-Key', 'api-key', 'X-Amz-Security-Token', 'X-Client-Secret'];
    // Underscore spellings (the Petstore's api_key) and short words at the end of a name.
    secret.push('api_key', 'API_KEY', 'x_api_key', 'access_key', 'X-Pass', 'X-JWT', 'X-Pwd', 'Request_Sig');
    // Exchanges' passphrases and signatures, assertions, one-time codes.
    secret.push('CB-ACCESS-PASSPHRASE', 'KC-API-SIGN', 'X-JWT-Assertion', 'X-Passcode', 'X-OTP');
    const plain = ['Accept', 'Content-Type', 'X-Request-Id', 'If-None-Match', 'Keep-Alive-Hint', 'X-Keyboard', 'X-Passenger', 'Design', 'X-Author', 'X-Max-Tokens', 'X-Signup-Source'];
    history.add(request(1, { id: 'a', headers: Object.fromEntries([...secret, ...plain].map((name) => [name, 'value'])) }));
    await history.flush();
    const stored = store.stored('a').headers;
    assert.deepEqual(secret.filter((name) => stored[name] !== REDACTED), []);
    assert.deepEqual(plain.filter((name) => stored[name] !== 'value'), []);
  });

  it('redacts a password in the URL and credential parameters in the fragment', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    history.add(request(1, { id: 'a', url: 'https://alice:s3cret@api.example/v1?x=1#access_token=TOKEN&state=s' }));
    history.add(request(2, { id: 'b', url: 'https://alice@api.example/v1' }));
    history.add(request(3, { id: 'c', url: 'https://api.example/at@home:1' }));
    await history.flush();
    assert.equal(store.stored('a').url, `https://alice:${REDACTED}@api.example/v1?x=1#access_token=${REDACTED}&state=s`);
    assert.equal(store.stored('b').url, 'https://alice@api.example/v1');
    assert.equal(store.stored('c').url, 'https://api.example/at@home:1');
  });

  it('redacts credential query parameters in the stored URL, keeping every other character as written', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, redactQueryParameters: ['Session_ID'] }, { store });
    const url = 'https://api.example.com/v1/pets?q=a%2Fb+c&api_key=k1&API%5FKEY=k2&Key=k3&access_token=t&empty_token=&token=&session_id=s&sig=x&tags=1#frag?key=not-a-query';
    history.add(request(1, { id: 'a', url }));
    await history.flush();
    assert.equal(
      store.stored('a').url,
      `https://api.example.com/v1/pets?q=a%2Fb+c&api_key=${REDACTED}&API%5FKEY=${REDACTED}&Key=${REDACTED}&access_token=${REDACTED}&empty_token=&token=&session_id=${REDACTED}&sig=${REDACTED}&tags=1#frag?key=not-a-query`,
    );
    assert.equal(history.get('a').url, url);
    const onlyFragment = 'https://api.example.com/#/docs?key=1';
    history.add(request(2, { id: 'b', url: onlyFragment }));
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(3, { id: 'c', url }));
    await history.flush();
    await keeping.flush();
    assert.equal(store.stored('b').url, onlyFragment);
    assert.equal(store.stored('c').url, url);
  });

  it('redacts bracketed parameters (PHP, Rails) by the key they stand for, in the URL and a form body', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, redactQueryParameters: ['pin'] }, { store });
    const url = 'https://api.example/v1?api_key[]=k1&user[access_token]=t1&user%5Bpassword%5D=p1&card[pin]=1234&user[name]=ada&tags[]=a&filter[0]=x&api_key[0]=k3&user[password][0]=p3&filter[key]=color&page[token]=next&token[]=t2&key[0]=k4';
    history.add(request(1, { id: 'a', url }));
    const form = 'user[password]=p1&user[password][]=p2&api_key[]=k2&card[pin]=4321&user[name]=ada';
    history.add(request(2, { id: 'form', method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form }));
    await history.flush();
    assert.equal(
      store.stored('a').url,
      `https://api.example/v1?api_key[]=${REDACTED}&user[access_token]=${REDACTED}&user%5Bpassword%5D=${REDACTED}&card[pin]=${REDACTED}&user[name]=ada&tags[]=a&filter[0]=x&api_key[0]=${REDACTED}&user[password][0]=${REDACTED}&filter[key]=color&page[token]=next&token[]=${REDACTED}&key[0]=${REDACTED}`,
    );
    assert.equal(store.stored('form').body, `user[password]=${REDACTED}&user[password][]=${REDACTED}&api_key[]=${REDACTED}&card[pin]=${REDACTED}&user[name]=ada`);
  });

  it('redacts parameters named like a credential: refresh, id and private tokens, signed-URL signatures and tokens, keys', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const url =
      'https://api.example/v1?private_token=p1&auth_token=a1&api_token=t1&X-Goog-Signature=g1&X-Amz-Security-Token=s1&app_secret=c1&token_type=bearer&page=2&access_key=k1&subscription-key=k2&auth=f1&jwt=j1&pwd=w1&key_id=public&sort_key=name&public_key=pk&idempotency_key=i1&sessionId=s1#refresh_token=r1&id_token=i1&state=x';
    history.add(request(1, { id: 'a', url }));
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(2, { id: 'b', url }));
    await history.flush();
    await keeping.flush();
    const R = REDACTED;
    assert.equal(
      store.stored('a').url,
      `https://api.example/v1?private_token=${R}&auth_token=${R}&api_token=${R}&X-Goog-Signature=${R}&X-Amz-Security-Token=${R}&app_secret=${R}&token_type=bearer&page=2&access_key=${R}&subscription-key=${R}&auth=${R}&jwt=${R}&pwd=${R}&key_id=public&sort_key=name&public_key=pk&idempotency_key=i1&sessionId=${R}#refresh_token=${R}&id_token=${R}&state=x`,
    );
    assert.equal(store.stored('b').url, url);
  });

  it('stores a body above the cap truncated, with a flag', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, maxStoredBodyLength: 10 }, { store });
    history.add(request(1, { id: 'long', body: 'abcdefghijKLMNOP' }));
    history.add(request(2, { id: 'short', body: 'abcdefghij' }));
    await history.flush();
    assert.equal(store.stored('long').body, 'abcdefghij');
    assert.equal(store.stored('long').bodyTruncated, true);
    assert.equal(store.stored('short').bodyTruncated, undefined);
    assert.equal(history.get('long').body, 'abcdefghijKLMNOP');
    history.add(request(3, { id: 'emoji', body: 'abcdefghi😀xyz' }));
    await history.flush();
    assert.equal(store.stored('emoji').body, 'abcdefghi');
  });

  it('keeps the request as written next to the one sent, with its own copy, and loads both back', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const written = { url: '{{base_url}}/pets?api_key={{key}}', headers: { Authorization: 'Bearer {{token}}', 'X-Api-Key': '{{key}}' }, body: '{"name":"{{name}}"}' };
    const sent = request(1, {
      id: 'a',
      url: 'https://api.example/pets?api_key=k1',
      headers: { Accept: 'application/json', Authorization: 'Bearer s3cret', 'X-Api-Key': 'k1' },
      body: '{"name":"Rex"}',
      written,
    });
    const added = history.add(sent);
    added.written!.headers.Authorization = 'changed by the caller';
    assert.deepEqual(history.get('a').written, written);
    await history.flush();
    // The sent values are secrets and redacted; the written ones are references to them and kept.
    assert.equal(store.stored('a').url, `https://api.example/pets?api_key=${REDACTED}`);
    assert.deepEqual(store.stored('a').headers, { Accept: 'application/json', Authorization: `Bearer ${REDACTED}`, 'X-Api-Key': REDACTED });
    assert.deepEqual(store.stored('a').written, written);
    const reloaded = new History({ enabled: true }, { store });
    await reloaded.ready();
    assert.deepEqual(reloaded.get('a').written, written);
    // An entry whose written record is damaged is skipped like any corrupted record.
    store.records.set('b', { entry: { ...request(2), id: 'b', timestamp: new Date(), written: { url: 5 } }, addedAt: 1 });
    const again = new History({ enabled: true }, { store });
    await again.ready();
    assert.deepEqual(again.list().map((e) => e.id), ['a']);
  });

  it('redacts a credential written out in the request as written, keeping only pure references', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, maxStoredBodyLength: 10 }, { store });
    const headers = {
      Authorization: 'Bearer {{token}}',
      'X-Api-Key': 'k-{{suffix}}',
      'X-Auth-Token': 'sk_live_1234 {{rest}}',
      Cookie: '{{a}}{{b}}',
      'Proxy-Authorization': 'Basic {{{creds}}}',
    };
    history.add(request(1, {
      id: 'a',
      written: { url: 'https://bob:{{password}}@api.example/?token={{t}}&key=raw{{t}}', headers, body: '0123456789ABC' },
    }));
    history.add(request(2, { id: 'b', written: { url: 'https://bob:hunter2@api.example/', headers: {} } }));
    // A placeholder left unresolved in what was sent holds no secret either.
    history.add(request(3, { id: 'c', headers: { Authorization: 'Bearer {{token}}' } }));
    await history.flush();
    const written = store.stored('a').written!;
    assert.equal(written.url, `https://bob:{{password}}@api.example/?token={{t}}&key=${REDACTED}`);
    assert.deepEqual(written.headers, {
      Authorization: 'Bearer {{token}}',
      'X-Api-Key': REDACTED,
      'X-Auth-Token': REDACTED,
      Cookie: '{{a}}{{b}}',
      'Proxy-Authorization': `Basic ${REDACTED}`,
    });
    assert.equal(written.body, '0123456789');
    assert.equal(store.stored('a').bodyTruncated, true);
    assert.equal(store.stored('b').written!.url, `https://bob:${REDACTED}@api.example/`);
    assert.equal(store.stored('c').headers.Authorization, 'Bearer {{token}}');
  });

  it('redacts a written header or query parameter whose name is a placeholder, unless its value is a reference', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const written = {
      url: '{{base_url}}/pets?{{param}}=sk_live_QUERY&{{other}}={{key}}&limit=5#{{frag}}=sk_live_FRAG',
      headers: { '{{hdr}}': 'Bearer sk_live_HEADER', '{{hdr2}}': 'Bearer {{token}}', 'X-{{kind}}': 'typed', Accept: 'text/plain' },
    };
    // What was sent keeps an unresolved name as is: there it is not a credential's name, only an undefined variable.
    history.add(request(1, { id: 'a', url: 'https://api.example/pets?{{x}}=1', headers: { '{{y}}': 'v' }, written }));
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(2, { id: 'b', written }));
    await history.flush();
    await keeping.flush();
    assert.equal(store.stored('a').written!.url, `{{base_url}}/pets?{{param}}=${REDACTED}&{{other}}={{key}}&limit=5#{{frag}}=${REDACTED}`);
    assert.deepEqual(store.stored('a').written!.headers, { '{{hdr}}': REDACTED, '{{hdr2}}': 'Bearer {{token}}', 'X-{{kind}}': REDACTED, Accept: 'text/plain' });
    assert.equal(store.stored('a').url, 'https://api.example/pets?{{x}}=1');
    assert.deepEqual(store.stored('a').headers, { '{{y}}': 'v' });
    assert.deepEqual(store.stored('b').written, written);
  });

  it('redacts credential parameters in a form body, sent and written, and stores other bodies as sent but for JSON', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const form = 'grant_type=password&username=alice&password=hunter2&client_id=docs&client_secret=cs_live_123';
    const formHeaders = { 'CONTENT-type': 'Application/X-WWW-Form-URLencoded; charset=UTF-8' };
    history.add(request(1, {
      id: 'form',
      method: 'POST',
      headers: formHeaders,
      body: form,
      written: { url: 'https://auth.example/token', headers: formHeaders, body: 'password={{pw}}&client_secret=typed{{x}}&{{k}}=v&scope=read' },
    }));
    history.add(request(2, { id: 'text', method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"password":"hunter2"}' }));
    history.add(request(3, { id: 'untyped', method: 'POST', headers: {}, body: form }));
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(4, { id: 'kept', method: 'POST', headers: formHeaders, body: form }));
    await history.flush();
    await keeping.flush();
    assert.equal(store.stored('form').body, `grant_type=password&username=alice&password=${REDACTED}&client_id=docs&client_secret=${REDACTED}`);
    assert.equal(store.stored('form').written!.body, `password={{pw}}&client_secret=${REDACTED}&{{k}}=${REDACTED}&scope=read`);
    assert.equal(history.get('form').body, form, 'memory keeps the real request');
    assert.equal(store.stored('text').body, '{"password":"hunter2"}');
    assert.equal(store.stored('untyped').body, form);
    assert.equal(store.stored('kept').body, form);
  });

  it('redacts the string values of credential-named members of a JSON body, sent and written, keeping the rest as written', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    const login = '{\n  "username": "alice",\n  "password" : "hunter2",\n  "clientSecret": "cs_1", "api_key":"k\\"1",\n  "nested": {"refresh_token": "rt", "tokens": 3, "author": "Jane"},\n  "note": "say \\"password\\": \\"x\\"", "empty_token": ""\n}';
    history.add(request(1, {
      id: 'json',
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json; charset=utf-8' },
      body: login,
      written: { url: 'https://auth.example/login', headers: {}, body: '{"password": "{{pw}}", "newPassword": "typed{{x}}"}' },
    }));
    history.add(request(2, { id: 'unlabelled', method: 'POST', headers: {}, body: '[{"accessToken": "at"}]' }));
    const keeping = new History({ enabled: true, keepCredentials: true }, { store });
    keeping.add(request(3, { id: 'kept', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: login }));
    await history.flush();
    await keeping.flush();
    const R = REDACTED;
    assert.equal(
      store.stored('json').body,
      `{\n  "username": "alice",\n  "password" : "${R}",\n  "clientSecret": "${R}", "api_key":"${R}",\n  "nested": {"refresh_token": "${R}", "tokens": 3, "author": "Jane"},\n  "note": "say \\"password\\": \\"x\\"", "empty_token": ""\n}`,
    );
    assert.equal(store.stored('json').written!.body, `{"password": "{{pw}}", "newPassword": "${R}"}`);
    assert.equal(store.stored('unlabelled').body, `[{"accessToken": "${R}"}]`);
    assert.equal(history.get('json').body, login, 'memory keeps the real request');
    assert.equal(store.stored('kept').body, login);
  });

  it('keeps JSON members named like data (an AWS tag\'s Key, pageToken, publicKey) and redacts those named in redactQueryParameters, and kebab-case credentials', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true, redactQueryParameters: ['otpCode'] }, { store });
    const data = '{"Tags":[{"Key":"Name","Value":"web-1"}],"pageToken":"p2","nextPageToken":"p3","publicKey":"pk","sortKey":"name","idempotencyKey":"i1","auth":"none"}';
    const secrets = '{"otpCode":"123456","sessionId":"s1","password_confirmation":"hunter2","passwordConfirm":"hunter2","accessToken":"at","x-api-key":"k1","client-secret":"cs"}';
    history.add(request(1, { id: 'data', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: data }));
    history.add(request(2, { id: 'secrets', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: secrets }));
    const form = 'user%5Bpassword%5D=hunter2&new_password=p2&password_confirmation=p2&passphrase=pp&page=2&user%5Bname%5D=alice';
    history.add(request(3, { id: 'form', method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form }));
    await history.flush();
    const R = REDACTED;
    assert.equal(store.stored('data').body, data);
    assert.equal(store.stored('secrets').body, `{"otpCode":"${R}","sessionId":"${R}","password_confirmation":"${R}","passwordConfirm":"${R}","accessToken":"${R}","x-api-key":"${R}","client-secret":"${R}"}`);
    assert.equal(store.stored('form').body, `user%5Bpassword%5D=${R}&new_password=${R}&password_confirmation=${R}&passphrase=${R}&page=2&user%5Bname%5D=alice`);
  });

  it('skips corrupted records', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    history.add(request(1, { id: 'good' }));
    await history.flush();
    store.records.set('a', null);
    store.records.set('b', 'garbage');
    store.records.set('c', { entry: { id: 'c' }, addedAt: 5 });
    store.records.set('d', { entry: { ...request(4) }, addedAt: 6 });
    store.records.set('e', { entry: { ...request(5), id: 'e', timestamp: new Date() }, addedAt: 'x' });
    const reloaded = new History({ enabled: true }, { store, onWarning: () => assert.fail('no warning expected') });
    await reloaded.ready();
    assert.deepEqual(reloaded.list().map((e) => e.id), ['good']);
  });

  it('falls back to memory with one warning when the store fails', async () => {
    const store = new MapStore();
    store.failWith = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const warnings: string[] = [];
    const history = new History({ enabled: true }, { store, onWarning: (message) => warnings.push(message) });
    await history.ready();
    history.add(request(1, { id: 'a' }));
    history.add(request(2, { id: 'b' }));
    await history.flush();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /QuotaExceededError.*kept for this page only/);
    assert.equal(history.warning, warnings[0]);
    assert.deepEqual(history.list().map((e) => e.id), ['b', 'a']);
  });

  it('after a failure, still deletes and clears what is stored and closes the store; only new entries stay off it', async () => {
    const store = new MapStore();
    const first = new History({ enabled: true }, { store });
    for (const id of ['a', 'b', 'c']) first.add(request(1, { id }));
    await first.flush();
    const warnings: string[] = [];
    const history = new History({ enabled: true }, { store, onWarning: (message) => warnings.push(message) });
    await history.ready();
    store.failWith = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    history.add(request(4, { id: 'failed' }));
    await history.flush();
    store.failWith = undefined;
    history.add(request(5, { id: 'memory-only' }));
    history.delete('a');
    await history.flush();
    assert.deepEqual([...store.records.keys()].sort(), ['b', 'c'], 'the delete reached the store, the new entry did not');
    history.clear();
    await history.flush();
    assert.equal(store.records.size, 0, 'cleared entries must not come back on the next page');
    history.close();
    await history.flush();
    assert.equal(store.closed, true);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /could not be saved \(QuotaExceededError/);
  });

  it('says the history could not be loaded, not saved, when loading fails', async () => {
    const store = new MapStore();
    store.failWith = new Error('unreadable');
    const history = new History({ enabled: true }, { store, onWarning: () => {} });
    await history.ready();
    assert.equal(history.warning, 'Request history could not be loaded (unreadable); it is kept for this page only.');
  });

  it('does not bring back what was cleared or deleted while loading', async () => {
    const store = new MapStore();
    const first = new History({ enabled: true }, { store });
    for (const id of ['a', 'b', 'c']) first.add(request(1, { id }));
    await first.flush();
    let open!: () => void;
    store.loadGate = new Promise((resolve) => (open = resolve));
    const cleared = new History({ enabled: true }, { store });
    const loading = cleared.ready();
    cleared.clear();
    open();
    await loading;
    assert.deepEqual(cleared.list(), []);

    for (const id of ['a', 'b', 'c']) first.add(request(1, { id }));
    await first.flush();
    store.loadGate = new Promise((resolve) => (open = resolve));
    const deleting = new History({ enabled: true }, { store });
    const loadingAgain = deleting.ready();
    deleting.delete('b');
    open();
    await loadingAgain;
    assert.deepEqual(deleting.list().map((e) => e.id), ['c', 'a']);
  });

  it('does not bring back what was cleared or deleted before ready() was even called', async () => {
    const store = new MapStore();
    const first = new History({ enabled: true }, { store });
    for (const id of ['a', 'b', 'c']) first.add(request(1, { id }));
    await first.flush();
    const cleared = new History({ enabled: true }, { store });
    cleared.clear();
    await cleared.ready();
    await cleared.flush();
    assert.deepEqual(cleared.list(), []);
    assert.equal(store.records.size, 0);

    for (const id of ['a', 'b', 'c']) first.add(request(1, { id }));
    await first.flush();
    const deleting = new History({ enabled: true }, { store });
    assert.equal(deleting.delete('b'), false, 'not known yet');
    await deleting.ready();
    await deleting.flush();
    assert.deepEqual(deleting.list().map((e) => e.id), ['c', 'a']);
    assert.deepEqual([...store.records.keys()].sort(), ['a', 'c']);
  });

  for (const [reading, Store] of STORES) {
    it(`checks a change in another tab against the store, and takes it as the truth (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      await history.ready();
      for (const id of ['mine', 'gone']) history.add(request(1, { id }));
      await history.flush();
      // Another tab's clear crossed this tab's put of "gone" (the disk lost it) and its message never came (that tab
      // closed first), then it added "theirs". Reading "theirs" alone, the count of records shows something was missed.
      store.records.delete('gone');
      const theirs = { entry: { ...history.get('mine'), id: 'theirs' }, addedAt: Date.now() + 1000 };
      store.records.set('theirs', theirs);
      store.announce({ type: 'put', record: theirs });
      await history.flush();
      assert.deepEqual(history.list().map((e) => e.id), ['theirs', 'mine']);

      // Changes made while it reads the store again are not undone by what it read.
      let open!: () => void;
      store.loadGate = new Promise((resolve) => (open = resolve));
      store.announce({ type: 'delete', id: 'unknown' });
      await new Promise((resolve) => setImmediate(resolve));
      history.add(request(2, { id: 'added-meanwhile' }));
      history.delete('theirs');
      open();
      await history.flush();
      assert.deepEqual(history.list().map((e) => e.id), ['added-meanwhile', 'mine']);
      assert.deepEqual([...store.records.keys()].sort(), ['added-meanwhile', 'mine']);
    });

    it(`keeps an entry added while a read of the store is queued, and trims another tab’s overflow from memory only (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      await history.ready();
      // The clear queues a read of the store; the add's put is queued after that read.
      history.clear();
      history.add(request(1, { id: 'new' }));
      await history.flush();
      assert.deepEqual(history.list().map((e) => e.id), ['new']);
      assert.deepEqual([...store.records.keys()], ['new']);

      // Another tab's entry, heard of while a read is queued but gone from the store by then: the store wins.
      history.clear();
      const theirs = { entry: { ...history.add(request(1, { id: 'gone' })), id: 'theirs' }, addedAt: Date.now() + 1000 };
      history.delete('gone');
      store.announce({ type: 'put', record: theirs });
      await history.flush();
      assert.deepEqual(history.list().map((e) => e.id), []);
      history.add(request(1, { id: 'new' }));
      await history.flush();

      // A tab keeping 2 entries hears of this one's third: it trims its own list, not the store this tab fills.
      const small = new History({ enabled: true, maxItems: 2 }, { store });
      await small.ready();
      for (const id of ['b', 'c']) history.add(request(1, { id }));
      await history.flush();
      for (const record of store.records.values()) store.announce({ type: 'put', record: record as StoredHistoryRecord });
      await small.flush();
      assert.equal(small.size, 2);
      assert.deepEqual([...store.records.keys()].sort(), ['b', 'c', 'new']);
    });

    it(`does not bring back what it deleted or cleared while a read of the store was queued (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      await history.ready();
      for (const id of ['a', 'b']) history.add(request(1, { id }));
      await history.flush();
      const theirs = (id: string, later: number): StoredHistoryRecord => ({ entry: { ...history.get('b'), id }, addedAt: Date.now() + later });
      // Each message queues a read; the delete and the clear that follow at once reach the store only after it.
      store.records.set('theirs', theirs('theirs', 1000));
      store.announce({ type: 'put', record: theirs('theirs', 1000) });
      history.delete('a');
      await history.flush();
      assert.deepEqual(ids(history), ['theirs', 'b']);
      assert.deepEqual([...store.records.keys()].sort(), ['b', 'theirs']);

      store.records.set('again', theirs('again', 2000));
      store.announce({ type: 'put', record: theirs('again', 2000) });
      history.clear();
      await history.flush();
      assert.deepEqual(ids(history), []);
      assert.equal(store.records.size, 0);
    });

    it(`takes the stored copy of an entry when another tab stored a different one under its id (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      await history.ready();
      const mine = history.add(request(1, { id: 'x', status: 200 }));
      await history.flush();
      // Two tabs added "x" again at once: the message heard last is not the copy the store kept.
      const now = Date.now();
      store.records.set('x', { entry: { ...mine, status: 201 }, addedAt: now + 1000 });
      store.announce({ type: 'put', record: { entry: { ...mine, status: 202 }, addedAt: now + 2000 } });
      await history.flush();
      assert.equal(history.get('x').status, 201);
    });

    it(`reads a record again after its own put, when another tab's message about it comes first (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      await history.ready();
      const other = (id: string, later: number, status = 200): StoredHistoryRecord => ({ entry: { ...request(1), id, status, timestamp: new Date(), headers: {}, body: '' }, addedAt: Date.now() + later, addedBy: 'another tab' });
      store.records.set('p', other('p', 1000));
      store.announce({ type: 'put', record: other('p', 1000) });
      // Queued after the read that message asked for.
      history.add(request(1, { id: 'k', status: 201 }));
      // Another tab's put of "k" reached the store first, and its message comes before this tab's put is done.
      store.records.set('k', other('k', 2000, 202));
      store.announce({ type: 'put', record: other('k', 2000, 202) });
      await history.flush();
      assert.equal(store.stored('k').status, 201, 'this tab wrote last');
      assert.equal(history.get('k').status, 201);
    });

    it(`does not bring back an entry it evicted while a read of the store was queued (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true, maxItems: 3 }, { store });
      await history.ready();
      history.add(request(1, { id: 'x' }));
      await history.flush();
      const other = (id: string, later: number): StoredHistoryRecord => ({ entry: { ...history.get('x'), id }, addedAt: Date.now() + later, addedBy: 'another tab' });
      // Another tab added "a", and "y", which it deleted again (that message is still on the way).
      store.records.set('a', other('a', 1000));
      store.announce({ type: 'put', record: other('a', 1000) });
      store.announce({ type: 'put', record: other('y', 1001) });
      // Two adds here evict "x" and then "a"; the store forgets them after the read those messages queued.
      history.add(request(2, { id: 'c' }));
      history.add(request(3, { id: 'd' }));
      await history.flush();
      assert.deepEqual(ids(history), ['d', 'c']);
      assert.deepEqual([...store.records.keys()].sort(), ['c', 'd']);
    });

    it(`orders entries two tabs added in the same millisecond alike in both, and so does a reload (${reading})`, async () => {
      const shared = new Map<string, unknown>();
      const [storeA, storeB] = [new Store(shared), new Store(shared)];
      const a = new History({ enabled: true }, { store: storeA });
      const b = new History({ enabled: true }, { store: storeB });
      await Promise.all([a.ready(), b.ready()]);
      const realNow = Date.now;
      const now = realNow() + 10_000;
      Date.now = () => now;
      try {
        a.add(request(1, { id: 'from-a' }));
        b.add(request(2, { id: 'from-b' }));
      } finally {
        Date.now = realNow;
      }
      await Promise.all([a.flush(), b.flush()]);
      storeA.announce({ type: 'put', record: shared.get('from-b') as StoredHistoryRecord });
      storeB.announce({ type: 'put', record: shared.get('from-a') as StoredHistoryRecord });
      await Promise.all([a.flush(), b.flush()]);
      const reloaded = new History({ enabled: true }, { store: new Store(shared) });
      await reloaded.ready();
      assert.deepEqual([ids(a), ids(b), ids(reloaded)], [['from-b', 'from-a'], ['from-b', 'from-a'], ['from-b', 'from-a']]);
      // Still one rule when a third tab's entry comes between them: added later, it is newer than both.
      a.add(request(3, { id: 'a-later' }));
      await a.flush();
      storeB.announce({ type: 'put', record: shared.get('a-later') as StoredHistoryRecord });
      await b.flush();
      assert.deepEqual(ids(b), ['a-later', 'from-b', 'from-a']);
    });
  }

  it('follows a put or delete in another tab by reading that record, not every record', async () => {
    const store = new PartialReadStore();
    const history = new History({ enabled: true, maxItems: 3 }, { store });
    for (const id of ['a', 'b', 'c']) history.add(request(1, { id }));
    await history.ready();
    await history.flush();
    const loads = store.loads;
    // Another tab added "d" (evicting "a") and deleted "b".
    const d: StoredHistoryRecord = { entry: { ...history.get('c'), id: 'd' }, addedAt: Date.now() + 1000 };
    store.records.set('d', d);
    store.records.delete('a');
    store.records.delete('b');
    store.announce({ type: 'put', record: d });
    store.announce({ type: 'delete', id: 'a' });
    store.announce({ type: 'delete', id: 'b' });
    await history.flush();
    assert.deepEqual(ids(history), ['d', 'c']);
    assert.equal(store.loads, loads, 'no record read but those named');
    assert.equal(store.partialReads, 1, 'the three named in one read');

    // A record that cannot be read, or a message that cannot: every record is read after all.
    store.failWith = new Error('unreadable');
    store.announce({ type: 'delete', id: 'c' });
    await history.flush();
    store.failWith = undefined;
    store.announce({ type: 'put', record: { entry: { id: 'broken' }, addedAt: 1 } as unknown as StoredHistoryRecord });
    await history.flush();
    assert.equal(store.loads, loads + 2);
    assert.deepEqual(ids(history), ['d', 'c']);
  });

  it('reads the store again after its own clear, once the clear has reached it', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    await history.ready();
    const entry = history.add(request(1, { id: 'a' }));
    history.clear();
    // Another tab stored an entry just after this clear reached the disk; its message is still on the way.
    const clearOnDisk = store.clear.bind(store);
    store.clear = async () => {
      await clearOnDisk();
      store.records.set('theirs', { entry: { ...entry, id: 'theirs' }, addedAt: Date.now() });
    };
    await history.flush();
    assert.deepEqual(history.list().map((e) => e.id), ['theirs']);
  });

  it('tells subscribers when it falls back to memory, so the warning shows', async () => {
    const store = new MapStore();
    store.failWith = new Error('blocked');
    const history = new History({ enabled: true }, { store, onWarning: () => {} });
    let notified = 0;
    history.subscribe(() => (notified += 1));
    await history.ready();
    assert.equal(notified, 1);
    assert.match(history.warning!, /blocked/);
  });

  it('releases its store and stops telling subscribers once closed', async () => {
    const store = new MapStore();
    const history = new History({ enabled: true }, { store });
    let notified = 0;
    history.subscribe(() => (notified += 1));
    history.add(request(1, { id: 'a' }));
    history.close();
    await history.flush();
    assert.equal(store.closed, true);
    assert.ok(store.records.has('a'), 'writes made before close still reach the store');
    history.add(request(2, { id: 'b' }));
    assert.equal(notified, 1);
  });

  it('tells subscribers about every change', async () => {
    const history = new History({ enabled: true });
    let calls = 0;
    history.subscribe(() => (calls += 1));
    history.add(request(1, { id: 'a' }));
    history.delete('a');
    history.clear();
    assert.equal(calls, 3);
  });
});
