import { clear, del, delMany, promisifyRequest, set, type UseStore } from 'idb-keyval';
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from './history-store.js';
import { ConfigError } from './errors.js';
import { expectKnownFields, expectPlainObject, expectTimerMilliseconds } from './validation.js';

export interface IdbHistoryStoreOptions {
  /** The IndexedDB to use (an `IDBFactory`). @default globalThis.indexedDB */
  indexedDB?: IndexedDbFactory;
  /**
   * Milliseconds opening the database may take before history gives up on it (another tab may block it); at most
   * 2147483647 (about 24.8 days), the longest a timer can wait.
   * @default 5_000
   */
  openTimeout?: number;
}

/** The part of `IDBFactory` the store uses, so that the core's types need no DOM library (a Node project). */
export interface IndexedDbFactory {
  open(name: string): object;
}

const STORE_NAME = 'history';

/**
 * Persists history entries in IndexedDB through idb-keyval, one record per entry keyed by id, in a
 * database per `storageKey`. Nothing is opened until the first read or write. Other tabs on the same
 * database hear about each write over a BroadcastChannel, so their lists stay current. `close()` is final.
 */
export class IdbHistoryStore implements HistoryStore {
  readonly databaseName: string;
  readonly #database: LazyDatabase;
  #channel: BroadcastChannel | undefined;
  #closed = false;

  /**
   * @throws ConfigError for a `storageKey` that is not a non-empty string (`String()` of anything else would put every
   * console that passes one in the same database), an unknown option, or an `openTimeout` that is not a whole number
   * of milliseconds a timer can wait.
   */
  constructor(storageKey = 'default', options: IdbHistoryStoreOptions = {}) {
    if (typeof storageKey !== 'string' || storageKey === '') throw new ConfigError('storageKey', storageKey, 'must be a non-empty string, e.g. config.history.storageKey');
    this.databaseName = `try-it-console:${storageKey}`;
    const input = expectPlainObject(options, 'IdbHistoryStore options');
    expectKnownFields(input, ['indexedDB', 'openTimeout'], 'IdbHistoryStore options');
    const openTimeout = input.openTimeout === undefined ? 5_000 : expectTimerMilliseconds(input.openTimeout, 'openTimeout');
    this.#database = new LazyDatabase(this.databaseName, input.indexedDB as IDBFactory | undefined, openTimeout);
  }

  /**
   * Every stored record; none once closed. Read one by one, so that a record that cannot be read (Chrome keeps
   * large values in files of their own; a lost file is a NotReadableError) is left out and deleted instead of
   * failing the whole load. Only a database that cannot be opened or listed fails it.
   */
  async load(): Promise<unknown[]> {
    if (this.#closed) return [];
    const { records, unreadable } = await this.#database.use('readonly', readEachRecord);
    if (unreadable.length > 0) await delMany(unreadable, this.#database.use).catch(() => {});
    return records;
  }

  /** See `HistoryStore.loadSome`; one transaction. A record that cannot be read fails it (History then reads them all). */
  async loadSome(ids: readonly string[]): Promise<{ records: unknown[]; count: number }> {
    if (this.#closed) return { records: ids.map(() => undefined), count: 0 };
    return this.#database.use('readonly', (store) => readSome(store, ids));
  }

  /** Stores the record, unless the store is closed: a late write (a send that outlived its console) is dropped. */
  async put(record: StoredHistoryRecord): Promise<void> {
    if (this.#closed) return;
    await set(record.entry.id, record, this.#database.use);
    this.#announce({ type: 'put', record });
  }

  async delete(id: string): Promise<void> {
    if (this.#closed) return;
    await del(id, this.#database.use);
    this.#announce({ type: 'delete', id });
  }

  async clear(): Promise<void> {
    if (this.#closed) return;
    await clear(this.#database.use);
    this.#announce({ type: 'clear' });
  }

  watch(listener: (change: HistoryStoreChange) => void): () => void {
    const channel = this.#openChannel();
    if (!channel) return () => {};
    const onMessage = (event: MessageEvent<HistoryStoreChange>) => listener(event.data);
    channel.addEventListener('message', onMessage);
    return () => channel.removeEventListener('message', onMessage);
  }

  /**
   * Closes the database connection and the channel for good: reads and writes after it do nothing, so nothing
   * opens them again and leaves them open.
   */
  close(): void {
    this.#closed = true;
    this.#channel?.close();
    this.#channel = undefined;
    this.#database.close();
  }

  #announce(change: HistoryStoreChange): void {
    this.#openChannel()?.postMessage(change);
  }

  #openChannel(): BroadcastChannel | undefined {
    // Closed: a write that was under way when close() came must not open a channel nobody closes.
    if (this.#closed || typeof BroadcastChannel === 'undefined') return undefined;
    if (!this.#channel) {
      this.#channel = new BroadcastChannel(this.databaseName);
      // Node's channel holds the process open (jsdom or happy-dom tests, server rendering), and it only ever listens.
      (this.#channel as { unref?: () => void }).unref?.();
    }
    return this.#channel;
  }
}

/**
 * Reads every record in one transaction, noting those whose read fails. Chromium still aborts the transaction at the
 * end (UnknownError) after such a failure, so an abort that came after every read settled keeps what was read.
 */
function readEachRecord(store: IDBObjectStore): Promise<{ records: unknown[]; unreadable: IDBValidKey[] }> {
  return new Promise((resolve, reject) => {
    const records: unknown[] = [];
    const unreadable: IDBValidKey[] = [];
    let total = -1;
    const keys = store.getAllKeys();
    keys.onsuccess = () => {
      total = keys.result.length;
      for (const key of keys.result) {
        const read = store.get(key);
        read.onsuccess = () => records.push(read.result);
        read.onerror = (event) => {
          event.preventDefault();
          // Aborted for another reason: the record was not read, but it is not broken either.
          if (read.error?.name !== 'AbortError') unreadable.push(key);
        };
      }
    };
    const { transaction } = store;
    transaction.oncomplete = () => resolve({ records, unreadable });
    transaction.onabort = () => {
      if (unreadable.length > 0 && records.length + unreadable.length === total) resolve({ records, unreadable });
      else reject(transaction.error ?? keys.error ?? new Error('IndexedDB aborted reading the history'));
    };
  });
}

function readSome(store: IDBObjectStore, ids: readonly string[]): Promise<{ records: unknown[]; count: number }> {
  return new Promise((resolve, reject) => {
    const reads = ids.map((id) => store.get(id));
    const count = store.count();
    const { transaction } = store;
    transaction.oncomplete = () => resolve({ records: reads.map((read) => read.result), count: count.result });
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted reading the history'));
  });
}

/**
 * idb-keyval's `createStore`, with what history needs on top: the factory can be given, a missing
 * IndexedDB is a rejected promise rather than a ReferenceError, an open that hangs (blocked by another
 * tab) times out instead of stalling history forever, and the connection can be closed for good.
 */
class LazyDatabase {
  readonly #name: string;
  readonly #factory: IDBFactory | undefined;
  readonly #openTimeout: number;
  #opening: Promise<IDBDatabase> | undefined;
  #closed = false;

  constructor(name: string, factory: IDBFactory | undefined, openTimeout: number) {
    this.#name = name;
    this.#factory = factory;
    this.#openTimeout = openTimeout;
  }

  /** idb-keyval's `UseStore`: runs `callback` on the history object store in a new transaction. */
  readonly use: UseStore = async (mode, callback) => {
    // Closed for good: work that was under way when close() came (a load deleting an unreadable record) must not
    // open a connection that nothing closes.
    if (this.#closed) throw new Error('The history database was closed');
    this.#opening ??= this.#open();
    const db = await this.#opening;
    return callback(db.transaction(STORE_NAME, mode).objectStore(STORE_NAME));
  };

  close(): void {
    this.#closed = true;
    const opening = this.#opening;
    this.#opening = undefined;
    opening?.then((db) => db.close(), () => {});
  }

  #open(): Promise<IDBDatabase> {
    const indexedDB = this.#factory ?? globalThis.indexedDB;
    if (!indexedDB) return Promise.reject(new Error('IndexedDB is not available in this browser'));
    const request = indexedDB.open(this.#name);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE_NAME);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // The open is still queued: a connection it gives later has no owner, and would block upgrades and deletes.
        request.addEventListener('success', () => request.result.close());
        reject(new Error(`IndexedDB did not open within ${this.#openTimeout} ms (another tab may be blocking it)`));
      }, this.#openTimeout);
    });
    const opened = Promise.race([promisifyRequest(request), timeout]).finally(() => clearTimeout(timer));
    opened.then(
      (db) => {
        db.onclose = () => (this.#opening = undefined);
        // Another tab wants a newer version: let it, and reopen on next use.
        db.onversionchange = () => {
          db.close();
          this.#opening = undefined;
        };
      },
      () => (this.#opening = undefined),
    );
    return opened;
  }
}
