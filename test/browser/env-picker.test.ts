import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import type { TicEnvironmentChangeEvent } from '../../src/events/index.js';

const manager = () =>
  new EnvironmentManager(
    { name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } },
    { name: 'Production', variables: { base_url: 'https://api.example', password: 'hunter2' } },
  );
const select = (el: EnvPicker) => el.shadowRoot!.querySelector('select')!;
const values = (el: EnvPicker) => [...el.shadowRoot!.querySelectorAll('td.value .text')].map((cell) => cell.textContent);

describe('<env-picker>', () => {
  it('lists the environments with the active one selected, and its variables', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()}></env-picker>`);
    expect([...select(el).options].map((o) => o.value)).to.deep.equal(['Local', 'Production']);
    expect(select(el).value).to.equal('Local');
    expect([...el.shadowRoot!.querySelectorAll('td.name')].map((c) => c.textContent)).to.deep.equal(['base_url', 'api_token']);
  });

  it('is accessible', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()} .missing=${['id']}></env-picker>`);
    await expect(el).to.be.accessible();
  });

  it('switches the active environment when the user picks one, by keyboard too', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    select(el).focus();
    const changed = oneEvent<TicEnvironmentChangeEvent>(el, 'tic-environment-change');
    await sendKeys({ press: 'ArrowDown' });
    expect((await changed).name).to.equal('Production');
    expect(environments.active()!.name).to.equal('Production');
    await el.updateComplete;
    expect([...el.shadowRoot!.querySelectorAll('td.name')].map((c) => c.textContent)).to.deep.equal(['base_url', 'password']);
  });

  it('follows changes made elsewhere, without firing an event', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    let fired = false;
    el.addEventListener('tic-environment-change', () => (fired = true));
    environments.setActive('Production');
    await el.updateComplete;
    expect(select(el).value).to.equal('Production');
    expect(fired).to.equal(false);
  });

  it('stays in step with another picker of the same environments after the user has used both', async () => {
    const environments = manager();
    const container = await fixture<HTMLDivElement>(html`<div><env-picker .manager=${environments}></env-picker><env-picker .manager=${environments}></env-picker></div>`);
    const [first, second] = [...container.querySelectorAll('env-picker')] as [EnvPicker, EnvPicker];
    const pick = async (el: EnvPicker, key: string) => {
      select(el).focus();
      await sendKeys({ press: key });
      await Promise.all([first.updateComplete, second.updateComplete]);
    };
    await pick(first, 'ArrowDown');
    await pick(first, 'ArrowUp');
    await pick(second, 'ArrowDown');
    expect([select(first).value, select(second).value, environments.active()!.name]).to.deep.equal(['Production', 'Production', 'Production']);
    environments.setActive('Local');
    await Promise.all([first.updateComplete, second.updateComplete]);
    expect([select(first).value, select(second).value]).to.deep.equal(['Local', 'Local']);
  });

  it('masks values of secret-looking names until revealed', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()}></env-picker>`);
    expect(values(el)).to.deep.equal(['http://localhost:3000', '••••••••']);
    expect(el.shadowRoot!.textContent).not.to.contain('tok-123');
    const reveal = el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button')!;
    expect(reveal.getAttribute('aria-pressed')).to.equal('false');
    reveal.click();
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['http://localhost:3000', 'tok-123']);
    expect(reveal.getAttribute('aria-pressed')).to.equal('true');
  });

  it('masks values under any secret-looking name, well-known credentials under any name, and a password in a URL', async () => {
    const variables = {
      base_url: 'https://user:hunter2@api.example.com/v1',
      plain_url: 'https://api.example.com/v1',
      stripe_key: 'sk_live_51HxYzAbCdEfGhIjKlMnOp',
      bearer: 'abc',
      aws_access_key_id: 'AKIAIOSFODNN7EXAMPLE',
      gh_pat: 'abc',
      jwt: 'abc',
      db_pass: 'p@ss',
      clientSecret: 'abc',
      privateKey: 'abc',
      note: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123',
      deploy: 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
      ci: 'glpat-abcdefghij0123456789',
      aws: 'AKIAIOSFODNN7EXAMPLE',
      slack: 'xoxb-1234-5678-abcdef',
      stripe: 'sk_test_abcdef',
      path: '/pets',
      keyword: 'dogs',
      pet_id: '7',
    };
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'prod', variables })}></env-picker>`);
    const M = '••••••••';
    expect(values(el)).to.deep.equal([`https://user:${M}@api.example.com/v1`, 'https://api.example.com/v1', ...Array(14).fill(M), '/pets', 'dogs', '7']);
    expect(el.shadowRoot!.querySelectorAll('td.value button')).to.have.length(15);
    el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button')!.click();
    await el.updateComplete;
    expect(values(el)[0]).to.equal('https://user:hunter2@api.example.com/v1');
  });

  it('names the variables the request lacks', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()} .missing=${['id', 'tenant']}></env-picker>`);
    expect(el.shadowRoot!.querySelector('[part="missing"]')!.textContent!.replace(/\s+/g, ' ')).to.contain('uses {{id}}, {{tenant}}, which “Local” does not define');
  });

  it('says so when there are no environments', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager()}></env-picker>`);
    expect(el.shadowRoot!.textContent).to.contain('No environments are configured.');
  });

  it('renders hostile names and values as text', async () => {
    const hostile = new EnvironmentManager({ name: HOSTILE, variables: { note: HOSTILE } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${hostile} .missing=${[HOSTILE]}></env-picker>`);
    expect(values(el)).to.deep.equal([HOSTILE]);
    expect(el.shadowRoot!.querySelector('img, script, a')).to.equal(null);
    await expectNothingRan();
  });
});
