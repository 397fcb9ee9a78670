/** Runs `body` as in a browser without IndexedDB (`indexedDB` undefined), then puts it back, whatever happens. */
export async function withoutIndexedDB(body: () => Promise<void>): Promise<void> {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'indexedDB');
  Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true });
  try {
    await body();
  } finally {
    if (original) Object.defineProperty(globalThis, 'indexedDB', original);
    else delete (globalThis as { indexedDB?: unknown }).indexedDB;
  }
}
