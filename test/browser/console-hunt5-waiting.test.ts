// While no response has come, the seconds waited are shown beside "Waiting for the response…": shown, not said (the
// live status line stays "Sending…"), and gone once the response or a failure arrives.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

let servers: { api: string; proxy: string };

const elapsed = (el: TryItConsole) => el.shadowRoot!.querySelector<HTMLElement>('[part="response"] .elapsed');
const liveStatus = (el: TryItConsole) => el.shadowRoot!.querySelector('[part="response"] [role="status"]')!.textContent!.trim();

/** A console sending, through the real proxy, to `path` of the loopback API: /hold never answers, /slow after 4 s. */
async function sending(path: string): Promise<TryItConsole> {
  const config = { corsProxy: servers.proxy, history: { enabled: false } };
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="${servers.api}${path}"></try-it-console>`);
  void el.send();
  await el.updateComplete;
  return el;
}

describe('<try-it-console> hunt 5: the seconds waited for a response', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('counts the seconds while waiting, outside what screen readers hear, and stops when the send fails (cancelled)', async () => {
    const el = await sending('/hold');
    expect(el.shadowRoot!.querySelector('[part="response"]')!.textContent).to.contain('Waiting for the response…');
    await waitUntil(() => elapsed(el), 'the seconds shown', { timeout: 5000 });
    const counter = elapsed(el)!;
    expect(counter.textContent).to.match(/^\d+ s$/);
    expect(counter.getAttribute('aria-hidden'), 'not read out').to.equal('true');
    expect(counter.closest('[aria-live], [role="status"], [role="alert"]'), 'outside the live regions').to.equal(null);
    // The next second is shown in place; the status line still says what it said.
    const first = counter.textContent;
    await waitUntil(() => elapsed(el)?.textContent !== first, 'the next second', { timeout: 5000 });
    expect(elapsed(el)!.textContent).to.match(/^\d+ s$/);
    expect(liveStatus(el)).to.equal('Sending…');

    const failed = oneEvent(el, 'tic-request-error') as Promise<TicRequestErrorEvent>;
    el.cancel();
    expect((await failed).error.kind).to.equal('aborted');
    await el.updateComplete;
    expect(elapsed(el), 'gone with the failure').to.equal(null);
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent).to.contain('Cancelled');
  });

  it('is gone once the response arrives, and starts again from nothing for the next send', async () => {
    const el = await sending('/slow');
    await waitUntil(() => elapsed(el), 'the seconds shown', { timeout: 5000 });
    const responded = oneEvent(el, 'tic-response') as Promise<TicResponseEvent>;
    expect((await responded).response.status).to.equal(200);
    await el.updateComplete;
    expect(elapsed(el), 'gone with the response').to.equal(null);
    expect(el.shadowRoot!.querySelector('[part="status"]')!.textContent).to.contain('200');

    // A send answered at once shows no count: the next wait does not carry on from the last.
    el.url = `${servers.api}/pets`;
    await el.updateComplete;
    void el.send();
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="response"]')!.textContent).to.contain('Waiting for the response…');
    expect(elapsed(el), 'nothing counted yet').to.equal(null);
  });
});
