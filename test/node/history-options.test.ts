import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, EnvironmentManager, History, IdbHistoryStore, InvalidArgumentError, type HistoryStore } from '../../src/core/index.js';

/** Asserts that `run` throws `type` for `field` (ConfigError.field or InvalidArgumentError.argument) saying `says`. */
function refused(run: () => unknown, type: typeof ConfigError | typeof InvalidArgumentError, field: string, says: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof type, `expected a ${type.name}, got ${String(error)}`);
    assert.equal(error instanceof ConfigError ? error.field : (error as InvalidArgumentError).argument, field);
    assert.match(error.message, says);
    return true;
  });
}

class MemoryStore implements HistoryStore {
  puts = 0;
  async load() {
    return [];
  }
  async put() {
    this.puts += 1;
  }
  async delete() {}
  async clear() {}
}

const entry = { method: 'GET', url: 'https://api.example/', status: 200, duration: 1 };

describe('Options that would leave history or resolving silently off', () => {
  it('History refuses a store passed in place of { store }, which kept history in memory only without a word', async () => {
    const store = new MemoryStore();
    refused(() => new History({ enabled: true }, store as never), ConfigError, 'History options', /write new History\(config, \{ store \}\)/);
    const history = new History({ enabled: true }, { store });
    history.add(entry);
    await history.flush();
    assert.equal(store.puts, 1);
  });

  it('History refuses a misspelt option, an onWarning that is not a function and a store without its methods', () => {
    refused(() => new History({ enabled: true }, { storage: new MemoryStore() } as never), ConfigError, 'History options.storage', /not a known field; known fields: store, onWarning/);
    refused(() => new History({ enabled: true }, { onWarning: 'console' } as never), ConfigError, 'History options.onWarning', /must be a function/);
    const methods = { load: async () => [], put: async () => {}, delete: async () => {}, clear: async () => {} };
    refused(() => new History({ enabled: true }, { store: { ...methods, put: undefined } as never }), ConfigError, 'History options.store.put', /must be a function: a HistoryStore has load, put, delete, clear/);
    refused(() => new History({ enabled: true }, { store: { ...methods, watch: true } as never }), ConfigError, 'History options.store.watch', /must be a function/);
    assert.equal(new History({ enabled: true }, { store: methods }).size, 0);
  });

  it('IdbHistoryStore refuses a storage key that is not a non-empty string, which named one shared database, and unknown options', () => {
    refused(() => new IdbHistoryStore({ storageKey: 'docs' } as never), ConfigError, 'storageKey', /non-empty string/);
    refused(() => new IdbHistoryStore(''), ConfigError, 'storageKey', /non-empty string/);
    refused(() => new IdbHistoryStore('docs', { timeout: 1000 } as never), ConfigError, 'IdbHistoryStore options.timeout', /known fields: indexedDB, openTimeout/);
    assert.equal(new IdbHistoryStore().databaseName, 'try-it-console:default');
    assert.equal(new IdbHistoryStore('docs', { openTimeout: 1000 }).databaseName, 'try-it-console:docs');
  });

  it('resolve refuses a misspelt option, which resolved under the default cap', () => {
    const manager = new EnvironmentManager({ name: 'a', variables: { x: 'xx' } });
    refused(() => manager.resolve('{{x}}', { maxgrowth: 1 } as never), InvalidArgumentError, 'options.maxgrowth', /known: maxGrowth/);
    assert.equal(manager.resolve('{{x}}', { maxGrowth: 2 }), 'xx');
  });
});
