// A response shown as it arrives: an event stream (as an LLM or a log API sends) through the CORS proxy, written
// by the test part by part, so nothing depends on timing.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';
import { HOSTILE, expectNothingRan } from './support/hostile.js';

let servers: { corsApi: string; proxy: string };
let streams = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector);
const text = (el: Element, selector: string) => $(el, selector)?.textContent?.replace(/\s+/g, ' ').trim();

/** A console sending to a new stream, and what writes to that stream. */
async function streaming(type?: string): Promise<{ el: TryItConsole; push(text: string, end?: boolean, options?: { encoding?: string; repeat?: number }): Promise<void> }> {
  streams += 1;
  const id = `${Date.now()}-${streams}`;
  const typed = type === undefined ? '' : `&type=${encodeURIComponent(type)}`;
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false } }} url="${servers.corsApi}/stream?id=${id}${typed}"></try-it-console>`);
  const push = async (part: string, end = false, { encoding, repeat }: { encoding?: string; repeat?: number } = {}) => {
    const extra = `${end ? '&end=1' : ''}${encoding ? `&encoding=${encoding}` : ''}${repeat ? `&repeat=${repeat}` : ''}`;
    const response = await fetch(`${servers.corsApi}/stream-push?id=${id}&text=${encodeURIComponent(part)}${extra}`);
    expect(response.status, await response.text()).to.equal(204);
  };
  return { el, push };
}

const arrivingText = (el: TryItConsole) => $(el, '.arriving pre')?.textContent ?? '';

describe('<try-it-console> showing a response as it arrives', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('shows the status once the headers come, then each event as it comes, while Cancel stays offered', async () => {
    const { el, push } = await streaming();
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the status shown before the body ends', { timeout: 5000 });
    expect($(el, '[part="cancel-button"]'), 'still sending').to.not.equal(null);
    expect(text(el, '[role="status"]')).to.equal('Receiving the response: 200 OK.');
    expect(text(el, '[part="status"]')).to.match(/0 B so far…$/);
    await push('data: {"token":"Hel"}\n\n');
    await waitUntil(() => arrivingText(el) === 'data: {"token":"Hel"}\n\n', 'the first event shown', { timeout: 5000 });
    await push('data: {"token":"lo"}\n\n');
    await waitUntil(() => arrivingText(el).endsWith('data: {"token":"lo"}\n\n'), 'the second event shown', { timeout: 5000 });
    expect(text(el, '[part="status"]')).to.match(/45 B so far…$/);
    await expect(el).to.be.accessible();

    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    await push('data: [DONE]\n\n', true);
    const { response } = await done;
    expect(response.text).to.equal('data: {"token":"Hel"}\n\ndata: {"token":"lo"}\n\ndata: [DONE]\n\n');
    await el.updateComplete;
    expect($(el, '.arriving'), 'the live view gone').to.equal(null);
    expect($(el, '[part="response-body"] pre')!.textContent).to.equal(response.text);
  });

  it('shows hostile text in a stream as text while it arrives, sent as HTML or as events', async () => {
    for (const type of ['text/html', 'text/event-stream']) {
      const { el, push } = await streaming(type);
      void el.send();
      await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
      await push(`data: ${HOSTILE}\n\n`);
      await waitUntil(() => arrivingText(el).includes(HOSTILE), `the ${type} text shown as it is`, { timeout: 5000 });
      expect($(el, '.arriving')!.querySelector('img, script, a'), 'no element made of it').to.equal(null);
      await expectNothingRan();
      el.cancel();
    }
  });

  it('keeps the end of a long stream in view, unless the reader scrolled up to read', async () => {
    const { el, push } = await streaming();
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push(Array.from({ length: 200 }, (_, n) => `data: line ${n}\n\n`).join(''));
    await waitUntil(() => arrivingText(el).endsWith('data: line 199\n\n'), 'the lines shown', { timeout: 5000 });
    const body = $(el, '.arriving')!;
    expect(body.scrollHeight, 'the body scrolls').to.be.above(body.clientHeight);
    const atEnd = () => body.scrollHeight - body.scrollTop - body.clientHeight < 8;
    expect(atEnd(), 'kept at its end').to.equal(true);
    await push('data: line 200\n\n');
    await waitUntil(() => arrivingText(el).endsWith('data: line 200\n\n'), 'another line', { timeout: 5000 });
    expect(atEnd(), 'kept at its end as it grows').to.equal(true);

    body.scrollTop = 0; // the reader goes back to the start
    await push('data: line 201\n\n');
    await waitUntil(() => arrivingText(el).endsWith('data: line 201\n\n'), 'one more line', { timeout: 5000 });
    expect(body.scrollTop, 'left where the reader went').to.equal(0);

    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.cancel();
    expect((await failed).error.kind).to.equal('aborted');
    await el.updateComplete;
    // What came stays shown, as a stream cancelled always was.
    expect($(el, '[part="response-body"] pre')!.textContent).to.contain('data: line 201');
  });

  it('shows the last 32 KB of a stream past that size, from a character’s start', async () => {
    const { el, push } = await streaming();
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    // 40,000 bytes of two-byte characters, then a marker: the shown part starts inside the run, on a whole character.
    for (let part = 0; part < 10; part += 1) await push('é'.repeat(2_000)); // in parts: a URL holds 16 KiB at most
    await push('END');
    await waitUntil(() => arrivingText(el).endsWith('END'), 'the end shown', { timeout: 5000 });
    const shown = arrivingText(el);
    expect(shown.startsWith('…é'), shown.slice(0, 5)).to.equal(true);
    expect(shown).to.not.contain('\ufffd');
    expect(new TextEncoder().encode(shown.slice(1)).byteLength).to.be.at.most(32 * 1024);
    el.cancel();
  });

  it('keeps showing the end of a stream that outgrows the part of the body kept for display', async () => {
    const { el, push } = await streaming();
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('data: 0123456789abcdef\n\n', false, { repeat: 15_000 }); // 360,000 bytes: past the 256 KB kept
    await push('data: latest\n\n');
    await waitUntil(() => arrivingText(el).endsWith('data: latest\n\n'), 'the newest event shown, not the end of the first 256 KB', { timeout: 5000 });
    expect(new TextEncoder().encode(arrivingText(el).slice(1)).byteLength).to.be.at.most(32 * 1024);
    el.cancel();
  });

  it('decodes a body arriving in the charset its Content-Type names, as it will show once complete', async () => {
    const { el, push } = await streaming('text/plain; charset=iso-8859-1');
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('café crème\n', false, { encoding: 'latin1' });
    await waitUntil(() => arrivingText(el) !== '', 'the text shown', { timeout: 5000 });
    expect(arrivingText(el)).to.equal('café crème\n');
    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    await push('', true);
    expect((await done).response.text).to.equal('café crème\n');
  });

  it('keeps what came of a body in another charset, decoded in it, when the send is cancelled', async () => {
    const { el, push } = await streaming('text/plain; charset=iso-8859-1');
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('café crème\n', false, { encoding: 'latin1' });
    await waitUntil(() => arrivingText(el) !== '', 'the text shown', { timeout: 5000 });
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.cancel();
    expect((await failed).error.kind).to.equal('aborted');
    await el.updateComplete;
    expect($(el, '[part="response-body"] pre')!.textContent).to.equal('café crème\n');
  });

  it('shows a UTF-16 body (with its byte order mark) as text while it arrives, as once complete', async () => {
    const { el, push } = await streaming('text/plain');
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('\ufeffline one\n', false, { encoding: 'utf16le' });
    await push('line two\n', false, { encoding: 'utf16le' });
    await waitUntil(() => /\b38 B so far/.test(text(el, '[part="status"]') ?? ''), 'both parts came', { timeout: 5000 });
    await el.updateComplete;
    expect(arrivingText(el)).to.equal('line one\nline two\n');
    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    await push('', true);
    expect((await done).response.text).to.equal('line one\nline two\n');
  });

  it('keeps a UTF-16 text that was shown as it arrived shown as text after Cancel, not as binary data', async () => {
    const { el, push } = await streaming('text/plain');
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('\ufeffline one\n', false, { encoding: 'utf16le' });
    await waitUntil(() => arrivingText(el) === 'line one\n', 'shown as text while arriving', { timeout: 5000 });
    const failed = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    el.cancel();
    await failed;
    await el.updateComplete;
    expect($(el, '[part="response-body"] pre')?.textContent).to.equal('line one\n');
  });

  it('keeps focus in the body when the reader was in it as the response completes, not on Send, where Space would send again', async () => {
    const { el, push } = await streaming();
    void el.send();
    await waitUntil(() => text(el, '[part="status"] .status') === '200 OK', 'the headers', { timeout: 5000 });
    await push('data: one\n\n');
    await waitUntil(() => arrivingText(el) === 'data: one\n\n', 'the event shown', { timeout: 5000 });
    $(el, '.arriving')!.focus();
    expect(el.shadowRoot!.activeElement?.classList.contains('arriving')).to.equal(true);
    const done = oneEvent<TicResponseEvent>(el, 'tic-response');
    await push('data: two\n\n', true);
    await done;
    await el.updateComplete;
    const focused = el.shadowRoot!.activeElement;
    expect(focused?.id, 'not Send').to.not.equal('send');
    expect(focused?.getAttribute('part'), 'the complete body, read on from there').to.equal('response-body');
    expect(focused!.textContent).to.contain('data: two');
  });
});
