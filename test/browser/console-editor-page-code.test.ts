// <try-it-console> driven by a docs page's own code: properties set right before send() or focus(), and load()
// given what a page may pass.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

let servers: { api: string; proxy: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  run += 1;
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey: `console-editor-page-code-${Date.now()}-${run}` },
    ...extra,
  };
}

/** How the next send ends: the path the API saw, or the kind and message of the failure. */
function outcome(el: TryItConsole): Promise<string> {
  return Promise.race([
    oneEvent<TicResponseEvent>(el, 'tic-response').then(({ response }) => JSON.parse(response.text).url as string),
    oneEvent<TicRequestErrorEvent>(el, 'tic-request-error').then(({ error }) => `${error.kind}: ${error.message}`),
  ]);
}

describe('<try-it-console> driven by page code', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('sends the operation or configuration the page set just before send()', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/first"></try-it-console>`);
    let ended = outcome(el);
    el.url = '{{base_url}}/second';
    void el.send();
    expect(await ended).to.equal('/second');

    ended = outcome(el);
    el.config = config({ environments: [{ name: 'Other', variables: { base_url: `${servers.api}/other` } }] });
    void el.send();
    expect(await ended).to.equal('/other/second');
    expect(el.engine!.history.list().map((entry) => entry.url), 'recorded by the new configuration’s history').to.deep.equal([`${servers.api}/other/second`]);

    // A preset the console cannot load is said to the page, not replaced by the request shown before.
    ended = outcome(el);
    el.headers = new Headers({ Accept: 'text/plain' }) as unknown as Record<string, string>;
    void el.send();
    expect(await ended).to.equal('invalid-request: The headers property must be a plain object; for a Headers, pass Object.fromEntries(headers).');
  });

  it('tells how a send that load() replaced ended before anything of the next send, in order', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
    const told: string[] = [];
    el.addEventListener('tic-before-send', (event) => told.push(`before-send ${event.request.url.replace(servers.api, '')}`));
    el.addEventListener('tic-request-error', (event) => told.push(`request-error ${event.error.kind}`));
    el.addEventListener('tic-response', (event) => told.push(`response ${event.response.status}`));
    const first = el.send(); // /hold never answers: in flight from here on
    // The page loads another operation and sends it at once, as a "Try it" button of a docs page does.
    el.load({ method: 'GET', url: '{{base_url}}/pets' });
    const second = el.send();
    await Promise.all([first, second]);
    expect(told).to.deep.equal(['before-send /hold', 'request-error aborted', 'before-send /pets', 'response 200']);
  });

  it('sends nothing once a configuration script that came late turns out broken, and says why', async () => {
    const el = document.createElement('try-it-console');
    el.url = `${servers.api}/pets`;
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    container.append(el);
    await el.updateComplete;
    expect(el.engine, 'running on defaults meanwhile').to.not.equal(undefined);
    const script = document.createElement('script');
    script.type = 'application/json';
    script.textContent = '{ "corsProxy": ';
    el.append(script);
    await new Promise((resolve) => setTimeout(resolve));
    await el.updateComplete;
    expect($(el, '.error[role="alert"]').textContent).to.contain('not valid JSON');
    const ended = outcome(el);
    void el.send();
    expect(await ended).to.match(/^invalid-request: The console's configuration script is not valid JSON: /);
  });

  it('starts when added back after its first render came while it was out of the document', async () => {
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    for (const configure of [(el: TryItConsole) => { el.config = config(); }, (el: TryItConsole) => { el.innerHTML = '<script type="application/json">{"history":{"enabled":false}}</script>'; }]) {
      const el = document.createElement('try-it-console');
      configure(el);
      // Added and taken out again in one go (a tab strip that parks its hidden panels): the first render comes meanwhile.
      container.append(el);
      el.remove();
      await el.updateComplete;
      container.append(el);
      await el.updateComplete;
      expect(el.engine, 'configured').to.not.equal(undefined);
      expect($(el, '[part="send-button"]')).to.exist;
      el.remove();
    }
  });

  it('focuses the URL field when focus() follows the page adding the console', async () => {
    const el = document.createElement('try-it-console');
    el.config = config();
    el.url = '{{base_url}}/pets';
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    container.append(el);
    el.focus();
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('url');
  });

  it('refuses a load() it cannot show, before changing anything, and takes one without headers or body', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/kept" body='{"kept":true}'></try-it-console>`);
    const shown = () => [$<HTMLSelectElement>(el, '[part="method"]').value, $<HTMLInputElement>(el, '[part="url"]').value, el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="body"]')?.value];
    const bad = [
      [{ url: '/pets', headers: {}, body: '' }, 'The method given to load() must be a string (got undefined).'],
      [{ method: 'PUT', url: '/pets', headers: new Map() }, 'The headers given to load() must be a plain object; for a Map, pass Object.fromEntries(headers).'],
      [{ method: 'PUT', url: '/pets', headers: { 'X-Page': 2 } }, 'The value of header X-Page in the headers given to load() must be a string, e.g. "2" (got 2).'],
    ] as const;
    for (const [request, message] of bad) {
      expect(() => el.load(request as unknown as Parameters<TryItConsole['load']>[0])).to.throw(TypeError, message);
      await el.updateComplete;
      expect(shown()).to.deep.equal(['POST', '{{base_url}}/kept', '{"kept":true}']);
    }
    el.load({ method: 'PUT', url: '{{base_url}}/pets' });
    await el.updateComplete;
    expect(shown()).to.deep.equal(['PUT', '{{base_url}}/pets', '']);
    expect(el.shadowRoot!.querySelectorAll('.header-row').length).to.equal(0);
  });
});
