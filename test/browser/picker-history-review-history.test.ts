// Review of <request-history> as docs readers and docs teams use it, alone and in <try-it-console>: each test failed on
// the code as it was before the fix it comes with.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/request-history/request-history.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import { History } from '../../src/core/index.js';

function filledHistory(count = 3) {
  const history = new History({ enabled: true });
  for (let index = 0; index < count; index += 1) history.add({ id: `e${index}`, method: 'GET', url: `https://api.example/pets/${index}`, status: 200, duration: 5 });
  return history;
}
/** The element once the history's stored entries have loaded. */
async function shown(history: History) {
  const el = await fixture<RequestHistory>(html`<request-history .history=${history}></request-history>`);
  await history.ready();
  await el.updateComplete;
  return el;
}
/** What has focus, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: RequestHistory) => {
  const active = el.shadowRoot!.activeElement;
  return active ? `${active.tagName} ${active.textContent!.replace(/\s+/g, ' ').trim()}` : `(not in the element: ${document.activeElement?.tagName})`;
};

describe('<request-history> review', () => {
  it('answers Escape in the Clear all question itself: a dialog around the list, listening on the page, stays open', async () => {
    const history = filledHistory();
    const el = await shown(history);
    // A docs site's "Try it" dialog, closed by its script on Escape.
    const escapes: string[] = [];
    const onKeydown = (event: KeyboardEvent) => event.key === 'Escape' && escapes.push(event.key);
    document.addEventListener('keydown', onKeydown);
    try {
      el.shadowRoot!.querySelector<HTMLButtonElement>('.clear')!.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(focusedText(el)).to.equal('BUTTON Cancel');
      await sendKeys({ press: 'Escape' });
      await el.updateComplete;
    } finally {
      document.removeEventListener('keydown', onKeydown);
    }
    expect([history.size, focusedText(el), escapes.length]).to.deep.equal([3, 'BUTTON Clear all', 0]);
  });

  it('deletes one entry per press of Delete or Backspace, not one per repeat of a key held down', async () => {
    const history = filledHistory(6);
    const el = await shown(history);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    for (const key of ['Delete', 'Backspace']) {
      // Held: the browser sends the key again and again, focus having moved on to the next entry each time.
      for (let repeat = 0; repeat < 3; repeat += 1) {
        await sendKeys({ down: key });
        await el.updateComplete;
      }
      await sendKeys({ up: key });
    }
    expect(history.list().map((entry) => entry.id)).to.deep.equal(['e3', 'e2', 'e1', 'e0']);
    expect(focusedText(el)).to.match(/^BUTTON GET https:\/\/api\.example\/pets\/3 /);
  });

  it('acts once for Enter held down: one entry deleted from its ✕, one entry loaded', async () => {
    const history = filledHistory(6);
    const el = await shown(history);
    const selected: string[] = [];
    el.addEventListener('tic-history-select', (event) => selected.push(event.entry.id));
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.delete')!.focus();
    const holdEnter = async () => {
      for (let repeat = 0; repeat < 3; repeat += 1) {
        await sendKeys({ down: 'Enter' });
        await el.updateComplete;
      }
      await sendKeys({ up: 'Enter' });
    };
    await holdEnter();
    expect(history.list().map((entry) => entry.id), 'one deleted').to.deep.equal(['e4', 'e3', 'e2', 'e1', 'e0']);
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label'), 'the next ✕').to.match(/^Delete GET https:\/\/api\.example\/pets\/4 /);
    await sendKeys({ press: 'ArrowLeft' });
    await holdEnter();
    expect(selected, 'one select').to.deep.equal(['e4']);
  });

  it('keeps focus in the element when Clear all, focused, goes disabled as the history is cleared elsewhere', async () => {
    const history = filledHistory();
    const el = await shown(history);
    el.shadowRoot!.querySelector<HTMLButtonElement>('.clear')!.focus();
    history.clear(); // another tab, another console sharing the history, or the page's code
    await el.updateComplete;
    // The browser drops focus from a disabled button at its next rendering step.
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    expect(focusedText(el)).to.equal('P No requests yet. Requests you send appear here.');
  });

  it('writes its times again when the computer moves to another time zone, not only those of new entries', async () => {
    const history = new History({ enabled: true });
    const made = new Date();
    history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration: 5, timestamp: made });
    const el = await shown(history);
    // A time zone other than the machine's: the formatter made in it, and the clock's offset, as after a flight.
    const zone = new Date().getTimezoneOffset() === -345 ? 'America/Lima' : 'Asia/Kathmandu';
    const offset = zone === 'Asia/Kathmandu' ? -345 : 300;
    const RealDateTimeFormat = Intl.DateTimeFormat;
    const realOffset = Date.prototype.getTimezoneOffset;
    const inZone = (options?: Intl.DateTimeFormatOptions) => new RealDateTimeFormat(undefined, { ...options, timeZone: zone });
    Intl.DateTimeFormat = function (_locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
      return inZone(options);
    } as unknown as typeof Intl.DateTimeFormat;
    Date.prototype.getTimezoneOffset = () => offset;
    try {
      document.dispatchEvent(new Event('visibilitychange')); // back from sleep
      await el.updateComplete;
      history.add({ method: 'GET', url: 'https://api.example/owners', status: 200, duration: 5, timestamp: made });
      await el.updateComplete;
    } finally {
      Intl.DateTimeFormat = RealDateTimeFormat;
      Date.prototype.getTimezoneOffset = realOffset;
    }
    const expected = inZone({ hour: 'numeric', minute: '2-digit', second: '2-digit' }).format(made);
    expect([...el.shadowRoot!.querySelectorAll('time')].map((time) => time.textContent)).to.deep.equal([expected, expected]);
  });

  it('colours a 3xx status as the console’s response panel does, and as --tic-color-warning says (not as a success)', async () => {
    const history = new History({ enabled: true });
    for (const status of [200, 304, 500]) history.add({ method: 'GET', url: `https://api.example/${status}`, status, duration: 5 });
    const el = await shown(history);
    el.style.setProperty('--tic-color-success', 'rgb(0, 128, 0)');
    el.style.setProperty('--tic-color-warning', 'rgb(200, 100, 0)');
    const colours = [...el.shadowRoot!.querySelectorAll('.status')].map((status) => `${status.textContent} ${getComputedStyle(status).color}`);
    expect(colours).to.deep.equal(['500 rgb(200, 100, 0)', '304 rgb(200, 100, 0)', '200 rgb(0, 128, 0)']);
  });
});
