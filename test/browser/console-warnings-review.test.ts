// What a newcomer from Swagger UI or Scalar was left to guess (a review's findings; each test failed before its fix):
// a response to a request that went out with {{token}} unfilled, a <code-snippet> alone that sends a JSON body as form
// data, and the console's Content-Type warning that left the header to be typed by hand.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';

interface TestServers {
  api: string;
  proxy: string;
}

let servers: TestServers;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<T>(selector)];

function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { corsProxy: servers.proxy, environments: [{ name: 'Sandbox', variables: { base_url: servers.api } }], history: { enabled: false }, ...extra };
}

const JSON_WARNING = /^This body is JSON, but with no Content-Type header/;
/** The request panel's notices, as read (a button inside one is read with it). */
const requestNotices = (el: TryItConsole) => $$(el, '[part="request"] .notice').map((notice) => notice.textContent!.trim().replace(/\s+/g, ' '));
/** The accessible name of the field that has focus. Elements themselves are not asserted on: a failure message would print one whole. */
const focusedField = (el: TryItConsole) => el.shadowRoot!.activeElement?.getAttribute('aria-label');
/** The header rows as [name, value, switched on]. */
const rows = (el: TryItConsole) => $$(el, '.header-row').map((row) => [row.querySelector<HTMLInputElement>('input.name')!.value, row.querySelector<HTMLInputElement>('input.value')!.value, row.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked]);

describe('Console warnings: what a newcomer was left to guess', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('says in the response panel that {{token}} went out as written, in the Authorization header', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console url="{{base_url}}/pets" .config=${config({ defaultHeaders: { Authorization: 'Bearer {{token}}' } })}></try-it-console>`);
    await el.send();
    await el.updateComplete;
    expect(JSON.parse($(el, '[part="response-body"]')!.textContent!).headers.authorization, 'what the API got').to.equal('Bearer {{token}}');
    const notes = $$(el, '[part="response"] .notice[role="note"]').map((note) => note.textContent);
    expect(notes).to.deep.equal([
      'Sent with {{token}} (in the Authorization header) as written: the API got the braces, not a value. {{token}} has no value in environment "Sandbox". Define it there, or pick another environment.',
    ]);
    await expect(el).to.be.accessible();
  });

  it('notes above the code of a <code-snippet> alone that a JSON body without Content-Type goes as form data, or as the language sends it', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="http://127.0.0.1:9/pets" body='{"name": "Rex"}'></code-snippet>`);
    const note = () => $(el, '[role="note"]')?.textContent ?? null;
    expect(note()).to.equal('This body is JSON, but with no Content-Type header this snippet sends it as form data (application/x-www-form-urlencoded), which an API reading JSON may refuse or ignore. Add the header Content-Type: application/json.');
    // Above the code, so it is met before the code is copied.
    expect(!!($(el, '[role="note"]')!.compareDocumentPosition($(el, '[role="tabpanel"]')!) & Node.DOCUMENT_POSITION_FOLLOWING)).to.equal(true);
    await expect(el).to.be.accessible();
    // Legible in the dark theme too (axe checks its contrast).
    el.theme = 'dark';
    await el.updateComplete;
    await expect(el).to.be.accessible();
    $(el, '#tab-javascript')!.click();
    await el.updateComplete;
    expect(note()).to.contain('this snippet sends it as text/plain;charset=UTF-8,');
    $(el, '#tab-python')!.click();
    await el.updateComplete;
    expect(note()).to.contain('this snippet sends it with no type,');
    el.headers = { 'content-type': 'application/json' };
    await el.updateComplete;
    expect(note(), 'with the header').to.equal(null);
    // Given as the request property, as a page rendering it from an OpenAPI operation may.
    el.request = { method: 'PUT', url: 'http://127.0.0.1:9/pets/1', headers: { Accept: 'application/json' }, body: '[1, 2]' };
    await el.updateComplete;
    expect(note(), 'the request property').to.contain('This body is JSON');
    el.request = { ...el.request, body: 'name=Rex' };
    await el.updateComplete;
    expect(note(), 'a body that is not JSON').to.equal(null);
  });

  it('does not say it twice inside <try-it-console>, which warns about its request itself', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console method="POST" url="{{base_url}}/pets" body='{"name": "Rex"}' .config=${config()}></try-it-console>`);
    expect(requestNotices(el).filter((notice) => JSON_WARNING.test(notice)), 'the console warns').to.have.length(1);
    const snippet = $<CodeSnippet>(el, 'code-snippet')!;
    await snippet.updateComplete;
    expect($(snippet, '[role="tabpanel"] pre')?.textContent, 'the code is shown').to.match(/^curl -X POST/);
    expect($(snippet, '[role="note"]')?.textContent ?? null, 'no second note in its snippet').to.equal(null);
  });

  it('adds Content-Type: application/json in one click from the warning, says so, and puts focus on the new value', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console method="POST" url="{{base_url}}/pets" body='{"name": "Rex"}' .headers=${{ Accept: 'application/json' }} .config=${config()}></try-it-console>`);
    const button = $<HTMLButtonElement>(el, 'button.add-content-type')!;
    expect(button.textContent!.trim()).to.equal('Add Content-Type: application/json');
    expect(button.closest('.notice')!.textContent, 'beside the warning it fixes').to.match(/This body is JSON/);
    await expect(el).to.be.accessible();
    button.focus();
    button.click();
    await el.updateComplete;
    await el.updateComplete;
    expect(rows(el)).to.deep.equal([
      ['Accept', 'application/json', true],
      ['Content-Type', 'application/json', true],
    ]);
    expect(requestNotices(el).filter((notice) => JSON_WARNING.test(notice)), 'the warning went').to.deep.equal([]);
    expect($(el, 'button.add-content-type')?.textContent ?? null).to.equal(null);
    expect(focusedField(el), 'focus on the new row’s value').to.equal('Header 2 value');
    await waitUntil(() => $(el, '.announcements')!.textContent === 'Added the header Content-Type: application/json.', 'said to screen readers');
    await expect(el).to.be.accessible();
    await el.send();
    await el.updateComplete;
    expect(JSON.parse($(el, '[part="response-body"]')!.textContent!).headers['content-type'], 'sent with it').to.equal('application/json');
  });

  it('switches on a switched-off Content-Type row rather than adding a second one', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console method="POST" url="{{base_url}}/pets" body='{"name": "Rex"}' .headers=${{ 'content-type': 'application/json; charset=utf-8', 'X-Trace': 't-1' }} .config=${config()}></try-it-console>`);
    expect($(el, 'button.add-content-type')?.textContent ?? null, 'no warning while the row is on').to.equal(null);
    $<HTMLInputElement>(el, '.header-row input[type="checkbox"]')!.click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, 'button.add-content-type')!.click();
    await el.updateComplete;
    await el.updateComplete;
    // Its own JSON type kept; focus on that row's value.
    expect(rows(el)).to.deep.equal([
      ['content-type', 'application/json; charset=utf-8', true],
      ['X-Trace', 't-1', true],
    ]);
    expect(focusedField(el)).to.equal('Header 1 value');
    await waitUntil(() => $(el, '.announcements')!.textContent === 'Switched on the header Content-Type: application/json; charset=utf-8.', 'said to screen readers');
    // Another type in the row switched off is replaced: the button said application/json.
    el.load({ method: 'POST', url: '{{base_url}}/pets', headers: { 'Content-Type': 'text/plain' }, body: '[]' });
    await el.updateComplete;
    $<HTMLInputElement>(el, '.header-row input[type="checkbox"]')!.click();
    await el.updateComplete;
    $<HTMLButtonElement>(el, 'button.add-content-type')!.click();
    await el.updateComplete;
    expect(rows(el)).to.deep.equal([['Content-Type', 'application/json', true]]);
  });
});
