// A hunt for defects in <request-history> as a demanding user of API consoles would meet them: each test failed on the
// code as it was before the fix it comes with.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History, type HistoryConfig } from '../../src/core/index.js';
import type { TicHistorySelectEvent } from '../../src/events/index.js';
import { axNodes } from './support/accessibility-tree.js';

/** The element once the history's stored entries have loaded. */
async function shown(history: History) {
  const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
  await history.ready();
  await el.updateComplete;
  return el;
}

describe('<request-history> hunt', () => {
  it('masks the query parameters the site lists in redactQueryParameters, as history stores them: row, hover, names, announcement', async () => {
    // OpenWeather's appid is a key no convention names: the site lists it, and the stored entry has it redacted; the row
    // showed it in full for the rest of the visit.
    const config: HistoryConfig = { enabled: true, redactQueryParameters: ['AppId', 'user[pin]'] };
    const history = new History(config);
    history.add({ id: 'a', method: 'GET', url: 'https://api.example/weather?q=Paris&appid=0123456789abcdef&user%5Bpin%5D=4321', status: 200, duration: 5 });
    const el = await shown(history);
    const masked = 'https://api.example/weather?q=Paris&appid=••••••••&user%5Bpin%5D=••••••••';
    const names = (await axNodes()).filter((node) => node.role === 'button' && node.name?.includes('weather')).map((node) => node.name!);
    expect(names.length).to.equal(2);
    // Names and the announcement say each mask as "hidden value" (masks-hunt-reading.test.ts); text and title show it.
    const spoken = 'https://api.example/weather?q=Paris&appid= hidden value &user%5Bpin%5D= hidden value';
    expect(names.filter((name) => !name.includes(spoken)), 'names').to.deep.equal([]);
    expect(el.shadowRoot!.querySelector('.path')!.getAttribute('title')).to.equal(masked);
    expect(el.shadowRoot!.querySelector('li')!.textContent).not.to.match(/0123456789abcdef|4321/);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.delete')!.click();
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')!.textContent, 'announced');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal(`Deleted GET ${spoken} from history.`);
  });

  it('masks them in rows already shown once given another history of the same entries that lists them', async () => {
    // A console given a new configuration: the same stored entries, and now the site lists appid.
    const entry = { id: 'a', method: 'GET', url: 'https://api.example/weather?appid=0123456789abcdef', status: 200, duration: 5, timestamp: new Date() };
    const before = new History({ enabled: true });
    before.add(entry);
    const el = await shown(before);
    const after = new History({ enabled: true, redactQueryParameters: ['appid'] });
    after.add(entry);
    el.history = after;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.path')!.getAttribute('title')).to.equal('https://api.example/weather?appid=••••••••');
  });

  it('keeps focus on an entry added again (now the newest), so Enter loads that entry, not the one that took its place', async () => {
    const history = new History({ enabled: true });
    for (const n of [0, 1, 2, 3, 4]) history.add({ id: `e${n}`, method: 'GET', url: `https://api.example/pets/${n}`, status: 200, duration: 1 });
    const el = await shown(history);
    const picked: string[] = [];
    el.addEventListener('tic-history-select', (event: TicHistorySelectEvent) => picked.push(event.entry.url));
    el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.entry')[2]!.focus();
    // Another tab, or the page, adds the entry again: it goes to the top of the list.
    history.add({ id: 'e2', method: 'GET', url: 'https://api.example/pets/2', status: 304, duration: 1 });
    await el.updateComplete;
    await sendKeys({ press: 'Enter' });
    expect(picked).to.deep.equal(['https://api.example/pets/2']);
  });
});
