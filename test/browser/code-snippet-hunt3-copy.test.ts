// <code-snippet>'s Copy where the code shown is not the code that runs: secrets masked in the panel, values hidden.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/components/code-snippet/code-snippet.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import type { TicCopyEvent } from '../../src/events/index.js';

const SECRET = 'sk_live_51HxYzAbCdEfGh';
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')?.textContent ?? '';
const copyButton = (el: CodeSnippet) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
const shownLabel = (button: HTMLElement) => button.innerText.trim();
const status = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="status"]')!.textContent;

describe('<code-snippet> Copy, hunt 3', () => {
  it('copies a secret written out in a header as written, not as the bullets shown, when the values cannot be filled in', async () => {
    // Two uses of a 600 KB value grow the request past the 1 MiB a resolve may add: the placeholders are copied as written.
    const environments = new EnvironmentManager({ name: 'prod', variables: { big: 'a'.repeat(600_000) } });
    const el = await fixture<CodeSnippet>(
      html`<code-snippet url="https://api.example/{{big}}/{{big}}" .headers=${{ Authorization: `Bearer ${SECRET}` }} .environments=${environments}></code-snippet>`,
    );
    expect(code(el), 'masked in the panel').to.equal('curl -X GET \'https://api.example/{{big}}/{{big}}\' \\\n  -H "Authorization: ••••••••"');
    const copied = oneEvent(el, 'tic-copy') as Promise<TicCopyEvent>;
    copyButton(el).click();
    const expected = `curl -X GET 'https://api.example/{{big}}/{{big}}' \\\n  -H "Authorization: Bearer ${SECRET}"`;
    expect((await copied).text, 'a command that sends the key, not "••••••••"').to.equal(expected);
    expect(await navigator.clipboard.readText()).to.equal(expected);
    await waitUntil(
      () => status(el)?.startsWith('Copied the curl snippet, with its placeholders and the secrets hidden here (the values could not be filled in: No snippet for this request: '),
      'announced, saying the secrets are written out',
    );
    expect(shownLabel(copyButton(el)), 'seen as heard: the clipboard holds what the panel hides').to.equal('Copied with values');
    expect(code(el), 'the panel still masks it').to.not.contain(SECRET);
  });

  it('where Copy is refused and the code shown hides values, says to turn on Show values, with which Copy selects the code', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example', token: 'tok-123' } });
    const el = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets" .headers=${{ Authorization: 'Bearer {{token}}' }} .environments=${environments}></code-snippet>`);
    // As a frame whose page does not allow clipboard-write refuses both ways.
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    document.execCommand = () => false;
    try {
      getSelection()!.removeAllRanges();
      copyButton(el).click();
      await waitUntil(
        () => status(el) === 'Copy is blocked here, and the code shown hides values: turn on Show values, then Copy selects the code to copy with Ctrl+C (or Cmd+C).',
        'says what to do',
      );
      expect([shownLabel(copyButton(el)), getSelection()!.toString()], 'nothing selected: the placeholders do not run').to.deep.equal(['Copy blocked', '']);

      el.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
      await el.updateComplete;
      copyButton(el).click();
      await waitUntil(() => status(el) === 'Copy is blocked here: the code is selected, press Ctrl+C (or Cmd+C) to copy it.', 'then selects it');
      expect(getSelection()!.toString()).to.equal('curl -X GET https://api.example/pets \\\n  -H "Authorization: Bearer tok-123"');
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
      getSelection()!.removeAllRanges();
    }
  });

  it('says only that Copy is blocked where no Show values box is offered to reveal the code', async () => {
    // Environments, none active: a secret written out is masked, and there are no values to show.
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .headers=${{ Authorization: `Bearer ${SECRET}` }} .environments=${new EnvironmentManager()}></code-snippet>`);
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    document.execCommand = () => false;
    try {
      copyButton(el).click();
      await waitUntil(() => status(el) === 'Copy is blocked here.', 'announced');
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
    }
  });
});
