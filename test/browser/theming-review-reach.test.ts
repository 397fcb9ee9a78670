import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

// What a docs team sets to fit the elements to its site, checked where it is drawn: inside every shadow root, the
// console's snippet, picker and history included.

let servers: { api: string; corsApi: string; proxy: string };
let run = 0;

const $ = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector)!;

/** Every element in `root`'s shadow tree and in those of the elements inside it, with the path of hosts to it. */
function* everyElement(root: ShadowRoot, path: string): Generator<[Element, string]> {
  for (const element of root.querySelectorAll('*')) {
    yield [element, `${path} ${element.localName}${element.className && typeof element.className === 'string' ? `.${element.className.trim().replace(/\s+/g, '.')}` : ''}`];
    if (element.shadowRoot) yield* everyElement(element.shadowRoot, `${path} ${element.localName} >>>`);
  }
}

/** A console that has sent, with a JSON response, a history entry, a snippet and a variable the environment lacks. */
async function consoleWithEverything(style: string): Promise<TryItConsole> {
  run += 1;
  const config = {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api, token: 'local-token' } }],
    history: { enabled: true, storageKey: `theming-review-${Date.now()}-${run}` },
  };
  const wrapper = await fixture<HTMLDivElement>(html`<div style=${style}><try-it-console .config=${config} method="POST" url="{{base_url}}/pets" headers='{"X-Trace":"{{trace}}"}' body='{"name":"Rex"}'></try-it-console></div>`);
  const el = wrapper.querySelector('try-it-console')!;
  const done = oneEvent<TicResponseEvent>(el, 'tic-response');
  await el.send();
  await done;
  await el.updateComplete;
  await waitUntil(() => $(el, 'request-history').shadowRoot!.querySelector('li'), 'the entry listed');
  for (const tag of ['code-snippet', 'env-picker', 'request-history']) await ($(el, tag) as unknown as CodeSnippet).updateComplete;
  return el;
}

const COLOURS = {
  '--tic-color-accent': 'rgb(1, 2, 3)',
  '--tic-color-text': 'rgb(4, 5, 6)',
  '--tic-color-background': 'rgb(7, 8, 9)',
  '--tic-color-surface': 'rgb(10, 11, 12)',
  '--tic-color-muted': 'rgb(13, 14, 15)',
  '--tic-color-border': 'rgb(16, 17, 18)',
  '--tic-color-accent-text': 'rgb(19, 20, 21)',
  '--tic-color-success': 'rgb(22, 23, 24)',
  '--tic-color-warning': 'rgb(25, 26, 27)',
  '--tic-color-danger': 'rgb(28, 29, 30)',
  '--tic-color-focus': 'rgb(31, 32, 33)',
  '--tic-code-keyword': 'rgb(40, 0, 0)',
  '--tic-code-string': 'rgb(41, 0, 0)',
  '--tic-code-number': 'rgb(42, 0, 0)',
  '--tic-code-name': 'rgb(43, 0, 0)',
  '--tic-code-comment': 'rgb(44, 0, 0)',
};

describe('theming review: every --tic- property reaches every place', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });
  afterEach(() => emulateMedia({ colorScheme: 'light' }));

  for (const radius of ['13px', '0px']) {
    it(`draws every colour, font and corner (--tic-radius: ${radius}) from the page's --tic- properties, inside the snippet, picker and history too`, async () => {
      const declarations = { ...COLOURS, '--tic-font-family': 'PageSans', '--tic-font-mono': 'PageMono', '--tic-radius': radius };
      const el = await consoleWithEverything(Object.entries(declarations).map(([name, value]) => `${name}: ${value}`).join('; '));
      const ours = new Set([...Object.values(COLOURS), 'rgba(0, 0, 0, 0)']);
      const strays: string[] = [];
      let checked = 0;
      let checkboxes = 0;
      for (const [element, path] of everyElement(el.shadowRoot!, 'try-it-console >>>')) {
        const style = getComputedStyle(element);
        if (style.display === 'none' || element.localName === 'wbr') continue;
        checked += 1;
        const drawn: [string, string][] = [['color', style.color], ['background', style.backgroundColor]];
        if (style.borderTopWidth !== '0px') drawn.push(['border', style.borderTopColor]);
        if (style.borderInlineStartWidth !== '0px') drawn.push(['border-inline-start', style.borderLeftColor]);
        // A tint of one of ours (color-mix) is drawn as color(srgb …): the accent's and danger's marks in the URL.
        for (const [what, colour] of drawn) if (!ours.has(colour) && !colour.startsWith('color(srgb')) strays.push(`${path}: ${what} ${colour}`);
        if (!['PageSans', 'PageMono'].includes(style.fontFamily)) strays.push(`${path}: font ${style.fontFamily}`);
        // Checkboxes (a header's switch, Show values) in the page's accent, not the browser's blue.
        if (element.matches('input[type="checkbox"]')) {
          checkboxes += 1;
          if (style.accentColor !== COLOURS['--tic-color-accent']) strays.push(`${path}: accent-color ${style.accentColor}`);
        }
        // The tabs' underline has square corners by design; every other corner is the page's, or half of it.
        const corner = style.borderTopLeftRadius;
        if (corner !== '0px' && corner !== radius && corner !== `${parseFloat(radius) / 2}px`) strays.push(`${path}: corner ${corner}`);
      }
      expect(checked, 'elements checked').to.be.above(150);
      expect(checkboxes, 'checkboxes checked').to.equal(2);
      // Before, the marks of variables in the URL kept 3px corners whatever --tic-radius said.
      expect(strays).to.deep.equal([]);
      if (radius === '0px') expect(getComputedStyle($(el, 'mark.variable')).borderTopLeftRadius).to.equal('0px');
    });
  }

  it('colours literals (true, null) with --tic-code-number, as it says ("Numbers and literals"), in a JSON response and in a snippet, in both schemes', async () => {
    const json = '{"found":true,"owner":null,"age":3}';
    const hex = [...new TextEncoder().encode(json)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    const url = `${servers.corsApi}/bytes?type=application/json&hex=${hex}`;
    const colourOf = (root: Element, token: string) => getComputedStyle(root.shadowRoot!.querySelector(`.hljs-${token}`)!).color;
    for (const scheme of ['light', 'dark'] as const) {
      await emulateMedia({ colorScheme: scheme });
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} url=${url}></try-it-console>`);
      const done = Promise.race([oneEvent<TicResponseEvent>(el, 'tic-response'), oneEvent<TicRequestErrorEvent>(el, 'tic-request-error')]);
      await el.send();
      await done;
      await el.updateComplete;
      expect($(el, '[part="response-body"] .hljs-literal')?.textContent, 'the response highlighted').to.equal('true');
      // Before, literals took the keyword colour (#cf222e, #ff7b72).
      expect(colourOf(el, 'literal'), `${scheme}: the default`).to.equal(colourOf(el, 'number'));
      el.style.setProperty('--tic-code-number', 'rgb(42, 0, 0)');
      expect(colourOf(el, 'literal'), `${scheme}: the page's`).to.equal('rgb(42, 0, 0)');
      // PHP's `true` in the snippet, inside the console and alone.
      const snippet = await fixture<CodeSnippet>(html`<code-snippet style="--tic-code-number: rgb(42, 0, 0)" languages="php" url="https://api.example.com/pets"></code-snippet>`);
      expect(colourOf(snippet, 'literal'), `${scheme}: a snippet alone`).to.equal('rgb(42, 0, 0)');
    }
  });
});
