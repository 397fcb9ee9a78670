import { expect, fixture, html } from '@open-wc/testing';
import { nothing } from 'lit';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, History } from '../../src/core/index.js';

/** The colour painted behind `node`: its own background or the nearest ancestor's, across shadow roots. */
function backgroundBehind(node: Element): string {
  for (let el: Element | null = node; el; el = el.parentElement ?? ((el.getRootNode() as ShadowRoot).host || null)) {
    const colour = getComputedStyle(el).backgroundColor;
    if (colour !== 'rgba(0, 0, 0, 0)') return colour;
  }
  return 'rgb(255, 255, 255)';
}

/** WCAG contrast ratio of `node`'s text against what is painted behind it. */
function contrast(node: Element): number {
  const luminance = (colour: string) => {
    const [r, g, b] = colour.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(getComputedStyle(node).color), luminance(backgroundBehind(node))].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

const $ = (el: Element, selector: string) => el.shadowRoot!.querySelector(selector)!;
const manager = () => new EnvironmentManager({ name: 'Production', variables: { base_url: 'https://api.example.com', token: 'abc' } });
function history(): History {
  const entries = new History({ enabled: true });
  entries.add({ method: 'GET', url: 'https://api.example.com/pets', status: 200, duration: 12 });
  return entries;
}

// A docs page with no dark mode of its own: white, whatever the system's scheme.
describe('dark theme on a light page', () => {
  beforeEach(() => {
    document.body.style.background = '#ffffff';
  });
  afterEach(async () => {
    document.body.style.background = '';
    await emulateMedia({ colorScheme: 'light' });
  });

  for (const [how, scheme, theme] of [
    ['the system dark', 'dark', undefined],
    ['theme="dark"', 'light', 'dark'],
  ] as const) {
    it(`keeps <env-picker> and <request-history> legible alone, with ${how}`, async () => {
      await emulateMedia({ colorScheme: scheme });
      const picker = await fixture<EnvPicker>(html`<env-picker theme=${theme ?? nothing} .manager=${manager()}></env-picker>`);
      const list = await fixture<RequestHistory>(html`<request-history theme=${theme ?? nothing} .history=${history()}></request-history>`);
      expect(getComputedStyle($(picker, 'label')).color, 'the dark theme in use').to.equal('rgb(230, 237, 243)');
      for (const [label, node] of [
        ['the picker label', $(picker, 'label')],
        ['a variable value', $(picker, 'td.value .text')],
        ['a column heading (muted)', $(picker, 'th')],
        ['the history heading', $(list, 'h2')],
        ['an entry path', $(list, '.path')],
        ['an entry time (muted)', $(list, '.meta')],
      ] as const) {
        expect(contrast(node), label).to.be.at.least(4.5);
      }
    });
  }

  it('keeps the console’s turned-off notice legible', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ enabled: false, history: { enabled: false } }}></try-it-console>`);
    expect(contrast($(el, '.disabled-notice'))).to.be.at.least(4.5);
  });

  it('inside the console, shows the side column on the console’s own background, with no frame of their own', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments: [{ name: 'Production', variables: { token: 'abc' } }], history: { enabled: false } }}></try-it-console>`);
    const layout = getComputedStyle($(el, '.layout')).backgroundColor;
    for (const tag of ['env-picker', 'request-history']) {
      const inner = $(el, tag) as HTMLElement;
      await (inner as EnvPicker | RequestHistory).updateComplete;
      const style = getComputedStyle(inner);
      expect([style.backgroundColor, style.borderTopWidth, style.paddingLeft], tag).to.deep.equal(['rgba(0, 0, 0, 0)', '0px', '0px']);
      expect(backgroundBehind(inner.shadowRoot!.querySelector('h2, label')!), tag).to.equal(layout);
    }
  });
});
