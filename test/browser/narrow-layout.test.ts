import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const config = () => ({
  environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:8123', pet_id: '7' } }],
  history: { enabled: false },
});

/** Whether `inner`'s box lies within `outer`'s (half a pixel of rounding allowed). */
function within(inner: Element, outer: Element): boolean {
  const a = inner.getBoundingClientRect();
  const b = outer.getBoundingClientRect();
  return a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
}

/** Every tab, the tab list and the tools beside it lie inside the snippet's frame, none cut off or scrolled away. */
function expectEveryTabShown(snippet: CodeSnippet, label: string): void {
  const tablist = $(snippet, '[role="tablist"]');
  const tabs = [...tablist.querySelectorAll('[role="tab"]')];
  expect(tabs.map((tab) => tab.textContent!.trim()), `${label}: the tab list keeps its five tabs`).to.deep.equal(['curl', 'JavaScript', 'Go', 'Python', 'PHP']);
  expect(tablist.scrollWidth, `${label}: nothing scrolled out of the tab list`).to.be.at.most(tablist.clientWidth);
  const frame = $(snippet, '.frame');
  const outside = [tablist, ...tabs, $(snippet, '[part="copy-button"]')].filter((part) => !within(part, frame) || !within(part, snippet));
  expect(outside.map((part) => part.textContent!.trim()), `${label}: cut off by the element's box`).to.deep.equal([]);
}

describe('narrow layout', () => {
  before(async () => {
    await setViewport({ width: 375, height: 800 });
  });

  // A phone 375 px wide: the console at the full width, inside a docs page's 1rem margins (the demo's), and 320 px.
  for (const width of [375, 343, 320]) {
    it(`at ${width} px, the URL keeps most of the request line, beside the method, with Send below`, async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console style="width: ${width}px" .config=${config()} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
      const line = $(el, '[part="request"]');
      const [method, url, send] = ['[part="method"]', '[part="url"]', '[part="send-button"]'].map((selector) => $(el, selector).getBoundingClientRect()) as [DOMRect, DOMRect, DOMRect];
      expect(url.width / line.clientWidth, `URL width ${url.width} of ${line.clientWidth} px`).to.be.at.least(0.6);
      expect(Math.abs(url.top - method.top), 'the URL beside the method').to.be.below(1);
      expect(send.top, 'Send below the URL').to.be.at.least(url.bottom);
      for (const part of ['[part="method"]', '[part="url"]', '[part="send-button"]']) {
        expect(within($(el, part), line), `${part} inside the request section`).to.equal(true);
      }
    });

    it(`at ${width} px, every snippet tab is shown whole, in the console and alone`, async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console style="width: ${width}px" .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
      const inConsole = $<CodeSnippet>(el, 'code-snippet');
      await inConsole.updateComplete;
      expectEveryTabShown(inConsole, 'in the console');
      const alone = await fixture<CodeSnippet>(html`<code-snippet style="width: ${width}px" url="https://api.example/pets"></code-snippet>`);
      expectEveryTabShown(alone, 'alone');
    });
  }

  it('on a wide console, method, URL and Send stay on one line', async () => {
    await setViewport({ width: 1024, height: 800 });
    try {
      const el = await fixture<TryItConsole>(html`<try-it-console style="width: 720px" .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
      const tops = ['[part="method"]', '[part="url"]', '[part="send-button"]'].map((selector) => Math.round($(el, selector).getBoundingClientRect().top));
      expect(new Set(tops).size, `tops ${tops.join(', ')}`).to.equal(1);
      const snippet = $<CodeSnippet>(el, 'code-snippet');
      await snippet.updateComplete;
      const tabTops = [...snippet.shadowRoot!.querySelectorAll('[role="tab"]')].map((tab) => Math.round(tab.getBoundingClientRect().top));
      expect(new Set(tabTops).size, 'the tabs on one row').to.equal(1);
    } finally {
      await setViewport({ width: 375, height: 800 });
    }
  });
});
