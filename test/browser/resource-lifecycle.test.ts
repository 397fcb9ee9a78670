// What elements and stores hold on to once they are removed or closed, as a docs site with client-side navigation
// stresses them: each test counts the live resources (subscriptions, database connections, timers) rather than
// measuring time or memory.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { createStore, set } from 'idb-keyval';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { EnvironmentManager, History, IdbHistoryStore, type ConsoleConfig, type StoredHistoryRecord } from '../../src/core/index.js';
import { deleteDatabase } from './support/delete-database.js';
import { loseRecordOnRead } from './support/lost-record.js';
import { isOpen } from './support/open-connection.js';

let servers: { api: string; proxy: string };
let run = 0;

function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  run += 1;
  return {
    corsProxy: servers.proxy,
    environments: [
      { name: 'Local', variables: { base_url: servers.api } },
      { name: 'Other', variables: { base_url: servers.api } },
    ],
    history: { enabled: true, storageKey: `lifecycle-test-${Date.now()}-${run}` },
    ...extra,
  };
}

/** Lets the microtask that tells a removal from a move run, and what it started. */
const settle = () => new Promise((resolve) => setTimeout(resolve));

/**
 * Counts, per manager, the listeners subscribed and not yet unsubscribed, by wrapping `subscribe` (which still does
 * its work). `restore()` puts the original back.
 */
function countEnvironmentListeners() {
  const original = EnvironmentManager.prototype.subscribe;
  const live = new Map<EnvironmentManager, number>();
  EnvironmentManager.prototype.subscribe = function (this: EnvironmentManager, listener: () => void) {
    const unsubscribe = original.call(this, listener);
    live.set(this, (live.get(this) ?? 0) + 1);
    let subscribed = true;
    return () => {
      if (subscribed) live.set(this, live.get(this)! - 1);
      subscribed = false;
      unsubscribe();
    };
  };
  return { live, restore: () => (EnvironmentManager.prototype.subscribe = original) };
}

/** Timers set by this package's own modules (`/src/` in the stack) that have neither fired nor been cleared. */
function countOwnTimers() {
  const { setTimeout: originalSet, clearTimeout: originalClear } = window;
  const pending = new Map<number, string>();
  window.setTimeout = ((callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const setter = new Error().stack!.split('\n').slice(2).find((line) => line.includes('/src/'));
    const id = originalSet(() => {
      pending.delete(id);
      callback(...args);
    }, delay);
    if (setter) pending.set(id, setter.trim());
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    pending.delete(id!);
    originalClear(id);
  }) as typeof window.clearTimeout;
  return {
    pending,
    restore: () => {
      window.setTimeout = originalSet;
      window.clearTimeout = originalClear;
    },
  };
}

describe('resource lifecycles', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('<try-it-console> stops listening to its environments once removed or given another configuration', async () => {
    const listeners = countEnvironmentListeners();
    try {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
      const first = el.engine!.environments;
      // The page shows the console's environments in a picker of its own, say in the site's header.
      const picker = await fixture<EnvPicker>(html`<env-picker .manager=${first}></env-picker>`);
      // Other environments, so another manager: with the same ones, the console keeps the manager it shares.
      el.config = config({ environments: [{ name: 'Staging', variables: { base_url: servers.api } }] });
      await el.updateComplete;
      expect(el.engine!.environments, 'another manager').not.to.equal(first);
      await settle();
      expect(listeners.live.get(first), 'after another configuration: the page’s picker alone').to.equal(1);

      const second = el.engine!.environments;
      picker.manager = second;
      el.remove();
      await settle();
      // The console's listener would keep the removed console (its shadow DOM, its last response) alive for as long
      // as the page keeps the manager.
      expect(listeners.live.get(second), 'after removal: the page’s picker alone').to.equal(1);
      expect(listeners.live.get(first), 'the first manager: nothing').to.equal(0);
    } finally {
      listeners.restore();
    }
  });

  it('an IdbHistoryStore closed while loading opens no connection again to delete an unreadable record', async () => {
    const storageKey = `lifecycle-idb-${Date.now()}`;
    const databaseName = `try-it-console:${storageKey}`;
    await deleteDatabase(databaseName);
    const record = (id: string): StoredHistoryRecord => ({ entry: { id, method: 'GET', url: `https://api.example/${id}`, headers: {}, body: '', status: 200, duration: 1, timestamp: new Date() }, addedAt: Date.now() });
    const raw = createStore(databaseName, 'history');
    await set('e1', record('e1'), raw);
    await set('e2', record('e2'), raw);
    (await new Promise<IDBDatabase>((resolve) => (indexedDB.open(databaseName).onsuccess = (event) => resolve((event.target as IDBOpenDBRequest).result)))).close();

    const connections: IDBDatabase[] = [];
    const counting = {
      open(name: string) {
        const request = indexedDB.open(name);
        request.addEventListener('success', () => connections.push(request.result));
        return request;
      },
    };
    const restoreReads = loseRecordOnRead('e2');
    try {
      const store = new IdbHistoryStore(storageKey, { indexedDB: counting });
      // The console is removed (client-side navigation) while its history is still loading.
      const loading = store.load();
      store.close();
      await loading;
    } finally {
      restoreReads();
    }
    expect(connections.filter(isOpen), 'connections left open').to.have.length(0);
    expect(connections, 'opened once').to.have.length(1);
  });

  it('leaves no timer of its own running once removed, even when the clipboard answers after the removal', async () => {
    const timers = countOwnTimers();
    try {
      const snippet = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example.com/pets"></code-snippet>`);
      const copied = oneEvent(snippet, 'tic-copy');
      snippet.shadowRoot!.querySelector<HTMLElement>('[part="copy-button"]')!.click();
      snippet.remove();
      await copied;

      const history = new History({ enabled: true });
      history.add({ method: 'GET', url: 'https://api.example.com/pets', status: 200, duration: 1 });
      const list = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
      // Deleting announces it after a pause (see LiveAnnouncer); the page navigates away within it.
      list.shadowRoot!.querySelector<HTMLElement>('button.delete')!.click();
      list.remove();
      await settle();

      expect([...timers.pending.values()]).to.deep.equal([]);
    } finally {
      timers.restore();
    }
  });
});
