// Page Up and Page Down in <request-history>'s list, as in an ARIA grid: the list moved by one entry per key press,
// and Page Down scrolled it without moving focus, which then jumped back on the next arrow. Failed on the code as it
// was before the fix (focus stayed on the first entry).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History } from '../../src/core/index.js';

/** A list of 30 entries that scrolls, a few in sight; every row alike in height. */
async function scrollingList() {
  const history = new History({ enabled: true });
  for (let index = 0; index < 30; index += 1) history.add({ id: `e${index}`, method: 'GET', url: `https://api.example/items/${String(index).padStart(2, '0')}`, status: 200, duration: 5 });
  const el = await fixture<RequestHistory>(html`<request-history style="--tic-history-max-height: 12rem" .history=${history}></request-history>`);
  await history.ready();
  await el.updateComplete;
  const list = el.shadowRoot!.querySelector('ol')!;
  const rows = [...list.children] as HTMLElement[];
  const focusedRow = () => rows.indexOf(el.shadowRoot!.activeElement!.parentElement!);
  const inSight = () => {
    const box = list.getBoundingClientRect();
    return rows.map((row, index) => [index, row.getBoundingClientRect()] as const).filter(([, row]) => row.top >= box.top - 0.5 && row.bottom <= box.bottom + 0.5).map(([index]) => index);
  };
  rows[0]!.querySelector<HTMLElement>('button.entry')!.focus();
  return { el, focusedRow, inSight, lastInSight: inSight().at(-1)! };
}

describe('<request-history> Page Up and Page Down', () => {
  it('move a page of entries at a time, in the same column: the last in sight becomes the first', async () => {
    const { el, focusedRow, inSight, lastInSight } = await scrollingList();
    expect(lastInSight, 'the list scrolls, a few entries in sight').to.be.within(2, 20);

    await sendKeys({ press: 'PageDown' });
    expect(focusedRow(), 'to the last entry in sight').to.equal(lastInSight);
    await sendKeys({ press: 'PageDown' });
    expect(inSight()[0], 'which is now the first in sight').to.equal(lastInSight);
    expect(inSight()).to.include(focusedRow());
    expect(focusedRow()).to.equal(2 * lastInSight);

    await sendKeys({ press: 'PageUp' });
    expect(focusedRow()).to.equal(lastInSight);
    await sendKeys({ press: 'PageUp' });
    await sendKeys({ press: 'PageUp' });
    expect(focusedRow(), 'no further than the first').to.equal(0);

    // On the ✕ column, it stays there; past the end, it stops at the last entry.
    await sendKeys({ press: 'ArrowRight' });
    for (let press = 0; press < 30 / lastInSight + 1; press += 1) await sendKeys({ press: 'PageDown' });
    expect(focusedRow()).to.equal(29);
    expect(el.shadowRoot!.activeElement!.matches('button.delete'), 'still on a ✕').to.equal(true);
  });

  it('Down past the last entry in sight scrolls the list by that entry, not by half the list', async () => {
    // Focus centred it: the list jumped by half its height, the entries just read gone from sight.
    const { focusedRow, inSight, lastInSight } = await scrollingList();
    for (let press = 0; press <= lastInSight; press += 1) await sendKeys({ press: 'ArrowDown' });
    expect(focusedRow()).to.equal(lastInSight + 1);
    expect(inSight().at(-1), 'at the bottom').to.equal(lastInSight + 1);
    expect(inSight()[0]).to.equal(1);
  });
});
