// The request editor of <try-it-console> as keyboard and screen-reader users meet it: held keys, pasted headers,
// the names of the header rows' controls, what the URL field is described by, and the method picker.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicBeforeSendEvent, TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

let servers: { api: string; proxy: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const rows = (el: TryItConsole) => [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => [...row.querySelectorAll<HTMLInputElement>('input.name, input.value')].map((input) => input.value).join(': '));
const notes = (el: TryItConsole) => [...el.shadowRoot!.querySelectorAll('.notice')].map((note) => note.textContent);

function config(): ConsoleConfig {
  run += 1;
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey: `console-editor-keyboard-${Date.now()}-${run}` },
  };
}

/** Pastes `text` where focus is, with the keyboard, through the real clipboard. */
async function paste(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  await sendKeys({ down: 'Control' });
  await sendKeys({ press: 'KeyV' });
  await sendKeys({ up: 'Control' });
}

describe('<try-it-console> request editor, by keyboard and screen reader', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('sends once per press of Ctrl+Enter, however long it is held, and Enter held on Send does not cancel the send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/held"></try-it-console>`);
    let sends = 0;
    el.addEventListener('tic-before-send', () => { sends += 1; });
    el.focus();
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ down: 'Enter' });
    await response;
    await el.updateComplete;
    // Held down, the key repeats: keydown events with `repeat` set.
    await sendKeys({ down: 'Enter' });
    await sendKeys({ down: 'Enter' });
    await sendKeys({ up: 'Enter' });
    await sendKeys({ up: 'Control' });
    await el.updateComplete;
    expect(sends, 'one press, one send').to.equal(1);

    el.url = '{{base_url}}/hold';
    await el.updateComplete;
    // The send's signal, which a press of Cancel aborts at once.
    const engine = el.engine!;
    const execute = engine.execute.bind(engine);
    let signal: AbortSignal | undefined;
    engine.execute = (request, options) => {
      signal = options?.signal;
      return execute(request, options);
    };
    $(el, '[part="send-button"]').focus();
    await sendKeys({ down: 'Enter' });
    await el.updateComplete;
    expect($(el, '[part="cancel-button"]')).to.exist;
    await sendKeys({ down: 'Enter' });
    await sendKeys({ up: 'Enter' });
    expect([sends, signal?.aborted], 'still sending').to.deep.equal([2, false]);
    const cancelled = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await sendKeys({ press: 'Enter' });
    expect((await cancelled).error.kind, 'a press of its own cancels').to.equal('aborted');
  });

  it('splits a pasted “Name: value” into the row’s name and value, a row per line', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pasted"></try-it-console>`);
    $(el, 'button.add-header').focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    await paste('Authorization: Bearer abc ');
    await el.updateComplete;
    expect(rows(el)).to.deep.equal(['Authorization: Bearer abc']);
    // The caret goes where typing would have left it: after the value pasted, in the last row pasted.
    // The value, with the caret at its end, of the field that has focus: undefined unless that is a value field.
    const focusedValue = () => {
      const field = el.shadowRoot!.activeElement as HTMLInputElement | null;
      if (!field?.matches('input.value')) return undefined;
      expect([field.selectionStart, field.selectionEnd], 'the caret at the end').to.deep.equal([field.value.length, field.value.length]);
      return field.value;
    };
    expect(focusedValue(), 'focus on the value pasted').to.equal('Bearer abc');
    $(el, 'button.add-header').click();
    await el.updateComplete;
    await paste('Accept: application/json\r\nX-Trace:\n{{client_header}}: docs\n');
    await el.updateComplete;
    expect(rows(el)).to.deep.equal(['Authorization: Bearer abc', 'Accept: application/json', 'X-Trace: ', '{{client_header}}: docs']);
    expect(focusedValue(), 'focus on the last value pasted').to.equal('docs');
    // Anything else is pasted as it is: a plain name, or a URL (whose colon is no header's).
    $(el, 'button.add-header').click();
    await el.updateComplete;
    await paste('https://api.example.com/pets');
    await el.updateComplete;
    expect(rows(el).at(-1)).to.equal('https://api.example.com/pets: ');
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.remove')[4]!.click();
    el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.remove')[3]!.click();
    await el.updateComplete;
    await el.send();
    const echoed = JSON.parse((await response).response.text);
    expect([echoed.headers.authorization, echoed.headers.accept, echoed.headers['x-trace']]).to.deep.equal(['Bearer abc', 'application/json', '']);
  });

  it('says a header row with a value but no name is not sent', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ Accept: '*/*' }}></try-it-console>`);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    expect(notes(el), 'an empty row says nothing').to.deep.equal([]);
    const value = el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input.value')[1]!;
    value.focus();
    await sendKeys({ type: 'Bearer abc' });
    await el.updateComplete;
    expect(notes(el)).to.deep.equal(['Header 2 has a value but no name, so it is not sent.']);
    await expect(el).to.be.accessible();
  });

  it('names each header row’s switch and ✕ after its header', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ Accept: '*/*', Authorization: 'Bearer abc' }}></try-it-console>`);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    const labels = () => [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => [...row.querySelectorAll('input[type="checkbox"], button.remove')].map((control) => control.getAttribute('aria-label')));
    expect(labels()).to.deep.equal([
      ['Send header Accept', 'Remove header Accept'],
      ['Send header Authorization', 'Remove header Authorization'],
      ['Send header 3', 'Remove header 3'],
    ]);
  });

  it('describes the URL field as having unresolved variables only when the URL has some', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ 'X-Key': '{{not_defined}}' }}></try-it-console>`);
    const url = $<HTMLInputElement>(el, '[part="url"]');
    const description = () => {
      const id = url.getAttribute('aria-describedby');
      return id === null ? null : el.shadowRoot!.getElementById(id)?.textContent ?? `(no element #${id})`;
    };
    expect(description(), 'the header’s variable is not the URL’s').to.equal(null);
    el.url = 'https://api.example.com/pets';
    await el.updateComplete;
    expect(description()).to.equal(null);
    el.url = '{{base_url}}/pets/{{not_defined}}';
    await el.updateComplete;
    expect(description()).to.equal('not_defined is not defined in the active environment.');
  });

  it('keeps a custom method in the picker after another was picked, shown as it is sent', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="purge" url="{{base_url}}/cache"></try-it-console>`);
    const method = $<HTMLSelectElement>(el, '[part="method"]');
    const options = () => [...method.options].map((option) => option.text);
    expect([options().at(-1), method.value]).to.deep.equal(['PURGE', 'PURGE']);
    method.focus();
    await sendKeys({ press: 'Home' });
    await el.updateComplete;
    expect(method.value).to.equal('GET');
    expect(options().at(-1), 'still offered').to.equal('PURGE');
    await sendKeys({ press: 'End' });
    await el.updateComplete;
    const sent = oneEvent<TicBeforeSendEvent>(el, 'tic-before-send');
    el.addEventListener('tic-before-send', (event) => event.preventDefault(), { once: true });
    void el.send();
    expect((await sent).request.method).to.equal('PURGE');
    // A history entry of a custom method stays offered too, once the user has picked another.
    el.load({ method: 'MKCOL', url: `${servers.api}/dav`, headers: {}, body: '' });
    await el.updateComplete;
    method.value = 'POST';
    method.dispatchEvent(new Event('change'));
    await el.updateComplete;
    expect(options().slice(-2), 'the page’s operation’s, and the entry’s').to.deep.equal(['PURGE', 'MKCOL']);
  });
});
