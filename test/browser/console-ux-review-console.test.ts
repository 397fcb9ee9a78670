// A usability review of <try-it-console> in Chromium: a stream read to its end or cancelled, Enter in the URL field,
// the shortcut named as the reader's system names it, text wrapped where words allow, measurements on right-to-left
// pages, sizes without ".0", the side panel named, the header-name rule said as it is checked, and a method select no
// wider than its method on a phone.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { isHeaderName } from '../../src/core/http-syntax.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';
import { landmarks } from './support/accessibility-tree.js';
import { drawnAt, drawnCharacters } from './support/drawn-at.js';

let servers: { api: string; corsApi: string; proxy: string };
let streams = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const text = (el: Element, selector: string) => el.shadowRoot!.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();

/** A console (with `config`) sending to a new event stream (or a stream of `type`), and what writes to that stream. */
async function streaming(config: object = {}, type?: string) {
  streams += 1;
  const id = `ux-review-${Date.now()}-${streams}`;
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false }, ...config }} url="${servers.corsApi}/stream?id=${id}${type ? `&type=${encodeURIComponent(type)}` : ''}"></try-it-console>`);
  const push = async (part: string, end = false) => {
    const response = await fetch(`${servers.corsApi}/stream-push?id=${id}&text=${encodeURIComponent(part)}${end ? '&end=1' : ''}`);
    expect(response.status, await response.text()).to.equal(204);
  };
  return { el, push };
}

/** A console whose stream shows `lines` events, scrolled to its end as they came. */
async function longStream(lines = 200) {
  const stream = await streaming();
  void stream.el.send();
  await waitUntil(() => text(stream.el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
  await stream.push(Array.from({ length: lines }, (_, n) => `data: line ${n}\n\n`).join(''));
  await waitUntil(() => $(stream.el, '.arriving pre')?.textContent?.endsWith(`data: line ${lines - 1}\n\n`), 'the lines shown', { timeout: 5000 });
  const arriving = $(stream.el, '.arriving');
  expect(arriving.scrollHeight, 'the body scrolls').to.be.above(arriving.clientHeight * 2);
  return { ...stream, arriving };
}

const atEnd = (body: Element) => body.scrollHeight - body.scrollTop - body.clientHeight < 2;

/**
 * The places `element`'s text (its marks' and cells' too) is broken across lines that fall between two letters or
 * digits, each as the text either side: a word split where it did not have to be.
 */
function midWordBreaks(element: Element): string[] {
  const characters = drawnCharacters(element).map(({ character, box }) => ({ character, top: Math.round(box.top) }));
  const breaks: string[] = [];
  for (let i = 1; i < characters.length; i += 1) {
    const [before, after] = [characters[i - 1]!, characters[i]!];
    if (after.top > before.top && /[a-z0-9]/i.test(before.character) && /[a-z0-9]/i.test(after.character)) {
      const all = characters.map((each) => each.character).join('');
      breaks.push(`${all.slice(Math.max(0, i - 12), i)}|${all.slice(i, i + 12)}`);
    }
  }
  return breaks;
}

/** Sends from `el` to a response fetch never makes: `response`, on the page's own origin (so its headers are all read). */
async function sendFaked(el: TryItConsole, response: () => Response): Promise<void> {
  const realFetch = window.fetch;
  // The engine's fetch, bound when it was built: replaced by building it again with an equal new configuration.
  window.fetch = async () => response();
  try {
    el.config = { ...el.config, history: { enabled: false }, environments: [{ name: 'fake', variables: {} }] };
    await el.updateComplete;
    await el.send();
  } finally {
    window.fetch = realFetch;
  }
  await el.updateComplete;
}

describe('<try-it-console> usability review', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  describe('a stream read as it arrives', () => {
    it('stays at its end when it completes, for a reader following it', async () => {
      const { el, push } = await longStream();
      expect(atEnd($(el, '.arriving')), 'followed as it came').to.equal(true);
      const done = oneEvent<TicResponseEvent>(el, 'tic-response');
      await push('data: [DONE]\n\n', true);
      await done;
      await el.updateComplete;
      const body = $(el, '[part="response-body"]');
      expect(body.classList.contains('arriving'), 'the complete view').to.equal(false);
      expect(body.scrollHeight).to.be.above(body.clientHeight);
      expect(atEnd(body), `at ${body.scrollTop} of ${body.scrollHeight - body.clientHeight}: not back at the top`).to.equal(true);
    });

    it('stays where a reader who scrolled up was when it completes', async () => {
      const { el, push, arriving } = await longStream();
      arriving.scrollTop = 400; // the reader went back up to read
      const scrolledTo = () => Math.round($(el, '[part="response-body"]').scrollTop);
      const before = scrolledTo();
      const done = oneEvent<TicResponseEvent>(el, 'tic-response');
      await push('data: [DONE]\n\n', true);
      await done;
      await el.updateComplete;
      expect($(el, '[part="response-body"]').classList.contains('arriving')).to.equal(false);
      expect(scrolledTo(), 'the same text in view').to.equal(before);
    });

    it('opens a JSON document that merely came slowly at its top: laid out anew, it is read from its start', async () => {
      const { el, push } = await streaming({}, 'application/json');
      void el.send();
      await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
      const items = Array.from({ length: 300 }, (_, id) => `{"id":${id},"name":"pet ${id}"}`);
      await push(`[${items.slice(0, 150).join(',')},`);
      await waitUntil(() => $(el, '.arriving pre')?.textContent?.includes('pet 149'), 'the first half shown', { timeout: 5000 });
      const done = oneEvent<TicResponseEvent>(el, 'tic-response');
      await push(`${items.slice(150).join(',')}]`, true);
      await done;
      await el.updateComplete;
      const body = $(el, '[part="response-body"]');
      expect(body.classList.contains('arriving')).to.equal(false);
      expect(body.scrollHeight).to.be.above(body.clientHeight);
      expect(body.scrollTop, 'at its top').to.equal(0);
    });

    it('stays at its end when Cancel stops it, for a reader following it', async () => {
      const { el } = await longStream();
      const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
      el.cancel();
      await failed;
      await el.updateComplete;
      const body = $(el, '[part="response-body"]');
      expect(body.textContent).to.contain('data: line 199');
      expect(atEnd(body), `at ${body.scrollTop} of ${body.scrollHeight - body.clientHeight}: not back at the top`).to.equal(true);
    });
  });

  describe('Cancel once the response started', () => {
    it('keeps the status, the headers and the body so far, marked cancelled without an alert', async () => {
      const { el, push } = await streaming();
      void el.send();
      await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
      await push('data: {"token":"Hel"}\n\n');
      await waitUntil(() => text(el, '.arriving pre') === 'data: {"token":"Hel"}', 'the event shown', { timeout: 5000 });
      const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
      el.cancel();
      expect((await failed).error.kind, 'the page is told as before').to.equal('aborted');
      await el.updateComplete;
      // Counted: an element in a failed assertion took the test browser down while it was printed.
      expect(el.shadowRoot!.querySelectorAll('[role="alert"]').length, 'nothing went wrong').to.equal(0);
      expect(text(el, '[part="status"] .status')).to.equal('200 OK');
      expect(text(el, '[part="status"] .stopped')).to.equal('Cancelled after 23 B');
      expect(text(el, '.response-headers summary')).to.match(/^Response headers \(\d+\)$/);
      const rows = [...$(el, '.response-headers table').querySelectorAll('tr')].map((row) => `${row.cells[0]!.textContent}: ${row.cells[1]!.textContent}`);
      expect(rows).to.include('content-type: text/event-stream');
      expect($(el, '[part="response-body"] pre').textContent).to.equal('data: {"token":"Hel"}\n\n');
      expect(text(el, '[role="status"]'), 'said politely').to.equal('Cancelled after 23 B.');
      await expect(el).to.be.accessible();
    });

    it('records such a send with its status, as a stream ends no other way (the timeout waits on each pause)', async () => {
      const { el, push } = await streaming({ history: { enabled: true, storageKey: `ux-review-${Date.now()}` } });
      await el.engine!.history.ready();
      void el.send();
      await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
      await push('data: one\n\n');
      await waitUntil(() => text(el, '.arriving pre') === 'data: one', 'the event shown', { timeout: 5000 });
      const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
      el.cancel();
      const { error } = await failed;
      const entries = el.engine!.history.list();
      expect(entries.map(({ status }) => status)).to.deep.equal([200]);
      expect(error.historyEntry?.id).to.equal(entries[0]!.id);
    });

    it('is still an alert, its message a sentence, when no response had come', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false } }} url="${servers.api}/hold"></try-it-console>`);
      void el.send();
      await el.updateComplete;
      const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
      el.cancel();
      await failed;
      await el.updateComplete;
      expect([...$(el, '[role="alert"]').querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal(['Cancelled', 'The request was stopped before it finished.']);
      expect(el.shadowRoot!.querySelectorAll('[part="status"]').length).to.equal(0);
    });
  });

  it('starts the message after a title with a capital, unless it starts with a name or a URL', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} url="${location.origin}/x"></try-it-console>`);
    const { RequestError } = await import('../../src/core/errors.js');
    const shown = async (message: string) => {
      el.engine!.execute = () => Promise.reject(new RequestError('invalid-request', message));
      await el.send();
      await el.updateComplete;
      return $(el, '[part="error"] p:last-child').textContent;
    };
    expect(await shown('Request not sent: the body is too large.')).to.equal('The body is too large.');
    expect(await shown('Request not sent: x-api-key holds a line break.')).to.equal('x-api-key holds a line break.');
    expect(await shown('Request not sent: https://api.example is refused.')).to.equal('https://api.example is refused.');
  });

  describe('the keyboard', () => {
    it('sends on Enter in the URL field, not in the body, nor while an input method composes', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} method="POST" url="${location.origin}/x"></try-it-console>`);
      let sends = 0;
      el.engine!.execute = () => {
        sends += 1;
        return new Promise(() => {});
      };
      const url = $<HTMLInputElement>(el, '#url');
      url.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, composed: true }));
      expect(sends, 'Enter choosing an input method’s text').to.equal(0);
      url.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true, composed: true }));
      expect(sends, 'the same, as Safari tells it').to.equal(0);
      $<HTMLTextAreaElement>(el, '#body').focus();
      await sendKeys({ press: 'Enter' });
      expect(sends, 'Enter in the body').to.equal(0);
      expect($<HTMLTextAreaElement>(el, '#body').value, 'a new line').to.equal('\n');
      url.focus();
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      expect(sends, 'Enter in the URL field').to.equal(1);
      expect($(el, '[part="cancel-button"]')).to.not.equal(null);
    });

    it('names Ctrl+Enter on the Send button, and ⌘+Enter on Apple’s systems', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }}></try-it-console>`);
      expect($(el, '#send').title).to.equal('Send (Ctrl+Enter)'); // the tests run on Linux
      // What an Apple system says it is: Chromium on a Mac, and Safari (no userAgentData) on a Mac and an iPhone.
      const systems = [{ userAgentData: { platform: 'macOS' } }, { userAgentData: undefined, platform: 'MacIntel' }, { userAgentData: undefined, platform: 'iPhone' }];
      for (const system of systems) {
        for (const [property, value] of Object.entries(system)) Object.defineProperty(navigator, property, { value, configurable: true });
        try {
          el.requestUpdate();
          await el.updateComplete;
          expect($(el, '#send').title, JSON.stringify(system)).to.equal('Send (⌘+Enter)');
        } finally {
          for (const property of Object.keys(system)) delete (navigator as unknown as Record<string, unknown>)[property];
        }
      }
      el.requestUpdate();
      await el.updateComplete;
      expect($(el, '#send').title, 'Linux again').to.equal('Send (Ctrl+Enter)');
    });
  });

  describe('wrapping', () => {
    it('breaks header names, dates and URLs between words, and keeps a long value inside the panel', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console style="width: 375px" .config=${{ history: { enabled: false } }} url="${location.origin}/x"></try-it-console>`);
      const long = `"${'abcdef0123456789'.repeat(10)}"`;
      await sendFaked(el, () => new Response('{"a":1}', { headers: { 'content-type': 'application/json', 'content-length': '7', date: 'Mon, 01 Jan 2024 17:39:18 GMT', 'access-control-allow-origin': 'http://localhost:8080', etag: long } }));
      $<HTMLDetailsElement>(el, '.response-headers').open = true;
      const table = $(el, '.response-headers table');
      // From 320 px, where each word fits its column: narrower, the URL and application/json cannot but break.
      for (const width of [320, 340, 375, 420]) {
        el.style.width = `${width}px`;
        const cells = [...table.querySelectorAll('th, td')].filter((cell) => cell.textContent !== long);
        expect(cells.flatMap(midWordBreaks), `${width} px`).to.deep.equal([]);
        expect(table.getBoundingClientRect().right, `${width} px: the table within the panel`).to.be.at.most($(el, '[part="response"]').getBoundingClientRect().right + 0.5);
      }
    });

    it('breaks the URL with its placeholders marked where it may (after a hyphen), not inside a word', async () => {
      // Chromium breaks a URL at no "/": a URL without a hyphen still breaks where its line ends.
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} url="{{base_url}}/pet-owners/{{owner_id}}/favourite-toys/{{toy_id}}/play-sessions"></try-it-console>`);
      const template = $(el, '.url-template');
      for (let width = 320; width <= 420; width += 10) {
        el.style.width = `${width}px`;
        expect(midWordBreaks(template), `${width} px`).to.deep.equal([]);
        expect(template.scrollWidth, `${width} px: within its line`).to.be.at.most(template.clientWidth);
      }
    });
  });

  it('draws each measurement of the response number first on a right-to-left page', async () => {
    const page = await fixture<HTMLElement>(html`<div dir="rtl" lang="ar" style="width: 640px"><try-it-console url="${location.origin}/x"></try-it-console></div>`);
    const el = page.querySelector<TryItConsole>('try-it-console')!;
    await el.updateComplete;
    await sendFaked(el, () => new Response('x'.repeat(73), { headers: { 'content-type': 'text/plain' } }));
    const measurements = [...$(el, '[part="status"]').querySelectorAll(':scope > span:not(.status, .body-actions)')];
    expect(measurements.map((span) => span.textContent!.trim())).to.have.length(3);
    expect(measurements[2]!.textContent).to.equal('73 B');
    for (const span of measurements) {
      const lefts = drawnAt(span);
      expect(lefts.every((left, i) => i === 0 || left >= lefts[i - 1]!), `${span.textContent} drawn at ${lefts.join(', ')}`).to.equal(true);
    }
  });

  it('says sizes without a trailing .0 (300 KB), bytes as they are (73 B)', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false } }} url="${servers.api}/panel/300k-binary"></try-it-console>`);
    await el.send();
    await el.updateComplete;
    expect(text(el, '[part="response-body"]')).to.equal('Binary data (application/octet-stream, 300 KB).');
    expect(text(el, '[part="status"] span:nth-child(4)')).to.equal('300 KB');
  });

  it('names its side panel, and lets a page style it as the part "side"', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }}></try-it-console>`);
    expect(await landmarks()).to.deep.equal(['region Request', 'region Response', 'region Code', 'complementary Environment and history']);
    expect($(el, '[part="side"]').localName).to.equal('aside');
    el.label = 'List pets';
    await el.updateComplete;
    expect(await landmarks(), 'within a named console, no landmark of its own').to.deep.equal(['region List pets']);
    await expect(el).to.be.accessible();
  });

  it('lists the side part in custom-elements.json', async () => {
    const manifest = (await (await fetch('/custom-elements.json')).json()) as { modules: { declarations?: { tagName?: string; cssParts?: { name: string }[] }[] }[] };
    const console = manifest.modules.flatMap((module) => module.declarations ?? []).find((declaration) => declaration.tagName === 'try-it-console');
    expect(console?.cssParts?.map((part) => part.name)).to.include('side');
  });

  it('states the header-name rule a send checks: letters, digits and !#$%&\'*+-.^_`|~', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} url="${location.origin}/x" .headers=${{ 'X Custom': '1' }}></try-it-console>`);
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    $(el, '[part="send-button"]').click();
    const { message } = (await failed).error;
    expect(message).to.equal('"X Custom" is not a valid header name; use only letters (A-Z, a-z), digits and !#$%&\'*+-.^_`|~, with no spaces or colons.');
    // The characters it names are those the check takes, and no others.
    const named = /digits and (\S+), with/.exec(message)![1]!;
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
    const taken = printable.filter((character) => isHeaderName(`a${character}`) && !/[a-z0-9]/i.test(character));
    expect([...named].sort()).to.deep.equal(taken.sort());
    expect(isHeaderName('café'), 'letters are ASCII letters').to.equal(false);
  });

  describe('on a phone', () => {
    before(async () => {
      await setViewport({ width: 375, height: 800 });
    });

    it('gives the method select the width of its method, leaving the URL the room', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console style="width: 375px" .config=${{ history: { enabled: false } }} url="https://api.example.com/pets"></try-it-console>`);
      const select = $<HTMLSelectElement>(el, '#method');
      expect(select.getBoundingClientRect().width, 'GET').to.be.below(80);
      el.method = 'PROPFIND-EXTENDED';
      await el.updateComplete;
      // The method whole: as wide as its text, with the select's padding and arrow beside it.
      const measure = document.createElement('span');
      measure.textContent = 'PROPFIND-EXTENDED';
      measure.style.font = getComputedStyle(select).font;
      document.body.append(measure);
      const textWidth = measure.getBoundingClientRect().width;
      measure.remove();
      expect(select.getBoundingClientRect().width, 'a long custom method').to.be.above(textWidth + 16);
      expect(select.getBoundingClientRect().right).to.be.at.most($(el, '[part="request"]').getBoundingClientRect().right + 0.5);
    });

    it('puts a header\'s value under its name, so that the name shows whole', async () => {
      for (const width of [320, 375]) {
        const el = await fixture<TryItConsole>(html`<try-it-console style="width: ${width}px" .config=${{ history: { enabled: false } }} url="https://api.example.com/pets" .headers=${{ 'Content-Type': 'application/json' }}></try-it-console>`);
        const [name, value, remove] = ['input.name', 'input.value', 'button.remove'].map((selector) => $(el, `.header-row ${selector}`).getBoundingClientRect());
        const measure = document.createElement('span');
        measure.textContent = 'Content-Type';
        measure.style.font = getComputedStyle($(el, '.header-row input.name')).font;
        document.body.append(measure);
        const nameWidth = measure.getBoundingClientRect().width;
        measure.remove();
        expect(name!.width, `the name's field at ${width} px`).to.be.above(nameWidth + 8);
        expect(value!.top, `the value under it at ${width} px`).to.be.at.least(name!.bottom);
        expect(remove!.top + remove!.height / 2, `✕ beside the name at ${width} px`).to.be.closeTo(name!.top + name!.height / 2, 1);
        expect(value!.left, `the value under the name at ${width} px`).to.be.closeTo(name!.left, 0.5);
      }
    });
  });

  describe('a response sent with a variable the environment lacks', () => {
    it('offers Set beside the warning, which opens the environment panel\'s field for it; once set, the button goes', async () => {
      const config = { corsProxy: servers.proxy, history: { enabled: false }, environments: [{ name: 'Local', variables: { base_url: servers.api } }] };
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/account" .headers=${{ Authorization: 'Bearer {{token}}' }}></try-it-console>`);
      const responded = oneEvent(el, 'tic-response') as Promise<TicResponseEvent>;
      void el.send();
      expect((await responded).response.warnings[0]).to.match(/^Sent with \{\{token\}\} \(in the Authorization header\) as written/);
      await el.updateComplete;
      const setButtons = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="response"] .set-missing button')];
      expect(setButtons().map((button) => button.textContent)).to.deep.equal(['Set token']);
      setButtons()[0]!.click();
      const picker = $(el, 'env-picker');
      await waitUntil(() => picker.shadowRoot!.activeElement?.matches('.value-input'), 'the field for token has focus');
      await sendKeys({ type: 'tok-1' });
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => el.engine!.environments.active()!.variables.token === 'tok-1', 'token set');
      await el.updateComplete;
      expect(setButtons(), 'nothing left to set').to.have.length(0);
    });

    it('offers no Set without an environment, where there is nowhere to set it', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false } }} url="${servers.api}/account" .headers=${{ Authorization: 'Bearer {{token}}' }}></try-it-console>`);
      const responded = oneEvent(el, 'tic-response') as Promise<TicResponseEvent>;
      void el.send();
      expect((await responded).response.warnings[0]).to.match(/^Sent with \{\{token\}\}/);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelectorAll('[part="response"] .set-missing button')).to.have.length(0);
    });
  });
});
