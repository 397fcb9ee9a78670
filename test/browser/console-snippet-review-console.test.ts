// <try-it-console> as a demanding docs reader meets it (a review's findings; each test failed before its fix): a page
// with a console per operation after the reader has sent from them, and the response panel on a right-to-left page.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { drawnAt } from './support/drawn-at.js';
import { landmarks } from './support/accessibility-tree.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent } from '../../src/events/index.js';

interface TestServers {
  api: string;
  corsApi: string;
  proxy: string;
}

let servers: TestServers;
let streams = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { corsProxy: servers.proxy, environments: [{ name: 'Local', variables: { base_url: servers.api } }], history: { enabled: false }, ...extra };
}

/** Whether `element`'s characters are drawn left to right, each right of the one before, as code reads. */
function readsLeftToRight(element: Element): boolean {
  const lefts = drawnAt(element);
  return lefts.length > 0 && lefts.every((left, i) => i === 0 || left > lefts[i - 1]!);
}

describe('<try-it-console> review: a docs reader’s view', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('stays one landmark per labelled console once the reader has sent from them, and adds none without a label', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <try-it-console label="List pets" url="{{base_url}}/pets" .config=${config()}></try-it-console>
      <try-it-console label="Add a pet" method="POST" url="{{base_url}}/pets" body="{}" .config=${config()}></try-it-console>
    </div>`);
    const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
    for (const console of consoles) {
      await console.send();
      await console.updateComplete;
      expect($(console, '[part="response-body"]').textContent, 'the response is shown').to.contain('/pets');
    }
    // A "Response body" landmark per console, alike in every one, is what `label` spares screen reader users.
    expect(await landmarks()).to.deep.equal(['region List pets', 'region Add a pet']);
    await expect(consoles[0]).to.be.accessible();
    for (const console of consoles) console.removeAttribute('label');
    await Promise.all(consoles.map((console) => console.updateComplete));
    const unlabelled = ['region Request', 'region Response', 'region Code', 'complementary Environment and history'];
    expect(await landmarks(), 'without labels, the four of each console and no more').to.deep.equal([...unlabelled, ...unlabelled]);
  });

  it('adds no landmark for a body as it arrives, nor for what had come when it was cancelled', async () => {
    streams += 1;
    const id = `review-${Date.now()}-${streams}`;
    const el = await fixture<TryItConsole>(html`<try-it-console label="Watch events" .config=${config()} url="${servers.corsApi}/stream?id=${id}"></try-it-console>`);
    void el.send();
    await waitUntil(() => el.shadowRoot!.querySelector('[part="cancel-button"]') && el.shadowRoot!.querySelector('[part="status"]'), 'the headers came', { timeout: 5000 });
    const pushed = await fetch(`${servers.corsApi}/stream-push?id=${id}&text=${encodeURIComponent('data: one\n\n')}`);
    expect(pushed.status).to.equal(204);
    await waitUntil(() => el.shadowRoot!.querySelector('.arriving pre')?.textContent === 'data: one\n\n', 'the event shown as it arrives', { timeout: 5000 });
    expect(await landmarks(), 'while it arrives').to.deep.equal(['region Watch events']);
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.cancel();
    await failed;
    await el.updateComplete;
    expect($(el, '[part="response-body"] pre').textContent, 'what had come').to.equal('data: one\n\n');
    expect(await landmarks(), 'after Cancel').to.deep.equal(['region Watch events']);
    await expect(el).to.be.accessible();
  });

  it('marks an undefined variable in the URL legibly, at WCAG AA contrast, in the light theme as in the dark', async () => {
    for (const theme of ['light', 'dark']) {
      const el = await fixture<TryItConsole>(html`<try-it-console theme=${theme} .config=${config()} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
      const missing = $(el, 'mark.variable.missing');
      expect(missing.textContent, theme).to.equal('{{pet_id}}');
      // The red of an error on a tint of itself: at 15% it read 4.2:1 on white, under the 4.5:1 that small text needs.
      await expect(el, theme).to.be.accessible();
    }
  });

  it('lists in custom-elements.json every event that reaches the page from it, those of the elements inside it too', async () => {
    // Framework tooling types `@tic-copy` on <try-it-console> from the manifest (npm test builds it first). The events
    // of its snippet, picker and history are composed: they reach the page's listeners on the console.
    const manifest = (await (await fetch('/custom-elements.json')).json()) as { modules: { declarations?: { tagName?: string; events?: { name: string; type?: { text: string } }[] }[] }[] };
    const declarations = manifest.modules.flatMap((module) => module.declarations ?? []);
    const eventsOf = (tag: string) => (declarations.find((declaration) => declaration.tagName === tag)?.events ?? []).map((event) => `${event.name} ${event.type?.text}`);
    const inside = ['code-snippet', 'env-picker', 'request-history'].flatMap(eventsOf);
    expect(inside, 'the inner elements document theirs').to.have.length(6);
    expect(eventsOf('try-it-console')).to.include.members(['tic-before-send TicBeforeSendEvent', 'tic-response TicResponseEvent', 'tic-request-error TicRequestErrorEvent', ...inside]);
  });

  it('draws response headers and the URL a redirect led to left to right on a right-to-left page, as code', async () => {
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar" style="width: 720px">
      <try-it-console .config=${config()} url="{{base_url}}/redirect-me"></try-it-console>
    </div>`);
    const el = page.querySelector<TryItConsole>('try-it-console')!;
    await el.updateComplete;
    // What APIs send: a redirect to a site's root (ending in "/"), paging links and paths in headers, which start or
    // end with characters that take the page's direction.
    const execute = el.engine!.execute.bind(el.engine!);
    el.engine!.execute = async (request, options) => {
      const response = await execute(request, options);
      return { ...response, redirectedTo: 'https://example.com/', headers: [...response.headers, ['link', '</pets?page=2>; rel="next"'], ['x-path', '/pets?x=1']] };
    };
    await el.send();
    await el.updateComplete;
    $<HTMLDetailsElement>(el, '.response-headers').open = true;
    const redirected = $(el, '[part="redirected"] code');
    expect(redirected.textContent).to.equal('https://example.com/');
    expect(readsLeftToRight(redirected), `the redirect's URL drawn at ${drawnAt(redirected).join(', ')}`).to.equal(true);
    const rows = [...el.shadowRoot!.querySelectorAll('.response-headers tr')];
    expect(rows.map((row) => row.querySelector('th')!.textContent)).to.include.members(['link', 'x-path']);
    for (const row of rows) {
      const [name, value] = [row.querySelector('th')!, row.querySelector('td')!];
      expect(readsLeftToRight(value), `${name.textContent}: ${value.textContent} drawn at ${drawnAt(value).join(', ')}`).to.equal(true);
      // Name, then value, as in the request's header rows.
      expect(name.getBoundingClientRect().left, `${name.textContent} left of its value`).to.be.below(value.getBoundingClientRect().left);
    }
    expect(getComputedStyle($(el, '.response-headers summary')).direction, 'the console’s own words stay right to left').to.equal('rtl');
  });
});
