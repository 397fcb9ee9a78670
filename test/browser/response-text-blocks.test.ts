// A long body is shown in blocks the browser lays out only when scrolled near (chunked-text.ts): laid out whole, the
// 5 MB JSON test's 360,000 characters froze the page for 250 ms on a slow machine. What the reader sees, selects and
// copies must still be the text as it came, blank lines and all.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicResponseEvent } from '../../src/events/index.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

let proxy: string;
let api: string;
before(async () => {
  ({ proxy, api } = await (await fetch('/__test-servers.json')).json());
});

/** The console after sending `body` to the test API's /mirror, which answers it back as text/plain. */
async function mirrored(body: string): Promise<TryItConsole> {
  const config = { corsProxy: proxy, history: { enabled: false } };
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="${api}/mirror" .body=${body}></try-it-console>`);
  const response = oneEvent<TicResponseEvent>(el, 'tic-response');
  $(el, '[part="send-button"]').click();
  expect((await response).response.text, 'the test server answered the text back').to.equal(body);
  await el.updateComplete;
  // Blocks learn whether they are in view at the next frame.
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return el;
}

/** What a reader who selects the whole body and copies it gets. */
function selected(element: Element): string {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  const text = selection.toString();
  selection.removeAllRanges();
  return text;
}

describe('<try-it-console> response panel: a long text in blocks', () => {
  // 4,000 lines: blank lines where blocks would end (every hundredth line), runs of them, CRLF line ends, a line of
  // 20,000 characters, white space at line ends, and a line end at the very end.
  const lines = Array.from({ length: 4_000 }, (_, index) => {
    if (index % 100 === 99 || index % 100 === 0 || index % 997 < 3) return '';
    if (index === 1_234) return 'x'.repeat(20_000);
    return `${index % 7 === 0 ? '\t' : ''}line ${index} "quoted" <b>not bold</b>${index % 5 === 0 ? '  ' : ''}${index % 11 === 0 ? '\r' : ''}`;
  });
  const body = `${lines.join('\n')}\n`;

  it('shows, selects and copies the text as one, though laid out in blocks', async () => {
    const el = await mirrored(body);
    const code = $(el, '[part="response-body"] pre code');
    expect(code.querySelectorAll('.text-block').length, 'more than one block').to.be.above(10);
    // One line end between two blocks, as in the body: the text is all there, and a selection of it all copies what
    // the same text in one piece would (which leaves out the line end at the very end).
    expect(code.textContent!.replace(/\n/g, '')).to.equal(body.replace(/\n/g, ''));
    const whole = document.createElement('pre');
    whole.append(body);
    document.body.append(whole);
    try {
      expect(selected(code) === selected(whole), 'a selection of it all is the body').to.equal(true);
    } finally {
      whole.remove();
    }
    // Nothing of it is markup.
    expect(code.querySelector('b')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('lays out only the blocks in view, and the others as they are scrolled to', async () => {
    const el = await mirrored(body);
    const scroller = $(el, '[part="response-body"]');
    const blocks = [...scroller.querySelectorAll('.text-block')];
    const skipped = new Map<Element, boolean>();
    scroller.addEventListener('contentvisibilityautostatechange', (event) => skipped.set(event.target as Element, (event as ContentVisibilityAutoStateChangeEvent).skipped));
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // The blocks told their state when first laid out, before the listener; scrolled a little, the first ones tell again.
    scroller.scrollTop = scroller.scrollHeight;
    await frame();
    expect(skipped.get(blocks.at(-1)!), 'the last block, scrolled to, laid out').to.equal(false);
    expect(skipped.get(blocks[0]!), 'the first block, scrolled away from, skipped').to.equal(true);
    expect([...skipped.values()].filter((state) => !state).length, 'the few blocks in view are laid out').to.be.below(blocks.length / 4);
  });

  it('keeps a text below 32 KB as one text, and a long one without line ends whole', async () => {
    const short = await mirrored('a\n\nb\n'.repeat(1_000));
    expect($(short, '[part="response-body"] code').querySelector('.text-block')).to.equal(null);
    expect($(short, '[part="response-body"] code').textContent).to.equal('a\n\nb\n'.repeat(1_000));
    const oneLine = await mirrored('y'.repeat(40_000));
    expect($(oneLine, '[part="response-body"] code').querySelector('.text-block')).to.equal(null);
    expect($(oneLine, '[part="response-body"] code').textContent).to.equal('y'.repeat(40_000));
  });
});
