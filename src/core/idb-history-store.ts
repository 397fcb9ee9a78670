import { clear, del, promisifyRequest, set, values, type UseStore } from 'idb-keyval';
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from './history-store.js';

export interface IdbHistoryStoreOptions {
  /** The IndexedDB to use. @default globalThis.indexedDB */
  indexedDB?: IDBFactory;
  /**
   * How long opening the database may take before history gives up on it (another tab may block it).
   * @default 5_000
   */
  openTimeout?: number;
}

const STORE_NAME = 'history';

/**
 * Persists history entries in IndexedDB through idb-keyval, one record per entry keyed by id, in a
 * database per `storageKey`. Nothing is opened until the first read or write. Other tabs on the same
 * database hear about each write over a BroadcastChannel, so their lists stay current.
 */
export class IdbHistoryStore implements HistoryStore {
  readonly databaseName: string;
  readonly #useStore: UseStore;
  #channel: BroadcastChannel | undefined;

  constructor(storageKey = 'default', options: IdbHistoryStoreOptions = {}) {
    this.databaseName = `try-it-console:${storageKey}`;
    this.#useStore = lazyStore(this.databaseName, options.indexedDB, options.openTimeout ?? 5_000);
  }

  async load(): Promise<unknown[]> {
    return values(this.#useStore);
  }

  async put(record: StoredHistoryRecord): Promise<void> {
    await set(record.entry.id, record, this.#useStore);
    this.#announce({ type: 'put', record });
  }

  async delete(id: string): Promise<void> {
    await del(id, this.#useStore);
    this.#announce({ type: 'delete', id });
  }

  async clear(): Promise<void> {
    await clear(this.#useStore);
    this.#announce({ type: 'clear' });
  }

  watch(listener: (change: HistoryStoreChange) => void): () => void {
    const channel = this.#openChannel();
    if (!channel) return () => {};
    const onMessage = (event: MessageEvent<HistoryStoreChange>) => listener(event.data);
    channel.addEventListener('message', onMessage);
    return () => channel.removeEventListener('message', onMessage);
  }

  #announce(change: HistoryStoreChange): void {
    this.#openChannel()?.postMessage(change);
  }

  #openChannel(): BroadcastChannel | undefined {
    if (typeof BroadcastChannel === 'undefined') return undefined;
    this.#channel ??= new BroadcastChannel(this.databaseName);
    return this.#channel;
  }
}

/**
 * idb-keyval's `createStore`, with what history needs on top: the factory can be given, a missing
 * IndexedDB is a rejected promise rather than a ReferenceError, and an open that hangs (blocked by
 * another tab) times out instead of stalling history forever.
 */
function lazyStore(databaseName: string, factory: IDBFactory | undefined, openTimeout: number): UseStore {
  let database: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> => {
    const indexedDB = factory ?? globalThis.indexedDB;
    if (!indexedDB) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    const request = indexedDB.open(databaseName);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE_NAME);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`IndexedDB did not open within ${openTimeout} ms (another tab may be blocking it)`)), openTimeout);
    });
    const opened = Promise.race([promisifyRequest(request), timeout]).finally(() => clearTimeout(timer));
    opened.then(
      (db) => {
        db.onclose = () => (database = undefined);
      },
      () => (database = undefined),
    );
    return opened;
  };
  return async (mode, callback) => {
    database ??= open();
    const db = await database;
    return callback(db.transaction(STORE_NAME, mode).objectStore(STORE_NAME));
  };
}
