// Review of Edit and Set in <env-picker> (a value the reader sets, such as their own API key) and of the response body's
// Copy button: each test failed on the code as it was committed.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import { createStore, values } from 'idb-keyval';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, type ConsoleConfig, type StoredHistoryRecord } from '../../src/core/index.js';
import type { TicResponseEvent } from '../../src/events/index.js';
import { deleteDatabase } from './support/delete-database.js';

interface TestServers {
  api: string;
  proxy: string;
}

let servers: TestServers;

const manager = () => new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } }, { name: 'Production', variables: { base_url: 'https://api.example' } });
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const field = (el: EnvPicker) => el.shadowRoot!.querySelector<HTMLInputElement>('input.value-input');
const editButton = (el: EnvPicker, name: string) => $<HTMLButtonElement>(el, `button.edit[data-name="${name}"]`);
const setButton = (el: EnvPicker, name: string) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.set-missing button')].find((button) => button.textContent === `Set ${name}`);
/** What has focus, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: EnvPicker) => {
  const active = document.activeElement === el ? el.shadowRoot!.activeElement : document.activeElement;
  return active ? `${active.tagName} ${active.tagName === 'BUTTON' ? active.textContent?.trim() : (active as HTMLInputElement).value ?? active.id}` : 'nothing';
};

describe('Edit and Set in <env-picker>', () => {
  it('leaves focus where the reader went when they leave the field, keeping what they typed', async () => {
    const environments = manager();
    const page = await fixture<HTMLElement>(html`<div><env-picker .manager=${environments}></env-picker><input id="elsewhere" aria-label="Elsewhere" /></div>`);
    const el = page.querySelector('env-picker')!;
    editButton(el, 'base_url').click();
    await el.updateComplete;
    await sendKeys({ type: 'http://127.0.0.1:9' });
    // A click on another field of the page (not Tab: see the note in env-picker.test.ts).
    page.querySelector<HTMLInputElement>('#elsewhere')!.focus();
    await el.updateComplete;
    expect(environments.active()!.variables.base_url).to.equal('http://127.0.0.1:9');
    expect(document.activeElement?.id, 'focus stays where the reader put it, not back on Edit').to.equal('elsewhere');
  });

  it('keeps the field open when the window loses focus, as the reader goes to copy their key elsewhere', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'api_token').click();
    await el.updateComplete;
    // Another window or tab taken to the front: the field hears blur, and is still the document's focused element.
    field(el)!.dispatchEvent(new FocusEvent('blur'));
    await el.updateComplete;
    expect([focusedText(el), field(el)?.type]).to.deep.equal(['INPUT tok-123', 'password']);
    await sendKeys({ type: 'sk_test_pasted' });
    await sendKeys({ press: 'Enter' });
    expect(environments.active()!.variables.api_token).to.equal('sk_test_pasted');
  });

  it('ends an edit without setting anything when another environment is picked meanwhile, focus on the heading', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'base_url').click();
    await el.updateComplete;
    await sendKeys({ type: 'http://typed' });
    environments.setActive('Production'); // another picker, or the page
    await el.updateComplete;
    expect(environments.list().map((environment) => environment.variables.base_url)).to.deep.equal(['http://localhost:3000', 'https://api.example']);
    expect([field(el), focusedText(el)]).to.deep.equal([null, 'H2 ']);
  });

  it('defines nothing when the reader leaves a Set field without typing, and Escape goes back to the Set button', async () => {
    const environments = manager();
    const page = await fixture<HTMLElement>(html`<div><env-picker .manager=${environments} .missing=${['pet_id', 'tenant']}></env-picker><input id="elsewhere" aria-label="Elsewhere" /></div>`);
    const el = page.querySelector('env-picker')!;
    setButton(el, 'pet_id')!.click();
    await el.updateComplete;
    page.querySelector<HTMLInputElement>('#elsewhere')!.focus();
    await el.updateComplete;
    expect(Object.hasOwn(environments.active()!.variables, 'pet_id'), 'pet_id still undefined (an empty value would be sent)').to.equal(false);

    setButton(el, 'tenant')!.click();
    await el.updateComplete;
    await sendKeys({ type: 'acme' });
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect(Object.hasOwn(environments.active()!.variables, 'tenant')).to.equal(false);
    expect(focusedText(el), 'back on the Set button pressed').to.equal('BUTTON Set tenant');
  });

  it('sets a variable named like a property every object has (constructor, toString) from an empty field', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${['constructor']}></env-picker>`);
    setButton(el, 'constructor')!.click();
    await el.updateComplete;
    expect(field(el)?.value, 'empty, not the Object function').to.equal('');
    await sendKeys({ type: 'c1' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(environments.active()!.variables.constructor).to.equal('c1');
  });

  it('keeps what the reader is typing when the manager changes meanwhile (another picker, the page)', async () => {
    const environments = manager();
    const page = await fixture<HTMLElement>(html`<div><env-picker id="a" .manager=${environments} .missing=${['pet_id']}></env-picker><env-picker id="b" .manager=${environments} .missing=${['pet_id', 'tenant']}></env-picker></div>`);
    const a = page.querySelector('env-picker')!;
    editButton(a, 'base_url').click();
    await a.updateComplete;
    await sendKeys({ type: 'http://mine' });
    // The page (or another reader's picker) replaces the same value.
    environments.add({ name: 'Local', variables: { ...environments.active()!.variables, base_url: 'http://theirs' } });
    await a.updateComplete;
    expect(field(a)?.value, 'the text typed stays').to.equal('http://mine');
    await sendKeys({ press: 'Enter' });
    await a.updateComplete;
    expect(environments.active()!.variables.base_url).to.equal('http://mine');
  });

  it('keeps a Set field open and focused while another picker of the manager sets another missing variable', async () => {
    const environments = manager();
    const page = await fixture<HTMLElement>(html`<div><env-picker id="a" .manager=${environments} .missing=${['pet_id']}></env-picker><env-picker id="b" .manager=${environments} .missing=${['pet_id', 'tenant']}></env-picker></div>`);
    const [a, b] = [...page.querySelectorAll('env-picker')] as [EnvPicker, EnvPicker];
    setButton(a, 'pet_id')!.click();
    await a.updateComplete;
    await sendKeys({ type: '4' });
    environments.add({ name: 'Local', variables: { ...environments.active()!.variables, tenant: 'acme' } }); // as b's Set does
    await Promise.all([a.updateComplete, b.updateComplete]);
    expect(Object.hasOwn(environments.active()!.variables, 'pet_id'), 'the half-typed value is not kept').to.equal(false);
    expect([focusedText(a), field(a)?.value]).to.deep.equal(['INPUT 4', '4']);
    await sendKeys({ type: '2' });
    await sendKeys({ press: 'Enter' });
    expect(environments.active()!.variables.pet_id).to.equal('42');
  });

  it('tells screen readers a value was set, naming the variable and never the value', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'api_token').click();
    await el.updateComplete;
    await sendKeys({ type: 'sk_live_mine' });
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')?.textContent?.trim(), 'announced');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent!.trim()).to.equal('api_token set in “Local”.');
    expect(el.shadowRoot!.textContent).not.to.contain('sk_live_mine');
  });

  it('on a right-to-left page, shows the value being typed in its own direction', async () => {
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar"><env-picker .manager=${manager()}></env-picker></div>`);
    const el = page.querySelector('env-picker')!;
    editButton(el, 'base_url').click();
    await el.updateComplete;
    expect(getComputedStyle(field(el)!).direction, 'a URL reads left to right').to.equal('ltr');
  });

  it('gives a long value room to be edited on a 320 px wide page, without overflowing it', async () => {
    await setViewport({ width: 320, height: 640 });
    try {
      const long = `https://${'a'.repeat(200)}.example/${'b'.repeat(200)}`;
      const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: long, an_unusually_long_variable_name_for_a_tenant_identifier: 'x' } });
      const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${[`tenant_${'c'.repeat(80)}`]}></env-picker>`);
      editButton(el, 'base_url').click();
      await el.updateComplete;
      const table = $(el, 'table').getBoundingClientRect().width;
      expect(document.documentElement.scrollWidth, 'no sideways scrolling').to.be.at.most(320);
      expect(field(el)!.getBoundingClientRect().width, 'the field, not the name, has most of the width').to.be.above(table / 2);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});

describe('a value the reader sets, in a console', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('is not kept in history, stored or listed, when it would be masked, wherever the request puts it', async () => {
    const storageKey = `variable-editing-${Date.now()}`;
    await deleteDatabase(`try-it-console:${storageKey}`);
    const config: ConsoleConfig = {
      corsProxy: servers.proxy,
      environments: [{ name: 'Weather', variables: { base_url: servers.api, api_key: 'paste-your-key' } }],
      history: { enabled: true, storageKey },
    };
    // OpenWeatherMap's `appid`, a name history does not know for a credential; and a JSON body.
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/weather?appid={{api_key}}" body='{"key":"{{api_key}}"}'></try-it-console>`);
    await el.updateComplete;
    const picker = $<EnvPicker>(el, 'env-picker');
    await picker.updateComplete;
    editButton(picker, 'api_key').click();
    await picker.updateComplete;
    await sendKeys({ type: 'my-own-key-0123456789' });
    const sent = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    const { response } = await sent;
    expect(response.request.url, 'sent with the reader’s key').to.contain('appid=my-own-key-0123456789');
    await el.engine!.history.flush();
    const stored = await values<StoredHistoryRecord>(createStore(`try-it-console:${storageKey}`, 'history'));
    expect(stored).to.have.length(1);
    expect(JSON.stringify(stored), 'not stored').not.to.contain('my-own-key');
    const list = $(el, 'request-history');
    await (list as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(list.shadowRoot!.textContent, 'not listed').not.to.contain('my-own-key');
    // Loaded back, the request resolves it again.
    expect(stored[0]!.entry.written?.url).to.equal('{{base_url}}/weather?appid={{api_key}}');
    el.engine!.history.close();
  });
  it('keeps the values the reader set when its console is removed and added back alone, as a framework keep-alive does', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments: [{ name: 'Only', variables: { base_url: servers.api, token: 'paste-yours' } }], history: { enabled: false } }} url="{{base_url}}/precise"></try-it-console>`);
    const picker = $<EnvPicker>(el, 'env-picker');
    await picker.updateComplete;
    editButton(picker, 'token').click();
    await picker.updateComplete;
    await sendKeys({ type: 'my-own-key-123' });
    await sendKeys({ press: 'Enter' });
    const parent = el.parentElement!;
    el.remove();
    await new Promise((resolve) => setTimeout(resolve)); // removed for good: its engine stops
    expect(el.engine).to.equal(undefined);
    parent.append(el);
    await el.updateComplete;
    expect(el.engine!.environments.active()!.variables.token).to.equal('my-own-key-123');
  });

  it('says credentials were not stored when an entry loaded back has a redacted key in its body', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }}></try-it-console>`);
    el.load({ method: 'POST', url: `${servers.api}/pets`, headers: { 'Content-Type': 'application/json' }, body: '{"key":"[redacted]"}' });
    await el.updateComplete;
    expect($(el, '.notice').textContent).to.contain('Credentials were not stored');
  });
});

describe('the response body’s Copy button', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('announces a copy the clipboard answers after a new response came, and selects no other body when refused', async () => {
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: [{ name: 'Local', variables: { base_url: servers.api } }], history: { enabled: false } };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/precise"></try-it-console>`);
    const send = async () => {
      const done = oneEvent<TicResponseEvent>(el, 'tic-response');
      void el.send();
      await done;
      await el.updateComplete;
    };
    await send();
    let answer: ((copied: boolean) => void) | undefined;
    // As a slow clipboard (a permission prompt) answers later.
    navigator.clipboard.writeText = () => new Promise<void>((resolve, reject) => (answer = (copied) => (copied ? resolve() : reject(new DOMException('Write permission denied.', 'NotAllowedError')))));
    document.execCommand = () => false;
    try {
      $<HTMLButtonElement>(el, '[part="copy-body-button"]').click();
      await waitUntil(() => answer !== undefined, 'the clipboard asked');
      await send();
      answer!(true);
      await waitUntil(() => $(el, '.announcements').textContent === 'Copied the response body.', 'announced, though another response is shown');
      expect($(el, '[part="copy-body-button"]').textContent!.trim(), 'no Copied beside the new body').to.equal('Copy');

      answer = undefined;
      getSelection()!.removeAllRanges();
      $<HTMLButtonElement>(el, '[part="copy-body-button"]').click();
      await waitUntil(() => answer !== undefined, 'the clipboard asked again');
      await send();
      answer!(false);
      await waitUntil(() => $(el, '.announcements').textContent === 'Copy is blocked here.', 'announced');
      expect(getSelection()!.toString(), 'the new body is not selected as if it were the one copied').to.equal('');
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
    }
  });

  it('says that only the part of a long body shown is copied', async () => {
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: [{ name: 'Local', variables: { base_url: servers.api } }], history: { enabled: false } };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/big-json"></try-it-console>`);
    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    void el.send();
    await done;
    await el.updateComplete;
    const button = $<HTMLButtonElement>(el, '[part="copy-body-button"]');
    expect(button.getAttribute('aria-label')).to.equal('Copy the part of the body shown');
    button.click();
    await waitUntil(() => $(el, '.announcements').textContent?.startsWith('Copied'), 'announced');
    expect($(el, '.announcements').textContent).to.equal('Copied the first 256 KB of the body, as shown.');
    // The part shown as laid out: its indentation grows 256 KB by a half, far from the 5 MB of the whole.
    const copied = await navigator.clipboard.readText();
    expect(copied.startsWith('[\n  {\n    "id": 0,'), copied.slice(0, 40)).to.equal(true);
    expect(copied.length).to.be.below(1024 * 1024);
  });
});
