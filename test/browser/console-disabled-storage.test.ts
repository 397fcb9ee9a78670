// A console turned off by its configuration touches nothing: it sends nothing, and opens no IndexedDB database.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/try-it-console/try-it-console.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

const databaseNames = async () => (await indexedDB.databases()).map((database) => database.name);

describe('<try-it-console> with enabled: false', () => {
  it('shows its notice and opens no history database, where an enabled one does', async () => {
    const key = `disabled-${Date.now()}`;
    const off = await fixture<TryItConsole>(html`<try-it-console .config=${{ enabled: false, history: { storageKey: `${key}-off` } }}></try-it-console>`);
    const on = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { storageKey: `${key}-on` } }}></try-it-console>`);
    await on.engine!.history.ready();
    expect(off.shadowRoot!.textContent).to.contain('The API console is turned off for this page.');
    const names = await databaseNames();
    expect(names, 'the enabled console’s database, opened first, is there').to.include(`try-it-console:${key}-on`);
    expect(names).not.to.include(`try-it-console:${key}-off`);
  });
});
