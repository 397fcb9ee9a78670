// <request-history> rows mask the secret values <env-picker> masks, wherever the URL puts them (a path's /bot{{token}}/,
// a parameter whose name says nothing): the rows showed them in clear on a shared screen while the picker masked them.
// Each test failed on the code as it was before the fix. Since the console gives the values it masks to the history at
// each send, the entry itself holds `[redacted]` in their place (history-hunt-rotated-secrets.test.ts).
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { History } from '../../src/core/index.js';
import { axNodes } from './support/accessibility-tree.js';

const MASK = '••••••••';
const REDACTED = '[redacted]';
const TOKEN = '123456:AAH-demo-bot-key';
const SIGNING_KEY = 'k3y-hash-2024';
const SESSION = 'sess 42/ü';

let servers: { corsApi: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

/** What the rows show of a history: text, hover titles, the buttons' accessible names (as Chromium computes them). */
async function shownByRows(el: RequestHistory): Promise<string[]> {
  const rows = [...el.shadowRoot!.querySelectorAll('li')];
  const names = (await axNodes()).filter((node) => node.role === 'button' && /^(Delete )?GET /.test(node.name ?? '')).map((node) => `name: ${node.name}`);
  return [...rows.map((row) => `text: ${row.textContent!.replace(/\s+/g, ' ').trim()}`), ...rows.map((row) => `title: ${row.querySelector('.path')!.getAttribute('title')}`), ...names];
}

/** The announcement of deleting the first row (another than the one before). */
async function deleteFirstRow(el: RequestHistory): Promise<string> {
  const status = () => $(el, '[role="status"]').textContent!;
  const before = status();
  $<HTMLButtonElement>(el, 'button.delete').click();
  await waitUntil(() => status().startsWith('Deleted') && status() !== before, 'the deletion announced');
  return status();
}

describe('<request-history> rows mask secret values', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('in <try-it-console>: a key in the path and under a plain parameter name, in the row, title, names and announcement', async () => {
    run += 1;
    const config = {
      environments: [
        { name: 'Local', variables: { base_url: servers.corsApi, telegram_token: TOKEN, signing_key: SIGNING_KEY } },
        { name: 'Staging', variables: { base_url: servers.corsApi } },
      ],
      history: { enabled: true, storageKey: `history-rows-secrets-${Date.now()}-${run}` },
    };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/bot{{telegram_token}}/getMe?hash={{signing_key}}"></try-it-console>`);
    const response = oneEvent(el, 'tic-response');
    await el.send();
    await response;
    await el.updateComplete;
    const history = $<RequestHistory>(el, 'request-history');
    await history.updateComplete;
    const entry = (history.history as History).list()[0]!;
    expect(entry.url, 'kept out of the entry sent while masked').to.equal(`${servers.corsApi}/bot${REDACTED}/getMe?hash=${REDACTED}`);

    const shown = await shownByRows(history);
    expect(shown.length, 'text, title and the two names').to.equal(4);
    expect(shown.filter((text) => text.includes(TOKEN) || text.includes(SIGNING_KEY)), 'in clear').to.deep.equal([]);
    expect(shown.filter((text) => !text.includes(`/bot${REDACTED}/getMe?hash=${REDACTED}`)), 'masked').to.deep.equal([]);

    // Masked in any of the manager's environments, as failures are: the row stays masked when the reader picks another.
    const manager = $<EnvPicker>(el, 'env-picker').manager!;
    manager.setActive('Staging');
    await el.updateComplete;
    await history.updateComplete;
    expect($(history, 'li .path').getAttribute('title')).to.contain(`/bot${REDACTED}/`);

    // No longer secret (the variable renamed to a name that says nothing): the entry sent while it was keeps it out.
    manager.add({ name: 'Local', variables: { base_url: servers.corsApi, bot_path: TOKEN, signing_key: SIGNING_KEY } });
    await el.updateComplete;
    await history.updateComplete;
    expect($(history, 'li .path').getAttribute('title')).to.contain(`/bot${REDACTED}/getMe?hash=${REDACTED}`);

    const announced = await deleteFirstRow(history);
    expect(announced).not.to.contain(TOKEN);
    expect(announced).to.contain(`/bot${REDACTED}/getMe?hash=${REDACTED}`);
  });

  it('alone, masks the values given in maskedValues, as written and as a URL writes them', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'bot', method: 'GET', url: `https://api.example/bot${TOKEN}/getMe`, status: 200, duration: 5 });
    // As a path writes it: the space and ü percent-encoded, the slash kept.
    history.add({ id: 'session', method: 'GET', url: 'https://api.example/sessions/sess%2042/%C3%BC/items', status: 200, duration: 5 });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history} .maskedValues=${[TOKEN, SESSION]}></request-history>`);
    await history.ready();
    await el.updateComplete;
    expect(el.maskedValues).to.deep.equal([TOKEN, SESSION]);
    const shown = await shownByRows(el);
    expect(shown.length, 'two texts, two titles and four names').to.equal(8);
    expect(shown.filter((text) => text.includes(TOKEN) || text.includes('sess%2042')), 'in clear').to.deep.equal([]);
    // Names say each mask as "hidden value" (masks-hunt-reading.test.ts); text and titles show its bullets.
    const masked = (text: string, mask: string) => text.includes(`/sessions/${mask}/items`) || text.includes(`/bot${mask}/getMe`);
    expect(shown.filter((text) => !masked(text, text.startsWith('name:') ? ' hidden value ' : MASK)), 'masked').to.deep.equal([]);

    // The same values again, as a new array (a console gives one on each render): kept as they were, so that the rows'
    // guard renders no row again.
    const given = el.maskedValues;
    el.maskedValues = [SESSION, TOKEN, TOKEN];
    expect(el.maskedValues === given, 'the same array').to.equal(true);

    // The session no longer secret: its row shows it again, the other stays masked.
    el.maskedValues = [TOKEN];
    await el.updateComplete;
    const titles = [...el.shadowRoot!.querySelectorAll('.path')].map((path) => path.getAttribute('title'));
    expect(titles).to.deep.equal(['https://api.example/sessions/sess%2042/%C3%BC/items', `https://api.example/bot${MASK}/getMe`]);

    expect(await deleteFirstRow(el)).to.equal('Deleted GET https://api.example/sessions/sess%2042/%C3%BC/items from history.');
    expect(await deleteFirstRow(el)).to.equal('Deleted GET https://api.example/bot hidden value /getMe from history.');
  });

  it('alone, takes one string given in place of an array as one value, not as its characters', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'bot', method: 'GET', url: `https://api.example/bot${TOKEN}/getMe`, status: 200, duration: 5 });
    const el = await fixture<RequestHistory>(html`<request-history .history=${history} .maskedValues=${TOKEN}></request-history>`);
    await history.ready();
    await el.updateComplete;
    expect(el.maskedValues).to.deep.equal([TOKEN]);
    expect($(el, '.path').getAttribute('title')).to.equal(`https://api.example/bot${MASK}/getMe`);
  });
});
