import { HistoryEntryNotFoundError, InvalidArgumentError } from './errors.js';
import { CREDENTIAL_HEADERS, CREDENTIAL_QUERY_PARAMETERS, parseHistoryConfig, type HistoryConfig, type ResolvedHistoryConfig } from './history-config.js';
import { copyHistoryEntry, parseHistoryEntry, type HistoryEntry, type HistoryEntryInput } from './history-entry.js';
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from './history-store.js';

export interface HistoryOptions {
  /** Where entries persist. None: memory only. In browsers, `new IdbHistoryStore(config.storageKey)`. */
  store?: HistoryStore;
  /** Told once when persistence fails and history falls back to memory. @default console.warn */
  onWarning?: (message: string) => void;
}

/** Replaces credential header values in what is persisted. */
export const REDACTED = '[redacted]';

/**
 * Past requests, newest first, at most `maxItems` of them. `add`, `get`, `list` and `clear` work on
 * memory at once; persistence, when a store is given, follows in the background (`flush` waits for it),
 * and `ready` loads what earlier pages and other tabs stored.
 *
 * @example
 * const history = new History({ enabled: true, maxItems: 50 });
 * const entry = history.add({ method: 'GET', url: 'https://api.example/users', status: 200, duration: 42 });
 * history.get(entry.id);
 */
export class History {
  readonly config: Readonly<ResolvedHistoryConfig>;
  /** Oldest first: a Map keeps insertion order, so adding, evicting and finding are all O(1). */
  #records = new Map<string, StoredHistoryRecord>();
  #store: HistoryStore | undefined;
  #onWarning: (message: string) => void;
  #warning: string | undefined;
  #lastAddedAt = 0;
  #writes: Promise<void> = Promise.resolve();
  #loading: Promise<void> | undefined;
  #listeners = new Set<() => void>();
  /** Lowercase names of the headers and query parameters whose values are not persisted. */
  #redacted: { headers: Set<string>; queryParameters: Set<string> };
  /** What `clear` and `delete` did while the stored entries were loading: the load must not bring it back. */
  #removedWhileLoading: { cleared: boolean; ids: Set<string> } | undefined;
  #unwatch: (() => void) | undefined;

  constructor(config: HistoryConfig, options: HistoryOptions = {}) {
    this.config = parseHistoryConfig(config);
    this.#store = this.config.enabled ? options.store : undefined;
    this.#onWarning = options.onWarning ?? ((message) => console.warn(message));
    const { keepCredentials, redactHeaders, redactQueryParameters } = this.config;
    this.#redacted = {
      headers: new Set(keepCredentials ? [] : [...CREDENTIAL_HEADERS, ...redactHeaders]),
      queryParameters: new Set(keepCredentials ? [] : [...CREDENTIAL_QUERY_PARAMETERS, ...redactQueryParameters]),
    };
    this.#unwatch = this.#store?.watch?.((change) => this.#applyRemoteChange(change));
  }

  /** Why persistence stopped, once it has; history then lives in memory only. */
  get warning(): string | undefined {
    return this.#warning;
  }

  /**
   * Stores the entry as the newest. A missing `id` gets a random UUID, a missing `timestamp` now; an
   * existing `id` replaces that entry. At `maxItems`, the oldest is evicted. Disabled history keeps
   * nothing. Returns the entry as stored.
   */
  add(input: HistoryEntryInput): HistoryEntry {
    const entry = parseHistoryEntry(input);
    if (!this.config.enabled) return copyHistoryEntry(entry);
    this.#lastAddedAt = Math.max(Date.now(), this.#lastAddedAt + 1);
    const record: StoredHistoryRecord = { entry, addedAt: this.#lastAddedAt };
    this.#records.delete(entry.id);
    this.#records.set(entry.id, record);
    this.#persist((store) => store.put(this.#forStorage(record)));
    this.#evictOverflow();
    this.#notify();
    return copyHistoryEntry(entry);
  }

  /** Every entry, newest first, as copies. */
  list(): HistoryEntry[] {
    const entries: HistoryEntry[] = [];
    for (const { entry } of this.#records.values()) entries.push(copyHistoryEntry(entry));
    return entries.reverse();
  }

  /** @throws HistoryEntryNotFoundError when no entry has this id (never added, evicted or cleared). */
  get(id: string): HistoryEntry {
    if (typeof id !== 'string') throw new InvalidArgumentError('id', id, 'must be a string');
    const record = this.#records.get(id);
    if (!record) throw new HistoryEntryNotFoundError(id);
    return copyHistoryEntry(record.entry);
  }

  /** Removes one entry; false when there was none with this id. */
  delete(id: string): boolean {
    this.#removedWhileLoading?.ids.add(id);
    if (!this.#records.delete(id)) return false;
    this.#persist((store) => store.delete(id));
    this.#notify();
    return true;
  }

  /** Removes every entry, persisted ones included. */
  clear(): void {
    if (this.#removedWhileLoading) this.#removedWhileLoading.cleared = true;
    this.#records.clear();
    this.#persist((store) => store.clear());
    this.#notify();
  }

  get size(): number {
    return this.#records.size;
  }

  /** Loads the persisted entries (once) and merges them with those added since. */
  ready(): Promise<void> {
    this.#loading ??= this.#load();
    return this.#loading;
  }

  /** Resolves when everything added or removed so far has reached the store. */
  async flush(): Promise<void> {
    await this.#writes;
  }

  /** Stops listening to other tabs and releases the store (its database connection and channel). */
  close(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#listeners.clear();
    const store = this.#store;
    if (store?.close) void this.#writes.then(() => store.close!());
  }

  /** Calls `listener` after every change, including those from other tabs. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #load(): Promise<void> {
    const store = this.#store;
    if (!store) return;
    const removed = (this.#removedWhileLoading = { cleared: false, ids: new Set<string>() });
    let stored: unknown[];
    try {
      stored = await store.load();
    } catch (error) {
      this.#fallBackToMemory(error);
      return;
    } finally {
      this.#removedWhileLoading = undefined;
    }
    const merged: StoredHistoryRecord[] = [];
    for (const raw of removed.cleared ? [] : stored) {
      const record = readStoredRecord(raw);
      if (record && !this.#records.has(record.entry.id) && !removed.ids.has(record.entry.id)) merged.push(record);
    }
    // Stored first, so that on equal times (same millisecond) what this page added counts as newer.
    merged.push(...this.#records.values());
    merged.sort((a, b) => a.addedAt - b.addedAt);
    this.#records = new Map(merged.map((record) => [record.entry.id, record]));
    this.#lastAddedAt = Math.max(this.#lastAddedAt, merged.at(-1)?.addedAt ?? 0);
    this.#evictOverflow();
    this.#notify();
  }

  /** Drops the oldest entries past `maxItems`; `persist: false` for changes another tab already stored. */
  #evictOverflow({ persist = true } = {}): void {
    while (this.#records.size > this.config.maxItems) {
      const oldest: string = this.#records.keys().next().value!;
      this.#records.delete(oldest);
      if (persist) this.#persist((store) => store.delete(oldest));
    }
  }

  /** Queues a write so writes reach the store in the order they were made. */
  #persist(write: (store: HistoryStore) => Promise<void>): void {
    this.#writes = this.#writes.then(async () => {
      if (!this.#store) return;
      try {
        await write(this.#store);
      } catch (error) {
        this.#fallBackToMemory(error);
      }
    });
  }

  #fallBackToMemory(error: unknown): void {
    if (!this.#store) return;
    this.#store = undefined;
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.#warning = `Request history could not be saved (${reason}); it is kept for this page only.`;
    this.#onWarning(this.#warning);
    this.#notify();
  }

  /** What is persisted: credential values replaced, a long body cut. Memory keeps the real request. */
  #forStorage({ entry, addedAt }: StoredHistoryRecord): StoredHistoryRecord {
    const stored = copyHistoryEntry(entry);
    for (const name of Object.keys(stored.headers)) {
      if (this.#redacted.headers.has(name.toLowerCase())) stored.headers[name] = REDACTED;
    }
    stored.url = redactQuery(stored.url, this.#redacted.queryParameters);
    if (stored.body.length > this.config.maxStoredBodyLength) {
      let cut = this.config.maxStoredBodyLength;
      // Never keep half of a surrogate pair (an emoji cut in two).
      if (/[\uD800-\uDBFF]/.test(stored.body[cut - 1]!)) cut -= 1;
      stored.body = stored.body.slice(0, cut);
      stored.bodyTruncated = true;
    }
    return { entry: stored, addedAt };
  }

  #applyRemoteChange(change: HistoryStoreChange): void {
    if (change.type === 'clear') {
      this.#records.clear();
    } else if (change.type === 'delete') {
      this.#records.delete(change.id);
    } else {
      const record = readStoredRecord(change.record);
      if (!record) return;
      this.#records.delete(record.entry.id);
      const newest = [...this.#records.values()].at(-1);
      if (newest && newest.addedAt > record.addedAt) {
        const merged = [...this.#records.values(), record].sort((a, b) => a.addedAt - b.addedAt);
        this.#records = new Map(merged.map((r) => [r.entry.id, r]));
      } else {
        this.#records.set(record.entry.id, record);
      }
      this.#lastAddedAt = Math.max(this.#lastAddedAt, record.addedAt);
      // Not persisted: the other tab did. Overflow is trimmed from memory only, for the same reason.
      this.#evictOverflow({ persist: false });
    }
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** A stored record as read back, or `undefined` when it is corrupted (such records are skipped). */
function readStoredRecord(raw: unknown): StoredHistoryRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { entry, addedAt } = raw as Partial<StoredHistoryRecord>;
  if (typeof addedAt !== 'number' || !Number.isFinite(addedAt)) return undefined;
  // A stored entry always had its id and timestamp: without them it is damaged, not new.
  if (typeof entry?.id !== 'string' || entry.timestamp === undefined) return undefined;
  try {
    return { entry: parseHistoryEntry(entry), addedAt };
  } catch {
    return undefined;
  }
}

/**
 * `url` with the non-empty values of the named query parameters (compared decoded and ignoring case) replaced by
 * `REDACTED`; every other character stays as written.
 */
function redactQuery(url: string, names: ReadonlySet<string>): string {
  const queryStart = url.indexOf('?');
  const fragmentStart = url.indexOf('#');
  if (names.size === 0 || queryStart < 0 || (fragmentStart >= 0 && fragmentStart < queryStart)) return url;
  const queryEnd = fragmentStart < 0 ? url.length : fragmentStart;
  const pairs = url.slice(queryStart + 1, queryEnd).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals < 0 || equals === pair.length - 1 || !names.has(decodedName(pair.slice(0, equals)))) return pair;
    return `${pair.slice(0, equals + 1)}${REDACTED}`;
  });
  return `${url.slice(0, queryStart + 1)}${pairs.join('&')}${url.slice(queryEnd)}`;
}

/** A query parameter name as a server reads it: `+` is a space, escapes decoded, lowercased for comparison. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}
