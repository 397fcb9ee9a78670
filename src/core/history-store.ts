import type { HistoryEntry } from './history-entry.js';

/** One persisted entry. `addedAt` orders entries across page loads and tabs (newest is largest). */
export interface StoredHistoryRecord {
  entry: HistoryEntry;
  addedAt: number;
}

/** A change made by another `History` on the same store, e.g. in another tab. */
export type HistoryStoreChange =
  | { type: 'put'; record: StoredHistoryRecord }
  | { type: 'delete'; id: string }
  | { type: 'clear' };

/**
 * Where `History` persists its entries: one record per entry, so that adding one costs the same however
 * many are stored. Implementations: `IdbHistoryStore` (IndexedDB, browsers); none means memory only.
 */
export interface HistoryStore {
  /** Every record that is stored, in any order. Records that cannot be read are left out. */
  load(): Promise<unknown[]>;
  put(record: StoredHistoryRecord): Promise<void>;
  delete(id: string): Promise<void>;
  clear(): Promise<void>;
  /** Tells about changes made through other instances on the same storage. Returns the unsubscribe. */
  watch?(listener: (change: HistoryStoreChange) => void): () => void;
  /**
   * Releases what the store holds open (a database connection, a channel), for good: `History` calls it last, and a
   * write that still comes (a send that outlived its console) should be dropped rather than open them again.
   */
  close?(): void;
}
