// A second hunt for defects in <env-picker>: each test failed on the code as it was before the fix it comes with.
import { expect, fixture, html } from '@open-wc/testing';
import { a11ySnapshot, sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager, InvalidArgumentError } from '../../src/core/index.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const editButton = (el: EnvPicker, name: string) => $<HTMLButtonElement>(el, `button.edit[data-name="${name}"]`)!;
const field = (el: EnvPicker) => $<HTMLTextAreaElement>(el, 'textarea.value-input');
/** The line of the key a screen reader must never be given. */
const SECRET_LINE = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
const PEM = `-----BEGIN PRIVATE KEY-----\n${SECRET_LINE}\n-----END PRIVATE KEY-----`;
const NEW_PEM = '-----BEGIN PRIVATE KEY-----\nNEWKEYNEWKEY\n-----END PRIVATE KEY-----';

async function pressWith(modifier: string, key: string) {
  await sendKeys({ down: modifier });
  await sendKeys({ press: key });
  await sendKeys({ up: modifier });
}

/** Everything Chromium gives assistive technology for the page, values of fields included. */
const exposed = async () => JSON.stringify(await a11ySnapshot({}));

describe('<env-picker> hunt 2: a masked value with line breaks', () => {
  it('opens Edit empty, keeping the secret out of what screen readers get, says so, and sets what is pasted', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { client_key: PEM } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'client_key').click();
    await el.updateComplete;
    const textarea = field(el)!;
    // Hidden only by -webkit-text-security, the text area gave its whole value to the accessibility tree.
    expect(await exposed(), 'the key in the accessibility tree').not.to.include(SECRET_LINE);
    expect([textarea.value, getComputedStyle(textarea).getPropertyValue('-webkit-text-security'), el.shadowRoot!.activeElement === textarea]).to.deep.equal(['', 'disc', true]);
    const hint = el.shadowRoot!.getElementById(textarea.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).to.match(/^The current value stays hidden: what you type or paste replaces it; left empty, it is kept\. Ctrl\+Enter or ⌘\+Enter sets it/);
    expect(getComputedStyle(hint).display, 'a visible hint').not.to.equal('none');
    await sendKeys({ type: 'NEW' });
    await pressWith('Control', 'Enter');
    await el.updateComplete;
    expect(environments.active()!.variables.client_key).to.equal('NEW');
    expect($(el, 'td.value .text')!.textContent, 'masked again').to.equal('••••••••');
  });

  it('keeps the current value when the empty field is left by Escape, Ctrl+Enter or for elsewhere', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { client_key: PEM } });
    const page = await fixture<HTMLElement>(html`<div><env-picker .manager=${environments}></env-picker><input id="elsewhere" aria-label="Elsewhere" /></div>`);
    const el = page.querySelector('env-picker')!;
    let events = 0;
    el.addEventListener('tic-variable-change', () => (events += 1));
    for (const leave of [() => sendKeys({ press: 'Escape' }), () => pressWith('Control', 'Enter'), async () => page.querySelector<HTMLInputElement>('#elsewhere')!.focus()]) {
      editButton(el, 'client_key').click();
      await el.updateComplete;
      await leave();
      await el.updateComplete;
      expect([field(el), environments.active()!.variables.client_key, events]).to.deep.equal([null, PEM, 0]);
    }
  });

  it('edits a value shown with Show prefilled, as before', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { client_key: PEM } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    $<HTMLButtonElement>(el, 'button[aria-pressed]')!.click();
    await el.updateComplete;
    editButton(el, 'client_key').click();
    await el.updateComplete;
    expect(field(el)!.value).to.equal(PEM);
    expect(el.shadowRoot!.getElementById(field(el)!.getAttribute('aria-describedby')!)!.textContent).not.to.include('hidden');
  });

  it('keeps a key with line breaks pasted into the one-line Edit of a masked value, as it moves to the multi-line field', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { api_key: 'old-one-line-key' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'api_key').click();
    await el.updateComplete;
    const clipboard = new DataTransfer();
    clipboard.setData('text/plain', NEW_PEM);
    $<HTMLInputElement>(el, 'input.value-input')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true, composed: true }));
    await el.updateComplete;
    expect(field(el)?.value, 'the paste, in place of the value selected').to.equal(NEW_PEM);
    await pressWith('Control', 'Enter');
    await el.updateComplete;
    expect(environments.active()!.variables.api_key).to.equal(NEW_PEM);
  });
});

describe('<env-picker> hunt 2: Set and editVariable', () => {
  it('offers no Set for a dynamic-looking $ name it does not know, as the console does not', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: {} });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${['$randomEmail', 'pet_id']}></env-picker>`);
    const sets = [...el.shadowRoot!.querySelectorAll('button.set')].map((button) => button.textContent);
    expect(sets).to.deep.equal(['Set pet_id']);
    expect($(el, '.missing')!.textContent).to.include('{{$randomEmail}}');
  });

  it('refuses editVariable with a name no variable can have, saying what to pass', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { token: 'x' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const refusal = (name: unknown) => {
      try {
        el.editVariable(name as string);
      } catch (error) {
        return error instanceof InvalidArgumentError ? `${error.argument}: ${error.message}` : `not an InvalidArgumentError: ${String(error)}`;
      }
      return 'accepted';
    };
    expect(refusal('')).to.equal('name: Invalid name: pass the name of a variable, such as "api_key": a variable name must be non-empty and contain no braces, or no {{placeholder}} could refer to it (got "").');
    expect(refusal(undefined)).to.match(/^name: Invalid name: pass the name of a variable, such as "api_key"/);
    expect(refusal('{{token}}')).to.match(/^name: Invalid name: pass the name of a variable, such as "api_key"/);
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.value-input'), 'no field opened').to.equal(null);
    expect(refusal('token')).to.equal('accepted');
  });
});
