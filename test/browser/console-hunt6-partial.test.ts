// What a body that stopped part-way had sent (a stream cancelled by Cancel, Escape or cancel(), a body that timed out or
// broke off) can be copied and downloaded, as a complete body can: the file is marked partial in its name, and both
// are named for screen readers as the body as far as it came.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent } from '../../src/events/index.js';

let servers: { api: string; corsApi: string; proxy: string };
let streams = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const text = (el: Element, selector: string) => $(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();

async function fixtureFor(url: string, extra: Partial<ConsoleConfig> = {}): Promise<TryItConsole> {
  return fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false }, ...extra }} url=${url}></try-it-console>`);
}

/** A console sending to a new stream of the CORS API, `part` written to it, waiting until it is shown. */
async function streamed(part: string, type = 'text/event-stream'): Promise<TryItConsole> {
  streams += 1;
  const id = `hunt6-${Date.now()}-${streams}`;
  const el = await fixtureFor(`${servers.corsApi}/stream?id=${id}&type=${encodeURIComponent(type)}`);
  void el.send();
  await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
  const pushed = await fetch(`${servers.corsApi}/stream-push?id=${id}&text=${encodeURIComponent(part)}`);
  expect(pushed.status).to.equal(204);
  await waitUntil(() => $(el, '[part="status"]')?.textContent?.includes(`${new TextEncoder().encode(part).byteLength} B so far`), 'the part shown', { timeout: 5000 });
  return el;
}

/** Ends `el`'s send with `how`, and waits for the failure to be shown. */
async function stop(el: TryItConsole, how: () => unknown): Promise<void> {
  const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
  await how();
  expect((await failed).error.kind).to.equal('aborted');
  await el.updateComplete;
}

async function downloaded(link: HTMLAnchorElement): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(link.href)).arrayBuffer());
}

describe('<try-it-console> hunt 6: Copy and Download of a body that stopped part-way', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  const ways: [string, (el: TryItConsole) => unknown][] = [
    ['the Cancel button', (el) => $(el, '[part="cancel-button"]')!.click()],
    ['Escape', async (el) => {
      $<HTMLInputElement>(el, '#url')!.focus();
      await sendKeys({ press: 'Escape' });
    }],
    ['cancel()', (el) => el.cancel()],
  ];
  for (const [way, how] of ways) {
    it(`offers Copy and Download beside the status of a stream cancelled by ${way}`, async () => {
      const el = await streamed('data: one\n\n');
      await stop(el, () => how(el));
      expect(text(el, '[part="status"] .stopped')).to.equal('Cancelled after 11 B');
      const copy = $<HTMLButtonElement>(el, '[part="status"] [part="copy-body-button"]')!;
      const download = $<HTMLAnchorElement>(el, '[part="status"] a.download')!;
      expect([copy.textContent!.trim(), copy.getAttribute('aria-label')]).to.deep.equal(['Copy', 'Copy the body as far as it came']);
      expect([download.textContent, download.getAttribute('aria-label')]).to.deep.equal(['Download', 'Download the body as far as it came (stream-partial.txt, 11 B)']);
      expect(download.getAttribute('download'), 'marked partial').to.equal('stream-partial.txt');
      expect(new TextDecoder().decode(await downloaded(download))).to.equal('data: one\n\n');

      copy.click();
      await waitUntil(() => copy.textContent!.trim() === 'Copied', 'the button says it copied');
      expect(await navigator.clipboard.readText()).to.equal('data: one\n\n');
      expect(copy.getAttribute('aria-label'), 'its visible label still starts its name').to.equal('Copied the body as far as it came');
      await waitUntil(() => text(el, '.announcements') === 'Copied the body as far as it came.', 'announced');
    });
  }

  it('offers Download alone of binary data that stopped part-way', async () => {
    const el = await streamed('\u0000\u0001\u0002', 'application/octet-stream');
    await stop(el, () => el.cancel());
    expect($(el, '[part="copy-body-button"]'), 'nothing shown as text to copy').to.equal(null);
    const download = $<HTMLAnchorElement>(el, '[part="status"] a.download')!;
    expect(download.getAttribute('download')).to.equal('stream-partial.bin');
    expect([...(await downloaded(download))]).to.deep.equal([0, 1, 2]);
  });

  it('offers Copy and Download of what had come when the body timed out', async () => {
    const el = await fixtureFor(`${servers.api}/panel/events-forever`, { timeout: 1000 });
    await el.send();
    await el.updateComplete;
    expect(text(el, '.error-title')).to.equal('Timed out during the response');
    expect(text(el, '.partial'), 'the line says what came, as before').to.equal('22 B had come:');
    const line = $(el, '.partial-line')!;
    const download = line.querySelector<HTMLAnchorElement>('a.download')!;
    expect(download.getAttribute('download')).to.equal('events-forever-partial.txt');
    expect(new TextDecoder().decode(await downloaded(download))).to.equal('data: one\n\ndata: two\n\n');
    line.querySelector<HTMLButtonElement>('[part="copy-body-button"]')!.click();
    await waitUntil(() => text(el, '.announcements') === 'Copied the body as far as it came.', 'announced');
    expect(await navigator.clipboard.readText()).to.equal('data: one\n\ndata: two\n\n');
    // Outside the alert, which screen readers read whole.
    expect(el.shadowRoot!.querySelector('[role="alert"] a, [role="alert"] button')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('offers Copy and Download of what had come when the body broke off, and lets go of the file with the next send', async () => {
    const el = await fixtureFor(`${servers.corsApi}/cut`, { corsProxy: undefined });
    await el.send();
    await el.updateComplete;
    expect(text(el, '.error-title')).to.equal('Response broke off');
    const download = $<HTMLAnchorElement>(el, '.partial-line a.download')!;
    expect(download.getAttribute('download')).to.equal('cut-partial.txt');
    expect(download.getAttribute('aria-label')).to.equal('Download the body as far as it came (cut-partial.txt, 100 B)');
    const href = download.href;
    expect(new TextDecoder().decode(await downloaded(download))).to.equal('x'.repeat(100));
    expect($(el, '.partial-line [part="copy-body-button"]')).to.not.equal(null);

    el.url = `${servers.corsApi}/pets`;
    await el.updateComplete;
    await el.send();
    await el.updateComplete;
    let revoked = false;
    await fetch(href).catch(() => (revoked = true));
    expect(revoked, 'the partial body’s object URL revoked').to.equal(true);
  });
});
