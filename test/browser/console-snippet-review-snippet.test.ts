// <code-snippet> as a demanding docs reader meets it (a review's findings; each test failed before its fix): Copy where
// the clipboard is refused while the code shown changes, and the languages a page offers changing under a large snippet.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/components/code-snippet/code-snippet.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { SnippetGenerator } from '../../src/core/index.js';

const tabs = (el: CodeSnippet) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
const selected = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="tab"][aria-selected="true"]')!.textContent!.trim();
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')?.textContent ?? '';
const copyButton = (el: CodeSnippet) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
const status = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="status"]')!.textContent;

/** A clipboard that refuses, as a frame whose page does not allow clipboard-write, answering when `answer()` is called. */
function refusingClipboard(): { answer(): void; asked(): boolean; restore(): void } {
  let answer: (() => void) | undefined;
  navigator.clipboard.writeText = () => new Promise<void>((_, reject) => (answer = () => reject(new DOMException('Write permission denied.', 'NotAllowedError'))));
  document.execCommand = () => false;
  return {
    answer: () => answer!(),
    asked: () => answer !== undefined,
    restore() {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
    },
  };
}

describe('<code-snippet> review: a docs reader’s view', () => {
  afterEach(() => getSelection()?.removeAllRanges());

  it('where Copy is refused, selects the code copied to copy by hand, never another language’s that took its place meanwhile', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" languages="curl python"></code-snippet>`);
    const clipboard = refusingClipboard();
    try {
      copyButton(el).click();
      await waitUntil(clipboard.asked, 'the clipboard asked');
      // The reader moves on to Python while the clipboard (a permission prompt) has not answered.
      tabs(el)[1]!.click();
      await el.updateComplete;
      clipboard.answer();
      await waitUntil(() => (status(el) ?? '').startsWith('Copy is blocked here'), 'the refusal announced');
    } finally {
      clipboard.restore();
    }
    expect(selected(el)).to.equal('Python');
    // Ctrl+C now would copy Python, which the reader did not ask for, while told it is the code they asked for.
    expect(getSelection()!.toString(), 'nothing selected in place of the curl snippet').to.equal('');
    expect(status(el)).to.equal('Copy is blocked here.');

    // Still shown, the code copied is selected, as before.
    const again = refusingClipboard();
    try {
      copyButton(el).click();
      await waitUntil(again.asked, 'the clipboard asked');
      again.answer();
      await waitUntil(() => (status(el) ?? '').startsWith('Copy is blocked here: the code is selected'), 'announced with what to do');
    } finally {
      again.restore();
    }
    expect(getSelection()!.toString()).to.equal(code(el));
    expect(code(el)).to.contain('import requests');
  });

  it('shows the code of the language it now selects at once when the languages offered change under a large snippet', async () => {
    // Over 32 KB: such a snippet is laid out again at most every 250 ms while it changes, but another language is
    // another snippet, to be shown with its tab.
    const body = 'x'.repeat(40_000);
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body=${body} languages="curl python"></code-snippet>`);
    expect(selected(el)).to.equal('curl');
    el.languages = ['python'];
    await el.updateComplete;
    expect(selected(el)).to.equal('Python');
    expect(code(el).startsWith('import requests'), `the Python snippet under the Python tab, not ${code(el).slice(0, 30)}…`).to.equal(true);
    expect(code(el)).to.equal(new SnippetGenerator().generate({ method: 'POST', url: 'https://api.example/pets', body }, 'python'));
  });
});
