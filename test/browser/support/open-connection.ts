/** Whether an IndexedDB connection to a history database is still open: a closed one refuses new transactions. */
export function isOpen(database: IDBDatabase): boolean {
  try {
    database.transaction('history', 'readonly');
    return true;
  } catch {
    return false;
  }
}
