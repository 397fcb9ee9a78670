import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { render } from 'lit';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { REDACTED, RequestError, type ConsoleConfig, type RequestEngine } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import type { TicCopyEvent, TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';
import { withoutIndexedDB } from './support/without-indexeddb.js';

interface TestServers {
  api: string;
  /** An API that lets any page read its responses; see test-servers.mjs. */
  corsApi: string;
  proxy: string;
  /** A port nothing listens on. */
  closed: string;
}

let servers: TestServers;
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const inner = <T extends Element = HTMLElement>(el: Element, host: string, selector: string) => $(el, host).shadowRoot!.querySelector<T>(selector)!;

/** A config against the loopback test API through the real proxy, with its own history database. */
function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  run += 1;
  return {
    corsProxy: servers.proxy,
    environments: [
      { name: 'Local', variables: { base_url: servers.api, pet_id: '7', api_token: 'local-token' } },
      { name: 'Other', variables: { base_url: servers.api, pet_id: '99', api_token: 'other-token' } },
    ],
    history: { enabled: true, storageKey: `console-test-${Date.now()}-${run}` },
    ...extra,
  };
}

async function sendAndWait(el: TryItConsole): Promise<void> {
  const done = Promise.race([oneEvent<TicResponseEvent>(el, 'tic-response'), oneEvent<TicRequestErrorEvent>(el, 'tic-request-error')]);
  $(el, '[part="send-button"]').click();
  await done;
  await el.updateComplete;
}

/**
 * Makes the engine hold each response, read to the end without the console's signal, until `release()`: a response
 * that arrives after the console has moved on.
 */
/**
 * Holds what the engine's next sends bring until `release()`: a response read to its end just before its send was
 * cancelled. `settled` is when the first held send has handed over what it brought.
 */
function holdResponses(engine: RequestEngine): { release(): void; settled: Promise<unknown> } {
  const execute = engine.execute.bind(engine);
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  let handedOver!: () => void;
  const settled = new Promise<void>((resolve) => { handedOver = resolve; });
  engine.execute = async (request) => {
    const response = await execute(request);
    await released;
    setTimeout(handedOver); // a task later: once whoever awaited this response has dealt with it
    return response;
  };
  return { release, settled };
}

/** The console's events from now on, by type and kind. */
function eventsOf(el: TryItConsole): string[] {
  const told: string[] = [];
  el.addEventListener('tic-response', (event) => told.push(`response ${event.response.status}`));
  el.addEventListener('tic-request-error', (event) => told.push(`request-error ${event.error.kind}`));
  return told;
}

function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

describe('<try-it-console>', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });
  afterEach(() => {
    window.__pwned = undefined;
  });

  it('renders the request editor, the response panel and the three elements inside', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/pets"></try-it-console>`);
    expect($<HTMLSelectElement>(el, '[part="method"]').value).to.equal('POST');
    expect($<HTMLInputElement>(el, '[part="url"]').value).to.equal('{{base_url}}/pets');
    expect($(el, 'env-picker')).to.exist;
    expect($(el, 'request-history')).to.exist;
    expect($(el, 'code-snippet')).to.exist;
    expect($(el, '[part="response"]').textContent).to.contain('Send the request to see the response here.');
  });

  it('is accessible, before and after a send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ Accept: 'application/json' }}></try-it-console>`);
    await expect(el).to.be.accessible();
    await sendAndWait(el);
    await expect(el).to.be.accessible();
  });

  it('reads its configuration from a child JSON script', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console url="{{base_url}}/pets">
      <script type="application/json">{"environments":[{"name":"From script","variables":{"base_url":"https://api.example"}}],"history":{"enabled":false}}</script>
    </try-it-console>`);
    expect(el.engine!.environments.active()!.name).to.equal('From script');
    expect(inner(el, 'env-picker', 'select').textContent).to.contain('From script');
  });

  it('reads a configuration script that arrives after the element, as from a slow page or a framework', async () => {
    const el = document.createElement('try-it-console');
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    container.append(el);
    await el.updateComplete;
    expect($(el, '[part="send-button"]'), 'with defaults meanwhile').to.exist;
    const script = document.createElement('script');
    script.type = 'application/json';
    el.append(script);
    script.textContent = '{"enabled":false,"history":{"enabled":false}}';
    await waitUntil(() => el.engine?.config.enabled === false, 'the script is read');
    await el.updateComplete;
    expect($(el, '.disabled-notice').textContent).to.contain('turned off');
    script.textContent = '{}';
    await new Promise((resolve) => setTimeout(resolve));
    await el.updateComplete;
    expect(el.engine!.config.enabled, 'read once').to.equal(false);
  });

  it('explains a bad configuration instead of breaking', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: true, maxItems: 0 } }}></try-it-console>`);
    expect($(el, '[role="alert"]').textContent).to.contain('history.maxItems');
    const broken = await fixture<TryItConsole>(html`<try-it-console><script type="application/json">{ not json</script></try-it-console>`);
    expect($(broken, '[role="alert"]').textContent).to.contain('not valid JSON');
  });

  it('refuses a configuration that is not plain JSON data (circular, a BigInt), stopping the engine it had', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    const circular: Record<string, unknown> = { enabled: false };
    circular.self = { circular };
    el.config = circular as ConsoleConfig;
    await el.updateComplete;
    expect($(el, '[role="alert"]').textContent).to.contain('The console is misconfigured').and.to.contain('plain JSON data');
    expect(el.engine).to.equal(undefined);
    el.config = { timeout: 10n } as unknown as ConsoleConfig;
    await el.updateComplete;
    expect($(el, '[role="alert"]').textContent).to.contain('BigInt');
    el.config = config();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
    expect($(el, '[part="send-button"]')).to.exist;
  });

  it('keeps its state when a framework passes an equal new config, and rebuilds for a different one', async () => {
    const first = config();
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${first} url="{{base_url}}/pets"></try-it-console>`);
    const engine = el.engine;
    engine!.environments.setActive('Other');
    el.config = structuredClone(first);
    await el.updateComplete;
    expect(el.engine).to.equal(engine);
    expect(el.engine!.environments.active()!.name).to.equal('Other');
    el.config = { ...first, environments: [{ name: 'Replaced', variables: {} }] };
    await el.updateComplete;
    expect(el.engine).not.to.equal(engine);
    expect(el.engine!.environments.active()!.name).to.equal('Replaced');
  });

  it('keeps the environment the user chose when another configuration still has it', async () => {
    const first = config();
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${first} url="/pets/{{pet_id}}"></try-it-console>`);
    const picker = inner<HTMLSelectElement>(el, 'env-picker', 'select');
    picker.value = 'Other';
    picker.dispatchEvent(new Event('change'));
    await el.updateComplete;
    const engine = el.engine;
    // One more default header, as after a sign-in: another configuration, the same environments.
    el.config = { ...first, defaultHeaders: { 'X-Client': 'docs' } };
    await el.updateComplete;
    expect(el.engine === engine, 'a new engine').to.equal(false);
    expect(el.engine!.environments.active()!.name).to.equal('Other');
    await $<EnvPicker>(el, 'env-picker').updateComplete;
    expect(inner<HTMLSelectElement>(el, 'env-picker', 'select').value).to.equal('Other');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    const echoed = JSON.parse((await response).response.text);
    expect(echoed.url, 'sent to the environment chosen').to.equal('/pets/99');
    expect(echoed.headers['x-client']).to.equal('docs');

    // Never switched, the console is on no one's choice: a configuration listing another environment first starts there.
    // Alone with these environments: the consoles of a page that share them share the choice too.
    el.remove();
    await new Promise((resolve) => setTimeout(resolve));
    const fresh = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    expect(fresh.engine!.environments.active()!.name).to.equal('Local');
    fresh.config = { ...fresh.config, environments: [...fresh.config!.environments!].reverse() };
    await fresh.updateComplete;
    expect(fresh.engine!.environments.active()!.name).to.equal('Other');

    // Switched away and back to the first is a choice too: a configuration listing another first must not move off it
    // (alone with those environments: another console holding them would hold the page's choice for them).
    fresh.remove();
    await new Promise((resolve) => setTimeout(resolve));
    const back = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const select = inner<HTMLSelectElement>(back, 'env-picker', 'select');
    for (const name of ['Other', 'Local']) {
      select.value = name;
      select.dispatchEvent(new Event('change'));
    }
    back.config = { ...back.config, environments: [...back.config!.environments!].reverse() };
    await back.updateComplete;
    expect(back.engine!.environments.active()!.name).to.equal('Local');
  });

  it('keeps this page’s history across another configuration with the same history settings', async () => {
    const first = config();
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${first} url="{{base_url}}/pets" .headers=${{ 'X-Api-Key': 'typed-secret' }}></try-it-console>`);
    await sendAndWait(el);
    const history = el.engine!.history;
    el.config = { ...first, defaultHeaders: { 'X-Client': 'docs' } };
    await el.updateComplete;
    expect(el.engine!.history === history, 'the same history').to.equal(true);
    // As sent on this page, the typed key included: memory keeps the real request, only storage is redacted.
    expect(history.list().map((entry) => entry.headers['X-Api-Key'])).to.deep.equal(['typed-secret']);
    await waitUntil(() => inner(el, 'request-history', 'button.entry'), 'the entry is still listed');

    // Other history settings: another history, and the one before is closed.
    el.config = { ...first, history: { ...first.history!, maxItems: 10 } };
    await el.updateComplete;
    expect(el.engine!.history === history, 'a new history').to.equal(false);
    expect(el.engine!.history.config.maxItems).to.equal(10);
  });

  it('cancels a send in flight when the configuration changes, and never shows what it brings', async () => {
    const first = config();
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${first} url="{{base_url}}/hold"></try-it-console>`);
    const idle = () => $(el, '[part="response"]').textContent!.includes('Send the request to see the response here.');
    const oldEngine = el.engine!;
    $(el, '[part="send-button"]').click();
    await el.updateComplete;
    expect($(el, '[part="cancel-button"]')).to.exist;
    const cancelled = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.config = { ...first, defaultHeaders: { 'X-Client': 'docs' } };
    await el.updateComplete;
    expect(el.engine === oldEngine, 'a new engine').to.equal(false);
    expect($(el, '[part="send-button"]'), 'Send, not Cancel').to.exist;
    expect((await cancelled).error.kind, 'the old send reports how it ended').to.equal('aborted');
    await el.updateComplete;
    expect(idle(), 'and its end is not shown').to.equal(true);

    // A response that arrives anyway (read to the end before the change) is not shown under the new configuration:
    // the send was told aborted when the change came, before anything else.
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    const held = holdResponses(el.engine!);
    $(el, '[part="send-button"]').click();
    await el.updateComplete;
    const told = eventsOf(el);
    el.config = { ...first, defaultHeaders: { 'X-Client': 'signed-in' } };
    await el.updateComplete;
    expect(told).to.deep.equal(['request-error aborted']);
    held.release();
    await held.settled;
    expect(told, 'nothing more of the replaced send').to.deep.equal(['request-error aborted']);
    await el.updateComplete;
    expect(idle()).to.equal(true);
    expect(el.shadowRoot!.querySelector('[part="status"]')).to.equal(null);
  });

  it('announces a failure once, by its alert, and progress and responses by the status region', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
    const status = () => $(el, '[role="status"]').textContent;
    $(el, '[part="send-button"]').click();
    await el.updateComplete;
    expect(status()).to.equal('Sending…');
    el.cancel();
    await oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await el.updateComplete;
    expect($(el, '[role="alert"]').textContent).to.contain('Cancelled');
    expect(status(), 'said by the alert alone').to.equal('');
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    await sendAndWait(el);
    expect(el.shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
    expect(status()).to.match(/^Response 200 OK in \d+ milliseconds\.$/);
  });

  it('keeps its engine, environment and a send in flight when moved, and its environment when added back later', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
    const engine = el.engine;
    el.engine!.environments.setActive('Other');
    const outcome = Promise.race([
      oneEvent<TicResponseEvent>(el, 'tic-response').then(({ response }) => JSON.parse(response.text).url),
      oneEvent<TicRequestErrorEvent>(el, 'tic-request-error').then(({ error }) => error.kind),
    ]);
    const sending = el.send();
    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    elsewhere.append(el);
    await sending;
    expect(await outcome).to.equal('/pets/99');
    expect(el.engine === engine, 'the same engine').to.equal(true);
    await el.updateComplete;
    expect(inner<HTMLSelectElement>(el, 'env-picker', 'select').value).to.equal('Other');
    expect($(el, '[part="status"]').textContent).to.contain('200 OK');

    el.remove();
    await new Promise((resolve) => setTimeout(resolve));
    expect(el.engine, 'removed for good').to.equal(undefined);
    // Added back later, as a framework's keep-alive does: a new engine, on the environment the user had chosen.
    elsewhere.append(el);
    await el.updateComplete;
    expect(el.engine).to.not.equal(undefined);
    expect(el.engine === engine, 'a new engine').to.equal(false);
    expect(inner<HTMLSelectElement>(el, 'env-picker', 'select').value).to.equal('Other');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await el.send();
    expect(JSON.parse((await response).response.text).url).to.equal('/pets/99');
    // Once it is removed with another configuration set, that configuration's own first environment applies.
    el.remove();
    await new Promise((resolve) => setTimeout(resolve));
    el.config = { ...config(), environments: [{ name: 'Staging', variables: { base_url: servers.api, pet_id: '3' } }] };
    await el.updateComplete;
    expect(el.engine, 'no engine (nor history left open) while removed').to.equal(undefined);
    elsewhere.append(el);
    await el.updateComplete;
    expect(el.engine!.environments.active()!.name).to.equal('Staging');
    elsewhere.remove();
  });

  it('renders a notice and sends nothing when disabled', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ enabled: false })} url="{{base_url}}/pets"></try-it-console>`);
    expect($(el, '.disabled-notice').textContent).to.contain('turned off');
    expect($(el, '[part="send-button"]')).to.equal(null);
    await el.send();
    expect(el.engine!.history.size).to.equal(0);
  });

  it('says that history is kept for this page only where the browser has no IndexedDB', async () => {
    await withoutIndexedDB(async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
      await el.engine!.history.ready();
      await sendAndWait(el);
      await $<RequestHistory>(el, 'request-history').updateComplete;
      expect(inner(el, 'request-history', '.warning').textContent).to.equal('Request history could not be loaded (IndexedDB is not available in this browser); it is kept for this page only.');
      expect(el.engine!.history.size).to.equal(1);
    });
  });

  it('marks placeholders in the URL, flagging the undefined ones', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{pet_id}}/{{ missing_one }}"></try-it-console>`);
    const marks = [...el.shadowRoot!.querySelectorAll('mark.variable')];
    expect(marks.map((m) => [m.textContent, m.classList.contains('missing')])).to.deep.equal([
      ['{{base_url}}', false],
      ['{{pet_id}}', false],
      ['{{ missing_one }}', true],
    ]);
    expect(inner(el, 'env-picker', '[part="missing"]').textContent).to.contain('{{missing_one}}');
  });

  it('shows a placeholder\'s value when hovered, masked as the environment panel masks it; a dynamic one by name alone', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{ pet_id }}?token={{api_token}}&id={{$guid}}"></try-it-console>`);
    const titles = [...el.shadowRoot!.querySelectorAll('mark.variable')].map((mark) => mark.getAttribute('title'));
    expect(titles).to.deep.equal([`base_url = ${servers.api}`, 'pet_id = 7', 'api_token = ••••••••', '$guid']);
    // A variable that refers to a secret shows the reference, as the environment panel does, never the secret.
    const aliased = config();
    aliased.environments![0]!.variables.alias = '{{api_token}}';
    el.config = aliased;
    el.setAttribute('url', '{{base_url}}/pets?k={{alias}}');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('mark.variable')[1]!.getAttribute('title')).to.equal('alias = {{api_token}}');
  });

  it('tells a variable that refers back to itself, and an empty {{}}, apart from an undefined one', async () => {
    const looping = config({ strictVariables: true });
    looping.environments![0]!.variables.self = '{{self}}';
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${looping} url="{{base_url}}/{{self}}/{{}}"></try-it-console>`);
    const titles = [...el.shadowRoot!.querySelectorAll('mark.variable')].map((mark) => [mark.classList.contains('missing'), mark.getAttribute('title')]);
    expect(titles).to.deep.equal([
      [false, `base_url = ${servers.api}`],
      [true, 'self refers back to itself through its value, or nests more than 10 levels deep'],
      [true, 'An empty placeholder names no variable'],
    ]);
    const notice = inner(el, 'env-picker', '[part="missing"]').textContent!.replace(/\s+/g, ' ').trim();
    expect(notice).to.equal('In “Local”, {{self}} refers back to itself through its value, or nests more than 10 levels deep; change that value to end in plain text. It has an empty {{}}, which names no variable.');
    await sendAndWait(el);
    expect($(el, '.error-title').textContent).to.equal('Unresolved variables');
  });

  it('runs the whole flow: choose an environment, send, see the response and history, restore it, copy the snippet', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ defaultHeaders: { 'X-Client': 'docs' } })} method="POST" url="{{base_url}}/pets/{{pet_id}}" .headers=${{ Authorization: 'Bearer {{api_token}}', 'Content-Type': 'application/json' }} body='{"name":"Rex"}'></try-it-console>`);

    // Choose the other environment, as a user would.
    const picker = inner<HTMLSelectElement>(el, 'env-picker', 'select');
    picker.value = 'Other';
    picker.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(el.engine!.environments.active()!.name).to.equal('Other');

    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    const echoed = JSON.parse((await response).response.text);
    expect(echoed.method).to.equal('POST');
    expect(echoed.url).to.equal('/pets/99');
    expect(echoed.headers.authorization).to.equal('Bearer other-token');
    expect(echoed.headers['x-client']).to.equal('docs');
    expect(echoed.body).to.equal('{"name":"Rex"}');
    expect($(el, '[part="status"]').textContent).to.match(/200 OK\s+\d+ ms/);
    expect($(el, '[part="response-body"]').textContent).to.contain('"url": "/pets/99"');
    expect($(el, '[role="status"]').textContent).to.match(/^Response 200 OK in \d+ milliseconds\.$/);

    // The history entry shows the real target, and loads back into the editor as the user wrote it: placeholders
    // unresolved, and the default header not turned into a row of its own.
    await waitUntil(() => inner(el, 'request-history', 'li'), 'a history entry appears');
    expect(inner(el, 'request-history', '.path').textContent).to.equal(`${servers.api}/pets/99`);
    typeInto($<HTMLInputElement>(el, '[part="url"]'), 'https://elsewhere.example/');
    typeInto($<HTMLTextAreaElement>(el, '[part="body"]'), '');
    await el.updateComplete;
    inner(el, 'request-history', 'button.entry').click();
    await el.updateComplete;
    expect($<HTMLInputElement>(el, '[part="url"]').value).to.equal('{{base_url}}/pets/{{pet_id}}');
    expect($<HTMLTextAreaElement>(el, '[part="body"]').value).to.equal('{"name":"Rex"}');
    expect([...el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input.value')].map((i) => i.value)).to.deep.equal(['Bearer {{api_token}}', 'application/json']);

    // Copy the snippet: it is the request the console sends, shown with its variables or their values, and copied
    // with the values either way, to run.
    const snippet = $<CodeSnippet>(el, 'code-snippet');
    const copy = async () => {
      const copied = oneEvent<TicCopyEvent>(snippet, 'tic-copy');
      snippet.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
      return (await copied).text;
    };
    const shownFirstLine = () => snippet.shadowRoot!.querySelector('pre code')!.textContent!.split('\n')[0];
    expect(shownFirstLine()).to.equal("curl -X POST '{{base_url}}/pets/{{pet_id}}' \\");
    const copiedWithVariablesShown = await copy();
    snippet.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await snippet.updateComplete;
    expect(shownFirstLine()).to.equal(`curl -X POST ${servers.api}/pets/99 \\`);
    const text = await copy();
    expect(copiedWithVariablesShown).to.equal(text);
    expect(text.split('\n')[0]).to.equal(`curl -X POST ${servers.api}/pets/99 \\`);
    expect(text).to.contain('-H "Authorization: Bearer other-token"');
    expect(text).to.contain('-H "X-Client: docs"');
    expect(await navigator.clipboard.readText()).to.equal(text);
  });

  it('sends with Ctrl+Enter from the keyboard, and edits headers without a mouse', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/keyboard"></try-it-console>`);
    $(el, 'button.add-header').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await sendKeys({ type: 'X-Typed' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: 'by keyboard' });
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    const echoed = JSON.parse((await response).response.text);
    expect(echoed.url).to.equal('/keyboard');
    expect(echoed.headers['x-typed']).to.equal('by keyboard');
  });

  it('takes the keyboard when focused: the URL field gets focus, and Ctrl+Enter sends', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/focus"></try-it-console>`);
    let sent = false;
    el.addEventListener('tic-before-send', () => { sent = true; });
    el.focus();
    expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal('url');
    await sendKeys({ press: 'End' });
    await sendKeys({ type: '?by=keyboard' });
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    expect(sent, 'Ctrl+Enter sent').to.equal(true);
    expect(JSON.parse((await response).response.text).url).to.equal('/focus?by=keyboard');
  });

  it('keeps the method and environment selects showing what is sent after the user has used them', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/selects"></try-it-console>`);
    const method = $<HTMLSelectElement>(el, '[part="method"]');
    method.focus();
    await sendKeys({ press: 'ArrowDown' });
    await el.updateComplete;
    expect([el.method, method.value], 'the preset stays; the select shows the edit').to.deep.equal(['GET', 'POST']);
    await sendKeys({ press: 'ArrowUp' });
    await el.updateComplete;
    el.load({ method: 'POST', url: `${servers.api}/selects`, headers: {}, body: '{}' });
    await el.updateComplete;
    expect(method.value).to.equal('POST');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await el.send();
    expect(JSON.parse((await response).response.text).method).to.equal('POST');

    const picker = inner<HTMLSelectElement>(el, 'env-picker', 'select');
    picker.focus();
    await sendKeys({ press: 'ArrowDown' });
    expect(el.engine!.environments.active()!.name).to.equal('Other');
    el.engine!.environments.setActive('Local');
    await $<EnvPicker>(el, 'env-picker').updateComplete;
    expect(picker.value).to.equal('Local');
  });

  it('keeps focus on Send when it turns into Cancel and back, so the keyboard can cancel', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
    $(el, '[part="send-button"]').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const focused = () => el.shadowRoot!.activeElement?.getAttribute('part');
    expect(focused()).to.equal('cancel-button');
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await sendKeys({ press: 'Enter' });
    expect((await failed).error.kind).to.equal('aborted');
    await el.updateComplete;
    expect(focused()).to.equal('send-button');
  });

  it('does not cancel on the second click of a double-click on Send, but on a single click', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
    $<HTMLButtonElement>(el, '[part="send-button"]').click();
    await el.updateComplete;
    const cancel = $<HTMLButtonElement>(el, '[part="cancel-button"]');
    cancel.dispatchEvent(new MouseEvent('click', { detail: 2, bubbles: true, composed: true }));
    await el.updateComplete;
    expect($(el, '[part="cancel-button"]'), 'still sending').to.exist;
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    cancel.dispatchEvent(new MouseEvent('click', { detail: 1, bubbles: true, composed: true }));
    expect((await failed).error.kind).to.equal('aborted');
  });

  it('adds, edits, switches off and removes header rows, and sends what the rows show', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/rows" .headers=${{ 'X-One': '1', 'X-Two': '2', 'X-Three': '3' }}></try-it-console>`);
    const rows = () => [...el.shadowRoot!.querySelectorAll('.header-row')];
    const fields = () => rows().map((row) => [...row.querySelectorAll('input')].map((input) => (input.type === 'checkbox' ? String(input.checked) : input.value)));
    rows()[0]!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    rows()[1]!.querySelector<HTMLButtonElement>('button.remove')!.click();
    await el.updateComplete;
    expect(fields()).to.deep.equal([['false', 'X-One', '1'], ['true', 'X-Three', '3']]);
    // Focus goes forward, as after a deletion in a list: to the next row's ✕, after the last row to Add header.
    expect(el.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal('Remove header X-Three');
    await waitUntil(() => $(el, '.announcements').textContent === 'Removed the header X-Two.', 'said, as the focused ✕ is the same button renamed');
    rows()[1]!.querySelector<HTMLButtonElement>('button.remove')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'button.add-header'));
    $(el, 'button.add-header').click();
    await el.updateComplete;
    typeInto(rows()[1]!.querySelector<HTMLInputElement>('input.name')!, 'X-Three');
    typeInto(rows()[1]!.querySelector<HTMLInputElement>('input.value')!, '3');
    await el.updateComplete;
    expect(fields()).to.deep.equal([['false', 'X-One', '1'], ['true', 'X-Three', '3']]);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    const added = rows()[2]!;
    typeInto(added.querySelector<HTMLInputElement>('input.name')!, 'X-Four');
    typeInto(added.querySelector<HTMLInputElement>('input.value')!, '4');
    rows()[1]!.querySelector<HTMLButtonElement>('button.remove')!.click();
    await el.updateComplete;
    expect(fields()).to.deep.equal([['false', 'X-One', '1'], ['true', 'X-Four', '4']]);
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    $(el, '[part="send-button"]').click();
    const echoed = JSON.parse((await response).response.text);
    expect(echoed.headers['x-four']).to.equal('4');
    expect(echoed.headers).to.not.have.any.keys('x-one', 'x-two', 'x-three');
  });

  it('keeps the user’s header edits when a framework passes equal headers again, and takes different ones', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ Accept: 'application/json' }}></try-it-console>`);
    const fields = () => [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => `${row.querySelector<HTMLInputElement>('input.name')!.value}=${row.querySelector<HTMLInputElement>('input.value')!.value}`);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    typeInto(el.shadowRoot!.querySelector<HTMLInputElement>('.header-row:last-of-type input.name')!, 'Authorization');
    typeInto(el.shadowRoot!.querySelector<HTMLInputElement>('.header-row:last-of-type input.value')!, 'Bearer abc');
    await el.updateComplete;
    el.headers = { Accept: 'application/json' };
    await el.updateComplete;
    expect(fields()).to.deep.equal(['Accept=application/json', 'Authorization=Bearer abc']);
    // The same headers as JSON text (as a framework passes the attribute), and an unset method read as its default.
    (el as unknown as { headers: string }).headers = '{"Accept": "application/json"}';
    el.method = undefined as unknown as string;
    await el.updateComplete;
    expect(fields()).to.deep.equal(['Accept=application/json', 'Authorization=Bearer abc']);
    el.method = 'GET';
    await el.updateComplete;
    expect(fields()).to.deep.equal(['Accept=application/json', 'Authorization=Bearer abc']);
    el.headers = { Accept: 'text/plain' };
    await el.updateComplete;
    expect(fields()).to.deep.equal(['Accept=text/plain']);
  });

  it('shows the configuration’s default headers under the rows, struck through where a row replaces one', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ defaultHeaders: { Accept: 'application/json', 'X-Client': 'docs' } })} url="{{base_url}}/pets"></try-it-console>`);
    const listed = () => [...el.shadowRoot!.querySelectorAll('[part="default-headers"] li')].map((item) => `${item.className}|${item.textContent!.replace(/\s+/g, ' ').trim()}`);
    expect(listed()).to.deep.equal(['|Accept: application/json', '|X-Client: docs']);
    el.headers = { accept: 'text/plain' };
    await el.updateComplete;
    expect(listed()).to.deep.equal(['replaced|Accept: application/json (replaced by your row)', '|X-Client: docs']);
    await expect(el).to.be.accessible();
    // What a send carries agrees: the row's Accept, the default X-Client.
    await el.send();
    await el.updateComplete;
    const echoed = JSON.parse(el.shadowRoot!.querySelector('[part="response-body"]')!.textContent!) as { headers: Record<string, string> };
    expect([echoed.headers['accept'], echoed.headers['x-client']]).to.deep.equal(['text/plain', 'docs']);
    // Switched off, the row replaces nothing.
    el.shadowRoot!.querySelector<HTMLInputElement>('.header-row input[type="checkbox"]')!.click();
    await el.updateComplete;
    expect(listed()).to.deep.equal(['|Accept: application/json', '|X-Client: docs']);
    // A row whose name is a variable replaces the header it names, as a send compares names.
    el.engine!.environments.add({ name: 'Named', variables: { base_url: servers.api, client_header: 'X-Client' } });
    el.engine!.environments.setActive('Named');
    el.headers = { '{{client_header}}': 'console' };
    await el.updateComplete;
    expect(listed()).to.deep.equal(['|Accept: application/json', 'replaced|X-Client: docs (replaced by your row)']);
  });

  it('masks a default header’s secret value in the list, as the environment panel would, but not a reference to a variable', async () => {
    const defaultHeaders = { Authorization: 'Bearer sk_live_51HxQ2eKz8fA9bC3dE4', 'X-Api-Key': 'team-key-1234', 'X-Auth-Template': 'Bearer {{token}}', 'X-Client': 'docs' };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ defaultHeaders })} url="{{base_url}}/pets"></try-it-console>`);
    const listed = [...el.shadowRoot!.querySelectorAll('[part="default-headers"] li')].map((item) => item.textContent!.replace(/\s+/g, ' ').trim());
    expect(listed).to.deep.equal(['Authorization: ••••••••', 'X-Api-Key: ••••••••', 'X-Auth-Template: Bearer {{token}}', 'X-Client: docs']);
    expect(el.shadowRoot!.innerHTML).to.not.contain('sk_live_').and.not.contain('team-key-1234');
  });

  it('explains presets of the wrong type set as properties, instead of throwing or dropping headers', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ 'X-Page-Size': 10 } as unknown as Record<string, string>}></try-it-console>`);
    const problem = () => el.shadowRoot!.querySelector('.error[role="alert"]')?.textContent?.replace(/\s+/g, ' ').trim();
    expect(problem()).to.equal('The console is misconfiguredThe value of header X-Page-Size in the headers property must be a string, e.g. "10" (got 10).');
    el.headers = new Headers({ Authorization: 'Bearer abc' }) as unknown as Record<string, string>;
    await el.updateComplete;
    expect(problem()).to.include('for a Headers, pass Object.fromEntries(headers)');
    el.headers = { 'X-Page-Size': '10' };
    el.url = 42 as unknown as string;
    await el.updateComplete;
    expect(problem()).to.include('The url property must be a string (got 42).');
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    expect(problem(), 'mended').to.equal(undefined);
    expect(el.shadowRoot!.querySelector<HTMLInputElement>('.header-row input.value')!.value).to.equal('10');

    // From the default headers: a Headers, a Map or an undefined value read as `{}` in JSON, like no headers.
    for (const headers of [new Headers({ Authorization: 'Bearer abc' }), new Map([['Authorization', 'Bearer abc']]), { 'X-Undefined': undefined }]) {
      const fresh = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
      fresh.headers = headers as unknown as Record<string, string>;
      await fresh.updateComplete;
      expect(fresh.shadowRoot!.querySelector('.error[role="alert"]')?.textContent, String(headers)).to.match(/headers property|header X-Undefined/);
    }
    // Set back to what was last loaded, a bad preset is forgotten.
    el.body = { a: 1 } as unknown as string;
    await el.updateComplete;
    expect(problem()).to.include('The body property must be a string');
    el.body = '';
    await el.updateComplete;
    expect(problem(), 'back to the loaded body').to.equal(undefined);
  });

  it('reads headers given as JSON text through the property, as frameworks pass the attribute, and falls back to defaults when attributes are removed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/pets" .headers=${'{"Accept":"application/json"}' as unknown as Record<string, string>}></try-it-console>`);
    const rows = () => [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => `${row.querySelector<HTMLInputElement>('input.name')!.value}=${row.querySelector<HTMLInputElement>('input.value')!.value}`);
    expect(rows()).to.deep.equal(['Accept=application/json']);
    el.headers = '{"Accept": 1}' as unknown as Record<string, string>;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.error[role="alert"]')!.textContent).to.contain('or JSON text of one (got "{\\"Accept\\": 1}")');
    el.headers = {};
    el.removeAttribute('method');
    el.removeAttribute('url');
    await el.updateComplete;
    expect([el.method, el.url]).to.deep.equal(['GET', '']);
    expect(el.shadowRoot!.querySelector('.error[role="alert"]')).to.equal(null);
  });

  it('titles a response that broke off as such, and shows what the engine says about a body it cannot decode', async () => {
    const cut = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.corsApi}/cut"></try-it-console>`);
    await sendAndWait(cut);
    expect($(cut, '.error-title').textContent).to.equal('Response broke off');
    const klingon = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.corsApi}/bytes?type=text/plain;charset=x-klingon&hex=636166e9"></try-it-console>`);
    await sendAndWait(klingon);
    expect(klingon.shadowRoot!.querySelector('.response .notice[role="note"]')?.textContent).to.contain('declares charset "x-klingon"');
  });

  it('says so when a framework set its configuration as the config attribute, which is not read', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console config="[object Object]"></try-it-console>`);
    const problem = el.shadowRoot!.querySelector('.error[role="alert"]')!.textContent!;
    expect(problem).to.contain('The config attribute is not read (it holds "[object Object]")');
    expect(problem).to.contain("import 'try-it-console' before the first render");
    // The configuration set as the property later (a framework hydrating server-rendered HTML) is used.
    el.config = config();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.error[role="alert"]')?.outerHTML).to.equal(undefined);
    expect(el.engine!.environments.active()!.name).to.equal('Local');
  });

  it('loads the whole operation when a framework presets another one, and keeps the user’s edits when it renders the same again', async () => {
    interface Operation { method: string; url: string; headers: Record<string, string>; body: string }
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const consoleConfig = config();
    // As demo/npm-import.ts binds it: attributes for the strings, a new headers object on every render.
    const show = async (op: Operation) => {
      render(html`<try-it-console .config=${consoleConfig} method=${op.method} url=${op.url} .headers=${{ ...op.headers }} body=${op.body}></try-it-console>`, container);
      await container.querySelector<TryItConsole>('try-it-console')!.updateComplete;
    };
    const list = { method: 'GET', url: '{{base_url}}/pets', headers: { Accept: 'application/json' }, body: '' };
    const one = { method: 'GET', url: '{{base_url}}/pets/{{pet_id}}', headers: { Accept: 'application/json' }, body: '' };
    await show(list);
    const el = container.querySelector<TryItConsole>('try-it-console')!;
    const shown = () => ({
      method: $<HTMLSelectElement>(el, '[part="method"]').value,
      url: $<HTMLInputElement>(el, '[part="url"]').value,
      headers: [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => `${row.querySelector<HTMLInputElement>('input.name')!.value}=${row.querySelector<HTMLInputElement>('input.value')!.value}`),
      body: el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="body"]')?.value,
    });
    const method = $<HTMLSelectElement>(el, '[part="method"]');
    method.value = 'DELETE';
    method.dispatchEvent(new Event('change'));
    await el.updateComplete;
    $(el, 'button.add-header').click();
    await el.updateComplete;
    typeInto(el.shadowRoot!.querySelector<HTMLInputElement>('.header-row:last-of-type input.name')!, 'X-Added');
    typeInto($<HTMLTextAreaElement>(el, '[part="body"]'), '{"gone":true}');
    await el.updateComplete;
    const edited = { method: 'DELETE', url: '{{base_url}}/pets', headers: ['Accept=application/json', 'X-Added='], body: '{"gone":true}' };
    expect(shown()).to.deep.equal(edited);

    await show(list);
    expect(shown(), 'a re-render with the same operation keeps the edits').to.deep.equal(edited);

    await show(one);
    expect(shown(), 'another operation replaces the edits, method and header rows too').to.deep.equal({ method: 'GET', url: '{{base_url}}/pets/{{pet_id}}', headers: ['Accept=application/json'], body: undefined });
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    expect(JSON.parse((await response).response.text)).to.include({ method: 'GET', url: '/pets/7' });

    // A history entry loaded after the preset stays until the page presets another operation.
    el.load({ method: 'POST', url: `${servers.api}/pets`, headers: { 'X-From': 'history' }, body: '{}' });
    await show(one);
    expect(shown().headers, 'the later load wins over presets set again unchanged').to.deep.equal(['X-From=history']);
    await show(list);
    expect(shown()).to.deep.equal({ method: 'GET', url: '{{base_url}}/pets', headers: ['Accept=application/json'], body: undefined });
  });

  it('clears the response and any failure when another request is loaded, from history or by a preset', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/challenge"></try-it-console>`);
    const idle = () => $(el, '[part="response"]').textContent!.includes('Send the request to see the response here.');
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('401');
    // An entry this console did not send (another tab's, an earlier visit's) has no response to show.
    el.engine!.history.add({ method: 'GET', url: `${servers.api}/pets`, status: 200, duration: 1 });
    await waitUntil(() => inner(el, 'request-history', 'li'), 'a history entry appears');
    inner(el, 'request-history', 'button.entry').click();
    await el.updateComplete;
    expect(idle(), 'a history entry loaded').to.equal(true);
    expect(el.shadowRoot!.querySelector('[part="status"]')).to.equal(null);

    el.url = 'ftp://{{base_url}}/pets';
    await el.updateComplete;
    await sendAndWait(el);
    expect($(el, '[part="error"]')).to.exist;
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    expect(idle(), 'another operation preset').to.equal(true);
    expect(el.shadowRoot!.querySelector('[part="error"]')).to.equal(null);
  });

  it('cancels a send in flight when another request is loaded, and never shows what it brings for the new one', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/hold"></try-it-console>`);
    const idle = () => $(el, '[part="response"]').textContent!.includes('Send the request to see the response here.');
    $(el, '[part="send-button"]').click();
    await el.updateComplete;
    expect($(el, '[part="cancel-button"]')).to.exist;
    const cancelled = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    expect(idle()).to.equal(true);
    expect($(el, '[part="send-button"]'), 'Send, not Cancel').to.exist;
    expect((await cancelled).error.kind, 'the old send reports how it ended').to.equal('aborted');
    await el.updateComplete;
    expect(idle(), 'and its end is not shown').to.equal(true);

    // A response that arrives anyway (read to the end before the cancel) is not shown for the loaded request.
    const held = holdResponses(el.engine!);
    $(el, '[part="send-button"]').click();
    const told = eventsOf(el);
    el.load({ method: 'GET', url: `${servers.api}/pets?api_key=${REDACTED}`, headers: {}, body: '' });
    expect(told, 'told at once').to.deep.equal(['request-error aborted']);
    held.release();
    await held.settled;
    expect(told, 'nothing more of the replaced send').to.deep.equal(['request-error aborted']);
    await el.updateComplete;
    expect(idle()).to.equal(true);
    expect($(el, '.notice').textContent, 'the notice of the loaded request stays').to.contain('Credentials were not stored');
  });

  it('passes the snippet a new request only when the request changed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/pets" body='{"a":1}'></try-it-console>`);
    const snippet = $<CodeSnippet>(el, 'code-snippet');
    const before = snippet.request;
    await sendAndWait(el);
    el.headers = { Accept: 'application/json' };
    el.headers = {};
    await el.updateComplete;
    expect(snippet.request === before, 'the same request after a send and equal edits').to.equal(true);
    typeInto($<HTMLTextAreaElement>(el, '[part="body"]'), '{"a":2}');
    await el.updateComplete;
    expect(snippet.request!.body).to.equal('{"a":2}');
  });

  it('pretty-prints JSON with every value as the server sent it', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/precise"></try-it-console>`);
    await sendAndWait(el);
    expect($(el, '[part="response-body"] pre').textContent).to.equal('{\n  "id": 12345678901234567890,\n  "price": 1.10,\n  "tag": "a",\n  "tag": "b"\n}');
    expect($(el, '[part="response-body"] .hljs-number')).to.exist;
  });

  it('says where a response came from when the proxy followed a redirect', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/redirect-me"></try-it-console>`);
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    expect(JSON.parse((await response).response.text).url).to.equal('/landed');
    expect($(el, '[part="redirected"]').textContent).to.equal(`Redirected to ${servers.api}/landed`);
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    await sendAndWait(el);
    expect(el.shadowRoot!.querySelector('[part="redirected"]')).to.equal(null);
  });

  it('sends no body for GET, where the body editor is hidden, and keeps the text for when the method changes back', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/body-switch"></try-it-console>`);
    typeInto($<HTMLTextAreaElement>(el, '[part="body"]'), '{"kept":true}');
    const method = $<HTMLSelectElement>(el, '[part="method"]');
    method.value = 'GET';
    method.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="body"]')).to.equal(null);
    expect(inner(el, 'code-snippet', '[part="code"]').textContent).to.not.contain('kept');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    const echoed = JSON.parse((await response).response.text);
    expect([echoed.method, echoed.body]).to.deep.equal(['GET', '']);
    method.value = 'POST';
    method.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect($<HTMLTextAreaElement>(el, '[part="body"]').value).to.equal('{"kept":true}');
  });

  it('says what to fill in when it loads a stored request whose credentials or body were not kept', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const notice = () => [...el.shadowRoot!.querySelectorAll('.notice')].map((p) => p.textContent).join(' ');
    el.load({ method: 'GET', url: `${servers.api}/pets?api_key=${REDACTED}`, headers: {}, body: '' });
    await el.updateComplete;
    expect(notice()).to.contain('Credentials were not stored');
    el.load({ method: 'GET', url: `${servers.api}/pets`, headers: { Authorization: REDACTED }, body: '' });
    await el.updateComplete;
    expect(notice()).to.contain('Credentials were not stored');
    el.load({ method: 'POST', url: `${servers.api}/pets`, headers: {}, body: '{"na', bodyTruncated: true });
    await el.updateComplete;
    expect(notice()).to.contain('body was stored shortened');
    // Both at once: both said, and filling in the credential leaves the body's.
    el.load({ method: 'POST', url: `${servers.api}/pets`, headers: { Authorization: REDACTED }, body: '{"na', bodyTruncated: true });
    await el.updateComplete;
    expect(notice()).to.contain('body was stored shortened').and.to.contain('Credentials were not stored');
    typeInto(el.shadowRoot!.querySelector<HTMLInputElement>('.header-row input.value')!, 'Bearer fresh');
    await el.updateComplete;
    expect(notice()).to.contain('body was stored shortened').and.not.to.contain('Credentials were not stored');
    el.load({ method: 'GET', url: `${servers.api}/pets?limit=5`, headers: { Accept: '*/*' }, body: '' });
    await el.updateComplete;
    expect(notice()).to.equal('');
  });

  it('restores a request after a reload as it was written, with credentials that were only references', async () => {
    const settings = config({ defaultHeaders: { 'X-Client': 'docs' } });
    const first = await fixture<TryItConsole>(html`<try-it-console .config=${settings} method="POST" url="{{base_url}}/pets/{{pet_id}}" .headers=${{ Authorization: 'Bearer {{api_token}}', 'X-Api-Key': 'typed-secret' }} body='{"id":"{{pet_id}}"}'></try-it-console>`);
    await sendAndWait(first);
    await first.engine!.history.flush();
    first.remove();

    // A new page: the console opens the same database.
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${settings}></try-it-console>`);
    await waitUntil(() => inner(el, 'request-history', 'button.entry'), 'the stored entry is listed');
    expect(inner(el, 'request-history', '.path').textContent).to.equal(`${servers.api}/pets/7`);
    inner(el, 'request-history', 'button.entry').click();
    await el.updateComplete;
    expect($<HTMLSelectElement>(el, '[part="method"]').value).to.equal('POST');
    expect($<HTMLInputElement>(el, '[part="url"]').value).to.equal('{{base_url}}/pets/{{pet_id}}');
    expect($<HTMLTextAreaElement>(el, '[part="body"]').value).to.equal('{"id":"{{pet_id}}"}');
    const rows = [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => [...row.querySelectorAll<HTMLInputElement>('input:not([type])')].map((input) => input.value));
    expect(rows).to.deep.equal([['Authorization', 'Bearer {{api_token}}'], ['X-Api-Key', REDACTED]]);
    expect(el.shadowRoot!.querySelector('.notice')?.textContent).to.contain('Credentials were not stored');

    // Filled in again, it sends what the first page sent: the reference resolves with the active environment.
    typeInto(el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input.value')[1]!, 'typed-secret');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    const echoed = JSON.parse((await response).response.text);
    expect([echoed.url, echoed.headers.authorization, echoed.headers['x-api-key'], echoed.headers['x-client'], echoed.body]).to.deep.equal(['/pets/7', 'Bearer local-token', 'typed-secret', 'docs', '{"id":"7"}']);
  });

  it('announces a request loaded from history, with what the user must fill in, leaving focus on the entry', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    await sendAndWait(el);
    const status = $(el, 'section.response [role="status"]');
    expect(status.textContent).to.match(/^Response 200 OK/);
    const announced = $(el, 'section.response .announcements');
    const history = $<RequestHistory>(el, 'request-history');
    await waitUntil(() => history.shadowRoot!.querySelector('button.entry'), 'the entry sent');
    history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    await sendKeys({ press: 'Enter' });
    // The entry this console sent shows its response again, said with the load.
    await waitUntil(() => /^Loaded GET \/pets from history\. Response of .+, from history; Send to send again\.$/.test(announced.textContent!), 'the load announced');
    expect(history.shadowRoot!.activeElement?.matches('button.entry'), 'focus stays on the entry').to.equal(true);

    el.engine!.history.add({ method: 'GET', url: `${servers.api}/pets/7?verbose=1`, headers: { 'X-Api-Key': REDACTED }, status: 200, duration: 1 });
    await history.updateComplete;
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'Enter' });
    const credentials = `Credentials were not stored (shown as ${REDACTED}); fill in their values before sending.`;
    await waitUntil(() => announced.textContent === `Loaded GET /pets/7?verbose=1 from history. ${credentials}`, 'the load and its notice announced');
    await sendAndWait(el);
    expect(status.textContent, 'a send says its own outcome').to.match(/^Response 200 OK/);
    await expect(el).to.be.accessible();

    // A credential in the query is read out masked, as the list shows it.
    el.engine!.history.add({ method: 'GET', url: `${servers.api}/pets?api_key=sk-live-secret&page=2`, status: 200, duration: 1 });
    await history.updateComplete;
    history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => announced.textContent!.startsWith('Loaded GET /pets?api_key='), 'the load announced');
    expect(announced.textContent).to.equal('Loaded GET /pets?api_key= hidden value &page=2 from history.');
  });

  it('keeps the request being edited when a listener of tic-history-select calls preventDefault()', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    el.engine!.history.add({ method: 'GET', url: 'https://api.example/old', status: 200, duration: 1 });
    el.load({ method: 'POST', url: 'https://api.example/orders', headers: {}, body: '' });
    await el.updateComplete;
    typeInto($<HTMLTextAreaElement>(el, '[part="body"]'), '{"a long": "body the user spent ten minutes writing"}');
    await el.updateComplete;
    const history = $<RequestHistory>(el, 'request-history');
    await waitUntil(() => history.shadowRoot!.querySelector('button.entry'), 'the entry');
    // On the document, bubbling: after the console heard the event on <request-history> itself.
    let event: Event | undefined;
    const askFirst = (picked: Event) => {
      event = picked;
      picked.preventDefault();
    };
    document.addEventListener('tic-history-select', askFirst);
    try {
      history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.click();
      await el.updateComplete;
    } finally {
      document.removeEventListener('tic-history-select', askFirst);
    }
    expect([event?.cancelable, event?.defaultPrevented]).to.deep.equal([true, true]);
    expect($<HTMLInputElement>(el, '[part="url"]').value).to.equal('https://api.example/orders');
    expect($<HTMLTextAreaElement>(el, '[part="body"]').value).to.contain('ten minutes');

    history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.click();
    await el.updateComplete;
    expect($<HTMLInputElement>(el, '[part="url"]').value, 'not prevented: loaded').to.equal('https://api.example/old');
  });

  it('keeps focus in the history when Ctrl+Enter on an entry sends a request that evicts it', async () => {
    const settings = config();
    settings.history = { ...settings.history!, maxItems: 1 };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${settings} url="{{base_url}}/pets/1"></try-it-console>`);
    await sendAndWait(el);
    const history = $<RequestHistory>(el, 'request-history');
    await waitUntil(() => history.shadowRoot!.querySelector('button.entry'), 'the entry');
    const first = history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!;
    first.focus();
    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    await done;
    await history.updateComplete;
    expect(el.engine!.history.size).to.equal(1);
    const active = history.shadowRoot!.activeElement;
    expect(active !== null && active !== first && active.matches('button.entry'), 'on the entry that replaced it').to.equal(true);
  });

  it('drops the notice about credentials not stored once they are filled in, or a send succeeds', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const notice = () => [...el.shadowRoot!.querySelectorAll('.notice')].map((p) => p.textContent).join(' ');
    el.load({ method: 'GET', url: `${servers.api}/pets?api_key=${REDACTED}`, headers: { Authorization: REDACTED, Accept: '*/*' }, body: '' });
    await el.updateComplete;
    const [authorization] = el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input.value');
    typeInto(authorization!, 'Bearer fresh');
    await el.updateComplete;
    expect(notice(), 'the URL still holds one').to.contain('Credentials were not stored');
    typeInto($<HTMLInputElement>(el, '[part="url"]'), `${servers.api}/pets?api_key=fresh`);
    await el.updateComplete;
    expect(notice()).to.equal('');

    el.load({ method: 'POST', url: `${servers.api}/pets`, headers: { Authorization: REDACTED }, body: '{"na', bodyTruncated: true });
    await el.updateComplete;
    expect(notice()).to.contain('body was stored shortened');
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('200 OK');
    expect(notice()).to.equal('');
  });

  it('warns about a header the browser will not send, before sending', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ Cookie: 'session=1' }}></try-it-console>`);
    expect($(el, '[part="request"]').textContent).to.contain('Browsers do not let a page set the Cookie header');
  });

  it('lets the page stop a send, or rewrite it, in tic-before-send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/rewrite"></try-it-console>`);
    el.addEventListener('tic-before-send', (event) => event.preventDefault(), { once: true });
    await el.send();
    expect(el.engine!.history.size).to.equal(0);
    el.addEventListener('tic-before-send', (event) => {
      event.request = { ...event.request, headers: { ...event.request.headers, 'X-Signed': 'by-page' } };
    }, { once: true });
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await el.send();
    expect(JSON.parse((await response).response.text).headers['x-signed']).to.equal('by-page');
  });

  it('explains a failure, and can cancel a send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="{{base_url}}/pets"></try-it-console>`);
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await sendAndWait(el);
    expect((await failed).error.kind).to.equal('cors');
    expect($(el, '[part="error"]').textContent).to.contain('Blocked by CORS');
    expect($(el, '[part="error"]').textContent).to.contain('corsProxy');
    // The reader cannot set corsProxy, but can send it outside the browser.
    expect($(el, '[part="error"] p:last-child').textContent).to.equal('The code under Code (curl, Python, Go, PHP, or the JavaScript run in Node) sends the same request from your own machine, where this browser rule does not apply.');

    const strict = await fixture<TryItConsole>(html`<try-it-console .config=${config({ strictVariables: true })} url="{{base_url}}/{{nope}}"></try-it-console>`);
    await strict.send();
    await strict.updateComplete;
    expect($(strict, '[part="error"]').textContent).to.contain('{{nope}}').and.not.contain('The code under Code');
  });

  it('masks in a failure the values the environment panel hides, though the message quotes the resolved URL', async () => {
    const secret = 'sk-live-0123456789';
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments: [{ name: 'Prod', variables: { api_key: secret, port: '25' } }] }} url="https://api.example.com:{{port}}/pets?api_key={{api_key}}"></try-it-console>`);
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await el.send();
    await el.updateComplete;
    // The page's event keeps the message as the engine wrote it; the page has the values anyway.
    expect((await failed).error.message).to.contain(`api_key=${secret}`);
    const shown = $(el, '[part="error"]').textContent!;
    expect(shown).to.contain('uses port 25').and.to.contain('api_key=••••••••').and.not.to.contain(secret);
  });

  it('keeps a failure masked when another environment becomes active, and masks a password in its URL', async () => {
    const secret = 'sk-live-0123456789';
    const environments = [
      { name: 'Prod', variables: { api_key: secret, base: 'https://me:hunter2hunter2@api.example.com:25' } },
      { name: 'Other', variables: { base: 'https://api.example.com:25' } },
    ];
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments }} url="{{base}}/pets?api_key={{api_key}}"></try-it-console>`);
    await el.send();
    await el.updateComplete;
    const shown = () => $(el, '[part="error"]').textContent!;
    expect(shown()).to.contain('uses port 25').and.not.contain(secret).and.not.contain('hunter2hunter2');
    el.engine!.environments.setActive('Other');
    await el.updateComplete;
    expect(shown()).to.contain('uses port 25').and.not.contain(secret).and.not.contain('hunter2hunter2');
  });

  it('does not repeat the title at the start of the message', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="{{base_url}}/pets"></try-it-console>`);
    const shown = () => [...$(el, '[part="error"]').querySelectorAll('p')].map((p) => p.textContent);
    await sendAndWait(el);
    const [title, message] = shown();
    expect(title).to.equal('Blocked by CORS');
    expect(message).to.match(new RegExp(`^${servers.api.replaceAll('.', '\\.')} answered, but does not allow pages on `));
    el.config = config();
    el.url = '{{base_url}}/hold';
    await el.updateComplete;
    $(el, '[part="send-button"]').click();
    await el.updateComplete;
    const cancelled = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.cancel();
    expect((await cancelled).error.message).to.equal('Cancelled: the request was stopped before it finished.');
    await el.updateComplete;
    expect(shown()).to.deep.equal(['Cancelled', 'The request was stopped before it finished.']);
    // Only the title and ": " go: a message that merely starts with the same words keeps them.
    el.engine!.execute = () => Promise.reject(new RequestError('aborted', 'Cancelled by the page: its own reason.'));
    await sendAndWait(el);
    expect(shown()).to.deep.equal(['Cancelled', 'Cancelled by the page: its own reason.']);
  });

  it('titles a failure the proxy reports from the API (unreachable, timed out…) as it would be titled without the proxy', async () => {
    const direct = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.closed}/pets"></try-it-console>`);
    await sendAndWait(direct);
    const proxied = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="${servers.closed}/pets"></try-it-console>`);
    const failed = oneEvent<TicRequestErrorEvent>(proxied, 'tic-request-error');
    await sendAndWait(proxied);
    expect((await failed).error.message).to.match(/^The CORS proxy could not get a usable answer from the API \(upstream_unreachable\): Could not reach /);
    expect((await failed).error.proxyCode).to.equal('upstream_unreachable');
    for (const el of [direct, proxied]) {
      expect($(el, '.error-title').textContent).to.equal('No response');
      expect($(el, '[role="alert"] .error-title').textContent).to.equal('No response');
      expect($(el, '[role="status"]').textContent, 'announced by the alert alone').to.equal('');
    }

    // The other codes, as the engine words them.
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    const titled = async (message: string) => {
      const proxyCode = /\(([a-z_]+)\)/.exec(message)![1];
      el.engine!.execute = () => Promise.reject(new RequestError('proxy-refused', message, { proxyCode }));
      await sendAndWait(el);
      return $(el, '.error-title').textContent;
    };
    expect(await titled('The CORS proxy could not get a usable answer from the API (upstream_timeout): http://api.example did not answer in time')).to.equal('Timed out');
    expect(await titled('The CORS proxy refused the request (too_many_redirects): http://api.example/ redirected more than 5 times.')).to.equal('Too many redirects');
    expect(await titled('The CORS proxy refused the request (response_too_large): The response is larger than this proxy relays')).to.equal('Response too large for the CORS proxy');
    expect(await titled('The CORS proxy refused the request (internal_error): The proxy failed unexpectedly')).to.equal('The CORS proxy failed');
    expect(await titled('The CORS proxy refused the request (private_address): 127.0.0.1 is private')).to.equal('Refused by the CORS proxy');
    expect(await titled('The CORS proxy refused the request (__proto__): odd')).to.equal('Refused by the CORS proxy');
    expect(await titled('The CORS proxy refused the request (null): the proxy answered 502')).to.equal('Refused by the CORS proxy');
  });

  it('renders hostile responses, headers, variables and history as text', async () => {
    const hostileConfig = config({ environments: [{ name: HOSTILE, variables: { base_url: servers.api, evil: HOSTILE } }] });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${hostileConfig} url="{{base_url}}/hostile" .headers=${{ 'X-Evil': '{{evil}}' }}></try-it-console>`);
    await sendAndWait(el);
    expect($(el, '[part="response-body"]').textContent).to.contain(HOSTILE.replaceAll('"', '\\"'));
    expect($(el, '.response-headers').textContent).to.contain(HOSTILE);
    const text = await fixture<TryItConsole>(html`<try-it-console .config=${hostileConfig} url="{{base_url}}/hostile-text"></try-it-console>`);
    await sendAndWait(text);
    expect($(text, '[part="response-body"]').textContent).to.contain(HOSTILE);
    for (const root of [el.shadowRoot!, text.shadowRoot!, $(el, 'env-picker').shadowRoot!, $(el, 'request-history').shadowRoot!, $(el, 'code-snippet').shadowRoot!]) {
      expect(root.querySelector('img, script, a[href^="javascript"]')).to.equal(null);
    }
    await expectNothingRan();
  });

  it('previews images, and offers other binary data as a download', async () => {
    const image = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/image"></try-it-console>`);
    await sendAndWait(image);
    const img = $<HTMLImageElement>(image, '[part="response-body"] img');
    expect(img.src).to.match(/^blob:/);
    await waitUntil(() => img.complete && img.naturalWidth === 1, 'the image loads');
    const binary = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/binary"></try-it-console>`);
    await sendAndWait(binary);
    expect($(binary, '[part="response-body"]').textContent).to.contain('Binary data (application/octet-stream, 8 B)');
    const download = $<HTMLAnchorElement>(binary, 'a.download');
    expect(download.getAttribute('download')).to.equal('binary.bin');
    expect(new Uint8Array(await (await fetch(download.href)).arrayBuffer())).to.deep.equal(new Uint8Array([0, 1, 2, 3, 255, 254, 0, 7]));
  });

  it('copies the response body as shown, says so on its button and aloud, and offers no Copy for an image or binary data', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/precise"></try-it-console>`);
    await sendAndWait(el);
    const button = $<HTMLButtonElement>(el, '[part="copy-body-button"]');
    expect(button.textContent!.trim()).to.equal('Copy');
    expect(button.getAttribute('aria-label')).to.equal('Copy the response body');
    button.click();
    await waitUntil(() => button.textContent!.trim() === 'Copied', 'the button says it copied');
    // As laid out on screen, every value as sent.
    expect(await navigator.clipboard.readText()).to.equal($(el, '[part="response-body"] pre').textContent);
    expect(await navigator.clipboard.readText()).to.contain('12345678901234567890');
    await waitUntil(() => $(el, '.announcements').textContent === 'Copied the response body.', 'announced');
    // Copied again: said again, while the response's status is not said again with it.
    const status = $(el, '[role="status"]:not(.announcements)');
    const statusChanges: string[] = [];
    const watch = new MutationObserver(() => statusChanges.push(status.textContent!));
    watch.observe(status, { childList: true, subtree: true, characterData: true });
    button.click();
    await waitUntil(() => $(el, '.announcements').textContent === '', 'emptied before it is said again');
    await waitUntil(() => $(el, '.announcements').textContent === 'Copied the response body.', 'said again');
    watch.disconnect();
    expect(statusChanges, 'the status region untouched').to.deep.equal([]);
    // Another response: no "Copied" beside a body that was not copied.
    await sendAndWait(el);
    expect($(el, '[part="copy-body-button"]').textContent!.trim()).to.equal('Copy');

    for (const path of ['image', 'binary']) {
      const other = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/${path}"></try-it-console>`);
      await sendAndWait(other);
      expect(other.shadowRoot!.querySelector('[part="copy-body-button"]'), path).to.equal(null);
      expect(other.shadowRoot!.querySelector('a.download'), `${path}: still downloadable`).to.not.equal(null);
    }
  });

  it('offers no download of an empty body (204, HEAD)', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/no-content"></try-it-console>`);
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('204');
    expect($(el, '[part="response-body"]').textContent).to.contain('No body.');
    expect(el.shadowRoot!.querySelector('a[download]')?.outerHTML).to.equal(undefined);
    el.method = 'HEAD';
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('200 OK');
    expect(el.shadowRoot!.querySelector('a[download]')?.outerHTML).to.equal(undefined);
  });

  it('follows the system colour scheme unless a theme is set', async () => {
    // The used colours, as rendered: #1f2328 on light, #e6edf3 on dark.
    const LIGHT = 'rgb(31, 35, 40)';
    const DARK = 'rgb(230, 237, 243)';
    const text = (el: Element) => getComputedStyle(el).color;
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const urlField = () => $(el, '[part="url"]');
    await emulateMedia({ colorScheme: 'light' });
    expect(text(el)).to.equal(LIGHT);
    await emulateMedia({ colorScheme: 'dark' });
    expect(text(el)).to.equal(DARK);
    expect(getComputedStyle(urlField()).backgroundColor).to.equal('rgb(13, 17, 23)');
    el.theme = 'light';
    await el.updateComplete;
    expect(text(el)).to.equal(LIGHT);
    expect(getComputedStyle(urlField()).backgroundColor).to.equal('rgb(255, 255, 255)');
    expect(text($(el, 'code-snippet'))).to.equal(LIGHT);
    await emulateMedia({ colorScheme: 'light' });
    el.theme = 'dark';
    await el.updateComplete;
    expect(text(el)).to.equal(DARK);
    expect(text($(el, 'env-picker'))).to.equal(DARK);
    // A page's own colour wins over both schemes, and may be a light-dark() pair itself.
    el.style.setProperty('--tic-color-text', 'rgb(1, 2, 3)');
    expect(text(el)).to.equal('rgb(1, 2, 3)');
    el.style.setProperty('--tic-color-text', 'light-dark(rgb(1, 2, 3), rgb(4, 5, 6))');
    expect(text(el)).to.equal('rgb(4, 5, 6)');
    expect(text($(el, 'env-picker'))).to.equal('rgb(4, 5, 6)');
  });

  it('stays within its container, at phone width too, whatever the length of what it shows', async () => {
    const long = 'x'.repeat(400);
    const jwt = `eyJ${'a'.repeat(120)}.eyJ${'b'.repeat(160)}.${'c'.repeat(43)}`;
    const longConfig = config({ environments: [{ name: `env-${long}`, variables: { base_url: servers.api, [`name_${long}`]: `value-${long}` } }] });
    for (const width of [375, 720]) {
      const container = await fixture<HTMLDivElement>(html`<div style="width: ${width}px">
        <try-it-console .config=${longConfig} url="{{base_url}}/long?q=${long}&{{missing_${long}}}" .headers=${{ Authorization: `Bearer ${jwt}`, [`Proxy-${long}`]: long }}></try-it-console>
        <try-it-console .config=${config()} url="ftp://${long}"></try-it-console>
      </div>`);
      const [sent, failed] = [...container.querySelectorAll<TryItConsole>('try-it-console')] as [TryItConsole, TryItConsole];
      await sendAndWait(sent);
      await sendAndWait(failed);
      await waitUntil(() => inner(sent, 'request-history', 'li'), 'a history entry appears');
      expect($(sent, '[part="response-body"]').textContent, 'the long line is in the response').to.contain(jwt);
      expect($(sent, '.notice').textContent, 'the warning names the long header').to.contain(long);
      expect($(failed, '[part="error"]').textContent).to.contain(long);
      expect(container.scrollWidth, `scroll width at ${width}px`).to.be.at.most(container.clientWidth);
      for (const el of [sent, failed]) {
        expect($(el, '[part="send-button"]').getBoundingClientRect().right, `Send at ${width}px`).to.be.at.most(container.getBoundingClientRect().right);
      }
    }
  });

  it('lets the page style the parts of the elements inside it', async () => {
    const style = document.createElement('style');
    style.textContent = `try-it-console::part(tabs), try-it-console::part(copy-button), try-it-console::part(code), try-it-console::part(select),
      try-it-console::part(variables), try-it-console::part(missing), try-it-console::part(list), try-it-console::part(clear-button) { outline: 3px solid rgb(255, 0, 0); }`;
    document.head.append(style);
    try {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{nope}}"></try-it-console>`);
      el.engine!.history.add({ method: 'GET', url: `${servers.api}/pets`, status: 200, duration: 1 });
      await $<RequestHistory>(el, 'request-history').updateComplete;
      const styled = (host: string, part: string) => `${part}: ${getComputedStyle(inner(el, host, `[part="${part}"]`)).outlineColor}`;
      expect([
        styled('code-snippet', 'tabs'), styled('code-snippet', 'copy-button'), styled('code-snippet', 'code'), styled('env-picker', 'select'),
        styled('env-picker', 'variables'), styled('env-picker', 'missing'), styled('request-history', 'list'), styled('request-history', 'clear-button'),
      ]).to.deep.equal(['tabs', 'copy-button', 'code', 'select', 'variables', 'missing', 'list', 'clear-button'].map((part) => `${part}: rgb(255, 0, 0)`));
    } finally {
      style.remove();
    }
  });

  it('stays responsive with a 5 MB JSON response and shows it truncated', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/big-json"></try-it-console>`);
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration)));
    observer.observe({ type: 'longtask' });
    await sendAndWait(el);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50)));
    observer.disconnect();
    expect($(el, '[part="status"]').textContent).to.contain('200 OK');
    expect($(el, '.truncated').textContent).to.match(/Showing the first 256 KB of 5(\.\d)? MB/);
    expect($(el, '.truncated a[download]')).to.exist;
    expect(Math.max(0, ...longTasks), `long tasks: ${longTasks.join(', ')} ms`).to.be.below(200);
  });

  it('wraps the one long line of a JSON body cut at the display limit instead of scrolling it sideways', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/big-json"></try-it-console>`);
    await sendAndWait(el);
    const body = $(el, '[part="response-body"]');
    expect(body.textContent!.length, 'the cut body is shown').to.be.above(256_000);
    expect(body.scrollWidth, 'no sideways scrolling').to.be.at.most(body.clientWidth);
  });

  // Bounded text is what keeps the page responsive: laid out level by level, it froze the page for minutes.
  it('shows a JSON response nested 15,000 levels deep whole, in bounded text', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/deep-json"></try-it-console>`);
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('200 OK');
    const shown = $(el, '[part="response-body"] code').textContent!;
    const sent = `${'['.repeat(15_000)}1${']'.repeat(15_000)}`;
    expect(shown.replace(/\s/g, '') === sent, 'every bracket shown, nothing else').to.equal(true);
    // Indented level by level it would be 450 million characters; the first 64 levels add 8,320.
    expect(shown.length).to.be.at.most(sent.length + 8_320);
  });

  it('copies a snippet whose URL, with values, is the one sent when base_url ends with "/"', async () => {
    const slash = config({ environments: [{ name: 'Slash', variables: { base_url: `${servers.api}/` } }] });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${slash} url="/pets"></try-it-console>`);
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendAndWait(el);
    const received = `${servers.api}${JSON.parse((await response).response.text).url}`;
    expect(received).to.equal(`${servers.api}/pets`);
    const snippet = $<CodeSnippet>(el, 'code-snippet');
    const copiedUrl = async () => {
      const copied = oneEvent<TicCopyEvent>(snippet, 'tic-copy');
      snippet.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
      // The first line is `curl -X GET <URL>`, the URL single-quoted when it holds shell characters.
      return /^curl -X GET '?([^' ]+)'?$/.exec((await copied).text.split('\n')[0]!)?.[1];
    };
    const showValues = snippet.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    showValues.click();
    await snippet.updateComplete;
    expect(await copiedUrl()).to.equal(received);
    // As written, the snippet resolves to the same URL: base_url's "/" stands for the one the URL starts with.
    showValues.click();
    await snippet.updateComplete;
    expect(/^curl -X GET '([^']+)'$/.exec(snippet.shadowRoot!.querySelector('pre code')!.textContent!.split('\n')[0]!)?.[1]).to.equal('{{base_url}}pets');
    expect(await copiedUrl(), 'copied with the values').to.equal(received);
  });

  it('explains in the snippet area why two header rows of one name have no snippet, as Send does', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/tenants" .headers=${{ 'X-Tenant': 'a' }}></try-it-console>`);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    const rows = () => [...el.shadowRoot!.querySelectorAll('.header-row')];
    typeInto(rows()[1]!.querySelector<HTMLInputElement>('input.name')!, 'X-Tenant');
    typeInto(rows()[1]!.querySelector<HTMLInputElement>('input.value')!, 'b');
    await el.updateComplete;
    const snippet = $<CodeSnippet>(el, 'code-snippet');
    await snippet.updateComplete;
    const explanation = 'The header X-Tenant appears in two rows (names ignore case); merge the values into one row, separated by ", ", or switch one off.';
    expect(inner(el, 'code-snippet', '[part="code"]').textContent!.trim()).to.equal(`No snippet for this request: ${explanation}`);
    expect(inner<HTMLButtonElement>(el, 'code-snippet', '[part="copy-button"]').disabled).to.equal(true);
    await expect(el).to.be.accessible();
    await sendAndWait(el);
    expect($(el, '[part="error"]').textContent).to.contain(explanation);
    // One row switched off: the snippet is back, with the row that is sent.
    rows()[1]!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await el.updateComplete;
    await snippet.updateComplete;
    expect(inner(el, 'code-snippet', '[part="code"]').textContent).to.contain('-H "X-Tenant: a"');
    expect(inner(el, 'code-snippet', '[part="code"]').textContent).to.not.contain('X-Tenant: b');
  });

  it('keeps the response headers open for the next response once the reader opened them, and closed once closed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="${servers.api}/panel/cors"></try-it-console>`);
    await sendAndWait(el);
    const headers = () => $<HTMLDetailsElement>(el, '.response-headers');
    expect(headers().open).to.equal(false);
    headers().querySelector('summary')!.click();
    await waitUntil(() => headers().open, 'opened');
    await sendAndWait(el);
    expect(headers().open, 'the next response').to.equal(true);
    headers().querySelector('summary')!.click();
    await waitUntil(() => !headers().open, 'closed');
    await sendAndWait(el);
    expect(headers().open, 'closed again').to.equal(false);
  });

  it('notes under the response headers that a page reads only the exposed ones of a response straight from another origin', async () => {
    const direct = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.api}/panel/cors"></try-it-console>`);
    await sendAndWait(direct);
    expect($(direct, '[part="status"]').textContent).to.contain('200 OK');
    const headers = $<HTMLDetailsElement>(direct, '.response-headers');
    expect(headers.textContent).to.not.contain('x-ratelimit-remaining');
    expect(headers.querySelector('summary + .headers-note')?.textContent ?? 'no note').to.contain('Access-Control-Expose-Headers').and.contain('Set-Cookie');
    headers.open = true;
    await expect(direct).to.be.accessible();
    // Through the proxy, every header it relays is exposed; from the page's own origin, all but Set-Cookie are readable.
    const proxied = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="${servers.api}/panel/cors"></try-it-console>`);
    await sendAndWait(proxied);
    expect($(proxied, '.response-headers').textContent).to.contain('x-ratelimit-remaining');
    const sameOrigin = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${location.origin}/__test-servers.json"></try-it-console>`);
    await sendAndWait(sameOrigin);
    expect($(sameOrigin, '[part="status"]').textContent).to.contain('200 OK');
    // An API that exposes `*` lets the page read them all.
    const exposing = await fixture<TryItConsole>(html`<try-it-console .config=${config({ corsProxy: undefined })} url="${servers.corsApi}/expose-all?also=X-Trace"></try-it-console>`);
    await sendAndWait(exposing);
    expect($(exposing, '.response-headers').textContent).to.contain('x-ratelimit-remaining');
    for (const el of [proxied, sameOrigin, exposing]) expect(el.shadowRoot!.querySelector('.headers-note')?.outerHTML).to.equal(undefined);
  });

  it('shows an image body the browser cannot decode as text or binary data, with its download', async () => {
    const sent = async (path: string) => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/panel/${path}"></try-it-console>`);
      await sendAndWait(el);
      await waitUntil(() => el.shadowRoot!.querySelector('.not-an-image'), `${path} is said not to be an image`);
      expect(el.shadowRoot!.querySelector('[part="response-body"] img')?.outerHTML).to.equal(undefined);
      return el;
    };
    const text = await sent('text-as-png');
    expect($(text, '.not-an-image').textContent).to.equal('Not a valid image (image/png, 24 B).');
    expect($(text, '[part="response-body"] pre').textContent).to.equal('this is not a png at all');
    expect(await (await fetch($<HTMLAnchorElement>(text, 'a.download').href)).text()).to.equal('this is not a png at all');
    await expect(text).to.be.accessible();
    const svg = await sent('svg-as-png');
    expect($(svg, '[part="response-body"] pre').textContent).to.contain('<svg');
    const bytes = await sent('bytes-as-png');
    expect($(bytes, '[part="response-body"]').textContent!.trim()).to.equal('Not a valid image (image/png, 8 B).');
    expect($(bytes, 'a.download')).to.exist;
    await expectNothingRan();
  });

  it('previews an image longer than the text shown whole, without saying only its start is shown', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/panel/large.png"></try-it-console>`);
    await sendAndWait(el);
    const img = $<HTMLImageElement>(el, '[part="response-body"] img');
    await waitUntil(() => img.complete && img.naturalWidth === 1, 'the image loads');
    expect($(el, '[part="status"]').textContent).to.match(/300\.\d KB/);
    expect(el.shadowRoot!.querySelector('.truncated')?.outerHTML).to.equal(undefined);
  });

  it('gives the sizes of a shortened body in bytes when rounded they would read the same', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/panel/256k-and-1"></try-it-console>`);
    await sendAndWait(el);
    expect($(el, '.truncated').textContent!.replace(/\s+/g, ' ').trim()).to.equal('Showing the first 262,144 B of 262,145 B. Download the whole body.');
  });

  it('says the size is decoded when the server compressed the body, and only then', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/panel/gzip"></try-it-console>`);
    await sendAndWait(el);
    const status = $(el, '[part="status"]').textContent!;
    const [, decoded, sent] = /(\d+\.\d KB) decoded from (\d+\.\d KB)/.exec(status) ?? [];
    expect(decoded, status).to.equal(`${(JSON.stringify(Array.from({ length: 2000 }, (_, id) => ({ id, name: `pet ${id}` }))).length / 1024).toFixed(1)} KB`);
    expect(sent).to.not.equal(decoded);
    el.url = '{{base_url}}/precise';
    await el.updateComplete;
    await sendAndWait(el);
    expect($(el, '[part="status"]').textContent).to.contain('60 B').and.not.contain('decoded');
  });

  it('names a download as Content-Disposition says, else after the URL decoded, with the extension of its type', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const nameFor = async (path: string) => {
      el.url = `{{base_url}}${path}`;
      await el.updateComplete;
      await sendAndWait(el);
      expect($(el, '[part="status"]').textContent, path).to.contain('200 OK');
      return $(el, 'a.download').getAttribute('download');
    };
    expect(await nameFor('/panel/disposition'), 'filename* before filename').to.equal('résumé.pdf');
    expect(await nameFor('/panel/disposition-quoted'), 'the last component of a quoted filename').to.equal('a;b "c".txt');
    expect(await nameFor('/panel/disposition-fallback'), 'filename when filename* is not UTF-8').to.equal('plan.pdf');
    expect(await nameFor('/panel/disposition-control'), 'no control characters').to.equal('ab.txt');
    // The test API answers other paths with JSON.
    expect(await nameFor('/a%20b')).to.equal('a b.json');
    expect(await nameFor('/users/jane.smith')).to.equal('jane.smith.json');
    expect(await nameFor('/pets.json')).to.equal('pets.json');
    expect(await nameFor('/files/..%2F..%2Fetc%2Fpasswd')).to.equal('passwd.json');
    expect(await nameFor('/caf%C3%A9%FF'), 'a bad escape kept as written').to.equal('café%FF.json');
  });
});
