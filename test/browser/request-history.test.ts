import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
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
/** A node's text as screen readers get it (a button's accessible name comes from it): aria-hidden parts left out. */
const spoken = (node: Node): string =>
  node instanceof Element && node.getAttribute('aria-hidden') === 'true' ? '' : node.nodeType === Node.TEXT_NODE ? node.textContent! : [...node.childNodes].map(spoken).join('');
/** Text with its runs of white space (non-breaking ones included) made one space. */
const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();
/**
 * Whether `text` shows whole somewhere in `root`: every box of it inside every box that clips it (overflow other
 * than visible, as an ellipsis or a line clamp needs), up to `root`.
 */
function showsWhole(root: Element, text: string): boolean {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const start = node.textContent!.indexOf(text);
    if (start === -1) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + text.length);
    const boxes = [...range.getClientRects()];
    const clips: DOMRect[] = [];
    for (let el = node.parentElement; el && el !== root.parentElement; el = el.parentElement) {
      if (getComputedStyle(el).overflow !== 'visible') clips.push(el.getBoundingClientRect());
    }
    const inside = (box: DOMRect, clip: DOMRect) =>
      box.left >= clip.left - 0.5 && box.right <= clip.right + 0.5 && box.top >= clip.top - 0.5 && box.bottom <= clip.bottom + 0.5;
    if (boxes.length > 0 && boxes.every((box) => clips.every((clip) => inside(box, clip)))) return true;
  }
  return false;
}
/** What has focus, as spoken, without the time: a failed comparison of elements would make the runner serialise them. */
const focused = (el: RequestHistory) => squeezed(spoken(el.shadowRoot!.activeElement!)).replace(/ · [^·]*$/, '');

describe('<request-history>', () => {
  it('lists entries newest first with method, URL, status, duration and time', async () => {
    const el = await fixture<RequestHistory>(html`<request-history .history=${filledHistory()}></request-history>`);
    const texts = rows(el).map((row) => squeezed(spoken(row.querySelector('button.entry')!)));
    expect(texts[0]).to.match(/^DELETE https:\/\/api\.example\/pets\/1 no response 3 ms · \d/);
    expect(texts[1]).to.match(/^POST https:\/\/api\.example\/pets 422 12 ms/);
    expect(texts[2]).to.match(/^GET https:\/\/api\.example\/pets 200 42 ms/);
  });

  // 375 px: a phone; 288 px: the 18rem side column of a wide console.
  for (const width of [375, 288]) {
    it(`tells apart entries to one server at ${width} px: path and query shown whole, the origin below, the whole URL on hover`, async () => {
      const origin = 'http://127.0.0.1:49152';
      const paths = ['/pets?limit=2', '/pets/7', '/owners/3/pets?status=sold', '/pets/7/photo'];
      const history = new History({ enabled: true });
      paths.forEach((path, index) => history.add({ method: 'GET', url: origin + path, status: index === 3 ? 0 : 200, duration: 5 }));
      const el = await fixture<RequestHistory>(html`<request-history style="width: ${width}px" .history=${history}></request-history>`);
      for (const [index, row] of rows(el).entries()) {
        const path = paths[paths.length - 1 - index]!;
        const url = origin + path;
        const entry = row.querySelector<HTMLElement>('button.entry')!;
        expect(showsWhole(entry, path), `${path} shown whole`).to.equal(true);
        expect(row.querySelector<HTMLElement>('.path')?.innerText, 'as the main text').to.equal(path);
        expect(row.querySelector<HTMLElement>('.meta')!.innerText.replace(/\s+/g, ' ').startsWith(`${origin} · 5 ms · `), 'the origin below').to.equal(true);
        expect(showsWhole(row.querySelector('.meta')!, origin), 'shown whole').to.equal(true);
        expect(entry.title).to.equal(`Load GET ${url} into the console`);
        expect(squeezed(spoken(entry)), 'spoken: the whole URL, once').to.match(new RegExp(`^GET ${url.replace(/[.?]/g, '\\$&')} (200|no response) 5 ms · \\d[^/]*$`));
      }
      expect(el.scrollWidth, 'nothing wider than the element').to.be.at.most(el.clientWidth);
    });
  }

  it('cuts a long path after two lines, within the row, and shows a URL without an origin whole', async () => {
    const history = new History({ enabled: true });
    history.add({ method: 'GET', url: `https://api.staging.example.com:8443/search?q=${'x'.repeat(300)}`, status: 200, duration: 1 });
    history.add({ method: 'GET', url: 'urn:example:pets', status: 0, duration: 1 });
    const el = await fixture<RequestHistory>(html`<request-history style="width: 375px" .history=${history}></request-history>`);
    const [noOrigin, long] = rows(el) as [HTMLLIElement, HTMLLIElement];
    expect(showsWhole(long, `/search?q=${'x'.repeat(20)}`), 'the start of the path shown').to.equal(true);
    expect(showsWhole(long, 'x'.repeat(200)), 'not all of it').to.equal(false);
    expect(showsWhole(noOrigin, 'urn:example:pets')).to.equal(true);
    expect(noOrigin.querySelector('.origin')).to.equal(null);
    expect(squeezed(spoken(noOrigin.querySelector('button.entry')!))).to.match(/^GET urn:example:pets no response 1 ms · \d/);
    const url = long.querySelector<HTMLElement>('.url')!;
    const oneLine = noOrigin.querySelector('.url')!.clientHeight;
    expect(url.clientHeight / oneLine, 'two lines').to.be.closeTo(2, 0.1);
    expect(url.scrollHeight, 'and the rest cut').to.be.above(url.clientHeight);
    const box = el.getBoundingClientRect();
    for (const part of [url, long.querySelector('.status')!, long.querySelector('button.delete')!]) {
      expect(part.getBoundingClientRect().right, part.className).to.be.at.most(box.right);
    }
    expect(el.scrollWidth).to.be.at.most(el.clientWidth);
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
    await waitUntil(() => status.textContent === 'Deleted POST https://api.example/pets from history.', 'the deletion announced');
    await deleteByKeyboard(1);
    expect(focused(el), 'the previous entry, when the last is deleted').to.equal('DELETE https://api.example/pets/1 no response 3 ms');
    await deleteByKeyboard(0);
    expect(focused(el), 'the empty list').to.equal('No requests yet. Requests you send appear here.');
    await waitUntil(() => status.textContent === 'Deleted DELETE https://api.example/pets/1 from history.', 'the last deletion announced');
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
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')!.textContent === 'History cleared.', 'announced');
    await expect(el).to.be.accessible();
  });

  it('announces every deletion and clear, one just like the last too', async () => {
    const history = new History({ enabled: true });
    for (const duration of [10, 11, 12]) history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    // Every text the region takes: a screen reader reads what changes in it, and an equal text set again is none.
    const said: string[] = [];
    const observer = new MutationObserver(() => said.push(status.textContent!));
    observer.observe(status, { childList: true, characterData: true, subtree: true });
    const announced = async (message: string, times: number) => {
      await waitUntil(() => said.filter((text) => text === message).length === times, `"${message}" said ${times} times`);
      await el.updateComplete;
    };
    try {
      for (const times of [1, 2, 3]) {
        el.shadowRoot!.querySelector<HTMLButtonElement>('button.delete')!.click();
        await announced('Deleted GET https://api.example/pets from history.', times);
      }
      for (const times of [1, 2]) {
        history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration: 1 });
        await el.updateComplete;
        el.shadowRoot!.querySelector<HTMLButtonElement>('[part="clear-button"]')!.click();
        await announced('History cleared.', times);
      }
    } finally {
      observer.disconnect();
    }
  });

  it('keeps focus on its entry when a newer one arrives on top, so Enter loads or deletes that entry', async () => {
    const history = filledHistory();
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    rows(el)[1]!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    history.add({ id: 'd', method: 'PUT', url: 'https://api.example/pets/2', status: 204, duration: 5 });
    await el.updateComplete;
    expect(rows(el)).to.have.length(4);
    expect(focused(el), 'still the entry focused').to.equal('POST https://api.example/pets 422 12 ms');
    const selected = oneEvent<TicHistorySelectEvent>(el, 'tic-history-select');
    await sendKeys({ press: 'Enter' });
    expect((await selected).entry.id).to.equal('b');

    rows(el)[3]!.querySelector<HTMLButtonElement>('button.delete')!.focus();
    history.add({ id: 'e', method: 'GET', url: 'https://api.example/owners', status: 200, duration: 5 });
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Delete GET https://api.example/pets from history');
    const deleted = oneEvent<TicHistoryDeleteEvent>(el, 'tic-history-delete');
    await sendKeys({ press: 'Enter' });
    expect((await deleted).id).to.equal('a');
    expect(history.list().map((entry) => entry.id)).to.deep.equal(['e', 'd', 'c', 'b']);
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
    expect(el.shadowRoot!.querySelector('.path')?.textContent).to.equal(`/${HOSTILE}`);
    expect(el.shadowRoot!.querySelector('button.entry')!.getAttribute('title')).to.equal(`Load GET https://api.example/${HOSTILE} into the console`);
    expect(el.shadowRoot!.querySelector('img, script, a')).to.equal(null);
    await expectNothingRan();
  });
});
