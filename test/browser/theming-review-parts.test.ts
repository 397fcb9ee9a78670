import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, History } from '../../src/core/index.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

// The parts custom-elements.json names (from the `@csspart` JSDoc), styled from the page as a docs team would, and
// the default colours' contrast in both schemes.

let servers: { api: string; proxy: string; closed: string };
let run = 0;
let style: HTMLStyleElement;
let documented: Map<string, string[]>;

const $ = (el: Element, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector)!;

/** The parts drawn in `root` and the shadow roots inside it, as `part` attributes name them. */
function partsIn(root: ShadowRoot, host = (root.host as Element).localName): [string, string][] {
  return [...root.querySelectorAll('*')].flatMap((element) => [
    ...(element.getAttribute('part')?.split(/\s+/).filter(Boolean).map((part): [string, string] => [host, part]) ?? []),
    ...(element.shadowRoot ? partsIn(element.shadowRoot) : []),
  ]);
}

/** The parts of `root`'s tree that a page rule `tag::part(name)` reached: a probe property only that rule sets. */
function styledParts(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('*')].flatMap((element) => [
    ...(getComputedStyle(element).scrollMarginTop === '7px' ? [element.getAttribute('part')!] : []),
    ...(element.shadowRoot ? styledParts(element.shadowRoot) : []),
  ]);
}

/** A page rule that marks each of `tag`'s documented parts. */
function probeRules(tag: string): string {
  return documented.get(tag)!.map((part) => `${tag}::part(${part}) { scroll-margin-top: 7px; }`).join('\n');
}

function config(extra: object = {}) {
  run += 1;
  return {
    corsProxy: servers.proxy,
    defaultHeaders: { 'X-Client': 'docs' },
    environments: [{ name: 'Local', variables: { base_url: servers.api, token: 'local-token' } }],
    history: { enabled: true, storageKey: `theming-review-parts-${Date.now()}-${run}` },
    ...extra,
  };
}

async function sent(el: TryItConsole): Promise<TryItConsole> {
  const done = Promise.race([oneEvent<TicResponseEvent>(el, 'tic-response'), oneEvent<TicRequestErrorEvent>(el, 'tic-request-error')]);
  await el.send();
  await done;
  await el.updateComplete;
  for (const tag of ['code-snippet', 'env-picker', 'request-history']) await ($(el, tag) as unknown as CodeSnippet).updateComplete;
  return el;
}

/** Consoles that between them show every part: a redirected response, a send in flight, a failure. */
async function consolesShowingEveryPart(): Promise<TryItConsole[]> {
  const redirected = await sent(await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/redirect-me" headers='{"X-Trace":"{{trace}}"}' body="{}"></try-it-console>`));
  await waitUntil(() => $(redirected, 'request-history').shadowRoot!.querySelector('li'), 'the entry listed');
  const pending = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
  void pending.send();
  await waitUntil(() => pending.shadowRoot!.querySelector('[part="cancel-button"]'), 'sending');
  const failed = await sent(await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.closed}/pets"></try-it-console>`));
  return [redirected, pending, failed];
}

describe('theming review: parts', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
    const manifest = (await (await fetch('/custom-elements.json')).json()) as { modules: { declarations?: { tagName?: string; cssParts?: { name: string }[] }[] }[] };
    documented = new Map(manifest.modules.flatMap((module) => module.declarations ?? []).filter((d) => d.tagName).map((d) => [d.tagName!, (d.cssParts ?? []).map((part) => part.name)]));
  });
  beforeEach(() => {
    style = document.createElement('style');
    document.head.append(style);
  });
  afterEach(async () => {
    style.remove();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('every part of <try-it-console> in custom-elements.json reaches a page rule try-it-console::part(…), those it forwards from the elements inside too, and no part is drawn undocumented', async () => {
    style.textContent = probeRules('try-it-console');
    const consoles = await consolesShowingEveryPart();
    const styled = new Set(consoles.flatMap((el) => styledParts(el.shadowRoot!)));
    expect([...documented.get('try-it-console')!].filter((part) => !styled.has(part)), 'documented, not reached').to.deep.equal([]);
    const drawn = consoles.flatMap((el) => partsIn(el.shadowRoot!));
    expect(drawn.filter(([tag, part]) => !documented.get(tag)!.includes(part)), 'drawn, not documented').to.deep.equal([]);
    // The forwarded ones are the inner elements' own, by the same names.
    for (const tag of ['code-snippet', 'env-picker', 'request-history']) {
      for (const part of documented.get(tag)!) expect(documented.get('try-it-console'), `${tag} ${part}`).to.include(part);
    }
  });

  it('every part of <code-snippet>, <env-picker> and <request-history> alone reaches a page rule', async () => {
    style.textContent = ['code-snippet', 'env-picker', 'request-history'].map(probeRules).join('\n');
    const history = new History({ enabled: true });
    history.add({ method: 'GET', url: 'https://api.example.com/pets', status: 200, duration: 3 });
    const alone = [
      await fixture(html`<code-snippet url="https://api.example.com/pets"></code-snippet>`),
      await fixture(html`<env-picker .manager=${new EnvironmentManager({ name: 'Local', variables: { token: 'x' } })} .missing=${['pet_id']}></env-picker>`),
      await fixture(html`<request-history .history=${history}></request-history>`),
    ];
    await waitUntil(() => alone[2]!.shadowRoot!.querySelector('li'), 'the entry listed');
    for (const el of alone) {
      expect(styledParts(el.shadowRoot!).sort(), el.localName).to.deep.equal([...documented.get(el.localName)!].sort());
    }
  });

  it('lets a page hide the console’s Code section, heading and all, by a part, as it can its side panel', async () => {
    style.textContent = 'try-it-console::part(snippet), try-it-console::part(side) { display: none; }';
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    const shown = [...el.shadowRoot!.querySelectorAll('h2')].filter((heading) => heading.getClientRects().length > 0).map((heading) => heading.textContent!.trim());
    // Before, the Code heading had no part around it: ::part(code) hid the panel only, leaving "Code" over nothing.
    expect(shown).to.deep.equal(['Request', 'Response']);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`reads at WCAG AA contrast in the ${scheme} scheme with the default colours: a redirected response, a send in flight, a failure, history statuses`, async () => {
      await emulateMedia({ colorScheme: scheme });
      for (const el of await consolesShowingEveryPart()) await expect(el, el.getAttribute('url')!).to.be.accessible();
      const history = new History({ enabled: true });
      for (const status of [200, 301, 404, 500, 0]) history.add({ method: 'GET', url: `https://api.example.com/status/${status}`, status, duration: 3 });
      const list = await fixture(html`<request-history .history=${history}></request-history>`);
      await waitUntil(() => list.shadowRoot!.querySelectorAll('li').length === 5, 'the entries listed');
      await expect(list).to.be.accessible();
    });
  }
});
