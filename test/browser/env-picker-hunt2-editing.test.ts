// Hunt, round 2, <env-picker>: setting a value by keyboard, as a reader pasting their key does.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';

/** Pastes `text` where focus is, with the keyboard, through the real clipboard. */
async function paste(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  await sendKeys({ down: 'Control' });
  await sendKeys({ press: 'KeyV' });
  await sendKeys({ up: 'Control' });
}

describe('<env-picker>: pasting a key', () => {
  it('keeps a one-line field for a key copied with its line break at the end, and Enter sets the key alone', async () => {
    // As a line copied from a terminal, or a key selected by triple-click on a page.
    const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${['api_token']}></env-picker>`);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.set')!.click();
    await el.updateComplete;
    await paste('sk_live_abc\r\n');
    await el.updateComplete;
    // It became a multi-line field, where Enter added a line: the key was set as "sk_live_abc\n\n".
    expect(el.shadowRoot!.querySelector('.value-input')!.localName).to.equal('input');
    await sendKeys({ press: 'Enter' });
    expect(environments.active()!.variables.api_token).to.equal('sk_live_abc');
  });

  it('still moves a paste with line breaks inside it (a PEM key) to a multi-line field', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { private_key: '' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.edit')!.click();
    await el.updateComplete;
    await paste('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.value-input')!.localName).to.equal('textarea');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    expect(environments.active()!.variables.private_key).to.equal('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
  });
});
