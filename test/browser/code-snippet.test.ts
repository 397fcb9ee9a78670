import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/components/code-snippet/code-snippet.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { EnvironmentManager, SnippetGenerator } from '../../src/core/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';
import type { TicCopyEvent, TicLanguageChangeEvent } from '../../src/events/index.js';

const tabs = (el: CodeSnippet) => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
const code = (el: CodeSnippet) => el.shadowRoot!.querySelector('pre code')?.textContent ?? '';
/** The label the button shows: the text a sighted user sees (innerText leaves out what is not visible). */
const shownLabel = (button: HTMLElement) => button.innerText.trim();
/** The labels the button holds but hides: out of sight and, being visibility: hidden, out of its accessible name. */
const hiddenLabels = (button: HTMLElement) =>
  [...button.querySelectorAll('span')].filter((span) => getComputedStyle(span).visibility === 'hidden').map((span) => span.textContent!.trim());
const selected = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="tab"][aria-selected="true"]')!.textContent!.trim();
const problem = (el: CodeSnippet) => el.shadowRoot!.querySelector('.problem')?.textContent ?? null;
const copyButton = (el: CodeSnippet) => el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
const status = (el: CodeSnippet) => el.shadowRoot!.querySelector('[role="status"]')!.textContent;

describe('<code-snippet>', () => {
  it('renders a tab per language, curl first, with the generator’s snippet', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="post" url="https://api.example/pets" headers='{"Accept":"application/json"}' body='{"name":"Rex"}'></code-snippet>`);
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['curl', 'JavaScript', 'Go', 'Python', 'PHP']);
    expect(selected(el)).to.equal('curl');
    const expected = new SnippetGenerator().generate({ method: 'post', url: 'https://api.example/pets', headers: { Accept: 'application/json' }, body: '{"name":"Rex"}' }, 'curl');
    expect(code(el)).to.equal(expected);
    expect(code(el).split('\n')[0]).to.equal('curl -X POST https://api.example/pets \\');
  });

  it('sizes code in its block once, as 0.875 of the element’s text, not 0.875 of that again', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const pre = el.shadowRoot!.querySelector('pre')!;
    const size = (element: Element) => parseFloat(getComputedStyle(element).fontSize);
    expect(size(pre.querySelector('code')!)).to.equal(size(pre));
    expect(size(pre)).to.be.closeTo(size(el) * 0.875, 0.01);
  });

  it('is accessible', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    await expect(el).to.be.accessible();
  });

  it('offers only the languages asked for, in that order', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" languages="python curl"></code-snippet>`);
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['Python', 'curl']);
    expect(code(el)).to.contain('import requests');
  });

  it('reads languages set as a property to the attribute’s text, as frameworks that set every binding as a property pass it', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .languages=${'curl python' as unknown as string[]}></code-snippet>`);
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['curl', 'Python']);
    el.languages = 'go, php' as unknown as string[];
    await el.updateComplete;
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['Go', 'PHP']);
    el.languages = '' as unknown as string[];
    await el.updateComplete;
    expect(tabs(el), 'none named: all five').to.have.length(5);
  });

  it('says what is wrong with an unknown language instead of breaking', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" languages="curl ruby"></code-snippet>`);
    expect(el.shadowRoot!.querySelector('[role="alert"].problem')!.textContent).to.contain('"ruby"');
    expect(tabs(el), 'no tabs beside the problem').to.have.length(0);
    await expect(el).to.be.accessible();
    el.languages = ['go'];
    await el.updateComplete;
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['Go']);
  });

  it('moves between tabs with the arrow keys, Home and End, and reports the change', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    tabs(el)[0]!.focus();
    let changed = oneEvent<TicLanguageChangeEvent>(el, 'tic-language-change');
    await sendKeys({ press: 'ArrowRight' });
    expect((await changed).language).to.equal('javascript');
    await el.updateComplete;
    expect(selected(el)).to.equal('JavaScript');
    expect(el.shadowRoot!.activeElement).to.equal(tabs(el)[1]);
    expect(code(el)).to.contain('await fetch(');
    changed = oneEvent<TicLanguageChangeEvent>(el, 'tic-language-change');
    await sendKeys({ press: 'End' });
    expect((await changed).language).to.equal('php');
    await sendKeys({ press: 'ArrowRight' });
    await el.updateComplete;
    expect(selected(el)).to.equal('curl');
    expect(tabs(el).map((tab) => tab.tabIndex)).to.deep.equal([0, -1, -1, -1, -1]);
  });

  it('leaves arrow keys with Alt, Ctrl or Meta to the browser, and follows the tabs’ visual order right to left', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    tabs(el)[1]!.click();
    await el.updateComplete;
    // Dispatched, not pressed: a real Alt+Left would take the test page back.
    for (const modifier of ['altKey', 'ctrlKey', 'metaKey']) {
      const event = new KeyboardEvent('keydown', { key: 'ArrowLeft', [modifier]: true, bubbles: true, cancelable: true, composed: true });
      tabs(el)[1]!.dispatchEvent(event);
      await el.updateComplete;
      expect([event.defaultPrevented, selected(el)], modifier).to.deep.equal([false, 'JavaScript']);
    }

    const page = await fixture<HTMLDivElement>(html`<div dir="rtl"><code-snippet url="https://api.example/pets"></code-snippet></div>`);
    const rtl = page.querySelector('code-snippet')!;
    expect(tabs(rtl)[1]!.getBoundingClientRect().right, 'JavaScript is left of curl').to.be.at.most(tabs(rtl)[0]!.getBoundingClientRect().left);
    // It opened on the reader's last pick, JavaScript, kept from the snippet above.
    tabs(rtl)[0]!.click();
    tabs(rtl)[0]!.focus();
    await sendKeys({ press: 'ArrowLeft' });
    await rtl.updateComplete;
    expect(selected(rtl)).to.equal('JavaScript');
    expect(rtl.shadowRoot!.activeElement).to.equal(tabs(rtl)[1]);
    await sendKeys({ press: 'ArrowRight' });
    await rtl.updateComplete;
    expect(selected(rtl)).to.equal('curl');
  });

  it('lays code out left to right on a right-to-left page: lines in their order, from their start', async () => {
    const page = await fixture<HTMLDivElement>(html`<div dir="rtl" style="width: 20rem"><code-snippet url="https://api.example/pets/a/long/path/that/overflows" .headers=${{ 'X-A': 'b' }}></code-snippet></div>`);
    const el = page.querySelector('code-snippet')!;
    const shown = el.shadowRoot!.querySelector('pre code')!;
    const panel = el.shadowRoot!.querySelector('[role="tabpanel"]')!.getBoundingClientRect();
    /** Where the character at `index` of the code is drawn. */
    const box = (index: number) => {
      const walker = document.createTreeWalker(shown, NodeFilter.SHOW_TEXT);
      let start = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const length = node.textContent!.length;
        if (index < start + length) {
          const range = document.createRange();
          range.setStart(node, index - start);
          range.setEnd(node, index - start + 1);
          return range.getBoundingClientRect();
        }
        start += length;
      }
      throw new Error(`no character ${index}`);
    };
    const text = shown.textContent!;
    // In a right-to-left paragraph the line's final `\` was drawn before `curl`, and the line's start was scrolled out of sight.
    expect(box(text.indexOf('\\')).left, 'the line’s final \\ after curl').to.be.greaterThan(box(0).left);
    expect(box(0).left, 'curl in sight').to.be.at.least(panel.left);
  });

  it('keeps keyboard focus on the selected tab when the languages change: never on <body>, nor on an unselected tab', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" languages="curl python php"></code-snippet>`);
    tabs(el)[0]!.focus();
    await sendKeys({ press: 'End' });
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement!.textContent!.trim()).to.equal('PHP');
    const focusedTab = () => {
      const tab = el.shadowRoot!.activeElement as HTMLElement | null;
      return [tab?.textContent!.trim(), tab?.getAttribute('aria-selected'), tab?.tabIndex];
    };
    el.languages = ['curl'];
    await el.updateComplete;
    expect(focusedTab(), 'the focused tab removed').to.deep.equal(['curl', 'true', 0]);
    el.languages = ['python', 'curl'];
    await el.updateComplete;
    expect(focusedTab(), 'the tabs reordered').to.deep.equal(['curl', 'true', 0]);
    el.languages = ['curl', 'python'];
    await el.updateComplete;
    expect(focusedTab(), 'reordered back').to.deep.equal(['curl', 'true', 0]);
  });

  it('draws the focus rings of the tabs and of the code panel inside the frame, which clips what lies outside it', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const frame = el.shadowRoot!.querySelector<HTMLElement>('.frame')!;
    const outer = frame.getBoundingClientRect();
    const clip = { top: outer.top + frame.clientTop, left: outer.left + frame.clientLeft, right: outer.right - frame.clientLeft, bottom: outer.bottom - frame.clientTop };
    // A key pressed first: focus then shows as it does for keyboard users.
    await sendKeys({ press: 'Shift' });
    for (const target of [tabs(el)[0]!, tabs(el)[4]!, el.shadowRoot!.querySelector<HTMLElement>('[role="tabpanel"]')!]) {
      target.focus();
      expect(target.matches(':focus-visible'), 'focus shown').to.equal(true);
      const style = getComputedStyle(target);
      expect([style.outlineStyle, parseFloat(style.outlineWidth)]).to.deep.equal(['solid', 2]);
      const reach = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
      const box = target.getBoundingClientRect();
      const ring = { top: box.top - reach, left: box.left - reach, right: box.right + reach, bottom: box.bottom + reach };
      const cut = [ring.top < clip.top && 'top', ring.left < clip.left && 'left', ring.right > clip.right && 'right', ring.bottom > clip.bottom && 'bottom'].filter(Boolean);
      expect(cut, `${target.textContent!.trim().slice(0, 10) || 'panel'}: sides of the ring cut off`).to.deep.equal([]);
    }
  });

  it('copies the snippet and announces it', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const copy = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    copy.focus();
    const copied = new Promise<string>((resolve) => el.addEventListener('tic-copy', (event) => resolve(event.text), { once: true }));
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => status.textContent === 'Copied the curl snippet.', 'announced');
    expect(await copied).to.equal(code(el));
    expect(await navigator.clipboard.readText()).to.equal(code(el));
  });

  it('with values hidden, copies the snippet with the values, which runs, and says so; variables without one stay as written', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example', token: 'tok-123' } });
    const el = await fixture<CodeSnippet>(
      html`<code-snippet url="{{base_url}}/orders?id={{$guid}}" .headers=${{ Authorization: 'Bearer {{token}}', 'X-Tenant': '{{tenant}}' }} .environments=${environments}></code-snippet>`,
    );
    const shown = code(el);
    expect(shown).to.equal('curl -X GET \'{{base_url}}/orders?id={{$guid}}\' \\\n  -H "Authorization: Bearer {{token}}" \\\n  -H "X-Tenant: {{tenant}}"');
    const copies: string[] = [];
    for (const times of [1, 2]) {
      const copied = oneEvent(el, 'tic-copy') as Promise<TicCopyEvent>;
      copyButton(el).click();
      copies.push((await copied).text);
      await waitUntil(() => status(el) === 'Copied the curl snippet with values, which are hidden here.', `announced, copy ${times}`);
    }
    const [copy] = copies;
    expect(copy).to.match(/^curl -X GET 'https:\/\/api\.example\/orders\?id=[\da-f-]{36}' \\\n {2}-H "Authorization: Bearer tok-123" \\\n {2}-H "X-Tenant: \{\{tenant\}\}"$/);
    expect(await navigator.clipboard.readText()).to.equal(copy);
    expect(copies[1], 'the same {{$guid}} on every copy of one request').to.equal(copy);
    expect(code(el), 'the panel keeps the placeholders').to.equal(shown);
    expect(copyButton(el).innerText.trim(), 'seen as heard: what was copied is not what is shown').to.equal('Copied with values');
  });

  it('copies the code shown, placeholders and all, when the values cannot be filled in, and says why', async () => {
    // Two uses of a 600 KB value grow the request past the 1 MiB a resolve may add.
    const environments = new EnvironmentManager({ name: 'prod', variables: { big: 'a'.repeat(600_000) } });
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/{{big}}/{{big}}" .environments=${environments}></code-snippet>`);
    expect(code(el), 'shown with its placeholders').to.contain('{{big}}/{{big}}');
    const copied = oneEvent(el, 'tic-copy') as Promise<TicCopyEvent>;
    copyButton(el).click();
    expect((await copied).text).to.equal(code(el));
    await waitUntil(() => status(el)?.startsWith('Copied the curl snippet, with its placeholders (the values could not be filled in: No snippet for this request: '), `announced, got ${status(el)}`);
    await waitUntil(() => copyButton(el).innerText.trim() === 'Copied', 'the button says so');
  });

  it('says what to do for a request loaded from history with a credential it did not keep in the URL, not to percent-encode its "["', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets?api_key=[redacted]"></code-snippet>`);
    expect(problem(el)).to.equal('No snippet for this request: [redacted] in the URL stands for a credential history did not keep; type its value in its place.');
    el.url = 'https://api.example/pets?tag=[a]';
    await el.updateComplete;
    expect(problem(el), 'any other "[" is told how to write it').to.match(/%5B/);
    // Another problem of such a request is told as it is.
    el.url = 'https://api.example/pets?api_key=[redacted]';
    el.method = 'GET PETS';
    await el.updateComplete;
    expect(problem(el)).to.match(/request\.method: must be an HTTP method/);
  });

  it('offers Show values only while an environment is active: with none, there are no values to show', async () => {
    const environments = new EnvironmentManager();
    const el = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets" .environments=${environments}></code-snippet>`);
    const box = () => el.shadowRoot!.querySelector('input[type="checkbox"]');
    expect(box()).to.equal(null);
    environments.add({ name: 'prod', variables: { base_url: 'https://api.example' } });
    await el.updateComplete;
    expect(box()).not.to.equal(null);
  });

  it('follows the language the reader picked in another snippet of the same environments, as a page of consoles shares them', async () => {
    const shared = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
    const own = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
    const page = await fixture<HTMLDivElement>(html`<div>
      <code-snippet url="{{base_url}}/pets" .environments=${shared}></code-snippet>
      <code-snippet url="{{base_url}}/pets/1" .environments=${shared}></code-snippet>
      <code-snippet url="{{base_url}}/pets" .environments=${own}></code-snippet>
    </div>`);
    const [picked, follower, apart] = [...page.querySelectorAll<CodeSnippet>('code-snippet')] as [CodeSnippet, CodeSnippet, CodeSnippet];
    const changes: string[] = [];
    page.addEventListener('tic-language-change', (event) => changes.push(`${(event.target as Element) === picked ? 'picked' : 'other'} ${event.language}`));
    tabs(picked)[3]!.click();
    await Promise.all([picked.updateComplete, follower.updateComplete, apart.updateComplete]);
    expect([selected(picked), selected(follower), selected(apart)]).to.deep.equal(['Python', 'Python', 'curl']);
    expect(changes, 'the event is the pick\'s alone').to.deep.equal(['picked python']);
    // A snippet added later starts on the pick; a pick in the follower leads the others in turn.
    const later = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets" .environments=${shared}></code-snippet>`, { parentNode: page });
    expect(selected(later)).to.equal('Python');
    tabs(follower)[2]!.click();
    await Promise.all([picked.updateComplete, follower.updateComplete, later.updateComplete]);
    expect([selected(picked), selected(follower), selected(later), selected(apart)]).to.deep.equal(['Go', 'Go', 'Go', 'curl']);
  });

  it('announces a second copy just like the first', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const copy = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
    const status = el.shadowRoot!.querySelector('[role="status"]')!;
    // Every text the region takes: a screen reader reads what changes in it, and an equal text set again is none.
    const said: string[] = [];
    const observer = new MutationObserver(() => said.push(status.textContent!));
    observer.observe(status, { childList: true, characterData: true, subtree: true });
    try {
      for (const times of [1, 2]) {
        copy.click();
        await waitUntil(() => said.filter((text) => text === 'Copied the curl snippet.').length === times, `announced ${times} times`);
      }
    } finally {
      observer.disconnect();
    }
  });

  it('says Copied on the button, then Copy again, keeping its width, with only the label shown in its name', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const copy = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
    const width = copy.getBoundingClientRect().width;
    expect(shownLabel(copy)).to.equal('Copy');
    copy.click();
    await waitUntil(() => shownLabel(copy) === 'Copied', 'the button says Copied');
    expect(copy.getBoundingClientRect().width, 'the same width').to.equal(width);
    expect(hiddenLabels(copy)).to.have.members(['Copy', 'Copy blocked']);
    await expect(el).to.be.accessible();
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')!.textContent === 'Copied the curl snippet.', 'announced');
    await waitUntil(() => shownLabel(copy) === 'Copy', 'the button says Copy again', { timeout: 5000 });
    expect(copy.getBoundingClientRect().width, 'the same width after').to.equal(width);
    expect(hiddenLabels(copy)).to.have.members(['Copied', 'Copy blocked']);
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('');
  });

  it('says Copy again once moved, not Copied forever', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const copy = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
    copy.click();
    await waitUntil(() => shownLabel(copy) === 'Copied', 'the button says Copied');
    // As a framework reordering a list, or keeping a tab alive, moves it.
    const other = document.createElement('div');
    el.parentElement!.append(other);
    other.append(el);
    await el.updateComplete;
    expect(shownLabel(copy)).to.equal('Copy');
    expect(el.shadowRoot!.querySelector('[role="status"]')!.textContent).to.equal('');
    other.remove();
  });

  it('says Copy again on a tab switch: what was copied is the other language', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    copyButton(el).click();
    await waitUntil(() => shownLabel(copyButton(el)) === 'Copied', 'the button says Copied');
    tabs(el)[2]!.click();
    await el.updateComplete;
    expect([selected(el), shownLabel(copyButton(el)), status(el)]).to.deep.equal(['Go', 'Copy', '']);
  });

  it('says Copy again once the code shown changes, as the clipboard holds the code before, and not Copied on another language’s code', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body="one" languages="curl python"></code-snippet>`);
    copyButton(el).click();
    await waitUntil(() => shownLabel(copyButton(el)) === 'Copied', 'the button says Copied');
    // As typing in the console's body changes the snippet under the button.
    el.body = 'two';
    await el.updateComplete;
    expect([shownLabel(copyButton(el)), await navigator.clipboard.readText()]).to.deep.equal(['Copy', "curl -X POST https://api.example/pets \\\n  -d 'one'"]);

    copyButton(el).click();
    await waitUntil(() => shownLabel(copyButton(el)) === 'Copied', 'the button says Copied');
    // The language copied is no longer offered: the tab shown is another, picked by no one.
    el.languages = ['python'];
    await el.updateComplete;
    expect([selected(el), shownLabel(copyButton(el))]).to.deep.equal(['Python', 'Copy']);
  });

  it('reports and announces a copy as the language copied when the tab changes while the clipboard answers', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    // As a slow clipboard (a permission prompt) answers later.
    let answer: (() => void) | undefined;
    navigator.clipboard.writeText = () => new Promise<void>((resolve) => (answer = resolve));
    const copied = new Promise<TicCopyEvent>((resolve) => el.addEventListener('tic-copy', resolve, { once: true }));
    try {
      copyButton(el).click();
      await waitUntil(() => answer !== undefined, 'the clipboard asked');
      tabs(el)[3]!.click();
      await el.updateComplete;
      answer!();
      const event = await copied;
      expect([event.language, event.text]).to.deep.equal(['curl', 'curl -X GET https://api.example/pets']);
      await waitUntil(() => status(el) === 'Copied the curl snippet.', 'announced as curl');
      expect([selected(el), shownLabel(copyButton(el))], 'no Copied beside the Python code').to.deep.equal(['Python', 'Copy']);
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
    }
  });

  it('copies on a page without the Clipboard API (any http: page but localhost), as the copy command still does there', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body=${'{"tab":"\t"}'}></code-snippet>`);
    await navigator.clipboard.writeText('before');
    const copied = new Promise<TicCopyEvent>((resolve) => el.addEventListener('tic-copy', resolve, { once: true }));
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      copyButton(el).click();
      await waitUntil(() => shownLabel(copyButton(el)) !== 'Copy', 'the button says what copying did');
      expect(shownLabel(copyButton(el))).to.equal('Copied');
    } finally {
      delete (navigator as Partial<Navigator> & { clipboard?: unknown }).clipboard;
    }
    expect((await copied).text).to.equal(code(el));
    expect(await navigator.clipboard.readText()).to.equal(code(el));
    await waitUntil(() => status(el) === 'Copied the curl snippet.', 'announced');
  });

  it('says Copy blocked on the button where the clipboard is refused, selecting the code instead', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    const copy = el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!;
    const width = copy.getBoundingClientRect().width;
    // As a frame whose page does not allow clipboard-write refuses both ways.
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    document.execCommand = () => false;
    try {
      copy.click();
      await waitUntil(() => shownLabel(copy) === 'Copy blocked', 'the button says Copy blocked');
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
    }
    expect(copy.getBoundingClientRect().width, 'the same width').to.equal(width);
    expect(getSelection()!.toString(), 'the code selected').to.equal(code(el));
    await waitUntil(() => el.shadowRoot!.querySelector('[role="status"]')!.textContent!.includes('Copy is blocked here: the code is selected'), 'announced');
    await waitUntil(() => shownLabel(copy) === 'Copy', 'the button says Copy again', { timeout: 5000 });
  });

  it('shows variables as written, or with the active environment’s values', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example', token: 's3cret' } });
    const request = { method: 'GET', url: '{{base_url}}/pets', headers: { Authorization: 'Bearer {{token}}' } };
    const el = await fixture<CodeSnippet>(html`<code-snippet .request=${request} .environments=${environments}></code-snippet>`);
    expect(code(el)).to.contain('{{base_url}}/pets').and.to.contain('Bearer {{token}}');
    el.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!.click();
    await el.updateComplete;
    expect(code(el)).to.contain('https://api.example/pets').and.to.contain('Bearer s3cret');
    environments.add({ name: 'prod', variables: { base_url: 'https://v2.api.example', token: 't' } });
    await el.updateComplete;
    expect(code(el)).to.contain('https://v2.api.example/pets');
  });

  it('switches Show values off when the environment changes, so a switch shows no other environment’s secrets; show-values set by the page stays', async () => {
    const environments = () => new EnvironmentManager({ name: 'sandbox', variables: { token: 'sandbox-key' } }, { name: 'production', variables: { token: 'PROD-SECRET' } });
    const request = { method: 'GET', url: 'https://api.example/pets', headers: { Authorization: 'Bearer {{token}}' } };
    const el = await fixture<CodeSnippet>(html`<code-snippet .request=${request} .environments=${environments()}></code-snippet>`);
    const box = () => el.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    box().click();
    await el.updateComplete;
    expect(code(el)).to.contain('Bearer sandbox-key');
    el.environments!.setActive('production');
    await el.updateComplete;
    expect(code(el)).to.contain('Bearer {{token}}').and.not.to.contain('PROD-SECRET');
    expect([el.showValues, box().checked]).to.deep.equal([false, false]);
    box().click();
    await el.updateComplete;
    expect(code(el), 'shown again when asked').to.contain('Bearer PROD-SECRET');
    el.environments = environments();
    await el.updateComplete;
    expect(code(el), 'another manager').to.contain('Bearer {{token}}');

    const page = await fixture<CodeSnippet>(html`<code-snippet show-values .request=${request} .environments=${environments()}></code-snippet>`);
    page.environments!.setActive('production');
    await page.updateComplete;
    expect(code(page)).to.contain('Bearer PROD-SECRET');
  });

  it('with values shown, names headers as a send does: trimmed, and two that resolve to one name refused', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { h: ' X-H ', other: 'x-h' } });
    const el = await fixture<CodeSnippet>(html`<code-snippet show-values url="https://api.example/pets" .headers=${{ '{{h}}': 'val' }} .environments=${environments}></code-snippet>`);
    expect(code(el)).to.contain('-H "X-H: val"');
    el.headers = { '{{h}}': 'one', '{{other}}': 'two' };
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('.problem')!.textContent).to.contain('the header x-h appears twice once its variables are resolved');
  });

  it('with values shown, gives dynamic variables one value per change of the request or environment, on screen and copied', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } }, { name: 'stage', variables: { base_url: 'https://stage.example' } });
    const el = await fixture<CodeSnippet>(
      html`<code-snippet show-values url="{{base_url}}/orders?id={{$guid}}" .headers=${{ 'X-Time': '{{$timestamp}}' }} .environments=${environments}></code-snippet>`,
    );
    const guid = () => /id=([\w-]+)/.exec(code(el))![1]!;
    const first = guid();
    const copied = new Promise<string>((resolve) => el.addEventListener('tic-copy', (event) => resolve(event.text), { once: true }));
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
    expect(await copied, 'copied as shown').to.equal(code(el));
    await el.updateComplete;
    expect(guid(), 'unchanged by Copy').to.equal(first);
    tabs(el)[3]!.click();
    await el.updateComplete;
    expect(code(el), 'the same value in Python').to.contain(`id=${first}`);
    tabs(el)[0]!.click();
    await el.updateComplete;
    expect(guid(), 'unchanged by tab switches').to.equal(first);
    el.theme = 'dark';
    await el.updateComplete;
    expect(guid(), 'unchanged by an unrelated change').to.equal(first);

    const seen = new Set([first]);
    const changes: [string, () => void][] = [
      ['the request', () => (el.url = '{{base_url}}/orders/?id={{$guid}}')],
      ['a variable', () => environments.add({ name: 'prod', variables: { base_url: 'https://v2.api.example' } })],
      ['the active environment', () => environments.setActive('stage')],
      ['showValues', () => (el.showValues = false)],
      ['showValues', () => (el.showValues = true)],
      ['the environments', () => (el.environments = new EnvironmentManager({ name: 'other', variables: { base_url: 'https://other.example' } }))],
    ];
    for (const [what, change] of changes) {
      change();
      await el.updateComplete;
      if (!el.showValues) continue;
      expect(seen.has(guid()), `a new value after a change of ${what}`).to.equal(false);
      seen.add(guid());
    }
    expect(code(el)).to.contain('https://other.example/orders/?id=');
  });

  it('with values shown, resolves again after a move, as the environment may have changed meanwhile', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { token: 'one' } });
    const el = await fixture<CodeSnippet>(html`<code-snippet show-values url="https://api.example/pets" .headers=${{ Authorization: '{{token}}' }} .environments=${environments}></code-snippet>`);
    const parent = el.parentElement!;
    el.remove();
    environments.add({ name: 'prod', variables: { token: 'two' } });
    parent.append(el);
    await el.updateComplete;
    expect(code(el)).to.contain('Authorization: two');
    const copied = new Promise<string>((resolve) => el.addEventListener('tic-copy', (event) => resolve(event.text), { once: true }));
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
    expect(await copied).to.contain('Authorization: two');
  });

  it('with values shown, still refuses headers given as a Headers and keeps every header name', async () => {
    const environments = new EnvironmentManager({ name: 'prod', variables: { token: 's3cret' } });
    const request = { method: 'GET', url: 'https://api.example/pets', headers: new Headers({ Authorization: 'Bearer {{token}}' }) as unknown as Record<string, string> };
    const el = await fixture<CodeSnippet>(html`<code-snippet show-values .request=${request} .environments=${environments}></code-snippet>`);
    expect(el.shadowRoot!.querySelector('.problem')!.textContent).to.match(/plain object.*Object\.fromEntries\(headers\)/);
    el.request = { ...request, headers: JSON.parse('{"__proto__": "{{token}}", "X-A": "b"}') as Record<string, string> };
    await el.updateComplete;
    expect(code(el)).to.contain('-H "__proto__: s3cret"').and.to.contain('-H "X-A: b"');
  });

  it('shows a large snippet as plain text, so typing in a large body stays quick', async () => {
    const body = JSON.stringify({ items: Array.from({ length: 2000 }, (_, id) => ({ id, name: `item ${id}` })) });
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body=${body}></code-snippet>`);
    const shown = el.shadowRoot!.querySelector('pre code')!;
    expect(shown.children, 'no highlighting').to.have.length(0);
    expect(shown.textContent).to.equal(new SnippetGenerator().generate({ method: 'POST', url: 'https://api.example/pets', body }, 'curl'));
    el.body = '{"small":true}';
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('pre code [class^="hljs-"]'), 'highlighted').to.exist;
  });

  it('while a large snippet changes quickly, shows the latest once changes stop, and copies the latest at any time', async () => {
    const body = JSON.stringify({ items: Array.from({ length: 4000 }, (_, id) => ({ id, name: `item ${id}` })) });
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body=${body}></code-snippet>`);
    const expected = (text: string) => new SnippetGenerator().generate({ method: 'POST', url: 'https://api.example/pets', body: text }, 'curl');
    for (const typed of ['a', 'ab', 'abc']) {
      el.body = body + typed;
      await el.updateComplete;
    }
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
    await waitUntil(() => code(el) === expected(`${body}abc`), 'the latest snippet is shown after Copy');
    expect(await navigator.clipboard.readText()).to.equal(expected(`${body}abc`));
    el.body = `${body}abcd`;
    await el.updateComplete;
    el.body = `${body}abcde`;
    await el.updateComplete;
    await waitUntil(() => code(el) === expected(`${body}abcde`), 'the latest snippet is shown once changes stop', { timeout: 2000 });
  });

  it('shows the new language at once on a tab switch, even for a large snippet held back while it changes', async () => {
    const body = 'x'.repeat(40_000);
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body=${body}></code-snippet>`);
    // Right after a large snippet was laid out, the next large one would be held back.
    tabs(el)[1]!.click();
    await el.updateComplete;
    expect(selected(el)).to.equal('JavaScript');
    const expected = new SnippetGenerator().generate({ method: 'POST', url: 'https://api.example/pets', body }, 'javascript');
    // Compared in short first: a failure prints 40 KB otherwise.
    expect(code(el).slice(0, 40)).to.equal(expected.slice(0, 40));
    expect(code(el) === expected, 'all of the JavaScript snippet').to.equal(true);
  });

  it('reads headers given as JSON text through the property, as frameworks pass the attribute', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .headers=${'{"Accept":"application/json"}' as unknown as Record<string, string>}></code-snippet>`);
    expect(code(el)).to.contain('-H "Accept: application/json"');
  });

  it('goes back to the defaults when an attribute is removed', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body='{"name":"Rex"}' languages="curl"></code-snippet>`);
    el.removeAttribute('body');
    el.removeAttribute('method');
    await el.updateComplete;
    expect([el.method, el.body]).to.deep.equal(['GET', '']);
    expect(code(el)).to.equal('curl -X GET https://api.example/pets');
    el.removeAttribute('url');
    await el.updateComplete;
    expect(el.url).to.equal('');
    expect(el.shadowRoot!.querySelector('.problem')!.textContent).to.contain('request.url').and.not.contain('null');
  });

  it('goes back to the defaults when method, url or body is unset as a property, as frameworks clear a binding', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" body="x"></code-snippet>`);
    const unset = el as unknown as Record<'method' | 'url' | 'body' | 'headers', unknown>;
    unset.method = undefined;
    unset.body = null;
    unset.headers = undefined;
    await el.updateComplete;
    expect(code(el)).to.equal('curl -X GET https://api.example/pets');
    unset.url = undefined;
    await el.updateComplete;
    expect(problem(el)).to.contain('request.url').and.not.contain('undefined');
  });

  it('explains a malformed headers attribute in place, as it does the same text set as the property, rather than dropping the headers', async () => {
    const text = '{"Authorization": "Bearer abc",}';
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" headers=${text}></code-snippet>`);
    const asProperty = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .headers=${text as unknown as Record<string, string>}></code-snippet>`);
    expect(code(el), 'no snippet without the header').to.equal('');
    expect(problem(el)).to.contain('request.headers').and.contain('Bearer abc');
    expect(problem(el)).to.equal(problem(asProperty));
    expect(copyButton(el).disabled).to.equal(true);
    el.setAttribute('headers', '{"Authorization": "Bearer abc"}');
    await el.updateComplete;
    expect(code(el)).to.contain('-H "Authorization: Bearer abc"');
  });

  it('explains a wrong kind of environments in place instead of throwing, and works once given an EnvironmentManager', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets"></code-snippet>`);
    // A likely slip: one environment, or the list of them, where the manager goes.
    for (const [wrong, described] of [[{ name: 'prod', variables: {} }, 'an object'], [[{ name: 'prod', variables: {} }], 'an array of 1']] as const) {
      (el as unknown as { environments: unknown }).environments = wrong;
      await el.updateComplete;
      expect(problem(el)).to.equal(`The environments property must be an EnvironmentManager (got ${described}).`);
      expect(copyButton(el).disabled).to.equal(true);
    }
    await expect(el).to.be.accessible();
    el.environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
    el.showValues = true;
    await el.updateComplete;
    expect(code(el)).to.equal('curl -X GET https://api.example/pets');
  });

  it('explains a generator it cannot use in place instead of rendering nothing, and works once given a SnippetGenerator', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
    (el as unknown as { generator: unknown }).generator = { languages: ['curl'] };
    await el.updateComplete;
    expect(problem(el)).to.equal('The generator property must be a SnippetGenerator (got an object).');
    expect(tabs(el)).to.have.length(0);
    // What Vue's ref() or reactive() makes of one: its methods run on the proxy, which lacks the #private fields.
    el.generator = new Proxy(new SnippetGenerator({ languages: ['python'] }), {});
    await el.updateComplete;
    expect(problem(el)).to.match(/^The generator property cannot be used \(TypeError: .*\): a framework's reactive proxy of a SnippetGenerator .* Pass the SnippetGenerator itself: markRaw\(generator\)\.$/);
    await expect(el).to.be.accessible();
    el.generator = new SnippetGenerator({ languages: ['python'] });
    await el.updateComplete;
    expect(problem(el)).to.equal(null);
    expect(tabs(el).map((tab) => tab.textContent!.trim())).to.deep.equal(['Python']);
    expect(code(el)).to.contain('import requests');
  });

  it('explains a request that cannot be written as a snippet', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .headers=${{ 'X-A': 'one\r\nX-B: two' }}></code-snippet>`);
    expect(el.shadowRoot!.querySelector('.problem')!.textContent).to.match(/No snippet for this request: .*line break/);
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.disabled).to.equal(true);
  });

  it('renders hostile values as text', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet method="POST" url="https://api.example/pets" .headers=${{ 'X-Evil': HOSTILE }} body=${HOSTILE}></code-snippet>`);
    for (const tab of tabs(el)) {
      tab.click();
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[role="tabpanel"] img, [role="tabpanel"] script, [role="tabpanel"] a')).to.equal(null);
    }
    await expectNothingRan();
  });

  it('shows the problem its host gives instead of the request, and the code again once the problem is gone', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets" .problem=${'The header X-A appears in two rows.'}></code-snippet>`);
    expect(el.shadowRoot!.querySelector('.problem')!.textContent).to.equal('No snippet for this request: The header X-A appears in two rows.');
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.disabled).to.equal(true);
    el.problem = undefined;
    await el.updateComplete;
    expect(code(el)).to.equal('curl -X GET https://api.example/pets');
  });
});
