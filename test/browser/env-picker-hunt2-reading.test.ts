// Hunt, round 2, <env-picker>: values a reader could not see or hear.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';

const values = (el: EnvPicker) => [...el.shadowRoot!.querySelectorAll('td.value .text')].map((cell) => cell.textContent);

describe('<env-picker>: values shown', () => {
  it('says a value of white space only is one, as it says "(empty)", shown or once Show is pressed', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { tenant: '   ', prefix: '\t', empty: '', token: ' ' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[aria-pressed]')!.click();
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['(white space only)', '(white space only)', '(empty)', '(white space only)']);
  });
});
