import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, type HistoryEntryInput, type StoredHistoryRecord } from '../../src/core/index.js';
import { MapStore, PartialReadStore } from './history-support/map-store.js';

const STORES = [
  ['reading every record', MapStore],
  ['reading the record named', PartialReadStore],
] as const;

const request = (id: string): HistoryEntryInput => ({ id, method: 'GET', url: `https://api.example/${id}`, status: 200, duration: 1 });
const ids = (history: History) => history.list().map((entry) => entry.id);
const addedAt = (store: MapStore, id: string) => (store.records.get(id) as StoredHistoryRecord).addedAt;

/** A record another tab stored, `addedAt` as given. */
function theirs(id: string, at: number): StoredHistoryRecord {
  return { entry: { ...request(id), timestamp: new Date(), headers: {}, body: '' } as StoredHistoryRecord['entry'], addedAt: at, addedBy: 'another tab' };
}

describe('History kept in line with other tabs', () => {
  for (const [reading, Store] of STORES) {
    it(`still checks other tabs' changes against the store after one was heard before ready() (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      // Heard before the first load: nothing to check yet, so that check is skipped. It used to stay queued, unread,
      // and every later message was folded into it: none was ever checked again.
      store.announce({ type: 'delete', id: 'before-ready' });
      await history.flush();
      await history.ready();
      // A put whose record another tab deleted at once; that delete's message never came (the tab closed).
      store.announce({ type: 'put', record: theirs('gone', Date.now() + 1000) });
      await history.flush();
      assert.deepEqual(ids(history), []);
    });

    it(`shows what the store holds after a clear made before ready() crossed another tab's put (${reading})`, async () => {
      const store = new Store();
      const history = new History({ enabled: true }, { store });
      history.clear();
      // Another tab's put reached the store before this clear did, which removed it; its message comes after.
      store.records.set('cleared', theirs('cleared', Date.now()));
      await history.flush();
      store.announce({ type: 'put', record: theirs('cleared', Date.now()) });
      await history.flush();
      await history.ready();
      await history.flush();
      assert.equal(store.records.size, 0);
      assert.deepEqual(ids(history), []);
    });
  }

  it('shows the newest stored entries when a removal and an older entry reach a full list in one check', async () => {
    const store = new PartialReadStore();
    const history = new History({ enabled: true, maxItems: 2 }, { store });
    await history.ready();
    history.add(request('a'));
    history.add(request('b'));
    await history.flush();
    const [a, b] = [addedAt(store, 'a'), addedAt(store, 'b')];
    // Another tab adds "c": the list, full, trims "a" from memory only.
    store.records.set('c', theirs('c', b + 1));
    store.announce({ type: 'put', record: theirs('c', b + 1) });
    // A third adds "old", older than "a", and deletes "c": the room "c" leaves is "a"'s, not "old"'s.
    store.records.set('old', theirs('old', a - 1));
    store.announce({ type: 'put', record: theirs('old', a - 1) });
    store.records.delete('c');
    store.announce({ type: 'delete', id: 'c' });
    await history.flush();
    assert.deepEqual(ids(history), ['b', 'a']);
  });
});
