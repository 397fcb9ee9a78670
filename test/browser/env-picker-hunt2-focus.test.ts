// Hunt, round 2, <env-picker>: where focus goes when a field being edited closes by a change made elsewhere.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';

const manager = () =>
  new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } }, { name: 'Production', variables: { base_url: 'https://api.example' } });
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
/** What has focus, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: EnvPicker) => {
  const active = document.activeElement === el ? el.shadowRoot!.activeElement : document.activeElement;
  return active ? `${active.tagName} ${active.textContent?.trim()}` : 'nothing';
};
const status = (el: EnvPicker) => $(el, '[role="status"]').textContent?.trim();

describe('<env-picker>: a field closed by a change made elsewhere', () => {
  it('puts focus on the heading when another environment becomes active, so keys typed on pick none', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    $<HTMLButtonElement>(el, 'button.edit[data-name="base_url"]').click();
    await el.updateComplete;
    await sendKeys({ type: 'http://127.0.0.1:' });
    environments.setActive('Production'); // the page, or another picker
    await el.updateComplete;
    // The reader types on: on the select, where focus went, "l" picked Local.
    await sendKeys({ type: 'l8' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([environments.active()!.name, $<HTMLSelectElement>(el, 'select').value]).to.deep.equal(['Production', 'Production']);
    expect(focusedText(el), 'not the select').to.equal('H2 Environment');
    expect(environments.list().map((environment) => environment.variables.base_url)).to.deep.equal(['http://localhost:3000', 'https://api.example']);
    await new Promise((resolve) => setTimeout(resolve, 150)); // past the live region's pause before it speaks
    expect(status(el), 'screen readers are told why the field went').to.equal('base_url was not set: “Production” is active now.');
  });

  it('puts focus on the heading when made readonly while a field is edited', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    $<HTMLButtonElement>(el, 'button.edit[data-name="api_token"]').click();
    await el.updateComplete;
    await sendKeys({ type: 'sk_test_' });
    el.readonly = true;
    await el.updateComplete;
    await sendKeys({ type: 'pk' });
    expect([environments.active()!.name, environments.active()!.variables.api_token]).to.deep.equal(['Local', 'tok-123']);
    expect(focusedText(el)).to.equal('H2 Environment');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(status(el)).to.equal('api_token was not set: values are read-only now.');
  });

  it('is accessible with the heading focusable', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()}></env-picker>`);
    await expect(el).to.be.accessible();
  });
});
