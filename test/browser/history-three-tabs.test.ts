import { waitUntil } from '@open-wc/testing';
import { createStore, values } from 'idb-keyval';
import { History, IdbHistoryStore, type HistoryEntryInput, type StoredHistoryRecord } from '../../src/core/index.js';
import { deleteDatabase } from './support/delete-database.js';

let storageKey = '';
let databaseName = '';

const rawRecords = (): Promise<StoredHistoryRecord[]> => values(createStore(databaseName, 'history'));

const request = (n: number, extra: Partial<HistoryEntryInput> = {}): HistoryEntryInput => ({
  method: 'POST',
  url: `https://api.example/items/${n}`,
  status: 201,
  duration: n,
  ...extra,
});

describe('History in three tabs on one IndexedDB database', () => {
  let run = 0;
  beforeEach(async () => {
    run += 1;
    storageKey = `three-tabs-${Date.now()}-${run}`;
    databaseName = `try-it-console:${storageKey}`;
    await deleteDatabase(databaseName);
  });

  // Seeded, so a failure repeats. Each seed failed before: a tab showed an older entry in the room a deleted one left,
  // kept entries a clear made before ready() had removed, or stopped checking changes heard before ready(); or, rarely
  // (timing), lost its own entry trimmed from memory before its put landed, or kept one heard before ready() that its
  // own delete then removed from the store.
  for (const seed of [40, 45, 60, 68, 140, 175, 180, 264, 316, 356]) {
    it(`agrees with the store through crossing adds, deletes and clears, ready() late in some (seed ${seed})`, async () => {
      let state = seed;
      const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31), state / 2 ** 31);
      const maxItems = [2 + (seed % 5), 2 + (seed % 5) + (seed % 3), 2 + (seed % 5)];
      const warnings: string[] = [];
      const tabs = maxItems.map((max) => new History({ enabled: true, maxItems: max }, { store: new IdbHistoryStore(storageKey), onWarning: (m) => warnings.push(m) }));
      const lateReady = seed % 4 === 0;
      if (!lateReady) await Promise.all(tabs.map((tab) => tab.ready()));
      const shown = (history: History) => history.list().map((entry) => `${entry.id}:${entry.status}`);
      let seen = '';
      const inAgreement = async () => {
        await Promise.all(tabs.map((tab) => tab.flush()));
        const stored = (await rawRecords())
          .sort((a, b) => b.addedAt - a.addedAt || (a.entry.id < b.entry.id ? 1 : -1))
          .map((record) => `${record.entry.id}:${record.entry.status}`);
        seen = JSON.stringify({ stored, tabs: tabs.map(shown), warnings });
        return warnings.length === 0 && tabs.every((tab) => JSON.stringify(shown(tab)) === JSON.stringify(stored.slice(0, tab.config.maxItems)));
      };
      // Closed also after a failure: tabs left open would go on reading and writing under the next seeds.
      try {
        for (let round = 0; round < 25; round += 1) {
          const changes = 1 + Math.floor(random() * 10);
          for (let change = 0; change < changes; change += 1) {
            const tab = tabs[Math.floor(random() * tabs.length)]!;
            const kind = random();
            const id = `k${Math.floor(random() * 10)}`;
            if (kind < 0.55) tab.add(request(Math.floor(random() * 300), { id, status: 200 + Math.floor(random() * 300) }));
            else if (kind < 0.93) tab.delete(id);
            else tab.clear();
            if (random() < 0.3) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 5)));
          }
          if (lateReady && round === 0) await Promise.all(tabs.map((tab) => tab.ready()));
          await waitUntil(inAgreement, `every tab shows the newest stored entries after round ${round}`, { timeout: 5000 }).catch(() => {
            throw new Error(`round ${round}: ${seen}`);
          });
        }
      } finally {
        for (const tab of tabs) tab.close();
      }
    });
  }
});
