// Stores over a Map, standing in for IndexedDB (tested for real in Chromium) so History's own logic runs in Node.
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from '../../../src/core/index.js';

/** A store over a Map, which can fail, hold a load back, and play another tab's messages. */
export class MapStore implements HistoryStore {
  failWith: Error | undefined;
  /** When set, load() reads the records and then waits for it: changes made meanwhile race the load. */
  loadGate: Promise<void> | undefined;
  closed = false;
  /** How many times every record was read. */
  loads = 0;
  /** `records`: another tab's store on the same database shares them. */
  constructor(public records = new Map<string, unknown>()) {}
  async load() {
    this.loads += 1;
    if (this.failWith) throw this.failWith;
    if (this.loadGate) {
      const snapshot = [...this.records.values()];
      await this.loadGate;
      return snapshot;
    }
    return [...this.records.values()];
  }
  async put(record: StoredHistoryRecord) {
    if (this.failWith) throw this.failWith;
    this.records.set(record.entry.id, structuredClone(record));
  }
  async delete(id: string) {
    this.records.delete(id);
  }
  async clear() {
    this.records.clear();
  }
  close() {
    this.closed = true;
  }
  #watchers = new Set<(change: HistoryStoreChange) => void>();
  watch(listener: (change: HistoryStoreChange) => void) {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }
  /** What another tab's store would broadcast after its write. */
  announce(change: HistoryStoreChange) {
    for (const listener of this.#watchers) listener(change);
  }
  stored(id: string) {
    return (this.records.get(id) as StoredHistoryRecord).entry;
  }
}

/** A MapStore that can also read just the records a message names, as IdbHistoryStore can. */
export class PartialReadStore extends MapStore {
  partialReads = 0;
  async loadSome(ids: readonly string[]) {
    this.partialReads += 1;
    if (this.failWith) throw this.failWith;
    const found = { records: ids.map((id) => structuredClone(this.records.get(id))), count: this.records.size };
    if (this.loadGate) await this.loadGate;
    return found;
  }
}
