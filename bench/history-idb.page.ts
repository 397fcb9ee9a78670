// Runs in Chromium (see history-idb.bench.ts): the cost of one persisted add with 50 and with 10,000
// entries already stored.
import { createStore, setMany } from 'idb-keyval';
import { History, IdbHistoryStore } from '../src/core/index.js';

const ADDS = 300;

async function meanAddMilliseconds(stored: number): Promise<number> {
  const storageKey = `bench-${stored}-${Date.now()}`;
  const records: [string, unknown][] = Array.from({ length: stored }, (_, i) => [
    `old-${i}`,
    { entry: { id: `old-${i}`, timestamp: new Date(), method: 'GET', url: `https://api.example/items/${i}`, headers: { accept: '*/*' }, body: '', status: 200, duration: 12 }, addedAt: i + 1 },
  ]);
  await setMany(records, createStore(`try-it-console:${storageKey}`, 'history'));
  const history = new History({ enabled: true, maxItems: stored + ADDS + 1 }, { store: new IdbHistoryStore(storageKey) });
  await history.ready();
  if (history.size !== stored) throw new Error(`expected ${stored} stored entries, loaded ${history.size}`);
  // One add at a time, each waited for: the clock is too coarse in a page to time a single one.
  const start = performance.now();
  for (let i = 0; i < ADDS; i += 1) {
    history.add({ method: 'POST', url: 'https://api.example/items', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}', status: 201, duration: 30 });
    await history.flush();
  }
  return (performance.now() - start) / ADDS;
}

export async function run() {
  await meanAddMilliseconds(50); // warm-up: the first database a page opens pays for starting IndexedDB
  const at50 = await meanAddMilliseconds(50);
  const at10000 = await meanAddMilliseconds(10_000);
  return { at50, at10000 };
}
