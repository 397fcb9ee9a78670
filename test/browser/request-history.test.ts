import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History, type HistoryStore } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import { axNodes, type AXNode } from './support/accessibility-tree.js';
import type { TicHistoryDeleteEvent, TicHistorySelectEvent } from '../../src/events/index.js';

function filledHistory(config: { maxItems?: number } = {}) {
  const history = new History({ enabled: true, ...config });
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
const focused = (el: RequestHistory) => {
  const active = el.shadowRoot!.activeElement;
  return active ? squeezed(spoken(active)).replace(/ · [^·]*$/, '') : '(focus is not in the element)';
};
/** The accessible name of a focused ✕ button, which its label gives. */
const focusedLabel = (el: RequestHistory) => el.shadowRoot!.activeElement?.getAttribute('aria-label');
/** The element once the history's stored entries have loaded (until then an empty list says it is loading). */
async function shown(history: History, width?: number) {
  const el = await fixture<RequestHistory>(html`<request-history style=${width ? `width: ${width}px` : ''} .history=${history}></request-history>`);
  await history.ready();
  await el.updateComplete;
  return el;
}
/** The page's buttons as Chromium exposes them to assistive technology (names computed by the browser, not from DOM text). */
async function axButtons(): Promise<AXNode[]> {
  return (await axNodes()).filter((node) => node.role === 'button');
}
async function shiftTab() {
  await sendKeys({ down: 'Shift' });
  await sendKeys({ press: 'Tab' });
  await sendKeys({ up: 'Shift' });
}
/** Whether the characters of the last text in `element` are drawn left to right, each right of the one before. */
function drawnLeftToRight(element: Element): boolean {
  const texts = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text: Node | undefined;
  for (let node = texts.nextNode(); node; node = texts.nextNode()) if (node.textContent!.trim() !== '') text = node;
  if (!text) return false;
  const range = document.createRange();
  const lefts = [...text.textContent!].map((_, index) => {
    range.setStart(text, index);
    range.setEnd(text, index + 1);
    return range.getBoundingClientRect().left;
  });
  return lefts.every((left, index) => index === 0 || left > lefts[index - 1]!);
}
const clearButton = (el: RequestHistory) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="clear-button"]')!;
/** Clear all, then the button confirming it. */
async function clearAll(el: RequestHistory) {
  clearButton(el).click();
  await el.updateComplete;
  clearButton(el).click();
  await el.updateComplete;
}

describe('<request-history>', () => {
  it('lists entries newest first with method, URL, status, duration and time', async () => {
    const el = await shown(filledHistory());
    const texts = rows(el).map((row) => squeezed(spoken(row.querySelector('button.entry')!)));
    expect(texts[0]).to.match(/^DELETE https:\/\/api\.example\/pets\/1 failed 3 ms · \d/);
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
      const el = await shown(history, width);
      for (const [index, row] of rows(el).entries()) {
        const path = paths[paths.length - 1 - index]!;
        const url = origin + path;
        const entry = row.querySelector<HTMLElement>('button.entry')!;
        expect(showsWhole(row.querySelector('.path')!, path), `${path} shown whole, as the main text`).to.equal(true);
        expect(row.querySelector<HTMLElement>('.meta')!.innerText.replace(/\s+/g, ' ').startsWith(`${origin} · 5 ms · `), 'the origin below').to.equal(true);
        expect(showsWhole(row.querySelector('.meta')!, origin), 'shown whole').to.equal(true);
        expect(row.querySelector<HTMLElement>('.path')!.title).to.equal(url);
        expect(squeezed(spoken(entry)), 'spoken: the whole URL, once').to.match(new RegExp(`^GET ${url.replace(/[.?]/g, '\\$&')} (200|failed) 5 ms · \\d[^/]*$`));
      }
      expect(el.scrollWidth, 'nothing wider than the element').to.be.at.most(el.clientWidth);
    });
  }

  it('cuts a long path after two lines, within the row, and shows a URL without an origin whole', async () => {
    const history = new History({ enabled: true });
    history.add({ method: 'GET', url: `https://api.staging.example.com:8443/search?q=${'x'.repeat(300)}`, status: 200, duration: 1 });
    history.add({ method: 'GET', url: 'urn:example:pets', status: 0, duration: 1 });
    const el = await shown(history, 375);
    const [noOrigin, long] = rows(el) as [HTMLLIElement, HTMLLIElement];
    expect(showsWhole(long, `/search?q=${'x'.repeat(20)}`), 'the start of the path shown').to.equal(true);
    expect(showsWhole(long, 'x'.repeat(200)), 'not all of it').to.equal(false);
    expect(showsWhole(noOrigin, 'urn:example:pets')).to.equal(true);
    expect(noOrigin.querySelector('.origin')).to.equal(null);
    expect(squeezed(spoken(noOrigin.querySelector('button.entry')!))).to.match(/^GET urn:example:pets failed 1 ms · \d/);
    const url = long.querySelector<HTMLElement>('.path')!;
    const oneLine = noOrigin.querySelector('.path')!.clientHeight;
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
    const el = await shown(new History({ enabled: true }));
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.contain('No requests yet');
    expect(clearButton(el).disabled).to.equal(true);
    const off = await shown(new History({ enabled: false }));
    expect(off.shadowRoot!.querySelector('.empty')!.textContent).to.contain('History is turned off');
  });

  it('says nothing before it is given a history (not that history is turned off)', async () => {
    const el = await fixture<RequestHistory>(html`<request-history></request-history>`);
    expect(el.shadowRoot!.textContent!.trim()).to.equal('');
    el.history = new History({ enabled: true });
    await el.history.ready();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.contain('No requests yet');
    await expect(el).to.be.accessible();
  });

  it('says it is loading while the stored entries load, not that there are none', async () => {
    let loadStored!: (records: unknown[]) => void;
    const store: HistoryStore = { load: () => new Promise((resolve) => (loadStored = resolve)), put: async () => {}, delete: async () => {}, clear: async () => {} };
    const history = new History({ enabled: true }, { store });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
    expect(el.shadowRoot!.querySelector('.empty')!.textContent).to.equal('Loading history…');
    await expect(el).to.be.accessible();
    history.add({ id: 'new', method: 'GET', url: 'https://api.example/new', status: 200, duration: 1 });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('ol')!.getAttribute('aria-busy'), 'entries added meanwhile are shown, the list busy').to.equal('true');
    const stored = { entry: { id: 'old', method: 'GET', url: 'https://api.example/stored', headers: {}, body: '', status: 200, duration: 1, timestamp: new Date(Date.now() - 60_000) }, addedAt: 1 };
    loadStored([stored]);
    await history.ready();
    await el.updateComplete;
    expect(rows(el).map((row) => row.querySelector('.path')!.textContent)).to.deep.equal(['https://api.example/new', 'https://api.example/stored']);
    expect(el.shadowRoot!.querySelector('ol')!.hasAttribute('aria-busy')).to.equal(false);
  });

  it('explains in place a history property that is not a History, or a reactive proxy of one (Vue), instead of throwing', async () => {
    // Vue 3's ref() and reactive() wrap a class instance in a Proxy whose get trap is this one: its methods then run
    // with the proxy as `this`, which lacks the History's #private fields.
    const reactive = new Proxy(filledHistory(), { get: (target, key, receiver) => Reflect.get(target, key, receiver) });
    const el = await fixture<RequestHistory>(html`<request-history .history=${reactive}></request-history>`);
    const problem = () => el.shadowRoot!.querySelector('[role="alert"]')?.textContent ?? '';
    expect(problem()).to.contain('reactive proxy').and.to.contain('markRaw(history)');
    expect(rows(el)).to.have.length(0);
    await expect(el).to.be.accessible();
    el.history = { entries: [] } as unknown as History;
    await el.updateComplete;
    expect(problem()).to.equal('The history property must be a History (got an object).');
    const history = filledHistory();
    el.history = history;
    await history.ready();
    await el.updateComplete;
    expect(el.history).to.equal(history);
    expect(problem()).to.equal('');
    expect(rows(el)).to.have.length(3);
  });

  it('announces that history could not be stored, when it happens', async () => {
    const failing: HistoryStore = {
      load: async () => [],
      put: () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
      delete: async () => {},
      clear: async () => {},
    };
    const history = new History({ enabled: true }, { store: failing, onWarning: () => {} });
    const el = await shown(history);
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration: 1 });
    await history.flush();
    const warning = 'Request history could not be saved (QuotaExceededError: The quota has been exceeded.); it is kept for this page only.';
    await waitUntil(() => status.textContent === warning, 'the warning announced');
    expect(el.shadowRoot!.querySelector('.warning')!.textContent).to.equal(warning);
  });

  it('fires tic-history-select with the entry when one is picked by keyboard; the event is cancelable', async () => {
    const el = await shown(filledHistory());
    rows(el)[1]!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    const selected = oneEvent<TicHistorySelectEvent>(el, 'tic-history-select');
    await sendKeys({ press: 'Enter' });
    const event = await selected;
    expect([event.entry.id, event.entry.method, event.entry.status]).to.deep.equal(['b', 'POST', 422]);
    expect(event.cancelable, 'so that <try-it-console> can be told not to load it').to.equal(true);
  });

  it('deletes one entry, moving focus to its neighbour’s ✕, then to the empty list, and announces it', async () => {
    const history = filledHistory();
    const el = await shown(history);
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
    // The ✕ of the next entry: Enter pressed again deletes that one, never loads it over the request being edited.
    expect(focusedLabel(el), 'the next ✕').to.match(/^Delete GET https:\/\/api\.example\/pets \(200, 42 ms, .*\) from history$/);
    await waitUntil(() => status.textContent === 'Deleted POST https://api.example/pets from history.', 'the deletion announced');
    await deleteByKeyboard(1);
    expect(focusedLabel(el), 'the previous ✕, when the last is deleted').to.match(/^Delete DELETE https:\/\/api\.example\/pets\/1 \(failed, 3 ms, .*\) from history$/);
    await deleteByKeyboard(0);
    expect(focused(el), 'the empty list').to.equal('No requests yet. Requests you send appear here.');
    await waitUntil(() => status.textContent === 'Deleted DELETE https://api.example/pets/1 from history.', 'the last deletion announced');
  });

  it('asks before Clear all erases the history: one Enter asks, focus on Cancel; Escape or Cancel keeps every entry', async () => {
    const history = filledHistory();
    const el = await shown(history);
    const active = () => el.shadowRoot!.activeElement?.textContent?.trim();
    clearButton(el).focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(history.size, 'nothing erased yet').to.equal(3);
    const question = el.shadowRoot!.querySelector('[role="group"]')!;
    expect(el.shadowRoot!.getElementById(question.getAttribute('aria-labelledby')!)!.textContent, 'the group says what it asks').to.equal('Clear all 3 entries?');
    expect(active(), 'the safe answer has focus').to.equal('Cancel');
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([history.size, active()], 'a second Enter cancels, focus back on Clear all').to.deep.equal([3, 'Clear all']);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await shiftTab();
    expect(active()).to.equal('Clear');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect([history.size, active()], 'Escape cancels too').to.deep.equal([3, 'Clear all']);
  });

  it('clears all once confirmed, keeping focus in the element, and announces it', async () => {
    const history = filledHistory();
    const el = await shown(history);
    const cleared = oneEvent<TicHistoryDeleteEvent>(el, 'tic-history-delete');
    clearButton(el).focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await shiftTab();
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
    const el = await shown(history);
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
        await clearAll(el);
        await announced('History cleared.', times);
      }
    } finally {
      observer.disconnect();
    }
  });

  it('keeps focus on its entry when a newer one arrives on top, so Enter loads or deletes that entry', async () => {
    const history = filledHistory();
    const el = await shown(history);
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
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.match(/^Delete GET https:\/\/api\.example\/pets \(200, 42 ms, [^)]+\) from history$/);
    const deleted = oneEvent<TicHistoryDeleteEvent>(el, 'tic-history-delete');
    await sendKeys({ press: 'Enter' });
    expect((await deleted).id).to.equal('a');
    expect(history.list().map((entry) => entry.id)).to.deep.equal(['e', 'd', 'c', 'b']);
  });

  it('shows entries added elsewhere', async () => {
    const history = new History({ enabled: true });
    const el = await shown(history);
    history.add({ method: 'GET', url: 'https://api.example/new', status: 201, duration: 1 });
    await el.updateComplete;
    expect(rows(el)).to.have.length(1);
  });

  it('shows the history as it is now when added back, after changes made while it was out of the page', async () => {
    // As a framework's keep-alive tab holds it while the console adds and deletes entries.
    const history = filledHistory();
    const el = await shown(history);
    const parent = el.parentElement!;
    el.remove();
    history.delete('c');
    history.add({ id: 'd', method: 'PUT', url: 'https://api.example/pets/2', status: 204, duration: 5 });
    parent.append(el);
    await el.updateComplete;
    expect(rows(el).map((row) => row.textContent!.match(/GET|POST|PUT|DELETE/)![0])).to.deep.equal(['PUT', 'POST', 'GET']);
    // Still listening: a later change shows too.
    history.clear();
    await el.updateComplete;
    expect(rows(el)).to.have.length(0);
  });

  it('renders hostile entries as text', async () => {
    const history = new History({ enabled: true });
    history.add({ method: 'GET', url: `https://api.example/${HOSTILE}`, headers: { 'X-Evil': HOSTILE }, body: HOSTILE, status: 200, duration: 1 });
    const el = await shown(history);
    const path = el.shadowRoot!.querySelector<HTMLElement>('.path')!;
    expect(path.textContent).to.equal(`https://api.example/${HOSTILE}`);
    expect(path.title).to.equal(`https://api.example/${HOSTILE}`);
    expect(el.shadowRoot!.querySelector('img, script, a')).to.equal(null);
    await expectNothingRan();
  });

  it('keeps focus in the list when the focused entry goes: evicted by a newer one, deleted or cleared by the page or another tab', async () => {
    const history = filledHistory({ maxItems: 3 });
    const el = await shown(history);
    const entryButtons = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.entry')];
    entryButtons()[2]!.focus(); // the oldest, a
    history.add({ id: 'd', method: 'GET', url: 'https://api.example/new', status: 200, duration: 1 });
    await el.updateComplete;
    expect(focused(el), 'evicted: the entry now last').to.equal('POST https://api.example/pets 422 12 ms');
    history.delete('b');
    await el.updateComplete;
    expect(focused(el), 'deleted by the page: its neighbour').to.equal('DELETE https://api.example/pets/1 failed 3 ms');
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.delete')!.focus();
    history.delete('d');
    await el.updateComplete;
    expect(focusedLabel(el), 'from the ✕ of a deleted entry: the next ✕').to.match(/^Delete DELETE https:\/\/api\.example\/pets\/1 \(failed, 3 ms, .*\) from history$/);
    history.clear();
    await el.updateComplete;
    expect(focused(el), 'cleared: the empty list').to.equal('No requests yet. Requests you send appear here.');
    expect(document.activeElement).to.equal(el);
    history.add({ id: 'e', method: 'GET', url: 'https://api.example/again', status: 200, duration: 1 });
    await el.updateComplete;
    expect(focused(el), 'from the empty list, to the entry that replaced it').to.equal('GET https://api.example/again 200 1 ms');
  });

  it('shows the day of an entry not made today, and the time alone for today, in a machine-readable <time>', async () => {
    const history = new History({ enabled: true });
    const now = new Date();
    const threeDaysAgo = new Date(now.getTime() - 3 * 24 * 3600 * 1000);
    const lastYear = new Date(now.getFullYear() - 1, 5, 15, now.getHours(), now.getMinutes(), now.getSeconds());
    history.add({ method: 'GET', url: 'https://api.example/last-year', status: 200, duration: 5, timestamp: lastYear });
    history.add({ method: 'GET', url: 'https://api.example/old', status: 200, duration: 5, timestamp: threeDaysAgo });
    history.add({ method: 'GET', url: 'https://api.example/new', status: 200, duration: 5, timestamp: now });
    const el = await shown(history);
    const [today, old, older] = [...el.shadowRoot!.querySelectorAll('time')];
    const day = (date: Date) => date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
    expect(today!.textContent).to.equal(now.toLocaleTimeString());
    expect(old!.textContent, 'three days ago').to.contain(day(threeDaysAgo)).and.to.contain(threeDaysAgo.toLocaleTimeString());
    expect(older!.textContent, 'another year').to.contain(day(lastYear)).and.to.contain(String(lastYear.getFullYear()));
    expect([today, old, older].map((time) => time!.dateTime)).to.deep.equal([now, threeDaysAgo, lastYear].map((date) => date.toISOString()));
    const names = (await axButtons()).filter((button) => button.name?.startsWith('GET')).map((button) => button.name!);
    expect(names[1], 'screen readers hear the day too').to.contain(day(threeDaysAgo));
  });

  it('writes the day of yesterday’s entries once the tab is shown again after midnight, as after a computer slept', async () => {
    const history = new History({ enabled: true });
    const made = new Date();
    history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration: 5, timestamp: made });
    const el = await shown(history);
    const time = () => el.shadowRoot!.querySelector('time')!.textContent;
    expect(time()).to.equal(made.toLocaleTimeString());
    // The clock a day on, its midnight timer not run: timers wait while a computer sleeps, and run late in hidden tabs.
    const RealDate = Date;
    const dayLater = RealDate.now() + 24 * 3600 * 1000;
    globalThis.Date = class extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(dayLater);
        else super(...(args as [number]));
      }
      static override now(): number {
        return dayLater;
      }
    } as DateConstructor;
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await el.updateComplete;
      expect(time(), 'written with its day').to.contain(made.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }));
    } finally {
      globalThis.Date = RealDate;
    }
  });

  it('gives each entry the URL whole in its name, once, and each ✕ a name of its own', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'a', method: 'GET', url: 'https://api.example/pets', status: 200, duration: 12, timestamp: new Date(Date.now() - 60_000) });
    history.add({ id: 'b', method: 'GET', url: 'https://api.example/pets', status: 500, duration: 40 });
    await shown(history);
    const buttons = await axButtons();
    const entries = buttons.filter((button) => button.name?.startsWith('GET'));
    expect(entries.map((entry) => squeezed(entry.name!).replace(/ · .*$/, ''))).to.deep.equal(['GET https://api.example/pets 500 40 ms', 'GET https://api.example/pets 200 12 ms']);
    expect(entries.map((entry) => entry.description), 'not the URL again, nor what a host element does with it').to.deep.equal([undefined, undefined]);
    expect(entries.map((entry) => entry.keyshortcuts)).to.deep.equal(['Delete', 'Delete']);
    const deletes = buttons.filter((button) => button.name?.startsWith('Delete')).map((button) => button.name!);
    expect(deletes).to.have.length(2);
    expect(deletes[0]).to.match(/^Delete GET https:\/\/api\.example\/pets \(500, 40 ms, .+\) from history$/);
    expect(new Set(deletes).size, 'two ✕ buttons, two names').to.equal(2);
  });

  it('is one stop in the tab order: arrows, Home and End move between entries, Left and Right to an entry’s ✕', async () => {
    const history = filledHistory();
    // A control after the element, for Tab to land on (past the page's last one, focus would leave the page).
    const page = await fixture(html`<div><request-history .history=${history}></request-history><button>Next</button></div>`);
    const el = page.querySelector('request-history')!;
    await history.ready();
    await el.updateComplete;
    const active = () => el.shadowRoot!.activeElement as HTMLElement | null;
    const tabStops = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].filter((button) => button.tabIndex >= 0 && !button.disabled);
    expect(tabStops().map((button) => button.textContent!.trim().split(/\s/)[0])).to.deep.equal(['Clear', 'DELETE']);
    clearButton(el).focus();
    await sendKeys({ press: 'Tab' });
    expect(focused(el), 'Tab enters the list at its first entry').to.equal('DELETE https://api.example/pets/1 failed 3 ms');
    await sendKeys({ press: 'ArrowDown' });
    expect(focused(el)).to.equal('POST https://api.example/pets 422 12 ms');
    await sendKeys({ press: 'End' });
    expect(focused(el)).to.equal('GET https://api.example/pets 200 42 ms');
    await sendKeys({ press: 'ArrowDown' });
    expect(focused(el), 'no further than the last').to.equal('GET https://api.example/pets 200 42 ms');
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowRight' });
    expect(active()?.getAttribute('aria-label')).to.match(/^Delete POST/);
    await sendKeys({ press: 'ArrowUp' });
    expect(active()?.getAttribute('aria-label'), 'Up from a ✕: the ✕ above').to.match(/^Delete DELETE/);
    await sendKeys({ press: 'ArrowLeft' });
    await sendKeys({ press: 'Home' });
    expect(focused(el)).to.equal('DELETE https://api.example/pets/1 failed 3 ms');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Tab' });
    expect([active(), document.activeElement?.textContent], 'Tab leaves the list').to.deep.equal([null, 'Next']);
    await shiftTab();
    expect(focused(el), 'and comes back to the entry it left').to.equal('POST https://api.example/pets 422 12 ms');
    expect(tabStops()).to.have.length(2);
    await expect(el).to.be.accessible();
  });

  it('deletes the focused entry with the Delete key, focus on its neighbour', async () => {
    const history = filledHistory();
    const el = await shown(history);
    const deleted: (string | undefined)[] = [];
    el.addEventListener('tic-history-delete', (event) => deleted.push(event.id));
    el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.entry')[1]!.focus();
    await sendKeys({ press: 'Delete' });
    await el.updateComplete;
    expect(deleted).to.deep.equal(['b']);
    expect(history.list().map((entry) => entry.id)).to.deep.equal(['c', 'a']);
    expect(focused(el)).to.equal('GET https://api.example/pets 200 42 ms');
    await sendKeys({ press: 'Backspace' });
    await el.updateComplete;
    expect(history.list().map((entry) => entry.id), 'Backspace too (the Mac key labelled delete)').to.deep.equal(['c']);
  });

  it('draws the focus ring of entries and ✕ buttons inside the scrolling list, which would clip it', async () => {
    const el = await shown(filledHistory(), 320);
    const list = el.shadowRoot!.querySelector('ol')!;
    const clip = list.getBoundingClientRect();
    clearButton(el).focus();
    await sendKeys({ press: 'Tab' }); // by keyboard, so :focus-visible applies
    for (const move of ['', 'ArrowRight']) {
      if (move) await sendKeys({ press: move });
      const button = el.shadowRoot!.activeElement as HTMLElement;
      expect(button.matches('ol :focus-visible'), move || 'the entry').to.equal(true);
      const style = getComputedStyle(button);
      const ring = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset);
      const box = button.getBoundingClientRect();
      expect(box.left - ring, 'left').to.be.at.least(clip.left);
      expect(box.top - ring, 'top').to.be.at.least(clip.top);
      expect(box.right + ring, 'right').to.be.at.most(clip.right);
    }
  });

  it('masks the credentials of a URL wherever it shows it: the row, the hover text, the names and the announcement', async () => {
    // Memory keeps the request as sent, so an entry of this page holds what <env-picker> masks (a key sent as {{key}}).
    const history = new History({ enabled: true });
    history.add({ id: 'restored', method: 'GET', url: 'https://user:[redacted]@api.example/pets?api_key=[redacted]', status: 200, duration: 1 });
    history.add({ id: 'sent', method: 'GET', url: 'https://user:hunter2@api.example/pets?api_key=sk_live_51HxYz&page=2', status: 200, duration: 1 });
    const el = await shown(history);
    const M = '••••••••';
    const [sent, restored] = rows(el) as [HTMLLIElement, HTMLLIElement];
    expect(sent.querySelector<HTMLElement>('.path')!.title).to.equal(`https://user:${M}@api.example/pets?api_key=${M}&page=2`);
    expect(squeezed(spoken(sent.querySelector('button.entry')!))).to.match(new RegExp(`^GET https://user:${M}@api\\.example/pets\\?api_key=${M}&page=2 200 1 ms`));
    expect(restored.querySelector<HTMLElement>('.path')!.title, 'what history did not store, said so').to.equal('https://user:[redacted]@api.example/pets?api_key=[redacted]');
    const names = (await axButtons()).map((button) => button.name ?? '').join('\n');
    expect(`${el.shadowRoot!.innerHTML}\n${names}`).not.to.match(/hunter2|sk_live/);
    sent.querySelector<HTMLButtonElement>('button.delete')!.click();
    // Said with each mask read as "hidden value" (masks-hunt-reading.test.ts), not as its bullets.
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')!.textContent === 'Deleted GET https://user: hidden value @api.example/pets?api_key= hidden value &page=2 from history.', 'announced masked');
  });

  it('on a right-to-left page, Left and Right move as the row is drawn, and URLs read left to right', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'a', method: 'GET', url: 'https://api.example/pets/', status: 200, duration: 1 });
    const page = await fixture(html`<div dir="rtl"><request-history .history=${history}></request-history></div>`);
    const el = page.querySelector('request-history')!;
    await history.ready();
    await el.updateComplete;
    const [entry, remove] = rows(el)[0]!.querySelectorAll('button');
    expect(remove!.getBoundingClientRect().right, 'the ✕ drawn left of its entry').to.be.at.most(entry!.getBoundingClientRect().left);
    entry!.focus();
    await sendKeys({ press: 'ArrowLeft' });
    expect(el.shadowRoot!.activeElement?.className, 'Left: the ✕').to.equal('delete');
    await sendKeys({ press: 'ArrowRight' });
    expect(el.shadowRoot!.activeElement?.className, 'Right: the entry').to.equal('entry');
    // "/pets/" on its own drew as "//pets": the slash at its end went to the left of the line.
    expect(drawnLeftToRight(el.shadowRoot!.querySelector('.path')!), 'the path').to.equal(true);
    expect(drawnLeftToRight(el.shadowRoot!.querySelector('.origin')!), 'the origin').to.equal(true);
    const path = el.shadowRoot!.querySelector('.path')!;
    const text = document.createRange();
    text.selectNodeContents(path);
    expect(text.getBoundingClientRect().right, 'aligned as the page is, next to the method').to.be.closeTo(path.getBoundingClientRect().right, 1);
    expect(el.shadowRoot!.querySelector('.method')!.getBoundingClientRect().left, 'the method right of the path').to.be.at.least(path.getBoundingClientRect().right);
  });

  it('leaves arrow keys with Alt, Ctrl or Meta to the browser (Alt + Left is Back)', async () => {
    const el = await shown(filledHistory());
    const entry = el.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!;
    entry.focus();
    const prevented: string[] = [];
    const listener = (event: KeyboardEvent) => event.defaultPrevented && prevented.push(event.key);
    document.addEventListener('keydown', listener);
    try {
      for (const modifier of ['Alt', 'Control', 'Meta']) {
        for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowDown', 'End']) {
          await sendKeys({ down: modifier });
          await sendKeys({ press: key });
          await sendKeys({ up: modifier });
        }
      }
    } finally {
      document.removeEventListener('keydown', listener);
    }
    expect(prevented).to.deep.equal([]);
    expect(el.shadowRoot!.activeElement === entry, 'focus where it was').to.equal(true);
  });

  it('keeps a long method within the row', async () => {
    const history = new History({ enabled: true });
    history.add({ method: `X-${'LONG'.repeat(50)}`, url: 'https://api.example/pets', status: 200, duration: 1 });
    const el = await shown(history, 288);
    const list = el.shadowRoot!.querySelector('ol')!;
    expect(list.scrollWidth, 'no sideways scrolling').to.be.at.most(list.clientWidth);
    expect(el.shadowRoot!.querySelector('button.delete')!.getBoundingClientRect().right).to.be.at.most(el.getBoundingClientRect().right);
  });
});
