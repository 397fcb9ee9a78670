// A usability review of <request-history> in Chromium (target sizes, right-to-left pages, the empty state): each test
// failed on the code as it was before the fix it comes with, except where it says it guards what already held.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History } from '../../src/core/index.js';
import { drawnAt } from './support/drawn-at.js';

function filledHistory(): History {
  const history = new History({ enabled: true });
  const today = new Date();
  today.setHours(14, 6, 39);
  history.add({ id: 'failed', method: 'GET', url: 'https://api.example.com/pets/1', status: 0, duration: 3021, timestamp: today });
  history.add({ id: 'ok', method: 'DELETE', url: 'https://api.example.com/pets/2?very_long_query_parameter=1', status: 200, duration: 14, timestamp: today });
  return history;
}

/** The element once the history's stored entries have loaded. */
async function shown(history: History, page = html`<request-history style="width: 320px" .history=${history}></request-history>`) {
  const container = await fixture<HTMLElement>(html`<div>${page}</div>`);
  const el = container.querySelector<RequestHistory>('request-history')!;
  await history.ready();
  await el.updateComplete;
  return el;
}

/** Buttons smaller than WCAG 2.2's minimum target (2.5.8, AA), 24 by 24 CSS px, as `name width×height`. */
function smallButtons(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('button')]
    .map((button) => ({ name: button.getAttribute('aria-label') ?? button.textContent!.trim(), box: button.getBoundingClientRect() }))
    .filter(({ box }) => box.width < 24 || box.height < 24)
    .map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
}

/** Whether `text`, found in `element`'s text, is drawn with each character right of the one before: read left to right. */
function readsLeftToRight(element: Element, text: string): boolean {
  const at = element.textContent!.indexOf(text);
  expect(at, `"${text}" in "${element.textContent}"`).to.be.at.least(0);
  const lefts = drawnAt(element).slice(at, at + text.length);
  return lefts.every((left, i) => i === 0 || left > lefts[i - 1]!);
}

describe('<request-history> usability review', () => {
  it('gives every button a target of 24 by 24 px, at 320 px and while Clear all asks (a guard: they already had it)', async () => {
    const el = await shown(filledHistory());
    expect(smallButtons(el.shadowRoot!)).to.deep.equal([]);
    el.shadowRoot!.querySelector<HTMLButtonElement>('.clear')!.click();
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll('.confirm button')].map((button) => button.textContent)).to.deep.equal(['Clear', 'Cancel']);
    expect(smallButtons(el.shadowRoot!)).to.deep.equal([]);
  });

  it('on a right-to-left page, reads each duration and time left to right ("14 ms", not "ms 14"), and each status', async () => {
    const history = filledHistory();
    const el = await shown(history, html`<div dir="rtl" lang="ar"><request-history style="width: 320px" .history=${history}></request-history></div>`);
    expect(getComputedStyle(el).direction, 'the list’s own layout').to.equal('rtl');
    const [ok, failed] = [...el.shadowRoot!.querySelectorAll('li')];
    for (const [row, duration, status] of [
      [ok!, '14\u00a0ms', '200'],
      [failed!, '3021\u00a0ms', 'failed'],
    ] as const) {
      const meta = row.querySelector('.meta')!;
      const time = meta.querySelector('time')!.textContent!;
      expect(readsLeftToRight(meta, duration), duration).to.equal(true);
      expect(readsLeftToRight(meta, time), time).to.equal(true);
      // A guard: the status, a grid item of its own, already read right.
      expect(readsLeftToRight(row.querySelector('.status')!, status), status).to.equal(true);
    }
  });

  it('on a right-to-left page, cuts a long path at its end, beside its method', async () => {
    const history = filledHistory();
    const el = await shown(history, html`<div dir="rtl" lang="ar"><request-history style="width: 320px" .history=${history}></request-history></div>`);
    const [long, short] = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.path')];
    // Drawn right to left, the ellipsis of the two-line clamp went at the left, over "very_…", the start of the query.
    expect(getComputedStyle(long!).direction, 'the ellipsis at the URL’s end').to.equal('ltr');
    expect(readsLeftToRight(long!, 'very_long_query_par')).to.equal(true);
    // Its text still starts on the right, next to the method, not across the row from it (request-history.test.ts
    // checks it for a path on one line).
    const text = document.createRange();
    text.selectNodeContents(short!);
    expect(text.getBoundingClientRect().right, '"/pets/1" at the right of its cell').to.be.closeTo(short!.getBoundingClientRect().right, 1);
  });

  it('shows no Clear all when history is turned off, where it could never clear anything', async () => {
    const off = await shown(new History({ enabled: false }));
    expect(off.shadowRoot!.querySelector('.empty')!.textContent).to.contain('History is turned off');
    expect(off.shadowRoot!.querySelectorAll('button').length).to.equal(0);
    await expect(off).to.be.accessible();
    // On, and empty for now, it stays: disabled where it will be once there is something to clear.
    const empty = await shown(new History({ enabled: true }));
    expect(empty.shadowRoot!.querySelector<HTMLButtonElement>('.clear')!.disabled).to.equal(true);
  });
});
