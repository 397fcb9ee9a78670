// Review of <env-picker> as docs readers and docs teams use it, alone and in <try-it-console>: each test failed on the
// code as it was before the fix it comes with.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager } from '../../src/core/index.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const field = (el: EnvPicker) => el.shadowRoot!.querySelector<HTMLInputElement>('input.value-input');
const editButton = (el: EnvPicker, name: string) => $<HTMLButtonElement>(el, `button.edit[data-name="${name}"]`);
/** What has focus in `el`, as text: a failed comparison of elements would make the runner serialise them. */
const focusedText = (el: EnvPicker) => {
  const active = el.shadowRoot!.activeElement;
  return active ? `${active.tagName} ${active.getAttribute('aria-label') ?? active.textContent?.trim()}` : `(not in the element: ${document.activeElement?.tagName})`;
};

/**
 * Pairs of buttons too small and too close for WCAG 2.2's target size (2.5.8, AA): a button under 24 by 24 px passes
 * when a 24 px circle on its centre meets no other button, nor the circle of another small one.
 */
function targetsTooClose(root: ShadowRoot): string[] {
  const targets = [...root.querySelectorAll('button')].map((button) => ({ name: button.textContent!.trim(), box: button.getBoundingClientRect() }));
  const small = (box: DOMRect) => box.width < 24 || box.height < 24;
  const centre = (box: DOMRect) => [box.left + box.width / 2, box.top + box.height / 2] as const;
  const tooClose: string[] = [];
  for (const a of targets.filter((target) => small(target.box))) {
    const [x, y] = centre(a.box);
    for (const b of targets) {
      if (b === a) continue;
      const touches = Math.hypot(Math.max(b.box.left - x, 0, x - b.box.right), Math.max(b.box.top - y, 0, y - b.box.bottom)) < 12;
      const circlesMeet = small(b.box) && Math.hypot(x - centre(b.box)[0], y - centre(b.box)[1]) < 24;
      if (touches || circlesMeet) tooClose.push(`${a.name} / ${b.name}`);
    }
  }
  return tooClose;
}

describe('<env-picker> review', () => {
  it('shows an empty value as empty, not masked as if a key were set, and still takes a key typed into it unseen', async () => {
    // A docs team leaves api_key empty for the reader to set: eight dots said a key was there already.
    const environments = new EnvironmentManager({ name: 'Production', variables: { api_key: '', base_url: 'https://api.example' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const [key] = el.shadowRoot!.querySelectorAll('td.value');
    expect(key!.querySelector('.text')!.textContent!.trim()).to.equal('(empty)');
    expect(key!.querySelector('button[aria-pressed]'), 'nothing to show').to.equal(null);
    await expect(el).to.be.accessible();
    editButton(el, 'api_key').click();
    await el.updateComplete;
    expect(field(el)!.type, 'a key typed unseen').to.equal('password');
    await sendKeys({ type: 'sk_live_mine' });
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([environments.active()!.variables.api_key, $(el, 'td.value .text').textContent]).to.deep.equal(['sk_live_mine', '••••••••']);
  });

  it('leaves a value with line breaks (a PEM key) as it was when its field is left unchanged, and says nothing was set', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';
    const environments = new EnvironmentManager({ name: 'Production', variables: { client_cert: pem } });
    const page = await fixture<HTMLElement>(html`<div><env-picker .manager=${environments}></env-picker><input id="elsewhere" aria-label="Elsewhere" /></div>`);
    const el = page.querySelector('env-picker')!;
    let events = 0;
    el.addEventListener('tic-variable-change', () => (events += 1));
    editButton(el, 'client_cert').click();
    await el.updateComplete;
    // Ctrl+Enter ends the edit of a multi-line field (Enter starts a new line there).
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    await el.updateComplete;
    editButton(el, 'client_cert').click();
    await el.updateComplete;
    page.querySelector<HTMLInputElement>('#elsewhere')!.focus();
    await el.updateComplete;
    expect([environments.active()!.variables.client_cert, events]).to.deep.equal([pem, 0]);
  });

  it('does not put the value it started from back over one set elsewhere meanwhile when the field is left unchanged', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    let events = 0;
    el.addEventListener('tic-variable-change', () => (events += 1));
    editButton(el, 'base_url').click();
    await el.updateComplete;
    // Another picker, another console sharing the environments, or the page's code.
    environments.add({ name: 'Local', variables: { base_url: 'http://127.0.0.1:8080' } });
    await el.updateComplete;
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([environments.active()!.variables.base_url, events]).to.deep.equal(['http://127.0.0.1:8080', 0]);
    expect(focusedText(el)).to.equal('BUTTON Edit the value of base_url');
  });

  it('in a console, puts focus on the variable’s Edit button once Set gave it a value (it went to the select)', async () => {
    const config = { history: { enabled: false }, environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:9' } }] };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
    const picker = el.shadowRoot!.querySelector('env-picker')!;
    await picker.updateComplete;
    $<HTMLButtonElement>(picker, 'button.set[data-name="pet_id"]').focus();
    await sendKeys({ press: 'Enter' });
    await picker.updateComplete;
    await sendKeys({ type: '7' });
    await sendKeys({ press: 'Enter' });
    // The picker updates, then the console, which passes the new `missing`, then the picker again.
    for (let i = 0; i < 5; i += 1) await Promise.all([el.updateComplete, picker.updateComplete]);
    expect(el.engine!.environments.active()!.variables.pet_id).to.equal('7');
    expect(picker.shadowRoot!.querySelector('button.set'), 'no Set button left').to.equal(null);
    expect(focusedText(picker)).to.equal('BUTTON Edit the value of pet_id');
  });

  it('on a right-to-left page, draws the bar of its notices at the start of the line, as the page reads', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: {} });
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar"><env-picker .manager=${environments} .missing=${['pet_id']}></env-picker></div>`);
    const notice = getComputedStyle($(page.querySelector('env-picker')!, '.missing'));
    expect([notice.borderRightWidth, notice.borderLeftWidth]).to.deep.equal(['3px', '0px']);
  });

  it('says nothing before it is given a manager (not that no environments are configured)', async () => {
    // A framework sets properties after the element's first render.
    const el = await fixture<EnvPicker>(html`<env-picker></env-picker>`);
    expect(el.shadowRoot!.textContent!.trim()).to.equal('');
    el.manager = new EnvironmentManager({ name: 'Local', variables: {} });
    await el.updateComplete;
    expect($<HTMLSelectElement>(el, 'select').value).to.equal('Local');
    el.manager = undefined;
    await el.updateComplete;
    expect(el.shadowRoot!.textContent!.trim()).to.equal('');
  });

  it('gives its Set buttons room to be told apart when they wrap onto several lines (WCAG 2.2 target size)', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: 'http://localhost:3000', api_token: 'tok-123' } });
    const missing = ['pet_id', 'owner_id', 'tenant', 'region', 'store_id', 'order_id'];
    const el = await fixture<EnvPicker>(html`<env-picker style="width: 300px" .manager=${environments} .missing=${missing}></env-picker>`);
    const tops = new Set([...el.shadowRoot!.querySelectorAll('button.set')].map((button) => Math.round(button.getBoundingClientRect().top)));
    expect(tops.size, 'on several lines').to.be.above(1);
    expect(targetsTooClose(el.shadowRoot!)).to.deep.equal([]);
  });

  it('shows a value with line breaks on its lines, not run together on one', async () => {
    const environments = new EnvironmentManager({ name: 'Local', variables: { note: 'a\nb', single: 'a b' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    const [multi, single] = [...el.shadowRoot!.querySelectorAll<HTMLElement>('td.value .text')];
    const lines = (text: HTMLElement) => new Set([...text.getClientRects()].map((rect) => Math.round(rect.top))).size;
    expect([lines(multi!), lines(single!)]).to.deep.equal([2, 1]);
  });
});
