import { expect, waitUntil } from '@open-wc/testing';
import { createStore, set, values } from 'idb-keyval';
import { History, IdbHistoryStore, REDACTED, type HistoryEntryInput, type StoredHistoryRecord } from '../../src/core/index.js';
import { withoutIndexedDB } from './support/without-indexeddb.js';
import { loseRecordOnRead } from './support/lost-record.js';
import { deleteDatabase } from './support/delete-database.js';

let storageKey = '';
let databaseName = '';

/** Reads what is really in IndexedDB, around the code under test. */
function rawRecords(): Promise<StoredHistoryRecord[]> {
  return values(createStore(databaseName, 'history'));
}

const request = (n: number, extra: Partial<HistoryEntryInput> = {}): HistoryEntryInput => ({
  id: `e${n}`,
  method: 'POST',
  url: `https://api.example/items/${n}`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ n }),
  status: 201,
  duration: n,
  ...extra,
});

const newHistory = (config: Partial<ConstructorParameters<typeof History>[0]> = {}, warnings: string[] = []) =>
  new History({ enabled: true, ...config }, { store: new IdbHistoryStore(storageKey), onWarning: (m) => warnings.push(m) });

describe('History persisted in IndexedDB', () => {
  let run = 0;
  beforeEach(async () => {
    run += 1;
    storageKey = `test-${Date.now()}-${run}`;
    databaseName = `try-it-console:${storageKey}`;
    await deleteDatabase(databaseName);
  });

  it('opens nothing until first used', async () => {
    newHistory();
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).not.to.include(databaseName);
  });

  it('is seen again after a reload of the store', async () => {
    const first = newHistory();
    for (let n = 1; n <= 3; n += 1) first.add(request(n));
    await first.flush();
    const reloaded = newHistory();
    await reloaded.ready();
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e3', 'e2', 'e1']);
    const entry = reloaded.get('e2');
    expect(entry.body).to.equal('{"n":2}');
    expect(entry.timestamp).to.be.instanceOf(Date);
    expect(entry.timestamp.getTime()).to.equal(first.get('e2').timestamp.getTime());
  });

  it('keeps one record per entry', async () => {
    const history = newHistory();
    for (let n = 1; n <= 5; n += 1) history.add(request(n));
    history.add(request(3, { status: 500 }));
    await history.flush();
    const records = await rawRecords();
    expect(records.length).to.equal(5);
    expect(records.find((r) => r.entry.id === 'e3')!.entry.status).to.equal(500);
  });

  it('loses nothing when two stores on one database write at once, and each sees the other live', async () => {
    const a = newHistory({ maxItems: 500 });
    const b = newHistory({ maxItems: 500 });
    await Promise.all([a.ready(), b.ready()]);
    for (let n = 0; n < 100; n += 1) {
      a.add(request(n, { id: `a${n}` }));
      b.add(request(n, { id: `b${n}` }));
    }
    await Promise.all([a.flush(), b.flush()]);
    expect((await rawRecords()).length).to.equal(200);
    await waitUntil(() => a.size === 200 && b.size === 200, 'both tabs see all 200 entries', { timeout: 5000 });
    const reloaded = newHistory({ maxItems: 500 });
    await reloaded.ready();
    expect(reloaded.size).to.equal(200);
    b.clear();
    await b.flush();
    await waitUntil(() => a.size === 0, 'a clear in one tab reaches the other', { timeout: 5000 });
  });

  it('agrees with what is stored after a clear in one tab crosses an add in another, in either order', async () => {
    const a = newHistory();
    const b = newHistory();
    await Promise.all([a.ready(), b.ready()]);
    const ids = (history: History) => history.list().map((entry) => entry.id).sort();
    const inAgreement = async () => {
      await Promise.all([a.flush(), b.flush()]);
      const stored = (await rawRecords()).map((record) => record.entry.id).sort();
      return JSON.stringify(ids(a)) === JSON.stringify(stored) && JSON.stringify(ids(b)) === JSON.stringify(stored);
    };
    a.add(request(1, { id: 'a1' }));
    await waitUntil(() => b.size === 1, 'b hears of a1', { timeout: 5000 });

    // The clear reaches IndexedDB first and b's entry stays there, but b hears of the clear after its add.
    a.clear();
    b.add(request(2, { id: 'b2' }));
    await waitUntil(inAgreement, 'both tabs show what is stored after clear-then-add', { timeout: 5000 });

    // b's entry reaches IndexedDB first and the clear removes it, but a hears of the add after its clear.
    b.add(request(3, { id: 'b3' }));
    a.clear();
    await waitUntil(inAgreement, 'both tabs show what is stored after add-then-clear', { timeout: 5000 });
    a.close();
    b.close();
  });

  it('orders entries two tabs added in the same millisecond alike in both, and so does a reload', async () => {
    const a = newHistory();
    const b = newHistory();
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
    await waitUntil(() => a.size === 2 && b.size === 2, 'each tab hears of the other', { timeout: 5000 });
    await Promise.all([a.flush(), b.flush()]);
    const reloaded = newHistory();
    await reloaded.ready();
    const order = (history: History) => history.list().map((entry) => entry.id);
    expect([order(a), order(b), order(reloaded)]).to.deep.equal([['from-b', 'from-a'], ['from-b', 'from-a'], ['from-b', 'from-a']]);
    a.close();
    b.close();
    reloaded.close();
  });

  it('follows another tab’s add and delete by reading that record only, and still agrees when they cross', async () => {
    const storeB = new IdbHistoryStore(storageKey);
    let fullReads = 0;
    const load = storeB.load.bind(storeB);
    storeB.load = () => ((fullReads += 1), load());
    const a = newHistory();
    const b = new History({ enabled: true }, { store: storeB });
    await Promise.all([a.ready(), b.ready()]);
    const afterLoad = fullReads;
    a.add(request(1, { id: 'x' }));
    await waitUntil(() => b.size === 1, 'b hears of the add', { timeout: 5000 });
    await b.flush();
    a.delete('x');
    await waitUntil(() => b.size === 0, 'b hears of the delete', { timeout: 5000 });
    await b.flush();
    expect(fullReads, 'full reads in b').to.equal(afterLoad);

    // Both tabs hold the same entries; then each deletes some while the other adds them again (replacing them), at once.
    for (let n = 0; n < 10; n += 1) a.add(request(n, { id: `k${n}` }));
    await waitUntil(() => b.size === 10, 'b hears of all ten', { timeout: 5000 });
    const seen = (history: History) => history.list().map((entry) => `${entry.id}:${entry.status}`).sort();
    const inAgreement = async () => {
      await Promise.all([a.flush(), b.flush()]);
      const stored = (await rawRecords()).map((record) => `${record.entry.id}:${record.entry.status}`).sort();
      return JSON.stringify(seen(a)) === JSON.stringify(stored) && JSON.stringify(seen(b)) === JSON.stringify(stored);
    };
    for (let n = 0; n < 10; n += 1) {
      if (n % 2 === 0) {
        a.delete(`k${n}`);
        b.add(request(n, { id: `k${n}`, status: 500 + n }));
      } else {
        b.delete(`k${n}`);
        a.add(request(n, { id: `k${n}`, status: 400 + n }));
      }
    }
    await waitUntil(inAgreement, 'both tabs show what is stored', { timeout: 5000 });
    a.close();
    b.close();
  });

  // Seeded, so a failure repeats: two tabs add, add again, delete and clear at once, in bursts; after each burst both
  // show the newest stored entries, up to their own maxItems. Found a read folded in before this tab's own put, and an
  // eviction a queued read brought back.
  for (const [seed, maxItems, clears] of [[1, [5, 5], 0], [2, [8, 11], 0.05], [3, [3, 6], 0]] as const) {
    it(`keeps two tabs in agreement with the store through crossing changes (seed ${seed}, maxItems ${maxItems.join(' and ')})`, async () => {
      let state = seed;
      const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31), state / 2 ** 31);
      const tabs = maxItems.map((max) => newHistory({ maxItems: max }));
      await Promise.all(tabs.map((tab) => tab.ready()));
      const shown = (history: History) => history.list().map((entry) => `${entry.id}:${entry.status}`);
      const inAgreement = async () => {
        await Promise.all(tabs.map((tab) => tab.flush()));
        const stored = (await rawRecords())
          .sort((a, b) => b.addedAt - a.addedAt || (a.entry.id < b.entry.id ? 1 : -1))
          .map((record) => `${record.entry.id}:${record.entry.status}`);
        return tabs.every((tab) => JSON.stringify(shown(tab)) === JSON.stringify(stored.slice(0, tab.config.maxItems)));
      };
      for (let round = 0; round < 30; round += 1) {
        const changes = 1 + Math.floor(random() * 8);
        for (let change = 0; change < changes; change += 1) {
          const tab = tabs[Math.floor(random() * tabs.length)]!;
          const kind = random();
          const id = `k${Math.floor(random() * 12)}`;
          if (kind < 0.55) tab.add(request(Math.floor(random() * 300), { id, status: 200 + Math.floor(random() * 300) }));
          else if (kind < 1 - clears) tab.delete(id);
          else tab.clear();
          // Sometimes a pause, so that messages and writes interleave differently.
          if (random() < 0.3) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 5)));
        }
        await waitUntil(inAgreement, `both tabs show what is stored after round ${round}`, { timeout: 5000 });
      }
      for (const tab of tabs) tab.close();
    });
  }

  it('persists eviction', async () => {
    const history = newHistory({ maxItems: 3 });
    for (let n = 1; n <= 5; n += 1) history.add(request(n));
    await history.flush();
    expect((await rawRecords()).map((r) => r.entry.id).sort()).to.deep.equal(['e3', 'e4', 'e5']);
    const reloaded = newHistory({ maxItems: 3 });
    await reloaded.ready();
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e5', 'e4', 'e3']);
  });

  it('lets go of the database when closed, or when another tab needs it', async () => {
    const open = newHistory();
    open.add(request(1));
    await open.flush();
    await deleteDatabase(databaseName); // rejects on "blocked": an open connection must give way
    const closed = newHistory();
    closed.add(request(2));
    await closed.flush();
    closed.close();
    await closed.flush();
    await deleteDatabase(databaseName);
  });

  it('opens neither the database nor the channel again once closed: later writes stay in memory', async () => {
    let opens = 0;
    const counting = { open: (name: string, version?: number) => ((opens += 1), indexedDB.open(name, version)) } as unknown as IDBFactory;
    let channels = 0;
    const OriginalChannel = globalThis.BroadcastChannel;
    globalThis.BroadcastChannel = class extends OriginalChannel {
      constructor(name: string) {
        super(name);
        channels += 1;
      }
    };
    try {
      const store = new IdbHistoryStore(storageKey, { indexedDB: counting });
      const history = new History({ enabled: true }, { store });
      history.add(request(1));
      await history.flush();
      expect([opens, channels], 'opened once').to.deep.equal([1, 1]);
      history.close();
      await history.flush();
      // A send that outlived its console records its entry after the close.
      history.add(request(2));
      history.delete('e1');
      await history.flush();
      await store.put({ entry: history.get('e2'), addedAt: Date.now() });
      await store.clear();
      expect(await store.load()).to.deep.equal([]);
      expect([opens, channels], 'nothing opened again').to.deep.equal([1, 1]);
      expect(history.list().map((e) => e.id)).to.deep.equal(['e2']);
    } finally {
      globalThis.BroadcastChannel = OriginalChannel;
    }
    expect((await rawRecords()).map((r) => r.entry.id)).to.deep.equal(['e1']);
  });

  it('clears persisted entries', async () => {
    const history = newHistory();
    history.add(request(1));
    history.clear();
    await history.flush();
    expect(await rawRecords()).to.deep.equal([]);
  });

  it('stores credential headers and query parameters redacted, and long bodies truncated', async () => {
    const history = newHistory({ maxStoredBodyLength: 4 });
    history.add(request(1, { url: 'https://api.example.com/pets?api_key=s3cret&limit=5', headers: { Authorization: 'Bearer s3cret', 'X-API-Key': 'k', Cookie: 'a=b', Accept: '*/*' }, body: 'abcdefgh' }));
    await history.flush();
    const [record] = await rawRecords();
    expect(record!.entry.headers).to.deep.equal({ Authorization: `Bearer ${REDACTED}`, 'X-API-Key': REDACTED, Cookie: REDACTED, Accept: '*/*' });
    expect(record!.entry.url).to.equal(`https://api.example.com/pets?api_key=${REDACTED}&limit=5`);
    expect(record!.entry.body).to.equal('abcd');
    expect(record!.entry.bodyTruncated).to.equal(true);
    expect(JSON.stringify(record)).not.to.contain('s3cret');
  });

  it('skips corrupted records', async () => {
    const history = newHistory();
    history.add(request(1));
    await history.flush();
    const store = createStore(databaseName, 'history');
    await set('junk', { entry: { id: 'junk', method: 42 }, addedAt: 1 }, store);
    await set('text', 'not a record', store);
    const warnings: string[] = [];
    const reloaded = newHistory({}, warnings);
    await reloaded.ready();
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e1']);
    expect(warnings).to.deep.equal([]);
  });

  it('skips and deletes a record that cannot be read, and keeps persisting', async () => {
    const history = newHistory();
    for (let n = 1; n <= 3; n += 1) history.add(request(n));
    await history.flush();
    const restoreReads = loseRecordOnRead('e2');
    // Reading them all at once fails the same way, for all of them.
    const originalGetAll = IDBObjectStore.prototype.getAll;
    IDBObjectStore.prototype.getAll = function (this: IDBObjectStore) {
      const failed = { error: new DOMException('Data lost due to missing file', 'NotReadableError'), onsuccess: null, onerror: null as (() => void) | null };
      queueMicrotask(() => failed.onerror?.());
      return failed as unknown as IDBRequest<unknown[]>;
    };
    const warnings: string[] = [];
    const reloaded = newHistory({}, warnings);
    try {
      await reloaded.ready();
    } finally {
      restoreReads();
      IDBObjectStore.prototype.getAll = originalGetAll;
    }
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e3', 'e1']);
    expect(warnings).to.deep.equal([]);
    reloaded.add(request(4));
    await reloaded.flush();
    expect((await rawRecords()).map((r) => r.entry.id).sort()).to.deep.equal(['e1', 'e3', 'e4']);
  });

  it('keeps working in memory, with one warning, when IndexedDB is missing', async () => {
    await withoutIndexedDB(async () => {
      const warnings: string[] = [];
      const history = newHistory({}, warnings);
      await history.ready();
      history.add(request(1));
      history.add(request(2));
      await history.flush();
      expect(history.list().map((e) => e.id)).to.deep.equal(['e2', 'e1']);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.match(/IndexedDB is not available.*kept for this page only/);
    });
    expect(globalThis.indexedDB).to.be.instanceOf(IDBFactory);
  });

  it('keeps working in memory when the browser refuses to open IndexedDB', async () => {
    const refusing = { open: () => { throw new DOMException('Access to IndexedDB is denied', 'SecurityError'); } } as unknown as IDBFactory;
    const warnings: string[] = [];
    const history = new History({ enabled: true }, { store: new IdbHistoryStore(storageKey, { indexedDB: refusing }), onWarning: (m) => warnings.push(m) });
    history.add(request(1));
    await history.flush();
    expect(history.get('e1').id).to.equal('e1');
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('SecurityError');
  });

  it('gives up on a blocked database instead of hanging', async () => {
    // A connection that ignores versionchange, and an upgrade waiting on it: later opens queue behind.
    const holder = await new Promise<IDBDatabase>((resolve) => {
      const open = indexedDB.open(databaseName);
      open.onupgradeneeded = () => open.result.createObjectStore('history');
      open.onsuccess = () => resolve(open.result);
    });
    const upgrade = indexedDB.open(databaseName, 2);
    await new Promise((resolve) => (upgrade.onblocked = resolve));
    const warnings: string[] = [];
    const history = new History({ enabled: true }, { store: new IdbHistoryStore(storageKey, { openTimeout: 200 }), onWarning: (m) => warnings.push(m) });
    await history.ready();
    history.add(request(1));
    await history.flush();
    expect(history.size).to.equal(1);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/did not open within 200 ms/);
    holder.close();
    await new Promise((resolve) => (upgrade.onsuccess = () => (upgrade.result.close(), resolve(undefined))));
    // The open that timed out was still queued, and succeeds now: its connection must be closed, not left to block.
    await deleteDatabase(databaseName);
  });
});
