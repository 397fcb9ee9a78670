import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/env-picker/env-picker.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import '../../src/components/try-it-console/try-it-console.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import type { TicEnvironmentChangeEvent, TicVariableChangeEvent } from '../../src/events/index.js';

const manager = () =>
  new EnvironmentManager(
    { name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } },
    { name: 'Production', variables: { base_url: 'https://api.example', password: 'hunter2' } },
  );
const select = (el: EnvPicker) => el.shadowRoot!.querySelector('select')!;
/** What has focus, by tag and value: a failed comparison of elements would make the runner serialise them. */
const focused = (el: EnvPicker) => (document.activeElement === el ? `${el.shadowRoot!.activeElement?.tagName} ${(el.shadowRoot!.activeElement as HTMLSelectElement | null)?.value}` : `${document.activeElement?.tagName}`);
const values = (el: EnvPicker) => [...el.shadowRoot!.querySelectorAll('td.value .text')].map((cell) => cell.textContent);

describe('<env-picker>', () => {
  it('lists the environments with the active one selected, and its variables', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()}></env-picker>`);
    expect([...select(el).options].map((o) => o.value)).to.deep.equal(['Local', 'Production']);
    expect(select(el).value).to.equal('Local');
    expect([...el.shadowRoot!.querySelectorAll('th.name')].map((c) => c.textContent)).to.deep.equal(['base_url', 'api_token']);
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
    expect([...el.shadowRoot!.querySelectorAll('th.name')].map((c) => c.textContent)).to.deep.equal(['base_url', 'password']);
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

  it('shows the manager as it is now when added back, after changes made while it was out of the page', async () => {
    // As a framework's keep-alive tab holds it while another picker of the same manager switches environments.
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const parent = el.parentElement!;
    el.remove();
    environments.setActive('Production');
    environments.add({ name: 'Staging', variables: { base_url: 'https://staging.example' } });
    parent.append(el);
    await el.updateComplete;
    expect(select(el).value).to.equal('Production');
    expect([...select(el).options].map((o) => o.value)).to.deep.equal(['Local', 'Production', 'Staging']);
    expect(values(el)[0]).to.equal('https://api.example');
    // Still listening: a later change shows too.
    environments.setActive('Staging');
    await el.updateComplete;
    expect(select(el).value).to.equal('Staging');
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
    const reveal = el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!;
    // A toggle button: its name and text stay, aria-pressed says whether the value is shown.
    const toggle = () => [reveal.getAttribute('aria-label'), reveal.textContent!.trim(), reveal.getAttribute('aria-pressed')];
    expect(toggle()).to.deep.equal(['Show the value of api_token', 'Show', 'false']);
    reveal.click();
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['http://localhost:3000', 'tok-123']);
    expect(toggle()).to.deep.equal(['Show the value of api_token', 'Show', 'true']);
    await expect(el).to.be.accessible();
    reveal.click();
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['http://localhost:3000', '••••••••']);
    expect(toggle()).to.deep.equal(['Show the value of api_token', 'Show', 'false']);
  });

  it('masks revealed values again when the environment or the manager changes, whatever changed it', async () => {
    const environments = new EnvironmentManager(
      { name: 'Sandbox', variables: { token: 'sandbox-throwaway' } },
      { name: 'Production', variables: { token: 'PROD-SECRET' } },
    );
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const reveal = async () => {
      el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!.click();
      await el.updateComplete;
    };
    const afterwards = async (change: () => void) => {
      change();
      await el.updateComplete;
      return [...values(el), el.shadowRoot!.querySelector('td.value button[aria-pressed]')!.getAttribute('aria-pressed')];
    };
    await reveal();
    expect(values(el)).to.deep.equal(['sandbox-throwaway']);
    expect(await afterwards(() => environments.setActive('Production')), 'switched by another element or the page').to.deep.equal(['••••••••', 'false']);
    expect(await afterwards(() => environments.setActive('Sandbox')), 'and back').to.deep.equal(['••••••••', 'false']);
    await reveal();
    expect(await afterwards(() => environments.add({ name: 'Sandbox', variables: { token: 'ROTATED-SECRET' } })), 'its value replaced').to.deep.equal(['••••••••', 'false']);
    await reveal();
    expect(values(el)).to.deep.equal(['ROTATED-SECRET']);
    const replacement = new EnvironmentManager({ name: 'Sandbox', variables: { token: 'NEW-MANAGER-SECRET' } });
    expect(await afterwards(() => (el.manager = replacement)), 'another manager, with an environment of the same name').to.deep.equal(['••••••••', 'false']);
  });

  it('masks revealed values again inside a console given a new configuration', async () => {
    const configured = (token: string) => ({ history: { enabled: false }, environments: [{ name: 'Production', variables: { token } }] });
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${configured('demo-token')}></try-it-console>`);
    const picker = () => el.shadowRoot!.querySelector('env-picker')!;
    picker().shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!.click();
    await picker().updateComplete;
    expect(values(picker())).to.deep.equal(['demo-token']);
    // A site signing its reader in, and passing their own key.
    el.config = configured('sk_live_REAL_USER_KEY');
    await el.updateComplete;
    await picker().updateComplete;
    expect(values(picker())).to.deep.equal(['••••••••']);
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
    expect(el.shadowRoot!.querySelectorAll('td.value button[aria-pressed]')).to.have.length(15);
    el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!.click();
    await el.updateComplete;
    expect(values(el)[0]).to.equal('https://user:hunter2@api.example.com/v1');
  });

  it('masks only the credentials in a URL, wherever the URL starts, and leaves the rest readable', async () => {
    const variables = {
      database: 'postgres://admin:p@ssw0rd@db.internal/app',
      mirror: 'https://mytokenvalue123@git.example.com/repo.git',
      jdbc: ' jdbc:postgresql://app:pw@db.internal/app',
      search: 'https://api.example.com/v1/search?q=dogs&api_key=SECRET',
    };
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'prod', variables })}></env-picker>`);
    const M = '••••••••';
    expect(values(el)).to.deep.equal([
      `postgres://admin:${M}@db.internal/app`,
      `https://${M}@git.example.com/repo.git`,
      ` jdbc:postgresql://app:${M}@db.internal/app`,
      `https://api.example.com/v1/search?q=dogs&api_key=${M}`,
    ]);
    expect(el.shadowRoot!.querySelectorAll('td.value button[aria-pressed]')).to.have.length(4);
  });

  it('masks the credential parameters that history redacts too: refresh, id, private and other tokens, signatures', async () => {
    const variables = {
      callback: 'https://app.example/cb#refresh_token=8xLOxBtZp8&token_type=bearer',
      gitlab: 'https://gitlab.example/api/v4/projects?private_token=abc123def456',
      gcs: 'https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=1a2b3c4d5e',
      s3: 'https://b.s3.amazonaws.com/o?X-Amz-Security-Token=FwoGZXIv&X-Amz-Signature=fe5f80f7',
      login: 'https://api.example/v1?auth_token=s3cr3tvalue',
      idp: 'https://idp.example/cb#id_token=opaqueIdTok&state=1',
      apitok: 'https://api.example/v1?api_token=s3cr3tvalue&page=2',
    };
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'prod', variables })}></env-picker>`);
    const M = '••••••••';
    expect(values(el)).to.deep.equal([
      `https://app.example/cb#refresh_token=${M}&token_type=bearer`,
      `https://gitlab.example/api/v4/projects?private_token=${M}`,
      `https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=${M}`,
      `https://b.s3.amazonaws.com/o?X-Amz-Security-Token=${M}&X-Amz-Signature=${M}`,
      `https://api.example/v1?auth_token=${M}`,
      `https://idp.example/cb#id_token=${M}&state=1`,
      `https://api.example/v1?api_token=${M}&page=2`,
    ]);
  });

  it('masks secret names however they are spelt and well-known keys, but not an author', async () => {
    const variables = {
      passcode: 'abc',
      pass1: 'abc',
      key2: 'abc',
      user_pw: 'abc',
      creds: 'abc',
      hmac: 'abc',
      totp: 'abc',
      note: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
      openai: `sk-proj-${'Ab1_-'.repeat(30)}`,
      google: `AIza${'Sy-_0'.repeat(7)}`,
      webhook: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      npm: `npm_${'a1B2'.repeat(9)}`,
      author: 'Ada',
      authority: 'https://login.example.com',
    };
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'prod', variables })}></env-picker>`);
    expect(values(el)).to.deep.equal([...Array(12).fill('••••••••'), 'Ada', 'https://login.example.com']);
  });

  it('masks a value again when it is replaced by a secret under the same name, re-rendered or not', async () => {
    const environments = new EnvironmentManager({ name: 'Sandbox', variables: { note: 'plain words' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    // The console sets `missing` on every keystroke: a render with nothing else changed.
    el.missing = ['id'];
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['plain words']);
    environments.add({ name: 'Sandbox', variables: { note: 'https://user:hunter2@api.example.com' } });
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['https://user:••••••••@api.example.com']);
    el.missing = [];
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['https://user:••••••••@api.example.com']);
    environments.add({ name: 'Sandbox', variables: { note: 'plain words' } });
    await el.updateComplete;
    expect(values(el)).to.deep.equal(['plain words']);
  });

  it('names the variables the request lacks', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()} .missing=${['id', 'tenant']}></env-picker>`);
    expect(el.shadowRoot!.querySelector('[part="missing"]')!.textContent!.replace(/\s+/g, ' ')).to.contain('uses {{id}}, {{tenant}}, which “Local” does not define');
  });

  it('lets the reader set a value with Edit: Enter keeps it, in the active environment, and says so with an event', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const editButton = (name: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(`button.edit[data-name="${name}"]`)!;
    expect(editButton('base_url').getAttribute('aria-label')).to.equal('Edit the value of base_url');
    editButton('base_url').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const field = el.shadowRoot!.querySelector<HTMLInputElement>('input.value-input')!;
    expect([el.shadowRoot!.activeElement === field, field.type, field.value, field.selectionStart, field.selectionEnd]).to.deep.equal([true, 'text', 'http://localhost:3000', 0, 21]);
    await expect(el).to.be.accessible();
    const changed = oneEvent<TicVariableChangeEvent>(el, 'tic-variable-change');
    await sendKeys({ type: 'http://127.0.0.1:8080' });
    await sendKeys({ press: 'Enter' });
    expect([(await changed).environment, (await changed).name]).to.deep.equal(['Local', 'base_url']);
    await el.updateComplete;
    expect(environments.active()!.variables).to.deep.equal({ base_url: 'http://127.0.0.1:8080', api_token: 'tok-123' });
    expect(values(el)).to.deep.equal(['http://127.0.0.1:8080', '••••••••']);
    expect(el.shadowRoot!.activeElement, 'back on its Edit button').to.equal(editButton('base_url'));
    // The other environment is not touched.
    expect(environments.list()[1]!.variables.base_url).to.equal('https://api.example');
  });

  it('leaves the value as it was on Escape, and types a secret unseen, masked again once set', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    let events = 0;
    el.addEventListener('tic-variable-change', () => (events += 1));
    el.shadowRoot!.querySelector<HTMLButtonElement>('button.edit[data-name="base_url"]')!.click();
    await el.updateComplete;
    await sendKeys({ type: 'typed by mistake' });
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    expect([environments.active()!.variables.base_url, events]).to.deep.equal(['http://localhost:3000', 0]);
    expect(el.shadowRoot!.activeElement?.getAttribute('data-name')).to.equal('base_url');

    el.shadowRoot!.querySelector<HTMLButtonElement>('button.edit[data-name="api_token"]')!.click();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector<HTMLInputElement>('input.value-input')!.type, 'a secret is typed unseen').to.equal('password');
    await sendKeys({ type: 'sk_live_mine' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([environments.active()!.variables.api_token, events]).to.deep.equal(['sk_live_mine', 1]);
    expect(values(el)[1]).to.equal('••••••••');
    expect(el.shadowRoot!.textContent).not.to.contain('sk_live_mine');
  });

  it('offers Set for each variable the request lacks, and adds it to the active environment', async () => {
    const environments = manager();
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments} .missing=${['pet_id']}></env-picker>`);
    const set = el.shadowRoot!.querySelector<HTMLButtonElement>('.set-missing button')!;
    expect(set.textContent).to.equal('Set pet_id');
    set.click();
    await el.updateComplete;
    const field = el.shadowRoot!.querySelector<HTMLInputElement>('input.value-input')!;
    expect([el.shadowRoot!.activeElement === field, field.getAttribute('aria-label'), field.value]).to.deep.equal([true, 'Value of pet_id', '']);
    await sendKeys({ type: '42' });
    // Leaving the field keeps what was typed, as Enter does. (Not by Tab: from the last field it would take focus out of
    // the page, and later test pages could not use the clipboard.)
    el.shadowRoot!.querySelector('select')!.focus();
    await el.updateComplete;
    expect(environments.active()!.variables.pet_id).to.equal('42');
  });

  it('offers neither Edit nor Set when readonly', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker readonly .manager=${manager()} .missing=${['pet_id']}></env-picker>`);
    expect(el.shadowRoot!.querySelectorAll('button.edit, .set-missing button')).to.have.length(0);
    expect(values(el)).to.deep.equal(['http://localhost:3000', '••••••••']);
  });

  it('says which variables refer back to themselves, apart from the undefined ones', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()} .missing=${['id']} .cyclic=${['a', 'b']}></env-picker>`);
    expect(el.shadowRoot!.querySelector('[part="missing"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'This request uses {{id}}, which “Local” does not define. In “Local”, {{a}}, {{b}} refer back to themselves through their values, or nest more than 10 levels deep; change those values to end in plain text.',
    );
    await expect(el).to.be.accessible();
  });

  it('takes null or undefined lists of variables from a framework as none', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager()} .missing=${null} .cyclic=${undefined}></env-picker>`);
    expect(el.shadowRoot!.querySelector('[part="missing"]')).to.equal(null);
    expect(el.shadowRoot!.querySelector('select')).not.to.equal(null);
  });

  it('says so when there are no environments', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager()}></env-picker>`);
    expect(el.shadowRoot!.textContent).to.contain('No environments are configured.');
  });

  it('explains a wrong kind of manager in place, and works once given an EnvironmentManager', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker></env-picker>`);
    // A likely slip: the list of environments, or one of them, where the manager goes.
    for (const wrong of [[{ name: 'prod', variables: { base_url: 'https://api.example' } }], { name: 'prod', variables: {} }]) {
      (el as unknown as { manager: unknown }).manager = wrong;
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.match(/^The manager property must be an EnvironmentManager \(got an? (array of 1|object)\)\.$/);
    }
    await expect(el).to.be.accessible();
    el.manager = manager();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[role="alert"]')).to.equal(null);
    expect(select(el).value).to.equal('Local');
  });

  it('renders hostile names and values as text', async () => {
    const hostile = new EnvironmentManager({ name: HOSTILE, variables: { note: HOSTILE } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${hostile} .missing=${[HOSTILE]}></env-picker>`);
    expect(values(el)).to.deep.equal([HOSTILE]);
    expect(el.shadowRoot!.querySelector('img, script, a')).to.equal(null);
    await expectNothingRan();
  });

  it('keeps focus in the element when the Show button that had it goes, whoever switched the environment', async () => {
    const environments = new EnvironmentManager(
      { name: 'Production', variables: { base_url: 'https://api.example', token: 'PROD-SECRET' } },
      { name: 'Sandbox', variables: { base_url: 'https://sandbox.example' } },
    );
    const page = await fixture(html`<div><env-picker .manager=${environments}></env-picker><env-picker .manager=${environments}></env-picker></div>`);
    const [el, other] = [...page.querySelectorAll('env-picker')] as [EnvPicker, EnvPicker];
    el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!.focus();
    // Another picker of the same environments, as the console's and a page's own can be.
    select(other).value = 'Sandbox';
    select(other).dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(focused(el), 'the select, saying which environment is active now').to.equal('SELECT Sandbox');
    expect(select(el).value).to.equal('Sandbox');
    environments.setActive('Production');
    await el.updateComplete;
    el.shadowRoot!.querySelector<HTMLButtonElement>('td.value button[aria-pressed]')!.focus();
    environments.add({ name: 'Production', variables: { base_url: 'https://api.example' } });
    await el.updateComplete;
    expect(focused(el), 'its variable removed').to.equal('SELECT Production');
  });

  it('on a right-to-left page, aligns the table as the page and shows each value in its own direction', async () => {
    const variables = { base_url: 'https://api.example/pets/', greeting: 'שלום עולם' };
    const page = await fixture(html`<div dir="rtl"><env-picker .manager=${new EnvironmentManager({ name: 'prod', variables })}></env-picker></div>`);
    const el = page.querySelector('env-picker')!;
    const right = (node: Node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect().right;
    };
    const [heading] = el.shadowRoot!.querySelectorAll('th');
    expect(right(heading!), 'the heading at the start of its cell').to.be.closeTo(heading!.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(heading!).paddingRight), 1);
    // "https://api.example/pets/" drew as "/https://api.example/pets": the slash at its end went to the left of the line.
    const url = document.createTreeWalker(el.shadowRoot!.querySelector('td.value .text')!, NodeFilter.SHOW_TEXT).nextNode()!;
    const range = document.createRange();
    const lefts = [0, 1, url.textContent!.length - 1].map((index) => {
      range.setStart(url, index);
      range.setEnd(url, index + 1);
      return range.getBoundingClientRect().left;
    });
    expect(lefts[0]! < lefts[1]! && lefts[1]! < lefts[2]!, 'the URL left to right, its last slash last').to.equal(true);
    await expect(el).to.be.accessible();
  });
});
