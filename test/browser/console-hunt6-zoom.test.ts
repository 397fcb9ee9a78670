// At 200% zoom on a laptop (683×330 CSS px), the response body and headers scroll inside a box shorter than the
// window: at the 28rem of a wide screen, the box was taller than the window, and its end could not be seen with its top.
// --tic-response-max-height still sets the height.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

let servers: { api: string; corsApi: string; proxy: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const height = (element: Element) => element.getBoundingClientRect().height;

/** A console that got a long response: a body of 256 KB (`body`), or 60 headers, shown open (`headers`). */
async function longResponse(long: 'body' | 'headers', style = ''): Promise<TryItConsole> {
  const config = { corsProxy: servers.proxy, history: { enabled: false } };
  const url = long === 'body' ? `${servers.api}/panel/256k-and-1` : `${servers.corsApi}/expose-all?headers=60`;
  const el = await fixture<TryItConsole>(html`<try-it-console style=${style} .config=${config} url=${url}></try-it-console>`);
  await el.send();
  await el.updateComplete;
  $(el, '.response-headers summary').click();
  await el.updateComplete;
  return el;
}

/** The box of `el` that scrolls what is `long`. */
const boxOf = (el: TryItConsole, long: 'body' | 'headers') => $(el, long === 'body' ? '[part="response-body"]' : '.headers-table');

describe('<try-it-console> hunt 6: the response at 200% zoom', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('keeps the body and the headers shorter than a window 330 px high, each scrolling inside', async () => {
    await setViewport({ width: 683, height: 330 });
    for (const long of ['body', 'headers'] as const) {
      const box = boxOf(await longResponse(long), long);
      expect(box.scrollHeight, `the ${long} is long`).to.be.above(box.clientHeight);
      // With room left for the status line above it, or the body's first lines below the headers.
      expect(height(box), long).to.be.at.most(0.8 * innerHeight);
    }
  });

  it('keeps 28rem on a window tall enough for it', async () => {
    await setViewport({ width: 1280, height: 900 });
    for (const long of ['body', 'headers'] as const) {
      expect(getComputedStyle(boxOf(await longResponse(long), long)).maxHeight, long).to.equal(`${28 * 16}px`);
    }
  });

  it('takes the height --tic-response-max-height sets, taller than the window or not', async () => {
    await setViewport({ width: 683, height: 330 });
    for (const [value, expected] of [['5rem', '80px'], ['600px', '600px']]) {
      for (const long of ['body', 'headers'] as const) {
        expect(getComputedStyle(boxOf(await longResponse(long, `--tic-response-max-height: ${value}`), long)).maxHeight, `${long}: ${value}`).to.equal(expected);
      }
    }
  });
});
