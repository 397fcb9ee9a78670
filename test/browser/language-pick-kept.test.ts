// <code-snippet> opens on the language the reader last picked on this origin (kept in localStorage), so a reload or
// the docs' next page shows it again. Every test here starts with localStorage empty (support/fresh-language-pick.ts).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/code-snippet/code-snippet.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';

const tabs = (el: CodeSnippet) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
const selected = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="tab"][aria-selected="true"]')!.textContent!.trim();
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')!.textContent!;

describe('<code-snippet> keeps the reader’s language pick', () => {
  it('opens on the language picked in a snippet no longer on the page, as after a reload', async () => {
    const first = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    expect(selected(first)).to.equal('curl');
    tabs(first)[3]!.click();
    await first.updateComplete;
    first.remove();
    const next = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets/1"></code-snippet>`);
    expect(selected(next)).to.equal('Python');
    expect(code(next)).to.contain('import requests');
  });

  it('opens on its first language when the pick is not among the languages it offers, and keeps the pick for later', async () => {
    const picker = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    tabs(picker)[2]!.click(); // Go
    await picker.updateComplete;
    const without = await fixture<CodeSnippet>(html`<code-snippet languages="php python" url="https://api.example/pets"></code-snippet>`);
    expect(selected(without)).to.equal('PHP');
    const with_ = await fixture<CodeSnippet>(html`<code-snippet languages="php go" url="https://api.example/pets"></code-snippet>`);
    expect(selected(with_)).to.equal('Go');
  });

  it('works where the page may not use storage, the pick then lasting as long as the page', async () => {
    const denied = () => {
      throw new DOMException('The document is sandboxed and lacks the "allow-same-origin" flag.', 'SecurityError');
    };
    const own = Object.getOwnPropertyDescriptor(window, 'localStorage')!;
    Object.defineProperty(window, 'localStorage', { get: denied, configurable: true });
    try {
      const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
      expect(selected(el)).to.equal('curl');
      tabs(el)[1]!.click();
      await el.updateComplete;
      expect(selected(el)).to.equal('JavaScript');
      expect(code(el)).to.contain('await fetch(');
    } finally {
      Object.defineProperty(window, 'localStorage', own);
    }
  });
});
