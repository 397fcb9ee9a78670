// <env-picker>: values with line breaks edited in a field that keeps them, and variable names as row headers.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import '../../src/components/try-it-console/try-it-console.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import type { TicBeforeSendEvent, TicVariableChangeEvent } from '../../src/events/index.js';
import { axNodes } from './support/accessibility-tree.js';

const JSON_VALUE = '{\n  "region": "eu",\n  "tier": "free"\n}';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const editButton = (el: EnvPicker, name: string) => $<HTMLButtonElement>(el, `button.edit[data-name="${name}"]`)!;
/** What has focus in `el`, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: EnvPicker) => {
  const active = el.shadowRoot!.activeElement;
  return active ? `${active.tagName} ${active.getAttribute('aria-label')}` : `(not in the element: ${document.activeElement?.tagName})`;
};

async function pressWith(modifier: 'Control' | 'Meta', key: string): Promise<void> {
  await sendKeys({ down: modifier });
  try {
    await sendKeys({ press: key });
  } finally {
    await sendKeys({ up: modifier });
  }
}

/** Opens the edit of `name` and selects `text` in its field, as a reader who drags over one line. */
async function editPart(el: EnvPicker, name: string, text: string): Promise<HTMLTextAreaElement> {
  editButton(el, name).click();
  await el.updateComplete;
  const field = $<HTMLTextAreaElement>(el, 'textarea.value-input')!;
  const start = field.value.indexOf(text);
  field.setSelectionRange(start, start + text.length);
  return field;
}

describe('<env-picker> editing a value with line breaks', () => {
  it('edits it in a multi-line field: Enter starts a new line, Ctrl+Enter sets the value with its line breaks', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000', settings: JSON_VALUE } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const field = await editPart(el, 'settings', '"tier": "free"');
    expect([focusedText(el), field.rows]).to.deep.equal(['TEXTAREA Value of settings', 4]);
    await expect(el).to.be.accessible();
    const changed = oneEvent<TicVariableChangeEvent>(el, 'tic-variable-change');
    await sendKeys({ type: '"tier": "pro",' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ type: '  "seats": 5' });
    expect(environments.active()!.variables.settings, 'Enter set nothing').to.equal(JSON_VALUE);
    await pressWith('Control', 'Enter');
    expect((await changed).name).to.equal('settings');
    await el.updateComplete;
    expect(environments.active()!.variables.settings).to.equal('{\n  "region": "eu",\n  "tier": "pro",\n  "seats": 5\n}');
    expect(focusedText(el), 'back on its Edit button').to.equal('BUTTON Edit the value of settings');
    // One-line values keep their one-line field, which Enter sets.
    editButton(el, 'base_url').click();
    await el.updateComplete;
    expect($(el, '.value-input')!.localName).to.equal('input');
    await sendKeys({ type: 'http://127.0.0.1:9' });
    await sendKeys({ press: 'Enter' });
    expect(environments.active()!.variables.base_url).to.equal('http://127.0.0.1:9');
  });

  it('says how to set the value in the field’s description, and Escape leaves the value as it was', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { settings: JSON_VALUE } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    await editPart(el, 'settings', 'eu');
    const field = (await axNodes()).find((node) => node.role === 'textbox');
    expect([field?.name, field?.description]).to.deep.equal(['Value of settings', 'Ctrl+Enter or ⌘+Enter sets it (and, in a console, sends the request); Escape cancels.']);
    expect($(el, '.hint')!.getBoundingClientRect().height, 'the hint is shown, not only told').to.be.above(0);
    await sendKeys({ type: 'us' });
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect([environments.active()!.variables.settings, focusedText(el)]).to.deep.equal([JSON_VALUE, 'BUTTON Edit the value of settings']);
  });

  it('sets the value with Cmd+Enter too, and when the reader leaves the field', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { settings: JSON_VALUE } });
    const page = await fixture<HTMLElement>(html`<div><env-picker .manager=${environments}></env-picker><input id="elsewhere" aria-label="Elsewhere" /></div>`);
    const el = page.querySelector('env-picker')!;
    await editPart(el, 'settings', 'eu');
    await sendKeys({ type: 'us' });
    await pressWith('Meta', 'Enter');
    expect(environments.active()!.variables.settings).to.equal(JSON_VALUE.replace('eu', 'us'));
    await el.updateComplete;
    await editPart(el, 'settings', 'free');
    await sendKeys({ type: 'pro' });
    page.querySelector<HTMLInputElement>('#elsewhere')!.focus();
    await el.updateComplete;
    expect(environments.active()!.variables.settings).to.equal(JSON_VALUE.replace('eu', 'us').replace('free', 'pro'));
  });

  it('keeps \\r\\n line breaks as they were written, and sets nothing when the field is left unchanged', async () => {
    const written = 'first line\r\nsecond line';
    const environments = new EnvironmentManager({ name: 'Local', variables: { note: written } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    let events = 0;
    el.addEventListener('tic-variable-change', () => (events += 1));
    editButton(el, 'note').click();
    await el.updateComplete;
    await pressWith('Control', 'Enter');
    expect([environments.active()!.variables.note, events], 'unchanged').to.deep.equal([written, 0]);
    await el.updateComplete;
    await editPart(el, 'note', 'second');
    await sendKeys({ type: '2nd' });
    await pressWith('Control', 'Enter');
    expect([environments.active()!.variables.note, events]).to.deep.equal(['first line\r\n2nd line', 1]);
  });

  it('types a secret with line breaks (a PEM private key) unseen', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { client_key: PEM } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'client_key').click();
    await el.updateComplete;
    const field = $<HTMLTextAreaElement>(el, 'textarea.value-input')!;
    expect(getComputedStyle(field).getPropertyValue('-webkit-text-security')).to.equal('disc');
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    // Shown, it is edited in plain sight.
    $<HTMLButtonElement>(el, 'button[aria-pressed]')!.click();
    await el.updateComplete;
    editButton(el, 'client_key').click();
    await el.updateComplete;
    expect(getComputedStyle($(el, 'textarea.value-input')!).getPropertyValue('-webkit-text-security')).to.equal('none');
  });

  it('in a console, sets the value with Ctrl+Enter and the console sends with it', async () => {
    const config = { history: { enabled: false }, environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:65534', settings: JSON_VALUE } }] };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/x" body="{{settings}}"></try-it-console>`);
    const picker = el.shadowRoot!.querySelector('env-picker')!;
    await picker.updateComplete;
    await editPart(picker, 'settings', 'eu');
    await sendKeys({ type: 'us' });
    // Heard, then stopped: nothing needs to go out.
    el.addEventListener('tic-before-send', (event) => event.preventDefault());
    const sent = oneEvent<TicBeforeSendEvent>(el, 'tic-before-send');
    await pressWith('Control', 'Enter');
    expect((await sent).request.body).to.equal(JSON_VALUE.replace('eu', 'us'));
  });

  it('moves the edit to a multi-line field when a value with line breaks is pasted into a one-line one (Set, then a PEM key)', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: {} });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${['client_key']}></env-picker>`);
    $<HTMLButtonElement>(el, 'button.set[data-name="client_key"]')!.click();
    await el.updateComplete;
    const input = $<HTMLInputElement>(el, 'input.value-input')!;
    await sendKeys({ type: 'x' });
    const clipboard = new DataTransfer();
    clipboard.setData('text/plain', PEM);
    const pasted = new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true, composed: true });
    input.dispatchEvent(pasted);
    expect(pasted.defaultPrevented, 'the one-line field would have dropped the line breaks').to.equal(true);
    await el.updateComplete;
    const field = $<HTMLTextAreaElement>(el, 'textarea.value-input');
    expect([field?.value, focusedText(el), field?.selectionStart]).to.deep.equal([`x${PEM}`, 'TEXTAREA Value of client_key', PEM.length + 1]);
    expect(environments.active()!.variables.client_key, 'nothing set while the field changed').to.equal(undefined);
    await pressWith('Control', 'Enter');
    await el.updateComplete;
    expect(environments.active()!.variables.client_key).to.equal(`x${PEM}`);
  });
});

describe('<env-picker> table of variables', () => {
  it('makes each variable’s name the header of its row, drawn as before', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    await expect(el).to.be.accessible();
    // The snapshot lists only focusable nodes and leaves: the cells are made focusable to be listed.
    for (const cell of el.shadowRoot!.querySelectorAll('tbody th, tbody td')) cell.setAttribute('tabindex', '-1');
    const cells = (await axNodes()).filter((node) => node.role === 'rowheader' || node.role === 'cell').map((node) => `${node.role} ${node.name}`);
    expect(cells).to.deep.equal(['rowheader base_url', 'cell http://localhost:3000 Edit the value of base_url', 'rowheader api_token', 'cell hidden value Show the value of api_token Edit the value of api_token']);
    const [header, name, value] = [$(el, 'thead th')!, $(el, 'tbody th')!, $(el, 'tbody td')!].map((cell) => getComputedStyle(cell));
    expect([name.fontWeight, name.fontFamily, name.textAlign], 'a plain cell in the mono font, as the value').to.deep.equal([value.fontWeight, value.fontFamily, 'start']);
    expect(name.color, 'not muted as the column headers').not.to.equal(header.color);
    // The row being edited too.
    editButton(el, 'base_url').click();
    await el.updateComplete;
    expect($(el, 'tbody tr th[scope="row"]')?.textContent).to.equal('base_url');
  });
});
