// What the console keeps of its sends to show again from history: memory only, the last 10, bodies up to 1 MiB (a
// larger one is said not to be kept), let go of with their entry (deleted, evicted) or the console; the download of
// one shown again works, and is revoked once it is let go of. Each test failed on the code that kept none (picking an
// entry cleared the panel).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { formatBytes } from '../../src/components/try-it-console/body-presentation.js';
import type { ConsoleConfig, ConsoleResponse } from '../../src/core/index.js';

let servers: { api: string; proxy: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);

function config(history: object = {}): ConsoleConfig {
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Demo', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey: `console-hunt7-kept-${Date.now()}-${Math.random()}`, ...history },
  };
}

/** The history's rows, newest first, once there are `count`. */
async function rows(el: TryItConsole, count: number): Promise<HTMLButtonElement[]> {
  // Looked up each time: a console added back renders its history anew.
  const entries = () => [...($<RequestHistory>(el, 'request-history')?.shadowRoot?.querySelectorAll<HTMLButtonElement>('button.entry') ?? [])];
  await waitUntil(() => entries().length === count, `${count} history rows`);
  return entries();
}

async function pick(el: TryItConsole, row: HTMLButtonElement): Promise<string> {
  row.click();
  await el.updateComplete;
  return row.querySelector('time')!.textContent!;
}

async function sendTo(el: TryItConsole, url: string): Promise<ConsoleResponse | undefined> {
  el.url = url;
  let response: ConsoleResponse | undefined;
  el.addEventListener('tic-response', (event) => (response = (event as Event & { response: ConsoleResponse }).response), { once: true });
  await el.send();
  await el.updateComplete;
  return response;
}

/** Waits for the announcement (said after a pause, so that it is heard again), and checks it. */
async function announced(el: TryItConsole, expected: string): Promise<void> {
  await waitUntil(() => text(el, '.announcements'), 'an announcement');
  expect(text(el, '.announcements')).to.equal(expected);
}

const text = (el: TryItConsole, selector: string) => $(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();
const EMPTY = 'Send the request to see the response here.';

describe('<try-it-console> hunt 7: the responses kept for history', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('lets a response go with its entry: the panel showing it empties, and the entry added back has none', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    await sendTo(el, '{{base_url}}/pets?n=first');
    await sendTo(el, '{{base_url}}/pets?n=second');
    const entry = el.engine!.history.list()[1]!;
    const first = (await rows(el, 2))[1]!;
    await pick(el, first);
    expect(text(el, '[part="response-body"]')).to.contain('n=first');

    // Its ✕, as the reader deletes it.
    first.parentElement!.querySelector<HTMLButtonElement>('button.delete')!.click();
    await rows(el, 1);
    await el.updateComplete;
    expect($(el, '.earlier'), 'the note').to.equal(null);
    expect(text(el, 'section.response p.muted')).to.equal(EMPTY);

    // The same entry (its id) added back by the page: the response was let go of.
    el.engine!.history.add(entry);
    await pick(el, (await rows(el, 2))[0]!);
    expect($(el, '[part="response-body"]')).to.equal(null);
    expect(text(el, 'section.response p.muted')).to.equal(EMPTY);
  });

  it('lets a response go when history evicts its entry, and keeps only the last 10 sends', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    for (let n = 0; n < 11; n += 1) await sendTo(el, `{{base_url}}/pets?n=${n}`);
    const all = await rows(el, 11);
    await pick(el, all[9]!);
    expect(text(el, '[part="response-body"]')).to.contain('n=1');
    await pick(el, all[10]!);
    expect($(el, '[part="response-body"]'), 'the 11th send back').to.equal(null);
    expect(text(el, 'section.response p.muted')).to.equal(EMPTY);

    const small = await fixture<TryItConsole>(html`<try-it-console .config=${config({ maxItems: 2 })}></try-it-console>`);
    await sendTo(small, '{{base_url}}/pets?n=a');
    await sendTo(small, '{{base_url}}/pets?n=b');
    const [, a] = await rows(small, 2);
    await pick(small, a!);
    expect(text(small, '[part="response-body"]')).to.contain('n=a');
    // A third send evicts n=a's entry: added back by the page, it has no response.
    const entry = small.engine!.history.list()[1]!;
    await sendTo(small, '{{base_url}}/pets?n=c');
    small.engine!.history.add(entry);
    await pick(small, (await rows(small, 2))[0]!);
    expect($(small, '[part="response-body"]')).to.equal(null);
  });

  it('does not keep a body over 1 MiB, and says so', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    const big = await sendTo(el, '{{base_url}}/big-json');
    expect(big!.size).to.be.above(1024 * 1024);
    await sendTo(el, '{{base_url}}/pets');
    const time = await pick(el, (await rows(el, 2))[1]!);
    expect($(el, '[part="response-body"]')).to.equal(null);
    const note = `The response of ${time} (${formatBytes(big!.size)}) is not kept: only those up to 1 MB are.`;
    expect(text(el, '.earlier')).to.equal(note);
    await announced(el, `Loaded GET /big-json from history. ${note}`);
    expect(text(el, 'section.response p.muted:not(.earlier)')).to.equal(EMPTY);
  });

  it('gives the response shown again a download that works, revoked once the response is let go of', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    await sendTo(el, '{{base_url}}/pets?n=kept');
    await sendTo(el, '{{base_url}}/pets?n=other');
    await pick(el, (await rows(el, 2))[1]!);
    const href = $<HTMLAnchorElement>(el, '[part="status"] a.download')!.href;
    expect(await (await fetch(href)).text()).to.contain('n=kept');

    el.engine!.history.delete(el.engine!.history.list()[1]!.id);
    await el.updateComplete;
    expect($(el, 'a.download')).to.equal(null);
    let revoked = false;
    await fetch(href).catch(() => (revoked = true));
    expect(revoked, 'the object URL revoked').to.equal(true);
  });

  it('lets its responses go when the console is removed', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
    await sendTo(el, '{{base_url}}/pets?n=before');
    await pick(el, (await rows(el, 1))[0]!);
    expect(text(el, '[part="response-body"]')).to.contain('n=before');
    await el.engine!.history.flush();

    const parent = el.parentElement!;
    el.remove();
    await new Promise((resolve) => setTimeout(resolve));
    expect($(el, '[part="response-body"]'), 'the panel let go of it').to.equal(null);
    // Added back (a framework's keep-alive): the entry is read again from storage, its response is not kept.
    parent.append(el);
    await pick(el, (await rows(el, 1))[0]!);
    expect($(el, '[part="response-body"]')).to.equal(null);
    expect(text(el, 'section.response p.muted')).to.equal(EMPTY);
  });
});
