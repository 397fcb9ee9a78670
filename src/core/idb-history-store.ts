import { clear, delMany, promisifyRequest, set, type UseStore } from 'idb-keyval';
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from './history-store.js';
import { ConfigError } from './errors.js';
import { notifyAll } from './listeners.js';
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
  open(name: string, version?: number): object;
}

const STORE_NAME = 'history';

/**
 * Persists history entries in IndexedDB through idb-keyval, one record per entry keyed by id, in a
 * database per `storageKey`. Nothing is opened until the first read or write. Other tabs on the same
 * database hear about each write over a BroadcastChannel, so their lists stay current; the stores of one page share
 * its connection and channel (a docs page has a console per operation). `close()` is final.
 */
export class IdbHistoryStore implements HistoryStore {
  readonly databaseName: string;
  readonly #shared: PageDatabase;
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
    this.#shared = PageDatabase.for(this.databaseName, input.indexedDB as IDBFactory | undefined, openTimeout);
  }

  /**
   * Every stored record; none once closed. Read one by one, so that a record that cannot be read (Chrome keeps
   * large values in files of their own; a lost file is a NotReadableError) is left out and deleted instead of
   * failing the whole load. Only a database that cannot be opened or listed fails it.
   */
  async load(): Promise<unknown[]> {
    if (this.#closed) return [];
    const { records, unreadable } = await this.#shared.database.use('readonly', readEachRecord);
    if (unreadable.length > 0) await delMany(unreadable, this.#shared.database.use).catch(() => {});
    return records;
  }

  /** See `HistoryStore.loadSome`; one transaction. A record that cannot be read fails it (History then reads them all). */
  async loadSome(ids: readonly string[]): Promise<{ records: unknown[]; count: number }> {
    if (this.#closed) return { records: ids.map(() => undefined), count: 0 };
    return this.#shared.database.use('readonly', (store) => readSome(store, ids));
  }

  /** Stores the record, unless the store is closed: a late write (a send that outlived its console) is dropped. */
  async put(record: StoredHistoryRecord): Promise<void> {
    if (this.#closed) return;
    await set(record.entry.id, record, this.#shared.database.use);
    this.#announce({ type: 'put', record });
  }

  /**
   * Announced only when the record was there: the consoles of a page that load a store fuller than their `maxItems`
   * each delete the same overflow, and every announcement sends every other console to read the store.
   */
  async delete(id: string): Promise<void> {
    if (this.#closed) return;
    const found = await this.#shared.database.use('readwrite', (store) => {
      const count = store.count(id);
      store.delete(id);
      return promisifyRequest(store.transaction).then(() => count.result > 0);
    });
    if (found) this.#announce({ type: 'delete', id });
  }

  async clear(): Promise<void> {
    if (this.#closed) return;
    await clear(this.#shared.database.use);
    this.#announce({ type: 'clear' });
  }

  watch(listener: (change: HistoryStoreChange) => void): () => void {
    return this.#closed ? () => {} : this.#shared.watch(this, listener);
  }

  /**
   * Closes the database connection and the channel for good (once the page's other stores of this database are
   * closed too): reads and writes after it do nothing, so nothing opens them again and leaves them open.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#shared.release(this);
  }

  #announce(change: HistoryStoreChange): void {
    // Closed: a write that was under way when close() came must not open a channel nobody closes.
    if (!this.#closed) this.#shared.announce(this, change);
  }
}

/** The page's shared databases, by open timeout and name. */
const pageDatabases = new Map<string, PageDatabase>();

interface Watcher {
  store: IdbHistoryStore;
  listener: (change: HistoryStoreChange) => void;
}

/**
 * One connection and one channel for the stores of a database on this page, open while one of them is. A channel
 * does not hear its own messages, so a store's change is handed to the page's other stores here.
 */
class PageDatabase {
  readonly database: LazyDatabase;
  readonly #name: string;
  /** The key in `pageDatabases`; none for a store given its own IndexedDB, which shares nothing. */
  readonly #key: string | undefined;
  readonly #watchers = new Set<Watcher>();
  #channel: BroadcastChannel | undefined;
  #stores = 0;

  static for(name: string, factory: IDBFactory | undefined, openTimeout: number): PageDatabase {
    const key = factory ? undefined : `${openTimeout} ${name}`;
    const shared = (key && pageDatabases.get(key)) || new PageDatabase(name, factory, openTimeout, key);
    shared.#stores += 1;
    return shared;
  }

  private constructor(name: string, factory: IDBFactory | undefined, openTimeout: number, key: string | undefined) {
    this.#name = name;
    this.#key = key;
    this.database = new LazyDatabase(name, factory, openTimeout);
    if (key) pageDatabases.set(key, this);
  }

  watch(store: IdbHistoryStore, listener: Watcher['listener']): () => void {
    this.#openChannel();
    const watcher = { store, listener };
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  announce(from: IdbHistoryStore, change: HistoryStoreChange): void {
    this.#openChannel()?.postMessage(change);
    this.#tell(change, from);
  }

  /** `store` is closed: it hears nothing more, and the last one closes the connection and the channel. */
  release(store: IdbHistoryStore): void {
    for (const watcher of this.#watchers) if (watcher.store === store) this.#watchers.delete(watcher);
    this.#stores -= 1;
    if (this.#stores > 0) return;
    if (this.#key) pageDatabases.delete(this.#key);
    this.#channel?.close();
    this.#channel = undefined;
    this.database.close();
  }

  /** Tells every store but `from`; one whose listener throws does not fail the write it is told about. */
  #tell(change: HistoryStoreChange, from?: IdbHistoryStore): void {
    notifyAll([...this.#watchers].filter(({ store }) => store !== from).map(({ listener }) => () => listener(change)));
  }

  #openChannel(): BroadcastChannel | undefined {
    if (typeof BroadcastChannel === 'undefined') return undefined;
    if (!this.#channel) {
      this.#channel = new BroadcastChannel(this.#name);
      // Node's channel holds the process open (jsdom or happy-dom tests, server rendering), and it only ever listens.
      (this.#channel as { unref?: () => void }).unref?.();
      this.#channel.addEventListener('message', (event: MessageEvent<HistoryStoreChange>) => this.#tell(event.data));
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
    let timedOut = false;
    const connect = (version?: number): Promise<IDBDatabase> => {
      const request = indexedDB.open(this.#name, version);
      // New, or asked for at a newer version because other code made the database without this store: the rest is kept.
      request.onupgradeneeded = () => request.result.objectStoreNames.contains(STORE_NAME) || request.result.createObjectStore(STORE_NAME);
      // Timed out while still queued: a connection it gives later has no owner, and would block upgrades and deletes.
      request.addEventListener('success', () => timedOut && request.result.close());
      return promisifyRequest(request).then((db) => {
        if (timedOut || db.objectStoreNames.contains(STORE_NAME)) return db;
        db.close();
        return connect(db.version + 1);
      });
    };
    // First: a browser that refuses IndexedDB throws here (SecurityError), and must leave no timer behind.
    const connecting = connect();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`IndexedDB did not open within ${this.#openTimeout} ms (another tab may be blocking it)`));
      }, this.#openTimeout);
    });
    const opened = Promise.race([connecting, timeout]).finally(() => clearTimeout(timer));
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
