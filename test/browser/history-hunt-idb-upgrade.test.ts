// A database of the history's name made without the `history` store (by other code on the site, or a half-made earlier
// version): history adds the store at the next version, keeping the others, instead of staying memory-only for good.
import { expect } from '@open-wc/testing';
import { History, IdbHistoryStore, type HistoryEntryInput } from '../../src/core/index.js';
import { deleteDatabase } from './support/delete-database.js';

let storageKey = '';
let databaseName = '';

const request = (n: number): HistoryEntryInput => ({ id: `e${n}`, method: 'GET', url: `https://api.example/items/${n}`, status: 200, duration: n });

/** Opens the database as other code would: version 1 with the given stores, and one record in each. */
function openAsOtherCode(stores: string[]): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(databaseName, 1);
    open.onupgradeneeded = () => {
      for (const name of stores) open.result.createObjectStore(name).put(`kept in ${name}`, 'k');
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** The database's version, stores and the record in each, read without holding it open. */
function describeDatabase(): Promise<{ version: number; stores: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(databaseName);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const names = [...db.objectStoreNames];
      const transaction = db.transaction(names, 'readonly');
      const reads = names.map((name) => [name, transaction.objectStore(name).get('k')] as const);
      transaction.oncomplete = () => {
        db.close();
        resolve({ version: db.version, stores: Object.fromEntries(reads.map(([name, read]) => [name, read.result])) });
      };
    };
  });
}

const newHistory = (warnings: string[], openTimeout?: number) =>
  new History({ enabled: true }, { store: new IdbHistoryStore(storageKey, openTimeout ? { openTimeout } : {}), onWarning: (m) => warnings.push(m) });

describe('History in a database made without its store', () => {
  let run = 0;
  beforeEach(async () => {
    run += 1;
    storageKey = `hunt-upgrade-${Date.now()}-${run}`;
    databaseName = `try-it-console:${storageKey}`;
    await deleteDatabase(databaseName);
  });

  for (const [made, stores] of [['with another store', ['settings']], ['with no store at all', []]] as const) {
    it(`persists across a reload when the database was made ${made}, and keeps what else it holds`, async () => {
      (await openAsOtherCode([...stores])).close();
      const warnings: string[] = [];
      const first = newHistory(warnings);
      await first.ready();
      first.add(request(1));
      first.add(request(2));
      await first.flush();
      const reloaded = newHistory(warnings);
      await reloaded.ready();
      expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e2', 'e1']);
      expect(warnings).to.deep.equal([]);
      first.close();
      reloaded.close();
      const { version, stores: found } = await describeDatabase();
      expect(version).to.equal(2);
      expect(Object.keys(found).sort()).to.deep.equal([...stores, 'history'].sort());
      for (const name of stores) expect(found[name]).to.equal(`kept in ${name}`);
      await deleteDatabase(databaseName); // rejects while a connection is left open
    });
  }

  it('lets other code that holds the old version close on versionchange, then persists', async () => {
    const other = await openAsOtherCode(['settings']);
    let toldToClose = false;
    other.onversionchange = () => ((toldToClose = true), other.close());
    const warnings: string[] = [];
    const history = newHistory(warnings);
    history.add(request(1));
    await history.flush();
    expect(toldToClose).to.equal(true);
    expect(warnings).to.deep.equal([]);
    const reloaded = newHistory(warnings);
    await reloaded.ready();
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e1']);
    history.close();
    reloaded.close();
  });

  it('falls back to memory, with one warning, while other code holds the old version open; the next page persists', async () => {
    const other = await openAsOtherCode(['settings']); // ignores versionchange: the upgrade is blocked
    const warnings: string[] = [];
    const blocked = newHistory(warnings, 200);
    await blocked.ready();
    blocked.add(request(1));
    await blocked.flush();
    expect(blocked.list().map((e) => e.id)).to.deep.equal(['e1']);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/did not open within 200 ms/);
    other.close();
    blocked.close();
    // The queued upgrade runs once the other connection is gone; the connection it gives is closed, not left to block.
    const later = newHistory(warnings);
    later.add(request(2));
    await later.flush();
    const reloaded = newHistory(warnings);
    await reloaded.ready();
    expect(reloaded.list().map((e) => e.id)).to.deep.equal(['e2']);
    expect(warnings).to.have.length(1);
    later.close();
    reloaded.close();
    expect((await describeDatabase()).stores).to.deep.equal({ settings: 'kept in settings', history: undefined });
    await deleteDatabase(databaseName);
  });
});
