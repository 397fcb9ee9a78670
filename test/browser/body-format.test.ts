// The body editor's Format JSON button: the body laid out with its values and {{placeholders}} as typed, as an edit
// the reader can undo, or a note saying why it is not JSON.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const body = (el: TryItConsole) => $<HTMLTextAreaElement>(el, '#body')!;
const formatButton = (el: TryItConsole) => $<HTMLButtonElement>(el, '.format-body');
const notes = (el: TryItConsole) => [...el.shadowRoot!.querySelectorAll('.notice')].map((note) => note.textContent!.trim());
const announced = (el: TryItConsole) => $(el, '.announcements')!.textContent!.trim();
const config = { environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:9', id: '7' } }], history: { enabled: false } };

/** Types `text` into the body field from the keyboard, replacing what it holds. */
async function typeBody(el: TryItConsole, text: string): Promise<void> {
  body(el).focus();
  body(el).select();
  await sendKeys({ type: text });
  await el.updateComplete;
}

describe('<try-it-console> Format JSON', () => {
  it('lays out a JSON body, placeholders kept, and Ctrl+Z puts the body back as typed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/pets"></try-it-console>`);
    await typeBody(el, '{"id":{{id}},"price":1.10,"tags":["a"]}');
    formatButton(el)!.click();
    await el.updateComplete;
    const laidOut = '{\n  "id": {{id}},\n  "price": 1.10,\n  "tags": [\n    "a"\n  ]\n}';
    expect(body(el).value).to.equal(laidOut);
    expect(el.shadowRoot!.activeElement).to.equal(body(el));
    await waitUntil(() => announced(el) === 'Formatted the body as JSON.', 'said to screen readers');
    // The request sent and shown in the snippet is the laid-out body.
    const snippet = el.shadowRoot!.querySelector('code-snippet')!;
    await (snippet as unknown as { updateComplete: Promise<unknown> }).updateComplete;
    expect(snippet.shadowRoot!.querySelector('pre code')!.textContent).to.contain('"price": 1.10');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'KeyZ' });
    await sendKeys({ up: 'Control' });
    await el.updateComplete;
    expect(body(el).value).to.equal('{"id":{{id}},"price":1.10,"tags":["a"]}');
    expect(snippet.shadowRoot!.querySelector('pre code')!.textContent).not.to.contain('"price": 1.10');
  });

  it('says why a body is not JSON and leaves it as typed, the note gone once the body changes', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/pets"></try-it-console>`);
    await typeBody(el, '{"name": "Rex",}');
    formatButton(el)!.click();
    await el.updateComplete;
    expect(body(el).value).to.equal('{"name": "Rex",}');
    const note = notes(el).find((text) => text.startsWith('Not formatted'));
    expect(note).to.match(/^Not formatted: the body is not valid JSON \(.*position 15.*\)\.$/);
    await waitUntil(() => announced(el) === note, 'said to screen readers');
    await typeBody(el, '{"name": "Rex"}');
    expect(notes(el).filter((text) => text.startsWith('Not formatted'))).to.deep.equal([]);
  });

  it('formats a long body at once, as a value Ctrl+Z cannot undo, and says so (inserted as an edit, it took minutes)', async () => {
    const long = JSON.stringify(Array.from({ length: 2_000 }, (_, id) => ({ id, name: `pet ${id}`, tags: ['a', 'b'] })));
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/pets" .body=${long}></try-it-console>`);
    formatButton(el)!.click();
    await el.updateComplete;
    expect(body(el).value.split('\n').length).to.equal(2_000 * 8 + 2);
    expect(body(el).value).to.equal(JSON.stringify(JSON.parse(long), null, 2));
    const note = 'Formatted as JSON; too long a layout for Ctrl+Z to undo.';
    expect(notes(el)).to.include(note);
    await waitUntil(() => announced(el) === note, 'said to screen readers');
    // The note goes with the next edit.
    await typeBody(el, '[1]');
    expect(notes(el)).not.to.include(note);
  });

  it('offers Format JSON only for a body that starts as a JSON object or array', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} method="POST" url="{{base_url}}/pets" body="name=Rex"></try-it-console>`);
    expect(formatButton(el)).to.equal(null);
    for (const [text, offered] of [['  [1,2]', true], ['{"a":1}', true], ['{{payload}}', false], ['plain text', false]] as const) {
      el.body = text;
      await el.updateComplete;
      expect(formatButton(el) !== null, text).to.equal(offered);
    }
    await expect(el).to.be.accessible();
  });
});
