// A hunt for defects in <env-picker> as a demanding user of API consoles would meet them: each test failed on the code
// as it was before the fix it comes with.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const editButton = (el: EnvPicker, name: string) => $<HTMLButtonElement>(el, `button.edit[data-name="${name}"]`);
/** What has focus in `el`, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: EnvPicker) => {
  const active = el.shadowRoot!.activeElement;
  return active ? `${active.tagName} ${active.getAttribute('aria-label') ?? active.textContent?.trim()}` : `(not in the element: ${document.activeElement?.tagName})`;
};

describe('<env-picker> hunt', () => {
  it('keeps the field and what is typed in it when the variable being edited is removed or renamed elsewhere', async () => {
    const environments = new EnvironmentManager(
      { name: 'Production', variables: { apiKey: '', base_url: 'https://api.example' } },
      { name: 'Sandbox', variables: { apiKey: '', base_url: 'https://sandbox.example' } },
    );
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'apiKey').click();
    await el.updateComplete;
    await sendKeys({ type: 'sk_live_ab' });
    // The page renames the variable as the reader types (its row moves down as one being set): focus went to the select,
    // half a key was set, and the next key typed, "s", picked Sandbox by its first letter.
    environments.add({ name: 'Production', variables: { base_url: 'https://api.example', api_key: '' } });
    await el.updateComplete;
    expect(focusedText(el)).to.equal('INPUT Value of apiKey');
    await sendKeys({ type: 's9' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(environments.active()).to.deep.equal({ name: 'Production', variables: { base_url: 'https://api.example', api_key: '', apiKey: 'sk_live_abs9' } });
    expect(focusedText(el)).to.equal('BUTTON Edit the value of apiKey');
  });

  it('keeps focus on a Show button whose row moves as the variables are put in another order', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { token: 'tok-1', base_url: 'https://api.example' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    $<HTMLButtonElement>(el, 'button[aria-pressed]').focus();
    environments.add({ name: 'Production', variables: { base_url: 'https://api.example', token: 'tok-1' } });
    await el.updateComplete;
    expect(focusedText(el)).to.equal('BUTTON Show the value of token');
  });

  it('closes an open field without setting it when made readonly meanwhile, keeping focus in the element', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { api_key: 'from-the-config' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    editButton(el, 'api_key').click();
    await el.updateComplete;
    await sendKeys({ type: 'sk_live_mine' });
    // The page makes the values the configuration's alone (the reader signed in, and the key comes from the account).
    el.readonly = true;
    await el.updateComplete;
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([el.shadowRoot!.querySelector('.value-input'), environments.active()!.variables.api_key, focusedText(el)]).to.deep.equal([null, 'from-the-config', 'H2 Environment']);
  });
});
