/** Deletes the IndexedDB database `name`; fails, rather than waiting, while a connection still holds it open. */
export function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error(`deleting ${name} is blocked by an open connection`));
  });
}
