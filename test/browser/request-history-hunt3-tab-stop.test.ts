// Where Tab enters <request-history>'s list. The tab stop stayed on the entry that was newest when the list was first
// drawn: after three requests, Tab entered on the oldest, at the bottom (of a scrolled list, with 50). It is the newest
// entry until the reader moves to another, then that one while it stays. All but the second (which guards what the
// fix keeps) failed on the code as it was before the fix: focus on /1 rather than /3 and /2, on /3 rather than /4.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History } from '../../src/core/index.js';

/** An empty list between two buttons, for Tab to come from and go to (Clear all comes before the list). */
async function emptyList(config: { maxItems?: number } = {}) {
  const history = new History({ enabled: true, ...config });
  const page = await fixture(html`<div><button>Before</button><request-history .history=${history}></request-history><button>After</button></div>`);
  const el = page.querySelector<RequestHistory>('request-history')!;
  await history.ready();
  await el.updateComplete;
  const send = async (n: number) => {
    history.add({ id: `e${n}`, method: 'GET', url: `https://api.example/${n}`, status: 200, duration: 5 });
    await el.updateComplete;
  };
  const [before, after] = page.querySelectorAll<HTMLButtonElement>(':scope > button');
  return { history, el, send, before: before!, after: after! };
}
/** The focused entry's path, or where focus is outside the list. */
function focused(el: RequestHistory): string {
  const active = el.shadowRoot!.activeElement;
  if (!active) return `(outside: ${document.activeElement?.textContent})`;
  return `${active.matches('.delete') ? '✕ ' : ''}${active.closest('li')!.querySelector('.path')!.getAttribute('title')!.replace('https://api.example', '')}`;
}
/** The list's buttons in the tab order: one. */
const tabStops = (el: RequestHistory) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('ol button')].filter((button) => button.tabIndex >= 0).length;
async function shiftTab() {
  await sendKeys({ down: 'Shift' });
  await sendKeys({ press: 'Tab' });
  await sendKeys({ up: 'Shift' });
}

describe('<request-history> tab stop', () => {
  it('is the newest entry after requests are sent, also when Tab went through the list in between', async () => {
    const { el, send, before, after } = await emptyList();
    for (const n of [1, 2, 3]) await send(n);
    before.focus();
    await sendKeys({ press: 'Tab' }); // Clear all
    await sendKeys({ press: 'Tab' });
    expect(focused(el), 'the newest, first in the list').to.equal('/3');

    // Passing through is no choice: the next request is where Tab enters.
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(after);
    await send(4);
    await shiftTab();
    expect(focused(el)).to.equal('/4');
    expect(tabStops(el)).to.equal(1);
  });

  it('is the entry the reader moved to, when newer ones arrive', async () => {
    const { el, send, after } = await emptyList();
    for (const n of [1, 2, 3]) await send(n);
    el.shadowRoot!.querySelector<HTMLElement>('button.entry')!.focus();
    await sendKeys({ press: 'ArrowDown' });
    expect(focused(el)).to.equal('/2');
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(after);
    await send(4);
    await send(5);
    await shiftTab();
    expect(focused(el), 'back where the reader left').to.equal('/2');

    // The same on an entry's ✕.
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'Tab' });
    await send(6);
    await shiftTab();
    expect(focused(el)).to.equal('✕ /2');
    expect(tabStops(el)).to.equal(1);
  });

  it('stays on the focused entry when newer ones arrive, and Tab returns there', async () => {
    const { el, send, before, after } = await emptyList();
    for (const n of [1, 2]) await send(n);
    before.focus();
    await sendKeys({ press: 'Tab' }); // Clear all
    await sendKeys({ press: 'Tab' });
    await send(3);
    expect(focused(el), 'focus stays on its entry').to.equal('/2');
    expect(tabStops(el)).to.equal(1);
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(after);
    await send(4);
    await shiftTab();
    expect(focused(el)).to.equal('/2');
  });

  it('is the newest entry again once the one the reader moved to is gone, deleted or evicted', async () => {
    const { history, el, send, after } = await emptyList({ maxItems: 3 });
    for (const n of [1, 2, 3]) await send(n);
    el.shadowRoot!.querySelector<HTMLElement>('button.entry')!.focus();
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Tab' });
    history.delete('e2');
    await el.updateComplete;
    await send(4);
    await shiftTab();
    expect(focused(el)).to.equal('/4');

    // Evicted (three at most) while focus was elsewhere.
    await sendKeys({ press: 'End' });
    expect(focused(el)).to.equal('/1');
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(after);
    await send(5);
    await send(6);
    await shiftTab();
    expect(focused(el)).to.equal('/6');
    expect(tabStops(el)).to.equal(1);
  });
});
