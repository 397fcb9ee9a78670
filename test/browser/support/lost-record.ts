/**
 * Makes reading the record `id` fail as Chromium fails a record whose file it lost (Chrome keeps large values in
 * files of their own): a NotReadableError event on that read, the other reads of the transaction succeed, then the
 * transaction aborts once they are done. Returns the function that puts reads back.
 */
export function loseRecordOnRead(id: string): () => void {
  const originalGet = IDBObjectStore.prototype.get;
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, query: IDBValidKey | IDBKeyRange) {
    if (query !== id) return originalGet.call(this, query);
    const failed = { result: undefined, error: new DOMException('Data lost due to missing file', 'NotReadableError'), onsuccess: null, onerror: null as ((event: Event) => void) | null };
    queueMicrotask(() => {
      failed.onerror?.(new Event('error', { cancelable: true }));
      // Queued after every other read of the transaction, so it succeeds last.
      originalGet.call(this, query).onsuccess = () => this.transaction.abort();
    });
    return failed as unknown as IDBRequest;
  };
  return () => {
    IDBObjectStore.prototype.get = originalGet;
  };
}
