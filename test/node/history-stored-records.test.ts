import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History, type HistoryEntryInput, type StoredHistoryRecord } from '../../src/core/index.js';
import { MapStore } from './history-support/map-store.js';

const request = (id: string): HistoryEntryInput => ({ id, method: 'GET', url: `https://api.example/${id}`, status: 200, duration: 1 });
const ids = (history: History) => history.list().map((entry) => entry.id);

describe('History records read back', () => {
  it('skips a record added at a time no Date can hold, which would leave every later entry in id order', async () => {
    for (const addedAt of [Number.MAX_VALUE, 2 ** 53, -1]) {
      const store = new MapStore();
      store.records.set('bad', { entry: { ...request('bad'), timestamp: new Date(), headers: {}, body: '' }, addedAt });
      const history = new History({ enabled: true }, { store });
      await history.ready();
      for (const id of ['z1', 'a2', 'm3']) history.add(request(id));
      await history.flush();
      const reloaded = new History({ enabled: true }, { store });
      await reloaded.ready();
      assert.deepEqual([ids(history), ids(reloaded)], [['m3', 'a2', 'z1'], ['m3', 'a2', 'z1']], `addedAt ${addedAt}`);
    }
  });
});
