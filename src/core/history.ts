import { HistoryEntryNotFoundError, InvalidArgumentError } from './errors.js';
import { CREDENTIAL_HEADER_NAME, isCredentialQueryParameter, parseHistoryConfig, queryParameterName, type HistoryConfig, type ResolvedHistoryConfig } from './history-config.js';
import { copyHistoryEntry, parseHistoryEntry, type HistoryEntry, type HistoryEntryInput } from './history-entry.js';
import type { HistoryStore, HistoryStoreChange, StoredHistoryRecord } from './history-store.js';
import { expectListener, notifyAll } from './listeners.js';

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
  /**
   * Set once the store has failed: new entries stop going to it, but deletes and clears still do (they free quota,
   * and a cleared secret must not come back on the next page), and `close` still releases it.
   */
  #storeFailed = false;
  #onWarning: (message: string) => void;
  #warning: string | undefined;
  #lastAddedAt = 0;
  #writes: Promise<void> = Promise.resolve();
  #loading: Promise<void> | undefined;
  #listeners = new Set<() => void>();
  /**
   * Which header and query parameter values are not persisted (names compared lowercase). `placeholderNames`: in the
   * request as written, a name holding a `{{placeholder}}` could resolve to any of them, so it counts as one.
   */
  #redacted: { header: (name: string) => boolean; queryParameter: ParameterRedaction['queryParameter']; userinfo: boolean; placeholderNames: boolean };
  /**
   * What `clear` and `delete` did (here or in another tab) while the stored entries were being read, first by the
   * load and later by each resync: merging what was read must not bring it back. Defined before the load too.
   */
  #removedWhileLoading: Removals | undefined;
  #resyncQueued = false;
  /**
   * Entries added here whose put has not reached the store yet: a resync keeps them. Not entries heard of from another
   * tab, which stored them before saying so: for those, what the store holds is the truth.
   */
  #unsaved = new Set<StoredHistoryRecord>();
  #closed = false;
  #unwatch: (() => void) | undefined;

  constructor(config: HistoryConfig, options: HistoryOptions = {}) {
    // Frozen, lists included: settings changed afterwards would take effect in some places and not in others.
    const parsed = parseHistoryConfig(config);
    this.config = Object.freeze({ ...parsed, redactHeaders: Object.freeze(parsed.redactHeaders) as string[], redactQueryParameters: Object.freeze(parsed.redactQueryParameters) as string[] });
    this.#store = this.config.enabled ? options.store : undefined;
    this.#onWarning = options.onWarning ?? ((message) => console.warn(message));
    const { keepCredentials, redactHeaders, redactQueryParameters } = this.config;
    const extraHeaders = new Set(redactHeaders);
    const extraParameters = new Set(redactQueryParameters);
    this.#redacted = {
      header: keepCredentials ? () => false : (name) => CREDENTIAL_HEADER_NAME.test(name) || extraHeaders.has(name.toLowerCase()),
      queryParameter: keepCredentials ? undefined : (name) => isCredentialQueryParameter(name) || extraParameters.has(name),
      userinfo: !keepCredentials,
      placeholderNames: !keepCredentials,
    };
    if (this.#store) this.#removedWhileLoading = { cleared: false, ids: new Set() };
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
    if (this.#store && !this.#storeFailed) this.#unsaved.add(record);
    this.#persist(async (store) => {
      try {
        await store.put(this.#forStorage(record));
      } finally {
        this.#unsaved.delete(record);
      }
    }, { put: true });
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

  /**
   * Removes one entry; false when there was none with this id. Before `ready()` has loaded the stored entries,
   * an id known only to the store is still removed from it (and the result is false).
   */
  delete(id: string): boolean {
    if (this.#removedWhileLoading) {
      this.#removedWhileLoading.ids.add(id);
      if (!this.#records.has(id)) this.#persist((store) => store.delete(id));
    }
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
    this.#resync();
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

  /**
   * Stops listening to other tabs and releases the store (its database connection and channel) once the writes made
   * so far have reached it. Entries added later stay in memory: `IdbHistoryStore` drops writes after its close.
   */
  close(): void {
    // Also after a failure: the store may still hold a connection and a channel.
    this.#closed = true;
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#listeners.clear();
    const store = this.#store;
    if (store?.close) void this.#writes.then(() => store.close!());
  }

  /**
   * Calls `listener` after every change, including those from other tabs. Returns the unsubscribe.
   * @throws InvalidArgumentError when `listener` is not a function.
   */
  subscribe(listener: () => void): () => void {
    expectListener(listener);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #load(): Promise<void> {
    const store = this.#store;
    const removed = this.#removedWhileLoading;
    if (!store || !removed) return;
    let stored: unknown[];
    try {
      // A write failed first: nothing more is read from the store, only deletes and clears still go to it.
      if (this.#storeFailed) return;
      stored = await store.load();
    } catch (error) {
      this.#fallBackToMemory(error, 'loaded');
      return;
    } finally {
      this.#removedWhileLoading = undefined;
    }
    // What this page added is not stored yet, or is in what was read. A store fuller than maxItems is trimmed for good.
    this.#merge(stored, removed, () => true, { persist: true });
  }

  /**
   * Reads the store again after a clear here or any change in another tab, and takes what it holds as the truth.
   * Changes cross in flight (a put in one tab, a clear in another), and each tab applies them in the order it hears
   * of them, so without this the tabs could disagree with each other, and with what a reload shows, until reloaded.
   * Runs after the writes queued so far; changes heard while it reads queue one more.
   */
  #resync(): void {
    if (this.#resyncQueued) return;
    this.#resyncQueued = true;
    this.#writes = this.#writes.then(async () => {
      this.#resyncQueued = false;
      await this.#loading;
      const store = this.#store;
      // Not loaded (nothing to bring in line), or the store failed or was released: memory is all there is.
      if (!store || !this.#loading || this.#storeFailed || this.#closed) return;
      const removed: Removals = (this.#removedWhileLoading = { cleared: false, ids: new Set() });
      let stored: unknown[];
      try {
        stored = await store.load();
      } catch {
        return; // Memory stays as it was; a failing store shows in the next write.
      } finally {
        this.#removedWhileLoading = undefined;
      }
      // An entry the store lacks was removed in another tab, unless it was added here and its put (queued after this
      // read) is still to come. Overflow is trimmed from memory only: a tab with a smaller maxItems must not cut what
      // the others keep.
      this.#merge(stored, removed, (record) => this.#unsaved.has(record), { persist: false });
    });
  }

  /**
   * Memory and the `stored` records, less what was `removed` while they were read. A record in memory wins over its
   * stored copy (which is redacted and cut); one the store lacks stays only when `keepUnstored` says so.
   */
  #merge(stored: unknown[], removed: Removals, keepUnstored: (record: StoredHistoryRecord) => boolean, { persist }: { persist: boolean }): void {
    const merged: StoredHistoryRecord[] = [];
    const storedIds = new Set<string>();
    for (const raw of removed.cleared ? [] : stored) {
      const record = readStoredRecord(raw);
      if (!record || removed.ids.has(record.entry.id)) continue;
      storedIds.add(record.entry.id);
      if (!this.#records.has(record.entry.id)) merged.push(record);
    }
    // Stored first, so that on equal times (same millisecond) what this page added counts as newer.
    for (const record of this.#records.values()) {
      if (storedIds.has(record.entry.id) || keepUnstored(record)) merged.push(record);
    }
    merged.sort((a, b) => a.addedAt - b.addedAt);
    const previous = [...this.#records.values()];
    const unchanged = merged.length === previous.length && merged.every((record, index) => record === previous[index]);
    this.#records = new Map(merged.map((record) => [record.entry.id, record]));
    this.#lastAddedAt = Math.max(this.#lastAddedAt, merged.at(-1)?.addedAt ?? 0);
    this.#evictOverflow({ persist });
    if (!unchanged) this.#notify();
  }

  /** Drops the oldest entries past `maxItems`; `persist: false` for changes another tab already stored. */
  #evictOverflow({ persist = true } = {}): void {
    while (this.#records.size > this.config.maxItems) {
      const oldest: string = this.#records.keys().next().value!;
      this.#records.delete(oldest);
      if (persist) this.#persist((store) => store.delete(oldest));
    }
  }

  /**
   * Queues a write so writes reach the store in the order they were made. After a failure only removals are still
   * tried (`put: false`), and their own failures are not reported again.
   */
  #persist(write: (store: HistoryStore) => Promise<void>, { put = false } = {}): void {
    this.#writes = this.#writes.then(async () => {
      const store = this.#store;
      if (!store || (put && this.#storeFailed)) return;
      try {
        await write(store);
      } catch (error) {
        this.#fallBackToMemory(error, 'saved');
      }
    });
  }

  #fallBackToMemory(error: unknown, what: 'loaded' | 'saved'): void {
    if (this.#storeFailed) return;
    this.#storeFailed = true;
    // Puts still queued are skipped from now on, so nothing would take these out again.
    this.#unsaved.clear();
    // A DOMException's name says what happened (QuotaExceededError); a plain Error's adds nothing.
    const reason = !(error instanceof Error) ? String(error) : error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
    this.#warning = `Request history could not be ${what} (${reason}); it is kept for this page only.`;
    this.#onWarning(this.#warning);
    this.#notify();
  }

  /**
   * What is persisted: credential values replaced (headers, URL, a form body's parameters), long bodies cut. Memory
   * keeps the real request.
   */
  #forStorage({ entry, addedAt }: StoredHistoryRecord): StoredHistoryRecord {
    const stored = copyHistoryEntry(entry);
    const formBody = isFormBody(entry.headers);
    for (const request of stored.written ? [stored, stored.written] : [stored]) {
      const written = request === stored.written;
      const redacted = { ...this.#redacted, placeholderNames: written && this.#redacted.placeholderNames };
      for (const [name, value] of Object.entries(request.headers)) {
        const credential = redacted.header(name) || (redacted.placeholderNames && name.includes('{{'));
        if (credential && !isPlaceholderCredential(value)) request.headers[name] = REDACTED;
      }
      request.url = redactUrl(request.url, redacted);
      if (formBody && request.body !== undefined) request.body = redactParameters(request.body, redacted);
      if (request.body !== undefined && request.body.length > this.config.maxStoredBodyLength) {
        request.body = cutAt(request.body, this.config.maxStoredBodyLength);
        stored.bodyTruncated = true;
      }
    }
    return { entry: stored, addedAt };
  }

  #applyRemoteChange(change: HistoryStoreChange): void {
    if (change.type === 'clear') {
      if (this.#removedWhileLoading) this.#removedWhileLoading.cleared = true;
      this.#records.clear();
    } else if (change.type === 'delete') {
      this.#removedWhileLoading?.ids.add(change.id);
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
    this.#resync();
    this.#notify();
  }

  #notify(): void {
    notifyAll(this.#listeners);
  }
}

/** Removals to apply to what a read of the store returned: `cleared`, or the entries with these ids. */
interface Removals {
  cleared: boolean;
  ids: Set<string>;
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

/** Whether the `Content-Type` header (any case) says `application/x-www-form-urlencoded`, whose body is a query. */
function isFormBody(headers: Record<string, string>): boolean {
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** The first `length` characters of `text`, never half of a surrogate pair (an emoji cut in two). */
function cutAt(text: string, length: number): string {
  return text.slice(0, /[\uD800-\uDBFF]/.test(text[length - 1]!) ? length - 1 : length);
}

// A credential written as a reference, `{{token}}` or `Bearer {{token}}`, holds no secret itself: it is kept, so a
// restored request resolves it again. Anything else around the placeholders (a key typed out) is redacted.
const PLACEHOLDER = /\{\{[^{}]*\}\}/g;
const AUTH_SCHEME = /^\s*(?:[A-Za-z]{2,16}\s+)?$/;

function isPlaceholderCredential(value: string): boolean {
  return value.includes('{{') && AUTH_SCHEME.test(value.replace(PLACEHOLDER, ''));
}

/**
 * `url` with a password in it replaced by `REDACTED`, and so the non-empty values of the named parameters
 * (compared decoded and ignoring case) in the query and in the fragment, where OAuth's implicit flow puts
 * `access_token`. Every other character stays as written, and so does a value that is only a `{{placeholder}}`.
 */
function redactUrl(url: string, redacted: ParameterRedaction & { userinfo: boolean }): string {
  const fragmentStart = url.indexOf('#');
  const beforeFragment = fragmentStart < 0 ? url : url.slice(0, fragmentStart);
  const queryStart = beforeFragment.indexOf('?');
  let start = queryStart < 0 ? beforeFragment : beforeFragment.slice(0, queryStart);
  if (redacted.userinfo) start = redactPassword(start);
  const query = queryStart < 0 ? '' : `?${redactParameters(beforeFragment.slice(queryStart + 1), redacted)}`;
  const fragment = fragmentStart < 0 ? '' : `#${redactParameters(url.slice(fragmentStart + 1), redacted)}`;
  return start + query + fragment;
}

// `scheme://user:password@host…`: the password is what follows the first `:` of the authority's userinfo.
function redactPassword(urlBeforeQuery: string): string {
  const authorityStart = urlBeforeQuery.indexOf('//') + 2;
  const pathStart = urlBeforeQuery.indexOf('/', authorityStart);
  const authority = urlBeforeQuery.slice(authorityStart, pathStart < 0 ? undefined : pathStart);
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (authorityStart < 2 || at < 0 || colon < 0 || colon > at || colon === at - 1) return urlBeforeQuery;
  if (isPlaceholderCredential(authority.slice(colon + 1, at))) return urlBeforeQuery;
  return urlBeforeQuery.slice(0, authorityStart + colon + 1) + REDACTED + urlBeforeQuery.slice(authorityStart + at);
}

/** Parameter names whose values are redacted; `placeholderNames`: also any name holding a `{{placeholder}}`. */
interface ParameterRedaction {
  /** Whether a parameter name (as `queryParameterName` gives it) is a credential's; `undefined`: none is. */
  queryParameter: ((name: string) => boolean) | undefined;
  placeholderNames: boolean;
}

/** `name=value&…` (a query, a fragment, a form body) with the credential values replaced, the rest as written. */
function redactParameters(parameters: string, { queryParameter, placeholderNames }: ParameterRedaction): string {
  if ((!queryParameter && !placeholderNames) || !parameters.includes('=')) return parameters;
  const isCredential = (name: string) => !!queryParameter?.(name) || (placeholderNames && name.includes('{{'));
  return parameters
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0 || equals === pair.length - 1 || !isCredential(queryParameterName(pair.slice(0, equals)))) return pair;
      if (isPlaceholderCredential(pair.slice(equals + 1))) return pair;
      return `${pair.slice(0, equals + 1)}${REDACTED}`;
    })
    .join('&');
}
