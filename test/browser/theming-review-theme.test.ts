import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, History } from '../../src/core/index.js';

// A docs team fitting the elements into its site: a dark mode toggle of its own on <html>, its own fonts and sizes.

// The default text colours, as rendered.
const LIGHT_TEXT = 'rgb(31, 35, 40)';
const DARK_TEXT = 'rgb(230, 237, 243)';
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';
const DARK_BACKGROUND = 'rgb(13, 17, 23)';

const $ = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector)!;
const inner = (el: Element, host: string, selector: string) => $($(el, host), selector);
const config = () => ({ environments: [{ name: 'Production', variables: { base_url: 'https://api.example.com', token: 'abc' } }], history: { enabled: false } });

/** The colour painted behind `node`: its own background or the nearest ancestor's, across shadow roots. */
function backgroundBehind(node: Element): string {
  for (let el: Element | null = node; el; el = el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null)) {
    const colour = getComputedStyle(el).backgroundColor;
    if (colour !== 'rgba(0, 0, 0, 0)') return colour;
  }
  return 'rgb(255, 255, 255)';
}

/** Waits for the console and the three elements inside it to render. */
async function rendered(el: TryItConsole): Promise<void> {
  await el.updateComplete;
  for (const tag of ['code-snippet', 'env-picker', 'request-history']) await ($(el, tag) as unknown as CodeSnippet).updateComplete;
}

/** What the elements inside a console draw with: their text colour and the snippet's background. */
function insideColours(el: TryItConsole) {
  return {
    console: getComputedStyle($(el, '.layout')).backgroundColor,
    snippet: getComputedStyle(inner(el, 'code-snippet', '.frame')).backgroundColor,
    picker: getComputedStyle(inner(el, 'env-picker', 'label')).color,
    history: getComputedStyle(inner(el, 'request-history', 'h2')).color,
  };
}
const ALL_DARK = { console: DARK_BACKGROUND, snippet: DARK_BACKGROUND, picker: DARK_TEXT, history: DARK_TEXT };
const ALL_LIGHT = { console: LIGHT_BACKGROUND, snippet: LIGHT_BACKGROUND, picker: LIGHT_TEXT, history: LIGHT_TEXT };

describe('theming review: a site’s own dark mode, fonts and sizes', () => {
  let style: HTMLStyleElement;
  beforeEach(() => {
    style = document.createElement('style');
    document.head.append(style);
  });
  afterEach(async () => {
    style.remove();
    delete document.documentElement.dataset.theme;
    await emulateMedia({ colorScheme: 'light' });
  });

  it('a color-scheme the page sets on <try-it-console> (its own toggle on <html>) reaches the snippet, picker and history inside, toggled after the first render too', async () => {
    // The rule a site with a data-theme toggle writes once, instead of setting `theme` on every element it renders.
    style.textContent = `
      html[data-theme='dark'] :is(try-it-console, env-picker, request-history, code-snippet) { color-scheme: dark; }
      html[data-theme='light'] :is(try-it-console, env-picker, request-history, code-snippet) { color-scheme: light; }`;
    await emulateMedia({ colorScheme: 'light' });
    document.documentElement.dataset.theme = 'dark';
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    await rendered(el);
    // Before, the three kept the system's light scheme: the picker's and the history's dark text on the console's dark
    // background, and a white snippet in a dark console.
    expect(insideColours(el), 'dark toggle, light system').to.deep.equal(ALL_DARK);
    await emulateMedia({ colorScheme: 'dark' });
    document.documentElement.dataset.theme = 'light';
    expect(insideColours(el), 'light toggle, dark system').to.deep.equal(ALL_LIGHT);
    // The snippet's code colours follow too: a light-theme string colour on a light frame.
    expect(getComputedStyle(inner(el, 'code-snippet', '.hljs-string')).color, 'a string in the code').to.equal('rgb(10, 48, 105)');
    delete document.documentElement.dataset.theme;
    expect(insideColours(el), 'no toggle: the system’s').to.deep.equal(ALL_DARK);
  });

  it('theme set, changed and removed after the first render reaches each element alone and those inside the console', async () => {
    await emulateMedia({ colorScheme: 'light' });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const snippet = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example.com/pets"></code-snippet>`);
    const picker = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'Production', variables: {} })}></env-picker>`);
    const list = await fixture<RequestHistory>(html`<request-history .history=${new History({ enabled: true })}></request-history>`);
    await rendered(el);
    const alone = () => [getComputedStyle($(snippet, '.frame')).backgroundColor, getComputedStyle(picker).backgroundColor, getComputedStyle(list).backgroundColor];
    expect(insideColours(el)).to.deep.equal(ALL_LIGHT);
    for (const element of [el, snippet, picker, list]) element.theme = 'dark';
    await rendered(el);
    await Promise.all([snippet.updateComplete, picker.updateComplete, list.updateComplete]);
    expect(insideColours(el), 'dark').to.deep.equal(ALL_DARK);
    expect(alone(), 'dark, alone').to.deep.equal([DARK_BACKGROUND, DARK_BACKGROUND, DARK_BACKGROUND]);
    await emulateMedia({ colorScheme: 'dark' });
    for (const element of [el, snippet, picker, list]) element.theme = 'light';
    await rendered(el);
    await Promise.all([snippet.updateComplete, picker.updateComplete, list.updateComplete]);
    expect(insideColours(el), 'light on a dark system').to.deep.equal(ALL_LIGHT);
    expect(alone(), 'light, alone').to.deep.equal([LIGHT_BACKGROUND, LIGHT_BACKGROUND, LIGHT_BACKGROUND]);
    for (const element of [el, snippet, picker, list]) element.theme = undefined;
    await rendered(el);
    await Promise.all([snippet.updateComplete, picker.updateComplete, list.updateComplete]);
    expect(insideColours(el), 'removed: the system’s dark').to.deep.equal(ALL_DARK);
    expect(alone(), 'removed, alone').to.deep.equal([DARK_BACKGROUND, DARK_BACKGROUND, DARK_BACKGROUND]);
  });

  for (const size of ['0.8em', '80%']) {
    it(`a relative --tic-font-size (${size}) sizes the elements inside the console once, as the console is sized`, async () => {
      const wrapper = await fixture<HTMLDivElement>(html`<div style="font-size: 20px; --tic-font-size: ${size}"><try-it-console .config=${config()}></try-it-console></div>`);
      const el = wrapper.querySelector('try-it-console')!;
      await rendered(el);
      expect(getComputedStyle(el).fontSize).to.equal('16px');
      // Before, each element inside took 80% of the console's 16px again: 12.8px.
      for (const tag of ['code-snippet', 'env-picker', 'request-history']) expect(getComputedStyle($(el, tag)).fontSize, tag).to.equal('16px');
    });
  }

  it('a font the page sets on <try-it-console> itself reaches the elements inside, as it reaches the console’s own text', async () => {
    style.textContent = `try-it-console { font-family: Georgia, serif; font-size: 14px; }`;
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    await rendered(el);
    const font = (node: Element) => [getComputedStyle(node).fontFamily, getComputedStyle(node).fontSize];
    expect(font($(el, 'h2')), 'the console’s own heading').to.deep.equal(['Georgia, serif', '14px']);
    // Before, the three took the default system font at 15px.
    for (const [tag, selector] of [['code-snippet', '[role="tab"]'], ['env-picker', 'label'], ['request-history', 'h2']]) {
      expect(font(inner(el, tag!, selector!)), tag).to.deep.equal(['Georgia, serif', '14px']);
    }
  });

  it('keeps the text of the elements inside legible on the console’s background when the page darkens the console by CSS', async () => {
    style.textContent = `try-it-console { color-scheme: dark; }`;
    await emulateMedia({ colorScheme: 'light' });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    await rendered(el);
    const layout = getComputedStyle($(el, '.layout')).backgroundColor;
    expect(layout).to.equal(DARK_BACKGROUND);
    for (const [tag, selector] of [['env-picker', 'label'], ['request-history', 'h2']]) {
      const node = inner(el, tag!, selector!);
      expect(backgroundBehind(node), tag).to.equal(layout);
      expect(getComputedStyle(node).color, tag).to.equal(DARK_TEXT);
    }
    await expect(el).to.be.accessible();
  });
});
