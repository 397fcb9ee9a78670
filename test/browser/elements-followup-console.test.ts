// <try-it-console> and <code-snippet>: an empty method attribute, and literal secrets in headers while values are hidden.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, type ConsoleConfig } from '../../src/core/index.js';
import type { TicCopyEvent } from '../../src/events/index.js';

const SECRET = 'sk_live_51HxYzAbCdEfGh';
const code = (snippet: CodeSnippet) => snippet.shadowRoot!.querySelector('pre code')?.textContent ?? '';
const methodSelect = (el: TryItConsole) => el.shadowRoot!.querySelector<HTMLSelectElement>('#method')!;
const snippetOf = async (el: TryItConsole) => {
  const snippet = el.shadowRoot!.querySelector<CodeSnippet>('code-snippet')!;
  await snippet.updateComplete;
  return snippet;
};
const showValues = (snippet: CodeSnippet) => snippet.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
const selectTab = async (snippet: CodeSnippet, label: string) => {
  [...snippet.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')].find((tab) => tab.textContent!.trim() === label)!.click();
  await snippet.updateComplete;
};

describe('<try-it-console> with an empty method', () => {
  it('takes method="" (as a framework renders no method) as GET, as it takes no attribute', async () => {
    const config: ConsoleConfig = { enabled: true, history: { enabled: false } };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="" url="https://api.example/pets"></try-it-console>`);
    const options = [...methodSelect(el).options].map((option) => option.value);
    expect(options, 'no empty option').to.deep.equal(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
    expect(methodSelect(el).value).to.equal('GET');
    expect(code(await snippetOf(el)).split('\n')[0]).to.equal('curl -X GET https://api.example/pets');
    // Blank, set as a property, after another method: GET again.
    el.method = 'PATCH';
    await el.updateComplete;
    expect(methodSelect(el).value).to.equal('PATCH');
    el.method = '  ';
    await el.updateComplete;
    expect([methodSelect(el).value, [...methodSelect(el).options].some((option) => option.value.trim() === '')]).to.deep.equal(['GET', false]);
    // And a request loaded with none.
    el.load({ method: '', url: 'https://api.example/owners' });
    await el.updateComplete;
    expect(methodSelect(el).value).to.equal('GET');
  });

  it('takes method="" on a <code-snippet> alone as GET too', async () => {
    const snippet = await fixture<CodeSnippet>(html`<code-snippet method="" url="https://api.example/pets"></code-snippet>`);
    expect(code(snippet).split('\n')[0]).to.equal('curl -X GET https://api.example/pets');
  });
});

describe('a secret written out in a default header, in the code panel', () => {
  const config: ConsoleConfig = {
    enabled: true,
    history: { enabled: false },
    defaultHeaders: { Authorization: `Bearer ${SECRET}`, 'X-Api-Key': '{{api_key}}', 'X-Tenant': 'acme', 'X-Callback': 'https://hooks:pa55word@hooks.example/cb' },
    environments: [{ name: 'Production', variables: { api_key: 'key-from-env' } }],
  };

  it('is masked while values are hidden, as the list of default headers masks it, in every language', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="https://api.example/pets"></try-it-console>`);
    const snippet = await snippetOf(el);
    const listed = el.shadowRoot!.querySelector('[part="default-headers"]')!.textContent!;
    expect(listed).to.contain('Authorization: ••••••••').and.not.to.contain(SECRET);
    expect(code(snippet)).to.contain('-H "Authorization: ••••••••"').and.to.contain('-H "X-Api-Key: {{api_key}}"').and.to.contain('-H "X-Tenant: acme"');
    // Only the password of a URL, as the list shows it.
    expect(code(snippet)).to.contain('https://hooks:••••••••@hooks.example/cb');
    for (const language of ['JavaScript', 'Go', 'Python', 'PHP']) {
      await selectTab(snippet, language);
      expect(code(snippet), language).to.contain('••••••••').and.not.to.contain(SECRET).and.not.to.contain('pa55word').and.not.to.contain('TICMASKED');
    }
    await selectTab(snippet, 'JavaScript');
    expect(code(snippet)).to.contain('"Authorization": "••••••••"');
  });

  it('is copied as it is, to be run, and shown with Show values', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="https://api.example/pets"></try-it-console>`);
    const snippet = await snippetOf(el);
    const copied = new Promise<string>((resolve) => snippet.addEventListener('tic-copy', (event: TicCopyEvent) => resolve(event.text), { once: true }));
    snippet.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
    const text = await copied;
    expect(text).to.contain(`-H "Authorization: Bearer ${SECRET}"`).and.to.contain('-H "X-Api-Key: key-from-env"').and.to.contain('https://hooks:pa55word@hooks.example/cb');
    expect(await navigator.clipboard.readText()).to.equal(text);
    await waitUntil(() => snippet.shadowRoot!.querySelector('[part="copy-button"] .shown')?.textContent === 'Copied with values', 'the masked code shown is not the one copied, and the button says so');
    expect(code(snippet), 'still masked on screen').not.to.contain(SECRET);
    showValues(snippet).click();
    await snippet.updateComplete;
    expect(code(snippet)).to.contain(`-H "Authorization: Bearer ${SECRET}"`).and.to.contain('-H "X-Api-Key: key-from-env"');
  });
});

describe('<code-snippet> with literal secrets in its headers', () => {
  const request = { method: 'GET', url: 'https://api.example/pets', headers: { Authorization: `Bearer ${SECRET}`, 'X-Note': 'TICMASKED stays' } };

  it('shows them as given without environments, where there are no values to hide', async () => {
    const snippet = await fixture<CodeSnippet>(html`<code-snippet .request=${request}></code-snippet>`);
    expect(code(snippet)).to.contain(`Authorization: Bearer ${SECRET}`);
  });

  it('with environments, masks them until Show values, and leaves text like its stand-in alone', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: {} });
    const snippet = await fixture<CodeSnippet>(html`<code-snippet .request=${request} .environments=${environments}></code-snippet>`);
    expect(code(snippet)).to.contain('-H "Authorization: ••••••••"').and.to.contain('-H "X-Note: TICMASKED stays"');
    await expect(snippet).to.be.accessible();
    showValues(snippet).click();
    await snippet.updateComplete;
    expect(code(snippet)).to.contain(`Authorization: Bearer ${SECRET}`);
  });
});
