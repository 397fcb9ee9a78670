import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import type { TicHistoryDeleteEvent, TicHistorySelectEvent } from '../../src/events/index.js';

function filledHistory() {
  const history = new History({ enabled: true });
  history.add({ id: 'a', method: 'GET', url: 'https://api.example/pets', status: 200, duration: 41.6 });
  history.add({ id: 'b', method: 'POST', url: 'https://api.example/pets', status: 422, duration: 12 });
  history.add({ id: 'c', method: 'DELETE', url: 'https://api.example/pets/1', status: 0, duration: 3 });
  return history;
}
const rows = (el: RequestHistory) => [...el.shadowRoot!.querySelectorAll('li')];
/** What has focus, as text: a failed comparison of elements would make the runner serialise them. */
const focused = (el: RequestHistory) => el.shadowRoot!.activeElement?.textContent!.replace(/\s+/g, ' ').trim().replace(/ · .*/, '');

describe('<request-history>', () => {
  it('lists entries newest first with method, URL, status, duration and time', async () => {
    const el = await fixture<RequestHistory>(html`<request-history .history=${filledHistory()}></request-history>`);
    const texts = rows(el).map((row) => row.querySelector('button.entry')!.textContent!.replace(/\s+/g, ' ').trim());
    expect(texts[0]).to.match(/^DELETE https:\/\/api\.example\/pets\/1 no response 3 ms · \d/);
    expect(texts[1]).to.match(/^POST https:\/\/api\.example\/pets 422 12 ms/);
    expect(texts[2]).to.match(/^GET https:\/\/api\.example\/pets 200 42 ms/);
  });

  it('is accessible, empty and full', async () => {
    await expect(await fixture(html`<request-history .history=${filledHistory()}></request-history>`)).to.be.accessible();
    await expect(await fixture(html`<request-history .history=${new History({ enabled: true })}></request-history>`)).to.be.accessible();
  });

  it('shows an empty state', async () => {
    const el = await fixture<RequestHistory>(html`<request-history .history=${new History({ enabled: true })}></request-history>`);
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.contain('No requests yet');
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[part="clear-button"]')!.disabled).to.equal(true);
    const off = await fixture<RequestHistory>(html`<request-history .history=${new History({ enabled: false })}></request-history>`);
    expect(off.shadowRoot!.querySelector('.empty')!.textContent).to.contain('History is turned off');
  });

  it('fires tic-history-select with the entry when one is picked by keyboard', async () => {
    const el = await fixture<RequestHistory>(html`<request-history .history=${filledHistory()}></request-history>`);
    rows(el)[1]!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    const selected = oneEvent<TicHistorySelectEvent>(el, 'tic-history-select');
    await sendKeys({ press: 'Enter' });
    const { entry } = await selected;
    expect([entry.id, entry.method, entry.status]).to.deep.equal(['b', 'POST', 422]);
  });

  it('deletes one entry, moving focus to its neighbour, then to the empty list, and announces it', async () => {
    const history = filledHistory();
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    const deleteByKeyboard = async (index: number) => {
      rows(el)[index]!.querySelector<HTMLButtonElement>('button.delete')!.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
    };
    const deleted = oneEvent<TicHistoryDeleteEvent>(el, 'tic-history-delete');
    await deleteByKeyboard(1);
    expect((await deleted).id).to.equal('b');
    expect(history.list().map((e) => e.id)).to.deep.equal(['c', 'a']);
    expect(focused(el), 'the next entry').to.equal('GET https://api.example/pets 200 42 ms');
    expect(status.textContent).to.equal('Deleted POST https://api.example/pets from history.');
    await deleteByKeyboard(1);
    expect(focused(el), 'the previous entry, when the last is deleted').to.equal('DELETE https://api.example/pets/1 no response 3 ms');
    await deleteByKeyboard(0);
    expect(focused(el), 'the empty list').to.equal('No requests yet. Requests you send appear here.');
    expect(status.textContent).to.equal('Deleted DELETE https://api.example/pets/1 from history.');
  });

  it('clears all, keeping focus in the element, and announces it', async () => {
    const history = filledHistory();
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    const cleared = oneEvent<TicHistoryDeleteEvent>(el, 'tic-history-delete');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="clear-button"]')!.focus();
    await sendKeys({ press: 'Enter' });
    expect((await cleared).id).to.equal(undefined);
    await el.updateComplete;
    expect(history.size).to.equal(0);
    expect(rows(el)).to.have.length(0);
    expect(focused(el)).to.equal('No requests yet. Requests you send appear here.');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('History cleared.');
    await expect(el).to.be.accessible();
  });

  it('shows entries added elsewhere', async () => {
    const history = new History({ enabled: true });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    history.add({ method: 'GET', url: 'https://api.example/new', status: 201, duration: 1 });
    await el.updateComplete;
    expect(rows(el)).to.have.length(1);
  });

  it('renders hostile entries as text', async () => {
    const history = new History({ enabled: true });
    history.add({ method: 'GET', url: `https://api.example/${HOSTILE}`, headers: { 'X-Evil': HOSTILE }, body: HOSTILE, status: 200, duration: 1 });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    expect(el.shadowRoot!.querySelector('.url')!.textContent).to.equal(`https://api.example/${HOSTILE}`);
    expect(el.shadowRoot!.querySelector('img, script, a')).to.equal(null);
    await expectNothingRan();
  });
});
