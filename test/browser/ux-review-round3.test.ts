// A third usability review in Chromium: Copy that says when it copied values the panel hides, response headers that
// scroll, the body field tied to its JSON warning, the picker's edit field saying how to keep or cancel, Go drawn with
// 4-wide tabs, a Request heading, base_url broken at its punctuation, a misspelt variable's fix offered before sending,
// and unsent edits a history entry replaced offered back.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import type { TicCopyEvent, TicResponseEvent } from '../../src/events/index.js';
import { axNodes } from './support/accessibility-tree.js';
import { drawnCharacters } from './support/drawn-at.js';

let servers: { corsApi: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const buttonNamed = (root: Element, name: string) => [...root.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find((button) => button.textContent!.trim() === name);
const status = (snippet: CodeSnippet) => $(snippet, '[role="status"]').textContent;
/** The label the Copy button shows: the text a sighted user sees (innerText leaves out what is not visible). */
const shownLabel = (snippet: CodeSnippet) => $(snippet, '[part="copy-button"]').innerText.trim();
/** The console's focused element inside its shadow root. */
const focused = (el: TryItConsole) => el.shadowRoot!.activeElement;
/** The text field `name` as Chromium exposes it: its description is what a screen reader adds to its name. */
const textbox = async (name: string) => (await axNodes()).find((node) => node.role === 'textbox' && node.name === name);

/** A console with its own history, and an environment whose pet variable is `pet_id`. */
function config() {
  run += 1;
  return {
    environments: [{ name: 'Local', variables: { base_url: servers.corsApi, pet_id: '7' } }],
    history: { enabled: true, storageKey: `ux-review-round3-${Date.now()}-${run}` },
  };
}

describe('usability review, round 3', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  describe('<code-snippet> Copy', () => {
    it('says on the button, as it says aloud, that the code copied holds the values the panel hides', async () => {
      const environments = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example', token: 'tok-123' } });
      const el = await fixture<CodeSnippet>(html`<code-snippet url="{{base_url}}/pets" .headers=${{ Authorization: 'Bearer {{token}}' }} .environments=${environments}></code-snippet>`);
      const copied = oneEvent(el, 'tic-copy') as Promise<TicCopyEvent>;
      $(el, '[part="copy-button"]').click();
      expect((await copied).text).to.contain('tok-123');
      await waitUntil(() => status(el) === 'Copied the curl snippet with values, which are hidden here.', `announced, got ${status(el)}`);
      expect(shownLabel(el), 'seen as it is heard').to.equal('Copied with values');
      expect($(el, 'pre').textContent, 'still shown as placeholders').to.contain('{{token}}');
      await expect(el).to.be.accessible();

      // Shown with its values, the code copied is the code shown: Copied alone.
      $<HTMLInputElement>(el, 'input[type="checkbox"]').click();
      await el.updateComplete;
      $(el, '[part="copy-button"]').click();
      await waitUntil(() => status(el) === 'Copied the curl snippet.', `announced, got ${status(el)}`);
      expect(shownLabel(el)).to.equal('Copied');
    });

    it('alone, with no values to fill in, keeps the width of its usual labels', async () => {
      const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example/pets"></code-snippet>`);
      const labels = [...$(el, '[part="copy-button"]').querySelectorAll('span')].map((span) => span.textContent);
      expect(labels).to.deep.equal(['Copy', 'Copied', 'Copy blocked']);
    });
  });

  it('draws Go’s tab indentation 4 columns wide, not 8', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet languages="go" url="https://api.example/pets"></code-snippet>`);
    const pre = $(el, 'pre');
    expect(getComputedStyle(pre).tabSize).to.equal('4');
    // Measured: a line indented by one tab starts 4 characters in.
    const characters = drawnCharacters(pre);
    const lineStart = characters.find(({ character }) => character === 'p')!.box.left; // "package main"
    const characterWidth = characters[1]!.box.left - characters[0]!.box.left;
    const indented = characters.findIndex(({ character }, i) => character === '\t' && characters[i - 1]?.character === '\n');
    const firstAfterTab = characters.slice(indented).find(({ character }) => character !== '\t')!;
    expect((firstAfterTab.box.left - lineStart) / characterWidth).to.be.closeTo(4, 0.1);
  });

  it('scrolls the response headers past a height, as the body scrolls, and lets the keyboard scroll them', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ history: { enabled: false } }} url="${servers.corsApi}/expose-all?headers=50"></try-it-console>`);
    const response = oneEvent(el, 'tic-response');
    await el.send();
    await response;
    await el.updateComplete;
    const details = $<HTMLDetailsElement>(el, '.response-headers');
    details.open = true;
    await el.updateComplete;
    expect(details.querySelectorAll('tr').length, 'fifty headers and a few more').to.be.above(50);
    const scroller = details.querySelector<HTMLElement>('.headers-table')!;
    expect(scroller?.scrollHeight, 'the table scrolls').to.be.above(scroller?.clientHeight);
    expect(details.getBoundingClientRect().height, 'no taller than the body may be, with its summary').to.be.below(28 * 16 + 80);
    expect(scroller.tabIndex, 'in the tab order').to.equal(0);
    expect((await axNodes()).some((node) => node.role === 'group' && node.name === 'Response headers'), 'named').to.equal(true);
    await expect(el).to.be.accessible();
  });

  it('marks the body field invalid, described by the warning, while its JSON does not parse', async () => {
    const el = await fixture<TryItConsole>(
      html`<try-it-console .config=${{ history: { enabled: false } }} method="POST" url="https://api.example/pets" .headers=${{ 'Content-Type': 'application/json' }} body='{"name": "Rex",}'></try-it-console>`,
    );
    const body = $<HTMLTextAreaElement>(el, '#body');
    expect(body.getAttribute('aria-invalid')).to.equal('true');
    const field = await textbox('Body');
    expect(field?.description).to.match(/^The body is not valid JSON, although its Content-Type is application\/json: /);
    await expect(el).to.be.accessible();
    body.value = '{"name": "Rex"}';
    body.dispatchEvent(new Event('input'));
    await el.updateComplete;
    expect([body.getAttribute('aria-invalid'), body.getAttribute('aria-describedby')], 'fixed').to.deep.equal([null, null]);
  });

  it('says in the environment picker’s one-line edit field, seen and heard, how to keep or cancel', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${new EnvironmentManager({ name: 'Local', variables: { token: 'abc' } })}></env-picker>`);
    $(el, 'button.edit').click();
    await el.updateComplete;
    const field = await textbox('Value of token');
    expect(field?.description).to.equal('Enter sets it; Escape cancels.');
    expect($(el, '.hint').getBoundingClientRect().height, 'shown, not only told').to.be.above(0);
    await expect(el).to.be.accessible();
  });

  it('gives the Request region a heading at the console’s heading level, as Response, Code, Environment and History have', async () => {
    await fixture<TryItConsole>(html`<try-it-console heading-level="3" .config=${{ history: { enabled: false }, environments: [{ name: 'Local', variables: {} }] }}></try-it-console>`);
    const headings = (await axNodes()).filter((node) => node.role === 'heading').map((node) => `${node.name} ${node.level}`);
    // Query parameters and Headers one level under Request (a GET: no Body).
    expect(headings).to.deep.equal(['Request 3', 'Query parameters 4', 'Headers 4', 'Response 3', 'Code 3', 'Environment 3', 'History 3']);
  });

  it('breaks a base_url in the picker at its punctuation, not inside its port', async () => {
    const values = ['http://127.0.0.1:46153', 'https://api.staging.example.com:8443/v1/accounts?limit=10&cursor=abc'];
    for (const width of [180, 230, 260]) {
      const el = await fixture<EnvPicker>(html`<env-picker style="width: ${width}px" .manager=${new EnvironmentManager({ name: 'Local', variables: { base_url: values[0]!, other_url: values[1]! } })}></env-picker>`);
      for (const text of el.shadowRoot!.querySelectorAll('td.value .text')) {
        const characters = drawnCharacters(text).map(({ character, box }) => ({ character, top: Math.round(box.top) }));
        const all = characters.map(({ character }) => character).join('');
        for (let i = 1; i < characters.length; i += 1) {
          const [before, after] = [characters[i - 1]!, characters[i]!];
          const midWord = after.top > before.top && /[a-z0-9]/i.test(before.character) && /[a-z0-9]/i.test(after.character);
          expect(midWord, `at ${width} px: ${all.slice(0, i)}|${all.slice(i)}`).to.equal(false);
        }
      }
    }
  });

  describe('a variable spelt as one the environment has', () => {
    it('is offered the fix before sending: in the URL’s description, the picker’s note, and a button that rewrites it', async () => {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{petId}}?again={{ petId }}"></try-it-console>`);
      const url = $<HTMLInputElement>(el, '#url');
      const field = await textbox('URL');
      expect(field?.description).to.equal('petId is not defined in the active environment. Did you mean {{pet_id}}?');
      const picker = $<EnvPicker>(el, 'env-picker');
      expect($(picker, '[part="missing"]').textContent!.replace(/\s+/g, ' ').trim()).to.equal('This request uses {{petId}}, which “Local” does not define. Did you mean {{pet_id}}?');
      await expect(el).to.be.accessible();

      const use = buttonNamed(el, 'Use {{pet_id}}')!;
      expect(use.getBoundingClientRect().height, 'shown').to.be.above(0);
      use.click();
      await el.updateComplete;
      expect(url.value).to.equal('{{base_url}}/pets/{{pet_id}}?again={{pet_id}}');
      await waitUntil(() => focused(el) === url, 'focus on the URL it changed');
      await waitUntil(() => $(el, '.announcements').textContent === 'Changed {{petId}} to {{pet_id}} in the URL.', 'announced');
      expect([url.getAttribute('aria-invalid'), buttonNamed(el, 'Use {{pet_id}}')]).to.deep.equal([null, undefined]);
    });

    it('names each suggestion’s placeholder when more than one is missing', async () => {
      const manager = new EnvironmentManager({ name: 'Local', variables: { pet_id: '7' } });
      const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager} .missing=${['petId', 'tenant']}></env-picker>`);
      expect($(el, '[part="missing"]').textContent!.replace(/\s+/g, ' ').trim()).to.equal(
        'This request uses {{petId}}, {{tenant}}, which “Local” does not define. Did you mean {{pet_id}} for {{petId}}?',
      );
    });
  });

  describe('unsent edits a history entry replaced', () => {
    /** A console with one entry in its history, editing a POST the reader typed. */
    async function editing() {
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()}></try-it-console>`);
      el.engine!.history.add({ method: 'GET', url: `${servers.corsApi}/pets`, headers: {}, status: 200, duration: 1 });
      el.load({ method: 'POST', url: `${servers.corsApi}/orders`, headers: { Accept: 'application/json' }, body: '' });
      await el.updateComplete;
      const body = $<HTMLTextAreaElement>(el, '#body');
      body.value = '{"a long": "body the reader spent ten minutes writing"}';
      body.dispatchEvent(new Event('input'));
      await el.updateComplete;
      const history = $<RequestHistory>(el, 'request-history');
      await waitUntil(() => history.shadowRoot!.querySelector('button.entry'), 'the entry');
      const pick = async () => {
        history.shadowRoot!.querySelector<HTMLButtonElement>('button.entry')!.click();
        await el.updateComplete;
      };
      return { el, pick };
    }

    it('are offered back after the entry loads, said with the load, and put back by Restore your edits', async () => {
      const { el, pick } = await editing();
      await pick();
      expect($<HTMLInputElement>(el, '#url').value, 'the entry loaded').to.equal(`${servers.corsApi}/pets`);
      const restore = buttonNamed(el, 'Restore your edits')!;
      expect(restore.getBoundingClientRect().height, 'shown').to.be.above(0);
      await waitUntil(() => $(el, '.announcements').textContent === 'Loaded GET /pets from history. Restore your edits puts back the request you were editing.', 'announced');
      await expect(el).to.be.accessible();
      restore.click();
      await el.updateComplete;
      expect([$<HTMLSelectElement>(el, '#method').value, $<HTMLInputElement>(el, '#url').value, $<HTMLInputElement>(el, '.header-row input.value').value, $<HTMLTextAreaElement>(el, '#body').value]).to.deep.equal([
        'POST',
        `${servers.corsApi}/orders`,
        'application/json',
        '{"a long": "body the reader spent ten minutes writing"}',
      ]);
      expect(buttonNamed(el, 'Restore your edits'), 'gone once used').to.equal(undefined);
      await waitUntil(() => focused(el)?.id === 'url', 'focus on the request put back');
    });

    it('go away at the next edit, and at the next send', async () => {
      const { el, pick } = await editing();
      await pick();
      const url = $<HTMLInputElement>(el, '#url');
      url.value += '?page=2';
      url.dispatchEvent(new Event('input'));
      await el.updateComplete;
      expect(buttonNamed(el, 'Restore your edits'), 'gone at an edit').to.equal(undefined);

      // The URL edited is the draft now: picking the entry again offers it back, until a send.
      await pick();
      expect(buttonNamed(el, 'Restore your edits')).not.to.equal(undefined);
      const sent = oneEvent<TicResponseEvent>(el, 'tic-response');
      $(el, '[part="send-button"]').click();
      await sent;
      await el.updateComplete;
      expect(buttonNamed(el, 'Restore your edits'), 'gone at a send').to.equal(undefined);
    });

    it('are still offered after a second pick with nothing edited between, and after a send that history does not have', async () => {
      const { el, pick } = await editing();
      await pick();
      await pick();
      expect(buttonNamed(el, 'Restore your edits'), 'picked twice').not.to.equal(undefined);
      // A send refused before it goes out is not in history: the edits it was made from are offered back too.
      buttonNamed(el, 'Restore your edits')!.click();
      await el.updateComplete;
      const url = $<HTMLInputElement>(el, '#url');
      url.value = 'orders/{{order_id}}';
      url.dispatchEvent(new Event('input'));
      await el.updateComplete;
      const refused = oneEvent(el, 'tic-request-error');
      $(el, '[part="send-button"]').click();
      await refused;
      await pick();
      expect(buttonNamed(el, 'Restore your edits'), 'refused, so not in history').not.to.equal(undefined);
    });

    it('are not offered when nothing was edited since the last load or send', async () => {
      const { el, pick } = await editing();
      const sent = oneEvent<TicResponseEvent>(el, 'tic-response');
      $(el, '[part="send-button"]').click();
      await sent;
      await pick();
      expect(buttonNamed(el, 'Restore your edits'), 'sent, so kept in history').to.equal(undefined);
      await pick();
      expect(buttonNamed(el, 'Restore your edits'), 'loaded as it is').to.equal(undefined);
    });
  });
  describe('the URL the request goes to', () => {
    it('is shown under the URL once its variables and base_url are filled in, masked as the environment panel masks', async () => {
      const environments = [{ name: 'Local', variables: { base_url: servers.corsApi, api_key: 'sk-live-0123456789', pet_id: '7' } }];
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments, history: { enabled: false } }} url="/pets/{{pet_id}}?api_key={{api_key}}"></try-it-console>`);
      const shown = () => el.shadowRoot!.querySelector('[part="resolved-url"]')?.textContent?.trim();
      expect(shown()).to.equal(`Sends to → ${servers.corsApi}/pets/7?api_key=••••••••`);
      // Not while a variable is missing (the URL says what it lacks), nor for a URL that is already whole.
      el.url = '{{base_url}}/pets/{{petId}}';
      await el.updateComplete;
      expect(shown()).to.equal(undefined);
      el.url = `${servers.corsApi}/pets`;
      await el.updateComplete;
      expect(shown()).to.equal(undefined);
      // An absolute URL with placeholders, a secret too short for text matching masked all the same.
      el.config = { environments: [{ name: 'Local', variables: { host: new URL(servers.corsApi).host, pin: '123', bare: 'api.example.com' } }], history: { enabled: false } };
      el.url = 'http://{{host}}/pets?pin={{ pin }}';
      await el.updateComplete;
      expect(shown()).to.equal(`Sends to → ${servers.corsApi}/pets?pin=••••••••`);
      // Not a value new on every render, nor a URL a send would refuse (a host without its scheme).
      for (const url of ['http://{{host}}/pets/{{ $guid }}', '{{bare}}/pets']) {
        el.url = url;
        await el.updateComplete;
        expect(shown(), url).to.equal(undefined);
      }
      await expect(el).to.be.accessible();
    });

    it('is not shown, nor a snippet, for a path that runs into the host a variable holds: the warning says what to write', async () => {
      const environments = [{ name: 'Local', variables: { base_url: 'https://api.example.com' } }];
      const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ environments, history: { enabled: false } }} url="{{base_url}}pets"></try-it-console>`);
      const advice = `"https://api.example.compets" lacks a "/" after {{base_url}}: {{base_url}} is "https://api.example.com" in environment "Local", so the path runs into its host. Write {{base_url}}/pets.`;
      expect(el.shadowRoot!.querySelector('[part="resolved-url"]')).to.equal(null);
      expect([...el.shadowRoot!.querySelectorAll('p.notice')].map((p) => p.textContent!.trim())).to.include(advice);
      const snippet = el.shadowRoot!.querySelector('code-snippet')!;
      await snippet.updateComplete;
      expect(snippet.shadowRoot!.textContent).to.contain(`No snippet for this request: ${advice}`);
      expect(snippet.shadowRoot!.querySelector('pre code'), 'no code to the joined URL').to.equal(null);
    });
  });
});
