// <code-snippet language>: a docs page with its own language switch shows the same language in every snippet, and
// reads which one the reader picked. Every test here starts with localStorage empty (support/fresh-language-pick.ts).
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';

const STORED_LANGUAGE_KEY = 'try-it-console.snippet-language';
const tabs = (el: CodeSnippet) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
const selected = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="tab"][aria-selected="true"]')!.textContent!.trim();
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')!.textContent!;

describe('<code-snippet> language property', () => {
  it('opens on the language the page names, over the reader’s stored pick', async () => {
    localStorage.setItem(STORED_LANGUAGE_KEY, 'go');
    const el = await fixture<CodeSnippet>(html`<code-snippet language="python" url="https://api.example/pets"></code-snippet>`);
    expect(selected(el)).to.equal('Python');
    expect(code(el)).to.contain('import requests');
    expect(el.language).to.equal('python');
  });

  it('switches when the page sets it, without an event and without keeping it as the reader’s pick', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    expect(selected(el)).to.equal('curl');
    let events = 0;
    el.addEventListener('tic-language-change', () => (events += 1));
    el.language = 'php';
    await el.updateComplete;
    expect(selected(el)).to.equal('PHP');
    expect(code(el)).to.contain('<?php');
    expect(events).to.equal(0);
    expect(localStorage.getItem(STORED_LANGUAGE_KEY)).to.equal(null);
  });

  it('reads back the language the reader picked', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet language="go" url="https://api.example/pets"></code-snippet>`);
    tabs(el)[1]!.click();
    await el.updateComplete;
    expect(selected(el)).to.equal('JavaScript');
    expect(el.language).to.equal('javascript');
    // Set again to the language it had: a change of the property, shown.
    el.language = 'go';
    await el.updateComplete;
    expect(selected(el)).to.equal('Go');
  });

  it('keeps showing its language when given one it does not offer, and reads back the one shown', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet languages="curl python" language="python" url="https://api.example/pets"></code-snippet>`);
    el.language = 'go';
    await el.updateComplete;
    expect(selected(el)).to.equal('Python');
    expect(el.language).to.equal('python');
    el.language = 'ruby' as never;
    await el.updateComplete;
    expect(el.language).to.equal('python');
  });

  it('lets a page keep every snippet on the reader’s language, as a docs site’s own switch does', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <code-snippet url="https://api.example/pets"></code-snippet>
      <code-snippet url="https://api.example/pets/1"></code-snippet>
      <code-snippet languages="curl go" url="https://api.example/owners"></code-snippet>
    </div>`);
    const snippets = [...page.querySelectorAll<CodeSnippet>('code-snippet')];
    await Promise.all(snippets.map((el) => el.updateComplete));
    page.addEventListener('tic-language-change', (event) => {
      for (const el of snippets) el.language = event.language;
    });
    tabs(snippets[0]!)[2]!.click(); // Go
    await Promise.all(snippets.map((el) => el.updateComplete));
    expect(snippets.map(selected)).to.deep.equal(['Go', 'Go', 'Go']);
    tabs(snippets[1]!)[3]!.click(); // Python, which the third does not offer
    await Promise.all(snippets.map((el) => el.updateComplete));
    expect(snippets.map(selected)).to.deep.equal(['Python', 'Python', 'Go']);
  });
});

describe('<try-it-console snippet-language>', () => {
  // Each console its own environments: no pick shared between them, as consoles of one manager share.
  const config = (): ConsoleConfig => ({ environments: [{ name: 'prod', variables: { base_url: 'https://api.example' } }] });
  const snippetOf = (el: TryItConsole) => el.shadowRoot!.querySelector<CodeSnippet>('code-snippet')!;

  it('opens its snippet on the language named, and follows the property', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console snippet-language="go" .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    await snippetOf(el).updateComplete;
    expect(selected(snippetOf(el))).to.equal('Go');
    expect(el.snippetLanguage).to.equal('go');
    el.snippetLanguage = 'python';
    await snippetOf(el).updateComplete;
    expect(selected(snippetOf(el))).to.equal('Python');
  });

  it('reads back the reader’s pick, and shows the language set again after it', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console snippet-language="go" .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    const snippet = snippetOf(el);
    await snippet.updateComplete;
    tabs(snippet)[4]!.click(); // PHP
    await snippet.updateComplete;
    expect(el.snippetLanguage).to.equal('php');
    el.snippetLanguage = 'go';
    await snippet.updateComplete;
    expect(selected(snippet)).to.equal('Go');
  });
});
