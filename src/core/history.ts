import { ConfigError, HistoryEntryNotFoundError, InvalidArgumentError } from './errors.js';
import { CREDENTIAL_HEADER_NAME, REDACTED, bracketedKey, isCredentialQueryParameter, parseHistoryConfig, queryParameterName, type HistoryConfig, type ResolvedHistoryConfig } from './history-config.js';
import { copyHistoryEntry, parseHistoryEntry, type HistoryEntry, type HistoryEntryInput } from './history-entry.js';
import { contentTypeOf } from './json-body.js';
import { expectHistoryStore, type HistoryStore, type HistoryStoreChange, type StoredHistoryRecord } from './history-store.js';
import { expectListener, notifySubscribers } from './listeners.js';
import { randomId } from './random-id.js';
import { expectKnownFields, expectPlainObject } from './validation.js';

export interface HistoryOptions {
  /** Where entries persist. None: memory only. In browsers, `new IdbHistoryStore(config.storageKey)`. */
  store?: HistoryStore;
  /** Told once when persistence fails and history falls back to memory. @default console.warn */
  onWarning?: (message: string) => void;
}

export { REDACTED };

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
  /**
   * Oldest first by `addedAt`, then by id (`compareRecords`), the order every tab and every load computes alike. A Map
   * keeps insertion order, so adding (always the newest), evicting and finding are all O(1).
   */
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
  /** Stored with every record added here (`StoredHistoryRecord.addedBy`). */
  readonly #id = randomId();
  #writes: Promise<void> = Promise.resolve();
  #loading: Promise<void> | undefined;
  #listeners = new Set<() => void>();
  /**
   * Which header and query parameter values are not persisted (names compared lowercase). `placeholderNames`: in the
   * request as written, a name holding a `{{placeholder}}` could resolve to any of them, so it counts as one.
   */
  #redacted: {
    header: (name: string) => boolean;
    queryParameter: ParameterRedaction['queryParameter'];
    /** A form body's fields: also those a JSON member is redacted under, a bracketed name read as its key (`bracketedKey`). */
    formField: ParameterRedaction['queryParameter'];
    /** A JSON body's member, by its key as written (escapes read) and in snake_case. */
    jsonMember: ((key: string, snakeCase: string) => boolean) | undefined;
    userinfo: boolean;
    placeholderNames: boolean;
  };
  /** Every read of the store queued or under way, with what was removed since: merging what it read must not bring it back. */
  #reads = new Set<Removals>();
  /** The first load's, from construction until it has read: a delete before then also reaches ids only the store knows. */
  #beforeLoad: Removals | undefined;
  /** A full read queued after the last write and not started: another reason to read them all is folded into it. */
  #queuedResync: Removals | undefined;
  /** Records named by other tabs' messages, to be read before their read starts: later messages add to it. */
  #queuedFollow: Follow | undefined;
  /** Stored records the last full read could not use (corrupted): the store counts them, memory never holds them. */
  #unusable = 0;
  /** Counts changes made in memory, so that a read can tell nothing happened while it was queued. */
  #version = 0;
  /** Set once another tab's entries were trimmed from memory only: the store may hold older ones a removal brings in. */
  #trimmedInMemory = false;
  /**
   * Set when a record left memory other than by eviction (deleted here or in another tab) since the last full read: a
   * record the store holds and memory does not (trimmed, or never heard of) may belong in the room it left.
   */
  #madeRoom = false;
  /**
   * Entries added here whose put has not reached the store yet: a resync keeps them. Not entries heard of from another
   * tab, which stored them before saying so: for those, what the store holds is the truth.
   */
  #unsaved = new Set<StoredHistoryRecord>();
  /**
   * Unsaved entries trimmed from memory only (another tab's newer entries came first). This tab does not hear its own
   * put, and a read done before it landed missed them: once stored, each is read again, as it may belong in memory.
   */
  #trimmedUnsaved = new Set<StoredHistoryRecord>();
  /** Set when a read to check a change was skipped, `ready()` not called yet: the load's end reads them all instead. */
  #skippedBeforeLoad = false;
  #closed = false;
  #unwatch: (() => void) | undefined;
  /** Values kept out of every entry added from now on (`redactValue`), longest first, with the forms they are found in. */
  #redactedValues: { value: string; forms: string[] }[] = [];

  /** @throws ConfigError for a bad setting or option, naming it. */
  constructor(config: HistoryConfig, options?: HistoryOptions) {
    // Frozen, lists included: settings changed afterwards would take effect in some places and not in others.
    const parsed = parseHistoryConfig(config);
    const { store, onWarning } = parseHistoryOptions(options);
    this.config = Object.freeze({ ...parsed, redactHeaders: Object.freeze(parsed.redactHeaders) as string[], redactQueryParameters: Object.freeze(parsed.redactQueryParameters) as string[] });
    this.#store = this.config.enabled ? store : undefined;
    this.#onWarning = onWarning ?? ((message) => console.warn(message));
    const { keepCredentials, redactHeaders, redactQueryParameters } = this.config;
    const extraHeaders = new Set(redactHeaders);
    const extraParameters = new Set(redactQueryParameters);
    const queryParameter = (name: string) => isCredentialQueryParameter(name) || extraParameters.has(name) || extraParameters.has(bracketedKey(name));
    this.#redacted = {
      header: keepCredentials ? () => false : (name) => CREDENTIAL_HEADER_NAME.test(name) || extraHeaders.has(name.toLowerCase()),
      queryParameter: keepCredentials ? undefined : queryParameter,
      formField: keepCredentials ? undefined : (name) => queryParameter(name) || CREDENTIAL_KEY.test(bracketedKey(name)),
      jsonMember: keepCredentials ? undefined : (key, snakeCase) => CREDENTIAL_KEY.test(snakeCase) || extraParameters.has(key.toLowerCase()) || extraParameters.has(snakeCase),
      userinfo: !keepCredentials,
      placeholderNames: !keepCredentials,
    };
    if (this.#store) this.#beforeLoad = this.#newRead();
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
    const entry = this.#withoutRedactedValues(parseHistoryEntry(input));
    if (!this.config.enabled) return copyHistoryEntry(entry);
    // Later than every record known here, so it goes last in the Map: the newest, whatever its id.
    this.#lastAddedAt = Math.max(Date.now(), this.#lastAddedAt + 1);
    const record: StoredHistoryRecord = { entry, addedAt: this.#lastAddedAt, addedBy: this.#id };
    this.#records.delete(entry.id);
    this.#records.set(entry.id, record);
    if (this.#store && !this.#storeFailed) this.#unsaved.add(record);
    this.#persist(async (store) => {
      try {
        await store.put(this.#forStorage(record));
      } finally {
        this.#unsaved.delete(record);
        if (this.#trimmedUnsaved.delete(record)) this.#follow(record.entry.id);
      }
    }, { put: true });
    this.#evictOverflow();
    this.#notify();
    return copyHistoryEntry(entry);
  }

  /**
   * Keeps `value` out of every entry added from now on, in memory as in the store: wherever it appears in the URL
   * (percent-encoded too), a header's value or the body, it is replaced by `[redacted]`, while the request as written
   * names it by its `{{placeholder}}` and so loads it again. For the secrets the environment panel masks (a key the
   * reader typed, a token the page set), which no header or parameter name marks as one (`?appid=…`, a JSON body, a
   * path): `<try-it-console>` gives them at each send, so one the page replaces later stays out of the entries. Values
   * under 4 characters are not: they would cut into any text. `keepCredentials` keeps them in the entries;
   * `redactedValues` lists them still.
   * @throws InvalidArgumentError when `value` is not a string.
   */
  redactValue(value: string): void {
    if (typeof value !== 'string') throw new InvalidArgumentError('value', value, 'must be a string');
    if (value.length < MIN_REDACTED_VALUE_LENGTH || this.#redactedValues.some((redacted) => redacted.value === value)) return;
    const forms = valueForms(value);
    // Longest first: a value holding another is replaced whole.
    this.#redactedValues = [...this.#redactedValues, { value, forms }].sort((a, b) => b.value.length - a.value.length);
  }

  /**
   * The values given to `redactValue`, longest first: `<request-history>` masks them in its rows, whatever the
   * environment holds now (a token rotated since it was sent) and whatever `keepCredentials` keeps.
   */
  get redactedValues(): string[] {
    return this.#redactedValues.map(({ value }) => value);
  }

  /** Every entry, newest first, as copies. */
  list(): HistoryEntry[] {
    const entries: HistoryEntry[] = [];
    for (const { entry } of this.#records.values()) entries.push(copyHistoryEntry(entry));
    return entries.reverse();
  }

  /** @throws HistoryEntryNotFoundError when no entry has this id (never added, evicted or cleared). */
  get(id: string): HistoryEntry {
    expectId(id);
    const record = this.#records.get(id);
    if (!record) throw new HistoryEntryNotFoundError(id);
    return copyHistoryEntry(record.entry);
  }

  /**
   * Removes one entry; false when there was none with this id. Before `ready()` has loaded the stored entries,
   * an id known only to the store is still removed from it (and the result is false).
   * @throws InvalidArgumentError when `id` is not a string (`tic-history-delete`'s is undefined for Clear all): before
   * the load, it would read as a clear, and IndexedDB would refuse it and stop history persisting.
   */
  delete(id: string): boolean {
    expectId(id);
    // Only a delete that is written must not be undone by a read queued before it.
    if (this.#beforeLoad || this.#records.has(id)) this.#noteRemoval(id, { local: true });
    if (this.#beforeLoad && !this.#records.has(id)) this.#persist((store) => store.delete(id));
    if (!this.#records.delete(id)) return false;
    this.#madeRoom = true;
    this.#persist((store) => store.delete(id));
    this.#notify();
    if (this.#trimmedInMemory) this.#follow();
    return true;
  }

  /** Removes every entry, persisted ones included. */
  clear(): void {
    this.#noteRemoval(undefined, { local: true });
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
    const removed = this.#beforeLoad;
    if (!store || !removed) return;
    removed.started = true;
    let stored: unknown[];
    try {
      // A write failed first: nothing more is read from the store, only deletes and clears still go to it.
      if (this.#storeFailed) return;
      stored = await store.load();
    } catch (error) {
      this.#fallBackToMemory(error, 'loaded');
      return;
    } finally {
      this.#beforeLoad = undefined;
      this.#reads.delete(removed);
    }
    // What this page added is not stored yet, or is in what was read. A store fuller than maxItems is trimmed for good.
    this.#merge(stored, removed, () => true, { persist: true });
    // A clear made here before the load may reach the store after what was read, so the read was set aside; and the
    // entries heard of since may have been stored before it, and cleared by it. The store, once cleared, says which.
    // A change heard before ready() began, its check skipped, is checked the same way: the load is not queued after this
    // page's writes, and may have read the store before one of them crossed it (a delete here of an entry another tab
    // had just put again, which memory holds and the store will not).
    if (removed.cleared || this.#skippedBeforeLoad) this.#resync();
  }

  /**
   * Reads the whole store again after a clear (here or in another tab), and takes what it holds as the truth. Changes
   * cross in flight (a put in one tab, a clear in another), and each tab applies them in the order it hears of them, so
   * without this the tabs could disagree with each other, and with what a reload shows, until reloaded. Runs after the
   * writes queued so far; changes heard while it reads queue one more.
   */
  #resync(): void {
    if (this.#queuedResync) return;
    const removed = (this.#queuedResync = this.#newRead());
    this.#afterWrites(removed, () => {
      if (this.#queuedResync === removed) this.#queuedResync = undefined;
    }, (store) => this.#readAll(store, removed));
  }

  /**
   * Brings the record another tab named in a message (`id`; none: only the count) in line with the store: reads it and
   * how many records there are, rather than all of them, once the writes queued so far are done. A count that does not
   * match memory reads them all after all: a message never came (a tab closed between its write and its message), or
   * a removal left room for an older record trimmed from memory only.
   */
  #follow(id?: string): void {
    const store = this.#store;
    if (!store?.loadSome) return this.#resync();
    if (this.#queuedFollow) {
      if (id !== undefined) this.#queuedFollow.ids.add(id);
      this.#queuedFollow.version = this.#version;
      return;
    }
    const follow: Follow = (this.#queuedFollow = { ids: new Set(id === undefined ? [] : [id]), version: this.#version, removed: this.#newRead() });
    this.#afterWrites(follow.removed, () => {
      if (this.#queuedFollow === follow) this.#queuedFollow = undefined;
    }, () => this.#readSome(store, follow));
  }

  /**
   * Queues a read of the store after the writes queued so far: then, with the first load done, `read` runs unless the
   * store has failed or been released (memory is then all there is). `removed` notes what is removed from now on.
   * `dequeue` runs first either way: a read left queued would fold every later reason to read into itself, unread.
   */
  #afterWrites(removed: Removals, dequeue: () => void, read: (store: HistoryStore) => Promise<void>): void {
    this.#writes = this.#writes.then(async () => {
      try {
        await this.#loading;
        dequeue();
        const store = this.#store;
        // Not loaded (nothing to bring in line yet: the load's end reads them all instead), or the store failed or was
        // released.
        if (store && !this.#loading) this.#skippedBeforeLoad = true;
        if (!store || !this.#loading || this.#storeFailed || this.#closed) return;
        await read(store);
      } finally {
        this.#reads.delete(removed);
      }
    });
  }

  async #readAll(store: HistoryStore, removed: Removals): Promise<void> {
    removed.started = true;
    this.#madeRoom = false;
    let stored: unknown[];
    try {
      stored = await store.load();
    } catch {
      return; // Memory stays as it was; a failing store shows in the next write.
    }
    // An entry the store lacks was removed in another tab, unless it was added here and its put (queued after this
    // read) is still to come. Overflow is trimmed from memory only: a tab with a smaller maxItems must not cut what
    // the others keep.
    this.#merge(stored, removed, (record) => this.#unsaved.has(record), { persist: false });
  }

  async #readSome(store: HistoryStore, { ids: named, version, removed }: Follow): Promise<void> {
    const ids = [...named];
    removed.started = true;
    let found: { records: unknown[]; count: number };
    try {
      found = await store.loadSome!(ids);
    } catch {
      return this.#readAll(store, removed);
    }
    // A clear came: its own full read follows.
    if (removed.cleared) return;
    const quiet = this.#version === version;
    let changed = false;
    ids.forEach((id, index) => {
      const mine = this.#records.get(id);
      // Removed since the read was queued, or added here with its put still to come: what was read is already old.
      if (removed.ids.has(id) || (mine && this.#unsaved.has(mine))) return;
      const stored = readStoredRecord(found.records[index]);
      if (mine && stored && isSameAddition(mine, stored)) return; // Memory's copy is not redacted or cut.
      if (mine) this.#records.delete(id);
      if (stored) this.#place(stored);
      else if (mine) this.#madeRoom = true;
      changed ||= mine !== undefined || stored !== undefined;
    });
    if (changed) {
      this.#evictOverflow({ persist: false });
      this.#notify();
    }
    // The count means something only when nothing changed while the read was queued (changes made here since are not
    // stored yet); otherwise a later check counts again, until one finds memory as it was.
    // Nor does a full memory prove it holds the newest: a named record placed where a removed one was may be older than
    // one the store holds and memory does not (trimmed from memory only, or its message lost).
    const storedCount = found.count - this.#unusable;
    if (!quiet) this.#follow();
    else if (Math.min(storedCount, this.config.maxItems) !== this.#records.size || (this.#madeRoom && storedCount > this.#records.size)) await this.#readAll(store, removed);
  }

  /**
   * Memory and the `stored` records, less what was `removed` while they were read. A record in memory wins over its
   * stored copy (which is redacted and cut) when it is the same addition or its put is still to come; one the store
   * lacks stays only when `keepUnstored` says so.
   */
  #merge(stored: unknown[], removed: Removals, keepUnstored: (record: StoredHistoryRecord) => boolean, { persist }: { persist: boolean }): void {
    const merged: StoredHistoryRecord[] = [];
    const storedIds = new Set<string>();
    let unusable = 0;
    for (const raw of removed.cleared ? [] : stored) {
      const record = readStoredRecord(raw);
      if (!record) unusable += 1;
      if (!record || removed.ids.has(record.entry.id)) continue;
      storedIds.add(record.entry.id);
      const mine = this.#records.get(record.entry.id);
      merged.push(mine && (isSameAddition(mine, record) || this.#unsaved.has(mine)) ? mine : record);
    }
    this.#unusable = unusable;
    for (const record of this.#records.values()) {
      if (!storedIds.has(record.entry.id) && keepUnstored(record)) merged.push(record);
    }
    merged.sort(compareRecords);
    const previous = [...this.#records.values()];
    const unchanged = merged.length === previous.length && merged.every((record, index) => record === previous[index]);
    this.#records = new Map(merged.map((record) => [record.entry.id, record]));
    this.#lastAddedAt = Math.max(this.#lastAddedAt, merged.at(-1)?.addedAt ?? 0);
    this.#evictOverflow({ persist });
    if (!unchanged) this.#notify();
  }

  /** Puts a record from the store or another tab in its place: last when it is later than all, in O(1). */
  #place(record: StoredHistoryRecord): void {
    this.#records.delete(record.entry.id);
    if (record.addedAt > this.#lastAddedAt) {
      this.#lastAddedAt = record.addedAt;
      this.#records.set(record.entry.id, record);
      return;
    }
    const placed = new Map<string, StoredHistoryRecord>();
    let pending: StoredHistoryRecord | undefined = record;
    for (const [id, other] of this.#records) {
      if (pending && compareRecords(pending, other) < 0) {
        placed.set(pending.entry.id, pending);
        pending = undefined;
      }
      placed.set(id, other);
    }
    if (pending) placed.set(pending.entry.id, pending);
    this.#records = placed;
  }

  /** A read of the store about to be queued (or, the first load, started): what is removed from now on is noted. */
  #newRead(): Removals {
    const removed: Removals = { cleared: false, ids: new Set(), started: false };
    this.#reads.add(removed);
    return removed;
  }

  /**
   * Notes a removal (`id`, or all: a clear) in the reads it could undo. One made here is written after every read
   * already queued; one heard from another tab is stored already, so only a read under way may have missed it.
   */
  #noteRemoval(id: string | undefined, { local }: { local: boolean }): void {
    for (const removed of this.#reads) {
      if (!local && !removed.started) continue;
      if (id === undefined) removed.cleared = true;
      else removed.ids.add(id);
    }
  }

  /** Drops the oldest entries past `maxItems`; `persist: false` for changes another tab already stored. */
  #evictOverflow({ persist = true } = {}): void {
    while (this.#records.size > this.config.maxItems) {
      const [oldest, record]: [string, StoredHistoryRecord] = this.#records.entries().next().value!;
      this.#records.delete(oldest);
      if (persist) {
        this.#noteRemoval(oldest, { local: true });
        this.#persist((store) => store.delete(oldest));
      } else {
        this.#trimmedInMemory = true;
        if (this.#unsaved.has(record)) this.#trimmedUnsaved.add(record);
      }
    }
  }

  /**
   * Queues a write so writes reach the store in the order they were made. After a failure only removals are still
   * tried (`put: false`), and their own failures are not reported again.
   */
  #persist(write: (store: HistoryStore) => Promise<void>, { put = false } = {}): void {
    // A read queued before this write would read the store without it: a reason to read again queues another.
    this.#queuedResync = undefined;
    this.#queuedFollow = undefined;
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
    this.#trimmedUnsaved.clear();
    // A DOMException's name says what happened (QuotaExceededError); a plain Error's adds nothing.
    const reason = !(error instanceof Error) ? String(error) : error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
    this.#warning = `Request history could not be ${what} (${reason}); it is kept for this page only.`;
    this.#onWarning(this.#warning);
    this.#notify();
  }

  /** `entry` (a fresh parse, changed in place) with the values given to `redactValue` replaced, unless keepCredentials. */
  #withoutRedactedValues(entry: HistoryEntry): HistoryEntry {
    if (this.config.keepCredentials) return entry;
    const forms = this.#redactedValues.flatMap((redacted) => redacted.forms);
    const scrub = (text: string) => forms.reduce((result, form) => result.split(form).join(REDACTED), text);
    for (const request of entry.written ? [entry, entry.written] : [entry]) {
      request.url = scrub(request.url);
      for (const [name, value] of Object.entries(request.headers)) request.headers[name] = scrub(value);
      if (request.body !== undefined) request.body = scrub(request.body);
    }
    return entry;
  }

  /**
   * What is persisted: credential values replaced (headers, URL, a form body's parameters), long bodies cut. Memory
   * keeps the real request.
   */
  #forStorage({ entry, addedAt, addedBy }: StoredHistoryRecord): StoredHistoryRecord {
    const stored = copyHistoryEntry(entry);
    const mediaType = mediaTypeOf(entry.headers);
    for (const request of stored.written ? [stored, stored.written] : [stored]) {
      const written = request === stored.written;
      const redacted = { ...this.#redacted, placeholderNames: written && this.#redacted.placeholderNames };
      for (const [name, value] of Object.entries(request.headers)) {
        const credential = redacted.header(name) || (redacted.placeholderNames && name.includes('{{'));
        if (credential && !isPlaceholderCredential(value)) request.headers[name] = withSchemeKept(name, value);
      }
      request.url = redactUrl(request.url, redacted);
      if (request.body !== undefined && mediaType === 'application/x-www-form-urlencoded') {
        request.body = redactParameters(request.body, { ...redacted, queryParameter: redacted.formField });
      } else if (request.body !== undefined && isJsonBody(mediaType, request.body)) {
        request.body = redactJsonMembers(request.body, redacted.jsonMember);
      }
      if (request.body !== undefined && request.body.length > this.config.maxStoredBodyLength) {
        request.body = cutAt(request.body, this.config.maxStoredBodyLength);
        stored.bodyTruncated = true;
      }
    }
    return { entry: stored, addedAt, addedBy };
  }

  /**
   * Another tab's change, applied at once, then checked against the store: a put and a delete cross in flight with
   * changes here and in other tabs. A clear, or a message that cannot be read, reads the whole store again.
   */
  #applyRemoteChange(change: HistoryStoreChange): void {
    if (change?.type === 'clear') {
      this.#noteRemoval(undefined, { local: false });
      this.#records.clear();
      this.#notify();
      this.#resync();
    } else if (change?.type === 'delete' && typeof change.id === 'string') {
      this.#noteRemoval(change.id, { local: false });
      if (this.#records.delete(change.id)) {
        this.#madeRoom = true;
        this.#notify();
      }
      this.#follow(change.id);
    } else {
      const record = change?.type === 'put' ? readStoredRecord(change.record) : undefined;
      if (!record) return this.#resync();
      // Known already (a full read found it before its message came): nothing to change, nor to render again.
      const mine = this.#records.get(record.entry.id);
      if (!mine || !isSameAddition(mine, record)) {
        this.#place(record);
        // Not persisted: the other tab did. Overflow is trimmed from memory only, for the same reason.
        this.#evictOverflow({ persist: false });
        this.#notify();
      }
      this.#follow(record.entry.id);
    }
  }

  #notify(): void {
    this.#version += 1;
    notifySubscribers(this.#listeners);
  }
}

function expectId(id: string): void {
  if (typeof id !== 'string') throw new InvalidArgumentError('id', id, 'must be a string');
}

/** A store given in place of `{ store }`, or a misspelt option, would leave history in memory only without a word. */
function parseHistoryOptions(options: unknown): HistoryOptions {
  if (options === undefined) return {};
  if (typeof options === 'object' && options !== null && typeof (options as Partial<HistoryStore>).put === 'function') {
    throw new ConfigError('History options', options, 'is a store, and options hold it: write new History(config, { store })', 'a store');
  }
  const input = expectPlainObject(options, 'History options');
  expectKnownFields(input, ['store', 'onWarning'], 'History options');
  if (input.onWarning !== undefined && typeof input.onWarning !== 'function') {
    throw new ConfigError('History options.onWarning', input.onWarning, 'must be a function taking the message');
  }
  return {
    store: input.store === undefined ? undefined : expectHistoryStore(input.store, 'History options.store'),
    onWarning: input.onWarning as HistoryOptions['onWarning'],
  };
}

/**
 * Removals to apply to what a read of the store returned: `cleared`, or the entries with these ids. `started`: the read
 * is under way, so a removal another tab stored may be missing from what it returns.
 */
interface Removals {
  cleared: boolean;
  ids: Set<string>;
  started: boolean;
}

/** Records other tabs named, to read; `version`: memory's when the last was named. */
interface Follow {
  ids: Set<string>;
  version: number;
  removed: Removals;
}

/** Whether two records of one id come from the same `add` (one may be the stored, redacted copy of the other). */
function isSameAddition(a: StoredHistoryRecord, b: StoredHistoryRecord): boolean {
  return a.addedAt === b.addedAt && a.addedBy === b.addedBy;
}

/** The order of `History`'s records: by `addedAt`, and on equal times (two tabs, one millisecond) by id. */
function compareRecords(a: StoredHistoryRecord, b: StoredHistoryRecord): number {
  return a.addedAt - b.addedAt || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0);
}

/** `redactValue` leaves shorter values: replaced, a value of one or two characters would cut into any text. */
export const MIN_REDACTED_VALUE_LENGTH = 4;

/** `value` as typed, and as a URL writes it: encoded as a component, or as the URL parser leaves a query or a path. */
export function valueForms(value: string): string[] {
  // As a query or a path writes it, only when that is the whole value encoded: a `#` (or in a path a `?`) ends it
  // early, a path's `..` or a tab is dropped, and the part kept, `admin` of `admin#2024!` or of `x/../admin`, would be
  // replaced wherever it appears.
  const parsed = [new URL(`http://x/?${value}`).search.slice(1), new URL(`http://x/${value}`).pathname.slice(1)].filter((form) => decodesTo(form, value));
  return [...new Set([value, encodeURIComponent(value), ...parsed])];
}

function decodesTo(form: string, value: string): boolean {
  try {
    return decodeURIComponent(form) === value;
  } catch {
    return false; // a `%` that starts no escape: the parser kept it as it is, a form equal to the value
  }
}

/** 8.64e15 ms after 1970, the last time a `Date` can hold. */
const LAST_DATE = 8.64e15;

/** A stored record as read back, or `undefined` when it is corrupted (such records are skipped). */
function readStoredRecord(raw: unknown): StoredHistoryRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { entry, addedAt, addedBy } = raw as Partial<StoredHistoryRecord>;
  // Past the last time a Date can hold, `addedAt + 1` soon equals `addedAt`: every later entry would tie with it, and
  // the list would be in id order for good.
  if (typeof addedAt !== 'number' || !(addedAt >= 0 && addedAt <= LAST_DATE)) return undefined;
  if (addedBy !== undefined && typeof addedBy !== 'string') return undefined;
  // A stored entry always had its id and timestamp: without them it is damaged, not new.
  if (typeof entry?.id !== 'string' || entry.timestamp === undefined) return undefined;
  try {
    return { entry: parseHistoryEntry(entry), addedAt, ...(addedBy === undefined ? {} : { addedBy }) };
  } catch {
    return undefined;
  }
}

/**
 * The media type of the `Content-Type` header (any case), lowercase and without parameters; `undefined` without one. An
 * `application/x-www-form-urlencoded` body is a query.
 */
function mediaTypeOf(headers: Record<string, string>): string | undefined {
  return contentTypeOf(headers)?.split(';')[0]!.trim().toLowerCase();
}

/** Whether the body is JSON: so labelled (`application/json`, `…+json`), or unlabelled and shaped as an object or array. */
function isJsonBody(mediaType: string | undefined, body: string): boolean {
  if (mediaType === undefined) return /^\s*[[{]/.test(body);
  return /^application\/(?:[\w.-]+\+)?json$/.test(mediaType);
}

// A member of a JSON object whose value is a string: its key and value as written, escapes included.
const JSON_STRING_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/**
 * Keys of a JSON body that hold a secret, in snake_case. Narrower than the query parameters' rule: JSON keys named
 * `key`, `auth`, `*_key` or `*_token` are mostly data (an AWS tag's `Key`, `sortKey`, `publicKey`, `pageToken`).
 */
const CREDENTIAL_KEY =
  /(?:^|_)(?:passw|passphrase|passcode)|(?:^|_)(?:secret|pwd|api_?key|(?:access|refresh|auth|id|api|bearer|session|csrf)_token|(?:private|secret|access|license)_key|session_?id|client_assertion|code_verifier)$|^(?:token|jwt|credentials?)$/;

/**
 * A JSON body with the string values of credential-named members replaced (`"password": "[redacted]"`, also
 * `clientSecret`, `api_key`, `refreshToken`, `password_confirmation`…, and the names in `redactQueryParameters`), the
 * rest as written. Read as text, not parsed: a body that is not valid JSON is redacted the same way, and a string that
 * only looks like a member errs towards redaction.
 */
function redactJsonMembers(body: string, isCredential: ((key: string, snakeCase: string) => boolean) | undefined): string {
  if (!isCredential || !body.includes('"')) return body;
  return body.replace(JSON_STRING_MEMBER, (member, key: string, colon: string, value: string) => {
    // Read as the server will: `pass\u0077ord` is `password`.
    const written = key.replace(/\\(?:u([\da-f]{4})|(.))/gi, (_, code: string | undefined, char: string) => (code ? String.fromCharCode(parseInt(code, 16)) : char));
    // camelCase and kebab-case read as snake_case: `clientSecret`, `x-api-key` as `client_secret`, `x_api_key`.
    const credential = isCredential(written, written.replace(/([a-z\d])([A-Z])/g, '$1_$2').replaceAll('-', '_').toLowerCase());
    return !credential || value === '' || isPlaceholderCredential(value) ? member : `"${key}"${colon}"${REDACTED}"`;
  });
}

/** The first `length` characters of `text`, never half of a surrogate pair (an emoji cut in two). */
function cutAt(text: string, length: number): string {
  return text.slice(0, /[\uD800-\uDBFF]/.test(text[length - 1]!) ? length - 1 : length);
}

// A credential written as a reference, `{{token}}` or `Bearer {{token}}`, holds no secret itself: it is kept, so a
// restored request resolves it again. Anything else around the placeholders (a key typed out) is redacted.
const PLACEHOLDER = /\{\{[^{}]*\}\}/g;
const AUTH_SCHEME = /^\s*(?:[A-Za-z]{2,16}\s+)?$/;

// The scheme of an Authorization value, which names no secret: IANA's registered ones and those APIs commonly use.
// A list, not any first word: a key written with a space after it (`ghp_… extra`) must not keep its first part.
const AUTHORIZATION_SCHEME =
  /^\s*(?:Basic|Bearer|Digest|DPoP|GNAP|HOBA|Mutual|Negotiate|NTLM|OAuth|PrivateToken|SCRAM-SHA-1|SCRAM-SHA-256|vapid|AWS4-HMAC-SHA256|Token|Key|ApiKey|SSWS|JWT)\s+(?=\S)/i;

/**
 * A credential header's value as stored: `REDACTED`, after the scheme of an `Authorization` (or
 * `Proxy-Authorization`) value, so a restored request reads `Bearer [redacted]` and only the token is to type again.
 */
function withSchemeKept(name: string, value: string): string {
  const scheme = /^(?:proxy-)?authorization$/i.test(name) ? AUTHORIZATION_SCHEME.exec(value)?.[0] : undefined;
  return `${scheme?.trimStart() ?? ''}${REDACTED}`;
}

/** Whether a credential's value only refers to a variable (`{{token}}`, `Bearer {{token}}`), holding no secret itself. */
export function isPlaceholderCredential(value: string): boolean {
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
