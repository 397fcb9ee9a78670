// A keyboard review of the demo: unsent edits a page's Try it button (load()) or a preset of another operation replaced
// were lost; picking a history entry already offered them back. Now every load does, and says so.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const restoreButton = (el: TryItConsole) => [...el.shadowRoot!.querySelectorAll('button')].find((button) => button.textContent!.trim() === 'Restore your edits');
const announced = (el: TryItConsole) => $(el, '.announcements').textContent;
const EXAMPLE = '{"name": "Rex"}';
const SAID = 'Restore your edits puts back the request you were editing.';

/** What demo/try-it-buttons.ts does for a Try it button: the four attributes, then load(). */
async function tryIt(el: TryItConsole, method: string, url: string, body = '') {
  el.setAttribute('method', method);
  el.setAttribute('url', url);
  el.setAttribute('headers', '{}');
  el.setAttribute('body', body);
  el.load({ method, url, headers: {}, body });
  el.focus();
  await el.updateComplete;
}

async function newConsole() {
  return fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false }, environments: [{ name: 'Local', variables: { base_url: 'http://127.0.0.1:9' } }] }}></try-it-console>`);
}

/** Types at the end of the body, by keyboard. */
async function typeInBody(el: TryItConsole, text: string) {
  const body = $<HTMLTextAreaElement>(el, '#body');
  body.focus();
  body.setSelectionRange(body.value.length, body.value.length);
  await sendKeys({ type: text });
  await el.updateComplete;
}

describe('<try-it-console> unsent edits that a load replaces (hunt 4)', () => {
  it('are offered back after a Try it button loads another operation, said to screen readers, and kept over a second load', async () => {
    const el = await newConsole();
    await tryIt(el, 'POST', '/pets', EXAMPLE);
    expect(restoreButton(el), 'the first load replaced nothing of the reader’s').to.equal(undefined);
    await typeInBody(el, ' ');
    const edited = $<HTMLTextAreaElement>(el, '#body').value;
    expect(edited).to.equal(`${EXAMPLE} `);

    await tryIt(el, 'GET', '/pets');
    expect(restoreButton(el), 'offered once GET /pets replaced the edited POST').not.to.equal(undefined);
    await waitUntil(() => announced(el) === SAID, `announced, got "${announced(el)}"`);
    await expect(el).to.be.accessible();

    // The same Try it again puts the example back; the edits are still offered, nothing having been edited since.
    await tryIt(el, 'POST', '/pets', EXAMPLE);
    expect($<HTMLTextAreaElement>(el, '#body').value, 'the example back').to.equal(EXAMPLE);
    restoreButton(el)!.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect([$<HTMLSelectElement>(el, '#method').value, $<HTMLInputElement>(el, '#url').value, $<HTMLTextAreaElement>(el, '#body').value]).to.deep.equal(['POST', '/pets', edited]);
    expect(restoreButton(el), 'gone once used').to.equal(undefined);
  });

  it('are offered back when the page presets another operation by its attributes alone', async () => {
    const el = await newConsole();
    await tryIt(el, 'POST', '/pets', EXAMPLE);
    await typeInBody(el, ' ');
    el.setAttribute('method', 'DELETE');
    el.setAttribute('url', '/pets/1');
    el.setAttribute('body', '');
    await el.updateComplete;
    expect($<HTMLInputElement>(el, '#url').value, 'the preset loaded').to.equal('/pets/1');
    expect(restoreButton(el)).not.to.equal(undefined);
    await waitUntil(() => announced(el) === SAID, `announced, got "${announced(el)}"`);
  });

  it('are not offered when nothing was edited since the last load, or the edits are what is loaded', async () => {
    const el = await newConsole();
    await tryIt(el, 'POST', '/pets', EXAMPLE);
    await tryIt(el, 'GET', '/pets');
    expect(restoreButton(el), 'nothing edited').to.equal(undefined);
    // Edited into what the next load brings: nothing would come back.
    const url = $<HTMLInputElement>(el, '#url');
    url.focus();
    url.select();
    await sendKeys({ type: '/orders' });
    await el.updateComplete;
    await tryIt(el, 'GET', '/orders');
    expect(restoreButton(el), 'the edits were what was loaded').to.equal(undefined);
  });
});
