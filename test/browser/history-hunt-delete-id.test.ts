// History.delete given an id that is not a string (a page passing on tic-history-delete's `id`, undefined for Clear all)
// before the stored entries had loaded: taken as a clear by the load, and sent to IndexedDB, which refuses undefined as
// a key (DataError), so history stopped persisting for the page and showed a warning. Failed on the code as it was.
import { expect } from '@open-wc/testing';
import { History, IdbHistoryStore, InvalidArgumentError } from '../../src/core/index.js';
import { deleteDatabase } from './support/delete-database.js';

describe('History.delete with an id that is not a string', () => {
  it('is refused, before the load too, and persistence goes on', async () => {
    const storageKey = `history-hunt-delete-id-${Date.now()}`;
    await deleteDatabase(`try-it-console:${storageKey}`);
    const open = (warnings: string[]) => new History({ enabled: true }, { store: new IdbHistoryStore(storageKey), onWarning: (message) => warnings.push(message) });
    const first = open([]);
    first.add({ id: 'kept', method: 'GET', url: 'https://api.example/kept', status: 200, duration: 1 });
    await first.flush();
    first.close();

    const warnings: string[] = [];
    const history = open(warnings);
    for (const id of [undefined, 42, null]) expect(() => history.delete(id as never), String(id)).to.throw(InvalidArgumentError, /id.*must be a string/);
    await history.ready();
    history.add({ id: 'added', method: 'GET', url: 'https://api.example/added', status: 200, duration: 1 });
    await history.flush();
    expect(warnings).to.deep.equal([]);
    expect(history.list().map((entry) => entry.id)).to.deep.equal(['added', 'kept']);
    history.close();

    const reloaded = open([]);
    await reloaded.ready();
    expect(reloaded.list().map((entry) => entry.id), 'both stored').to.deep.equal(['added', 'kept']);
    reloaded.close();
  });
});
