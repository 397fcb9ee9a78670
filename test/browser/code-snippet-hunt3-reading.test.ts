// <code-snippet> as a screen reader and a keyboard user meet it: masked secrets in the code, focus when a control goes.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/code-snippet/code-snippet.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import { axNodes } from './support/accessibility-tree.js';

const SECRET = 'sk_live_51HxYzAbCdEfGh';
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')?.textContent ?? '';
const copyButton = (el: CodeSnippet) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
const panel = (el: CodeSnippet) => el.shadowRoot!.querySelector<HTMLElement>('[role="tabpanel"]')!;
/** What assistive technology is given for the page's text: the text, and an image's name in brackets (Chromium's role "image"). */
const heard = async () =>
  (await axNodes())
    .filter((node) => node.role === 'image' || node.role === 'StaticText')
    .map((node) => (node.role === 'image' ? `[${node.name}]` : node.name))
    .join('');

describe('<code-snippet> read aloud, hunt 3', () => {
  it('gives screen readers "hidden value" for a masked secret, not "bullet bullet…", while showing and copying as before', async () => {
    const el = await fixture<CodeSnippet>(
      html`<code-snippet url="https://api.example/pets" .headers=${{ Authorization: `Bearer ${SECRET}`, 'X-Api-Key': 'team-key-1234' }} .environments=${new EnvironmentManager()}></code-snippet>`,
    );
    expect(code(el), 'shown as the picker shows it').to.equal('curl -X GET https://api.example/pets \\\n  -H "Authorization: ••••••••" \\\n  -H "X-Api-Key: ••••••••"');
    const text = await heard();
    expect(text).to.contain('"Authorization: [hidden value]"').and.to.contain('"X-Api-Key: [hidden value]"');
    expect(text, 'no bullets read out').to.not.contain('•');
    await expect(el).to.be.accessible();
    // Each language's highlighting keeps a mask in one string token, so it is named in every one.
    for (const tab of [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')].slice(1)) {
      tab.click();
      await el.updateComplete;
      const heardThere = await heard();
      expect([heardThere.match(/\[hidden value\]/g)?.length, heardThere.includes('•')], tab.textContent!.trim()).to.deep.equal([2, false]);
    }
    const copied = new Promise<string>((resolve) => el.addEventListener('tic-copy', (event) => resolve(event.text), { once: true }));
    copyButton(el).click();
    expect(await copied).to.contain(`Bearer ${SECRET}`).and.to.contain('team-key-1234');
  });

  it('names the masks in a snippet too large to highlight too', async () => {
    const body = 'x'.repeat(40_000);
    const el = await fixture<CodeSnippet>(
      html`<code-snippet method="POST" url="https://api.example/pets" .headers=${{ Authorization: `Bearer ${SECRET}` }} body=${body} .environments=${new EnvironmentManager()}></code-snippet>`,
    );
    // Lengths and booleans compared: a failure message quoting 40 KB helps no one.
    expect([code(el).length > 40_000, code(el).includes('-H "Authorization: ••••••••"')], 'shown as plain text, masked').to.deep.equal([true, true]);
    const text = await heard();
    expect([text.includes('"Authorization: [hidden value]"'), text.includes('•')], 'named, no bullets read out').to.deep.equal([true, false]);
  });

  it('does not call bullets the request holds itself a hidden value', async () => {
    const el = await fixture<CodeSnippet>(
      html`<code-snippet method="POST" url="https://api.example/pets" .headers=${{ Authorization: `Bearer ${SECRET}` }} body="PIN: ••••••••" .environments=${new EnvironmentManager()}></code-snippet>`,
    );
    expect(code(el)).to.contain("-d 'PIN: ••••••••'");
    expect(await heard()).to.not.contain('[hidden value]');
  });

  it('hands focus to the code panel, which says why, when the Copy button it was on is disabled as the request can no longer be written', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    copyButton(el).focus();
    el.url = 'api.example/pets';
    await el.updateComplete;
    expect(copyButton(el).disabled).to.equal(true);
    expect(el.shadowRoot!.activeElement, 'not lost to <body>').to.equal(panel(el));
    // Chromium moves focus off a disabled button at its next rendering, not at once.
    await new Promise(requestAnimationFrame);
    await new Promise(requestAnimationFrame);
    expect(el.shadowRoot!.activeElement, 'still there a frame later').to.equal(panel(el));
    expect(panel(el).textContent).to.contain('No snippet for this request: Invalid request.url');
    // Tab goes on from there, as from the panel.
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ up: 'Shift' });
    expect(el.shadowRoot!.activeElement?.getAttribute('role')).to.equal('tab');
  });

  it('hands focus to the code panel when the Show values box it was on goes, as no environment is active any more', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
    const el = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets" .environments=${environments}></code-snippet>`);
    el.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.focus();
    el.environments = new EnvironmentManager();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('input[type="checkbox"]')).to.equal(null);
    expect(el.shadowRoot!.activeElement).to.equal(panel(el));
  });

  it('leaves focus where it is when the request changes under a Copy button that stays enabled', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    copyButton(el).focus();
    el.url = 'https://api.example/owners';
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal(copyButton(el));
  });
});
