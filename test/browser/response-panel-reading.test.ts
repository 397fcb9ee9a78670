// The response panel against bodies and headers that are not what they say: a stream that never ends, JSON that is
// not JSON, bytes that are not UTF-8, and UTF-8 where fetch hands over one character per byte.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';

interface TestServers {
  api: string;
  corsApi: string;
  proxy: string;
}

let servers: TestServers;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const text = (el: Element, selector: string) => el.shadowRoot!.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();
const notes = (el: Element) => [...el.shadowRoot!.querySelectorAll('.response .notice')].map((note) => note.textContent!.replace(/\s+/g, ' ').trim());

function config(extra: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return { corsProxy: servers.proxy, history: { enabled: false }, ...extra };
}

async function sent(url: string, extra: Partial<ConsoleConfig> = {}): Promise<TryItConsole> {
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config(extra)} url=${url}></try-it-console>`);
  const done = Promise.race([oneEvent<TicResponseEvent>(el, 'tic-response'), oneEvent<TicRequestErrorEvent>(el, 'tic-request-error')]);
  $(el, '[part="send-button"]').click();
  await done;
  await el.updateComplete;
  return el;
}

/** The corsApi's /bytes route: exactly these bytes, with this Content-Type. */
function bytesUrl(type: string, ...parts: (string | number[])[]): string {
  const bytes = parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part));
  return `${servers.corsApi}/bytes?type=${encodeURIComponent(type)}&hex=${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

describe('<try-it-console> response panel: reading what came', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('says a send cancelled while its body arrived was cancelled, not "Response broke off"', async () => {
    const realFetch = window.fetch;
    let headersArrived!: () => void;
    const arrived = new Promise<void>((resolve) => { headersArrived = resolve; });
    // The real fetch, telling the test when the response headers are in: the console is then reading the body.
    window.fetch = async (...args) => {
      const response = await realFetch(...args);
      headersArrived();
      return response;
    };
    try {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="${servers.api}/panel/events-forever"></try-it-console>`);
      const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
      $(el, '[part="send-button"]').click();
      await arrived;
      el.cancel();
      expect((await failed).error.kind).to.equal('aborted');
      await el.updateComplete;
      // The response had started: shown, said to be cancelled, with no failure's title.
      expect(text(el, '[part="status"] .stopped')).to.match(/^Cancelled after \d+ B$/);
      expect(el.shadowRoot!.querySelectorAll('.error-title').length).to.equal(0);
    } finally {
      window.fetch = realFetch;
    }
  });

  it('shows what an event stream that never ends had sent when the timeout ran out', async () => {
    const el = await sent(`${servers.api}/panel/events-forever`, { timeout: 1000 });
    expect(text(el, '.error-title')).to.equal('Timed out during the response');
    expect(text(el, '.partial')).to.equal('22 B had come:');
    expect($(el, '[part="response-body"] pre').textContent).to.equal('data: one\n\ndata: two\n\n');
    // Outside the alert, which screen readers read whole.
    expect(el.shadowRoot!.querySelector('[role="alert"] [part="response-body"]')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('says why a body sent as JSON is shown unformatted when it is not JSON', async () => {
    // A NUL after the document, as some embedded servers send: invisible, and JSON.parse refuses it.
    const trailing = await sent(bytesUrl('application/json; charset=utf-8', '{"ok":true}', [0]));
    // The parser's own words, which vary between browser versions, say where.
    expect(notes(trailing)).to.have.length(1);
    expect(notes(trailing)[0]).to.match(/^Not valid JSON, though sent as application\/json: .*\bposition 11\b.*\.$/);
    expect($(trailing, '[part="response-body"] pre').textContent).to.equal('{"ok":true}\u0000');
    await expect(trailing).to.be.accessible();
    const blank = await sent(bytesUrl('application/problem+json', ' '));
    expect(notes(blank)).to.have.length(1);
    expect(notes(blank)[0]).to.match(/^Not valid JSON, though sent as application\/problem\+json: /);
    const valid = await sent(bytesUrl('application/vnd.api+json', '{"data":[]}'));
    expect(notes(valid)).to.deep.equal([]);
    expect($(valid, '[part="response-body"] pre').textContent).to.equal('{\n  "data": []\n}');
  });

  it('says when bytes of the body are not valid UTF-8, rather than showing � as if the server had sent it', async () => {
    const latin1 = [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]; // {"a":"é"} in ISO-8859-1
    const undeclared = await sent(bytesUrl('application/json', latin1));
    expect($(undeclared, '[part="response-body"] pre').textContent).to.equal('{\n  "a": "\ufffd"\n}');
    expect(notes(undeclared)).to.have.length(1);
    expect(notes(undeclared)[0]).to.match(/^Bytes shown as � are not valid UTF-8/);
    // Declared, it decodes; a U+FFFD the server really sent is no error.
    expect(notes(await sent(bytesUrl('application/json; charset=iso-8859-1', latin1)))).to.deep.equal([]);
    expect(notes(await sent(bytesUrl('text/plain', 'replacement: \ufffd')))).to.deep.equal([]);
  });

  it('does not say it shows the first part of binary data, which it does not show at all', async () => {
    const el = await sent(`${servers.api}/panel/300k-binary`);
    expect(text(el, '[part="response-body"]')).to.equal('Binary data (application/octet-stream, 300 KB).');
    expect(el.shadowRoot!.querySelector('.truncated')?.outerHTML).to.equal(undefined);
    const download = $<HTMLAnchorElement>(el, 'a.download');
    expect(download.getAttribute('download')).to.equal('300k-binary.bin');
    expect((await (await fetch(download.href)).arrayBuffer()).byteLength, 'the whole body').to.equal(300 * 1024);
    const tooLarge = await sent(`${servers.corsApi}/51m-binary`, { corsProxy: undefined });
    expect(text(tooLarge, '[part="response-body"]')).to.equal('Binary data (application/octet-stream, 51 MB), too large to download here.');
    expect(tooLarge.shadowRoot!.querySelector('.truncated')?.outerHTML).to.equal(undefined);
  });

  it('says a status without a reason phrase with no gap where the phrase would be', async () => {
    const el = await sent(`${servers.api}/panel/no-reason`);
    expect(text(el, '[part="status"] .status')).to.equal('200');
    expect(text(el, '[role="status"]')).to.match(/^Response 200 in \d+ milliseconds\.$/);
  });

  it('reads a reason phrase, header values and a download name sent in UTF-8 as UTF-8', async () => {
    const el = await sent(`${servers.api}/panel/utf8-bytes`);
    expect(text(el, '[part="status"] .status')).to.equal('201 Créé');
    expect(text(el, '[role="status"]')).to.match(/^Response 201 Créé in \d+ milliseconds\.$/);
    const headers = Object.fromEntries([...el.shadowRoot!.querySelectorAll('.response-headers tr')].map((row) => [row.querySelector('th')!.textContent, row.querySelector('td')!.textContent]));
    expect(headers['x-message']).to.equal('café ✓');
    expect($(el, 'a.download').getAttribute('download')).to.equal('résumé.txt');
  });
});
