// The console's query parameter rows: the URL's query read as rows of name and value, and edits in either written to
// the same URL, every other character as typed.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const urlField = (el: TryItConsole) => $<HTMLInputElement>(el, '#url');
const rows = (el: TryItConsole) =>
  [...el.shadowRoot!.querySelectorAll('.parameter-row')].map((row) => [...row.querySelectorAll<HTMLInputElement>('input')].map((input) => input.value));
const field = (el: TryItConsole, row: number, which: 'name' | 'value') => el.shadowRoot!.querySelectorAll<HTMLInputElement>(`.parameter-row input.${which}`)[row]!;
const config = { environments: [{ name: 'Local', variables: { base_url: 'https://api.example', limit: '10', 'a&b': 'AB', 'c#d': 'CD' } }], history: { enabled: false } };

/** Types `text` at the end of `input`, from the keyboard. */
async function typeInto(el: TryItConsole, input: HTMLInputElement, text: string): Promise<void> {
  input.focus();
  input.setSelectionRange(input.value.length, input.value.length);
  await sendKeys({ type: text });
  await el.updateComplete;
}

describe('<try-it-console> query parameters', () => {
  it('shows the URL’s query as rows, as written, placeholders, a part without "=" and the fragment left alone', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets?status=sold%20out&limit={{limit}}&debug&tag=a=b#top"></try-it-console>`);
    expect(rows(el)).to.deep.equal([['status', 'sold%20out'], ['limit', '{{limit}}'], ['debug', ''], ['tag', 'a=b']]);
    const none = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets#q?x=1"></try-it-console>`);
    expect(rows(none)).to.deep.equal([]);
  });

  it('writes an edited row back into the URL, encoding only what would end it, and follows edits of the URL field', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets?status=sold&debug#top"></try-it-console>`);
    await typeInto(el, field(el, 0, 'value'), ' & kept#1');
    expect(urlField(el).value).to.equal('{{base_url}}/pets?status=sold%20%26%20kept%231&debug#top');
    await typeInto(el, field(el, 1, 'value'), '1');
    expect(urlField(el).value).to.equal('{{base_url}}/pets?status=sold%20%26%20kept%231&debug=1#top');
    await typeInto(el, field(el, 1, 'name'), '=x');
    expect(urlField(el).value).to.equal('{{base_url}}/pets?status=sold%20%26%20kept%231&debug%3Dx=1#top');
    // The caret stays where the reader types: text typed in the middle of a name lands there.
    const name = field(el, 0, 'name');
    name.focus();
    name.setSelectionRange(1, 1);
    await sendKeys({ type: 'XY' });
    await el.updateComplete;
    expect(rows(el)[0]).to.deep.equal(['sXYtatus', 'sold%20%26%20kept%231']);
    urlField(el).value = '{{base_url}}/pets?page=2';
    urlField(el).dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect(rows(el)).to.deep.equal([['page', '2']]);
  });

  it('adds a parameter with ? or & before any fragment, focus on its name, and its name and value sent', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets#top"></try-it-console>`);
    $<HTMLButtonElement>(el, 'button.add-parameter').click();
    await el.updateComplete;
    await waitUntil(() => el.shadowRoot!.activeElement === field(el, 0, 'name'), 'focus on the new name');
    await sendKeys({ type: 'limit' });
    await typeInto(el, field(el, 0, 'value'), '{{limit}}');
    expect(urlField(el).value).to.equal('{{base_url}}/pets?limit={{limit}}#top');
    $<HTMLButtonElement>(el, 'button.add-parameter').click();
    await el.updateComplete;
    await sendKeys({ type: 'q' });
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/pets?limit={{limit}}&q#top');
    const shown = $(el, '[part="resolved-url"]').textContent!;
    expect(shown).to.contain('https://api.example/pets?limit=10&q#top');
  });

  it('removes a parameter, the ? too with the last, focus on the next ✕ or on Add parameter, and says so', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets?a=1&b=2#top"></try-it-console>`);
    const removes = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.remove-parameter')];
    expect(removes().map((button) => button.getAttribute('aria-label'))).to.deep.equal(['Remove parameter a', 'Remove parameter b']);
    removes()[0]!.click();
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/pets?b=2#top');
    expect(el.shadowRoot!.activeElement).to.equal(removes()[0]);
    await waitUntil(() => $(el, '.announcements').textContent === 'Removed the parameter a.', 'said to screen readers');
    removes()[0]!.click();
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/pets#top');
    expect(el.shadowRoot!.activeElement).to.equal($(el, 'button.add-parameter'));
    expect(rows(el)).to.deep.equal([]);
  });

  it('is accessible, its fields named after their row', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/pets?a=1"></try-it-console>`);
    expect([field(el, 0, 'name').getAttribute('aria-label'), field(el, 0, 'value').getAttribute('aria-label')]).to.deep.equal(['Parameter 1 name', 'Parameter 1 value']);
    await expect(el).to.be.accessible();
  });
});

/** Pastes `text` where focus is, with the keyboard, through the real clipboard. */
async function paste(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  await sendKeys({ down: 'Control' });
  await sendKeys({ press: 'KeyV' });
  await sendKeys({ up: 'Control' });
}

/** Clicks Add parameter and waits for the focus it moves. */
async function addParameter(el: TryItConsole): Promise<void> {
  $<HTMLButtonElement>(el, 'button.add-parameter').click();
  await el.updateComplete;
  await el.updateComplete;
}

describe('<try-it-console> query parameters, as a review typed, pasted and named them', () => {
  it('keeps the caret after an & or # typed inside a value or name, the next key landing there', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?status=soldout"></try-it-console>`);
    const value = field(el, 0, 'value');
    value.focus();
    value.setSelectionRange(4, 4);
    await sendKeys({ type: '&x' });
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/p?status=sold%26xout');
    expect(value.selectionStart).to.equal('sold%26x'.length);
  });

  it('writes a space, quotes and brackets percent-encoded, an escape typed by hand kept, so the snippet stays; placeholders typed, spaces and all, as typed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?q="></try-it-console>`);
    const value = field(el, 0, 'value');
    value.focus();
    await sendKeys({ type: 'new york %22x" [1] {{ limit }}' });
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=new%20york%20%22x%22%20%5B1%5D%20{{ limit }}');
    const snippet = $(el, 'code-snippet');
    await (snippet as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(snippet.shadowRoot!.querySelector('.problem'), 'no snippet problem').to.equal(null);
    expect(snippet.shadowRoot!.querySelector('pre code')!.textContent).to.contain('q=new%20york%20%22x%22%20%5B1%5D%20{{ limit }}');
    // Backspace through an escape leaves what is left as it is.
    value.setSelectionRange(6, 6);
    await sendKeys({ press: 'Backspace' });
    await el.updateComplete;
    expect(value.value.slice(0, 9)).to.equal('new%2york');
  });

  it('splits a query pasted into a name into rows, the caret at the end of the last value', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?a=1"></try-it-console>`);
    await addParameter(el);
    await paste('?page=2&limit={{limit}}');
    await el.updateComplete;
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/p?a=1&page=2&limit={{limit}}');
    expect(rows(el)).to.deep.equal([['a', '1'], ['page', '2'], ['limit', '{{limit}}']]);
    expect(el.shadowRoot!.activeElement).to.equal(field(el, 2, 'value'));
  });

  it('Add parameter on a URL ending in ? focuses its empty row, adding no &', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?"></try-it-console>`);
    await addParameter(el);
    expect(urlField(el).value).to.equal('{{base_url}}/p?');
    expect(el.shadowRoot!.activeElement).to.equal(field(el, 0, 'name'));
  });

  it('reads a placeholder holding & or # as one, and adds after it', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?x={{a&b}}&y={{c#d}}"></try-it-console>`);
    expect(rows(el)).to.deep.equal([['x', '{{a&b}}'], ['y', '{{c#d}}']]);
    await addParameter(el);
    expect(urlField(el).value).to.equal('{{base_url}}/p?x={{a&b}}&y={{c#d}}&');
  });
});

describe('<try-it-console> query parameters, as a final review left them', () => {
  it('splits a query pasted into a name with what the row held around it, its value going with the last name', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?page&status=sold"></try-it-console>`);
    const name = field(el, 0, 'name');
    name.focus();
    name.setSelectionRange(4, 4);
    await paste('=2&limit={{ limit }}');
    await el.updateComplete;
    expect(rows(el)).to.deep.equal([['page', '2'], ['limit', '{{ limit }}'], ['status', 'sold']]);
    const status = field(el, 2, 'name');
    status.focus();
    status.setSelectionRange(0, 0);
    await paste('a=1&b');
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/p?page=2&limit={{ limit }}&a=1&bstatus=sold');
  });

  it('writes a "%" followed by what no escape starts with as %25, one that may be an escape being typed as typed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?q="></try-it-console>`);
    await typeInto(el, field(el, 0, 'value'), '50%');
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=50%');
    await typeInto(el, field(el, 0, 'value'), ' off %2');
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=50%25%20off%20%2');
    await typeInto(el, field(el, 0, 'value'), '0');
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=50%25%20off%20%20');
  });

  it('rewrites only the half edited: the other stays as written in the URL field', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?filter[status]=sold out&x=1"></try-it-console>`);
    await typeInto(el, field(el, 0, 'value'), '!');
    expect(urlField(el).value).to.equal('{{base_url}}/p?filter[status]=sold%20out!&x=1');
  });

  it('leaves the text an input method composes alone when the console renders meanwhile, and writes it once chosen', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/p?q=a"></try-it-console>`);
    const value = field(el, 0, 'value');
    value.focus();
    value.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, composed: true }));
    value.value = 'ani hao';
    value.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, isComposing: true, data: 'ni hao' }));
    el.requestUpdate();
    await el.updateComplete;
    expect(value.value).to.equal('ani hao');
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=a');
    value.value = 'a你好';
    value.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, composed: true, data: '你好' }));
    await el.updateComplete;
    expect(urlField(el).value).to.equal('{{base_url}}/p?q=a你好');
  });
});
