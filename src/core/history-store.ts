import { ConfigError } from './errors.js';
import type { HistoryEntry } from './history-entry.js';

/**
 * One persisted entry. `addedAt` orders entries across page loads and tabs (newest is largest); two tabs can add in
 * the same millisecond, so equal times are ordered by `entry.id`.
 */
export interface StoredHistoryRecord {
  entry: HistoryEntry;
  addedAt: number;
  /**
   * A random id of the `History` that added it. Two tabs can add one id in the same millisecond; with `addedAt`, this
   * tells their two versions apart. Absent in records stored before it existed.
   */
  addedBy?: string;
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
  /**
   * What is stored under each of `ids` (`undefined` where nothing is), and how many records are stored, read at one
   * moment. Optional: with it, a change heard from another tab costs a read of that record; without it, of them all.
   */
  loadSome?(ids: readonly string[]): Promise<{ records: unknown[]; count: number }>;
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

const STORE_METHODS = ['load', 'put', 'delete', 'clear'] as const;
const OPTIONAL_STORE_METHODS = ['loadSome', 'watch', 'close'] as const;

/**
 * `value` as a `HistoryStore`, checked method by method: a wrong object is refused where it is given, not reported as
 * a warning at the first write (when history has quietly gone memory-only).
 * @throws ConfigError naming the missing method.
 */
export function expectHistoryStore(value: unknown, field: string): HistoryStore {
  if (typeof value !== 'object' || value === null) throw new ConfigError(field, value, 'must be a HistoryStore, e.g. new IdbHistoryStore(config.storageKey)');
  for (const method of [...STORE_METHODS, ...OPTIONAL_STORE_METHODS]) {
    const member = (value as Record<string, unknown>)[method];
    if (typeof member === 'function' || (member === undefined && !(STORE_METHODS as readonly string[]).includes(method))) continue;
    throw new ConfigError(`${field}.${method}`, member, `must be a function: a HistoryStore has ${STORE_METHODS.join(', ')}, and may have ${OPTIONAL_STORE_METHODS.join(', ')}`);
  }
  return value as HistoryStore;
}
