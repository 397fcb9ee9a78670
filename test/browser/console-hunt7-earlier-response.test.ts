// Picking a history entry this console sent shows the response that send got, as it was shown then, marked as an
// earlier one ("Response of 10:42:03, from history; Send to send again.") until the reader edits or sends. It cleared
// the panel ("Send the request to see the response here."), so rows alike but for the status (POST /pets, twice) gave
// no hint of their bodies; each test failed on that code.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { MASK } from '../../src/components/url-credential-masking.js';
import type { ConsoleConfig } from '../../src/core/index.js';

let servers: { api: string; corsApi: string; proxy: string; closed: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);

function config(variables: Record<string, string> = {}): ConsoleConfig {
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Demo', variables: { base_url: servers.api, closed_url: servers.closed, ...variables } }],
    history: { enabled: true, storageKey: `console-hunt7-earlier-${Date.now()}-${Math.random()}` },
  };
}

/** The history's rows, newest first, once there are `count`. */
async function rows(el: TryItConsole, count: number): Promise<HTMLButtonElement[]> {
  // Looked up each time: a console added back renders its history anew.
  const entries = () => [...($<RequestHistory>(el, 'request-history')?.shadowRoot?.querySelectorAll<HTMLButtonElement>('button.entry') ?? [])];
  await waitUntil(() => entries().length === count, `${count} history rows`);
  return entries();
}

/** Picks a row as the reader does, and returns the time it shows. */
async function pick(el: TryItConsole, row: HTMLButtonElement): Promise<string> {
  row.click();
  await el.updateComplete;
  return row.querySelector('time')!.textContent!;
}

async function sendBody(el: TryItConsole, body: string): Promise<void> {
  el.body = body;
  await el.send();
  await el.updateComplete;
}

/** Waits for the announcement (said after a pause, so that it is heard again), and checks it. */
async function announced(el: TryItConsole, expected: string): Promise<void> {
  await waitUntil(() => text(el, '.announcements'), 'an announcement');
  expect(text(el, '.announcements')).to.equal(expected);
}

const text = (el: TryItConsole, selector: string) => $(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();

describe('<try-it-console> hunt 7: the response of a history entry it sent', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('shows the response of the send picked, marked as from history, and says so with what was loaded', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="POST" url="{{base_url}}/pets"></try-it-console>`);
    await sendBody(el, 'name=Rex');
    const rexStatus = text(el, '[part="status"] .status');
    await sendBody(el, 'name=Tom');
    const [tom, rex] = await rows(el, 2);

    const rexTime = await pick(el, rex!);
    expect(text(el, '[part="response-body"]')).to.contain('name=Rex').and.not.contain('name=Tom');
    expect(text(el, '[part="status"] .status')).to.equal(rexStatus);
    const note = `Response of ${rexTime}, from history; Send to send again.`;
    expect(text(el, '.earlier')).to.equal(note);
    // The row picked named its status; the note is said with the load.
    await announced(el, `Loaded POST /pets from history. ${note}`);
    await expect(el).to.be.accessible();
    // Said once, with the load: the status line's live region does not say it again.
    expect(text(el, '[role="status"]:not(.announcements)')).to.equal('');

    await pick(el, tom!);
    expect(text(el, '[part="response-body"]')).to.contain('name=Tom').and.not.contain('name=Rex');
  });

  it('lets the earlier response go at the first edit, and at a send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets?n=1"></try-it-console>`);
    await el.send();
    await pick(el, (await rows(el, 1))[0]!);
    expect(text(el, '[part="response-body"]')).to.contain('n=1');

    $<HTMLInputElement>(el, '#url')!.focus();
    await sendKeys({ type: '2' });
    await el.updateComplete;
    expect($(el, '.earlier'), 'the note').to.equal(null);
    expect($(el, '[part="response-body"]'), 'the earlier body').to.equal(null);
    expect(text(el, 'section.response p.muted')).to.equal('Send the request to see the response here.');

    // Picked again, then sent: the new response, unmarked.
    await pick(el, (await rows(el, 1))[0]!);
    expect($(el, '.earlier')).not.to.equal(null);
    await el.send();
    await el.updateComplete;
    expect($(el, '.earlier'), 'the note after Send').to.equal(null);
    expect(text(el, '[role="status"]:not(.announcements)')).to.match(/^Response 200/);
  });

  it('masks what was masked when it was sent, after the key was rotated', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config({ token: 'old-token-0042' })} url="{{base_url}}/redirect-keep?q={{token}}"></try-it-console>`);
    await el.send();
    await el.updateComplete;
    const redirected = `Redirected to ${servers.api}/landed?q=${MASK}&x=1`;
    expect(text(el, '[part="redirected"]')).to.equal(redirected);
    el.engine!.environments.add({ name: 'Demo', variables: { base_url: servers.api, closed_url: servers.closed, token: 'new-token-0042' } });
    el.url = '{{base_url}}/pets';
    await el.send();
    await pick(el, (await rows(el, 2))[1]!);
    expect(text(el, '[part="redirected"]')).to.equal(redirected);
  });

  it('shows a stream the reader cancelled as it was: its status, how much came, and that body', async () => {
    const id = `hunt7-${Date.now()}`;
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="${servers.corsApi}/stream?id=${id}"></try-it-console>`);
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers');
    await fetch(`${servers.corsApi}/stream-push?id=${id}&text=${encodeURIComponent('data: first event\n\n')}`);
    await waitUntil(() => text(el, '[part="response-body"]')?.includes('first event'), 'the event shown');
    el.cancel();
    await waitUntil(() => $(el, '.stopped'), 'the stream cancelled');
    const status = text(el, '[part="status"]');
    el.url = '{{base_url}}/pets';
    await el.send();
    const time = await pick(el, (await rows(el, 2))[1]!);
    expect(text(el, '[part="status"]')).to.equal(status);
    expect(text(el, '[part="response-body"]')).to.equal('data: first event');
    expect(text(el, '.earlier')).to.equal(`Response of ${time}, from history; Send to send again.`);
  });

  it('shows a failure as it was, not as a new alert', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{closed_url}}/pets"></try-it-console>`);
    await el.send();
    await el.updateComplete;
    const message = text(el, '[part="error"]');
    el.url = '{{base_url}}/pets';
    await el.send();
    const failed = (await rows(el, 2))[1]!;
    const time = await pick(el, failed);
    expect(text(el, '[part="error"]')).to.equal(message);
    expect($(el, '[part="error"]')!.getAttribute('role'), 'said with the load, not as an alert').to.equal(null);
    expect(text(el, '.earlier')).to.equal(`Failure of ${time}, from history; Send to send again.`);
    await announced(el, `Loaded GET /pets from history. Failure of ${time}, from history; Send to send again.`);
  });
});
