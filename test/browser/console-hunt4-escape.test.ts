// A keyboard review of the demo: Escape while a request was in flight did nothing; the reader had to Tab to Cancel.
// Escape cancels it now from anywhere in the console, unless an element inside claims Escape first (an edit in the
// environment panel, the history's Clear all question), which still works as before.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

let servers: { corsApi: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const sending = (el: TryItConsole) => !!el.shadowRoot!.querySelector('[part="cancel-button"]');
/** The element focused inside `el`'s shadow tree, through nested ones. */
function deepFocused(root: Element): Element | null {
  let focused = root.shadowRoot!.activeElement;
  while (focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return focused;
}

/** A console on an API whose event stream stays open: a send stays in flight until cancelled. */
async function consoleInFlight(history = false) {
  run += 1;
  const config = {
    environments: [{ name: 'Local', variables: { base_url: servers.corsApi } }],
    history: history ? { enabled: true, storageKey: `console-hunt4-escape-${Date.now()}-${run}` } : { enabled: false },
  };
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="/stream?id=hunt4-escape-${Date.now()}-${run}"></try-it-console>`);
  return el;
}

async function startSending(el: TryItConsole) {
  void el.send();
  await waitUntil(() => sending(el), 'in flight');
}

/** Presses Escape, and waits for the send it cancels to end as aborted. */
async function escapeCancels(el: TryItConsole) {
  let ended: TicRequestErrorEvent | undefined;
  el.addEventListener('tic-request-error', (event) => (ended = event), { once: true });
  await sendKeys({ press: 'Escape' });
  await waitUntil(() => ended, 'cancelled by Escape');
  expect(ended!.error.kind).to.equal('aborted');
}

describe('<try-it-console> Escape (hunt 4)', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('cancels the request in flight from a field of the console, as Cancel does, and goes no further', async () => {
    const el = await consoleInFlight();
    await startSending(el);
    let heardOutside: KeyboardEvent | undefined;
    const listen = (event: KeyboardEvent) => (heardOutside = event);
    document.addEventListener('keydown', listen);
    el.focus();
    await escapeCancels(el);
    document.removeEventListener('keydown', listen);
    await el.updateComplete;
    expect(sending(el), 'Send again').to.equal(false);
    // A dialog around the console would have closed too.
    expect(heardOutside, 'stopped in the console').to.equal(undefined);
  });

  it('is left alone while nothing is in flight, for a dialog around the console', async () => {
    const el = await consoleInFlight();
    const heard = new Promise<KeyboardEvent>((resolve) => document.addEventListener('keydown', resolve, { once: true }));
    el.focus();
    await sendKeys({ press: 'Escape' });
    expect((await heard).defaultPrevented).to.equal(false);
  });

  it('ends an edit in the environment panel first, the request going on; pressed again, cancels it', async () => {
    const el = await consoleInFlight();
    await startSending(el);
    const picker = $<EnvPicker>(el, 'env-picker');
    picker.editVariable('api_key');
    await picker.updateComplete;
    await waitUntil(() => deepFocused(el)?.matches('.value-input'), 'editing');
    await sendKeys({ type: 'typed' });
    await sendKeys({ press: 'Escape' });
    await picker.updateComplete;
    expect(picker.shadowRoot!.querySelector('.value-input'), 'the edit ended').to.equal(null);
    expect(el.engine!.environments.active()!.variables.api_key, 'not set').to.equal(undefined);
    await el.updateComplete;
    expect(sending(el), 'still in flight').to.equal(true);

    await escapeCancels(el);
    expect($(el, '[part="send-button"]').title, 'Send again').not.to.contain('Escape');
  });

  it('names Escape in Cancel’s tooltip', async () => {
    const el = await consoleInFlight();
    await startSending(el);
    expect($(el, '[part="cancel-button"]').title).to.equal('Cancel the request (Escape)');
    el.cancel();
  });

  it('closes the history’s Clear all question first, the request going on; pressed again, cancels it', async () => {
    const el = await consoleInFlight(true);
    const url = $<HTMLInputElement>(el, '#url').value;
    // An entry to clear: a request that completes.
    el.url = '/pets';
    await el.updateComplete;
    const answered = oneEvent(el, 'tic-response') as Promise<TicResponseEvent>;
    void el.send();
    await answered;
    el.url = url;
    await el.updateComplete;
    await startSending(el);

    const history = $<RequestHistory>(el, 'request-history');
    await waitUntil(() => history.shadowRoot!.querySelector<HTMLButtonElement>('button.clear:not([disabled])'), 'an entry to clear');
    history.shadowRoot!.querySelector<HTMLButtonElement>('button.clear')!.focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => history.shadowRoot!.querySelector('.confirm') && deepFocused(el)?.matches('.cancel'), 'asked, the safe answer focused');
    await sendKeys({ press: 'Escape' });
    await history.updateComplete;
    expect(history.shadowRoot!.querySelector('.confirm'), 'the question closed').to.equal(null);
    expect(el.engine!.history.list().length, 'nothing cleared').to.equal(1);
    await el.updateComplete;
    expect(sending(el), 'still in flight').to.equal(true);

    el.focus();
    await escapeCancels(el);
  });
});
