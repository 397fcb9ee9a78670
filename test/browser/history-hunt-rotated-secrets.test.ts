// A secret the page replaces after a send (a rotated token) stays masked in the rows sent before: the rows masked only
// the values the environment panel masks now, so the old token showed in clear there, and stayed in memory and in
// IndexedDB. Both tests failed on the code as it was before the fix.
import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { IdbHistoryStore, type History, type StoredHistoryRecord } from '../../src/core/index.js';
import { axNodes } from './support/accessibility-tree.js';

const OLD_TOKEN = '123456:AAH-old-bot-key';
const NEW_TOKEN = '123456:AAH-new-bot-key';

let servers: { corsApi: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

/** The rows' text, hover titles and the buttons' accessible names (as Chromium computes them). */
async function shownByRows(el: RequestHistory): Promise<string> {
  const rows = [...el.shadowRoot!.querySelectorAll('li')];
  const names = (await axNodes()).filter((node) => node.role === 'button' && /^(Delete )?GET /.test(node.name ?? '')).map((node) => node.name);
  return [...rows.map((row) => row.textContent), ...rows.map((row) => row.querySelector('.path')!.getAttribute('title')), ...names].join('\n');
}

/** Sends with the token, replaces it as a page would, and returns what the history holds and shows. */
async function sendThenRotate(keepCredentials: boolean) {
  run += 1;
  const storageKey = `history-hunt-rotated-${Date.now()}-${run}`;
  const config = {
    environments: [{ name: 'Live', variables: { base_url: servers.corsApi, bot_token: OLD_TOKEN } }],
    history: { enabled: true, storageKey, keepCredentials },
  };
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/bot{{bot_token}}/getMe?note={{bot_token}}"></try-it-console>`);
  const response = oneEvent(el, 'tic-response');
  await el.send();
  await response;
  // The page rotates the token: the environment panel masks the new one now, and no longer knows the old.
  $<EnvPicker>(el, 'env-picker').manager!.add({ name: 'Live', variables: { base_url: servers.corsApi, bot_token: NEW_TOKEN } });
  await el.updateComplete;
  const list = $<RequestHistory>(el, 'request-history');
  await list.updateComplete;
  const history = list.history as History;
  await history.flush();
  const store = new IdbHistoryStore(storageKey);
  const stored = ((await store.load()) as StoredHistoryRecord[]).map((record) => JSON.stringify(record.entry)).join('\n');
  store.close();
  return { shown: await shownByRows(list), memory: JSON.stringify(history.list()), stored };
}

describe('<try-it-console> history: a secret the page replaces after a send', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('is kept out of the entry sent with it, in memory and in IndexedDB, and so out of its row', async () => {
    const { shown, memory, stored } = await sendThenRotate(false);
    expect(shown, 'text, title and names').to.contain('/bot[redacted]/getMe?note=[redacted]');
    expect(shown, 'text, title and names').not.to.contain(OLD_TOKEN);
    expect(memory, 'in memory').not.to.contain(OLD_TOKEN);
    expect(stored, 'in IndexedDB').not.to.contain(OLD_TOKEN);
    // The request as written names it by its placeholder: loaded again, it sends the new token.
    expect(stored).to.contain('/bot{{bot_token}}/getMe');
  });

  it('leaves a masked value that only refers to variables: the request as written keeps its placeholders', async () => {
    run += 1;
    const config = {
      environments: [{ name: 'Live', variables: { base_url: servers.corsApi, auth_header: 'Bearer {{api_token}}', api_token: OLD_TOKEN } }],
      history: { enabled: true, storageKey: `history-hunt-rotated-${Date.now()}-${run}` },
    };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/me"></try-it-console>`);
    el.load({ method: 'GET', url: '{{base_url}}/me', headers: { Authorization: 'Bearer {{api_token}}' } });
    await el.send();
    const entry = ($<RequestHistory>(el, 'request-history').history as History).list()[0]!;
    expect(entry.headers.Authorization).to.equal('Bearer [redacted]');
    expect(entry.written?.headers, 'loaded again, it resolves again').to.deep.equal({ Authorization: 'Bearer {{api_token}}' });
  });

  it('with keepCredentials, stays in the entry, as the site asked, but masked in its row', async () => {
    const { shown, memory, stored } = await sendThenRotate(true);
    expect(memory, 'kept in memory').to.contain(OLD_TOKEN);
    expect(stored, 'kept in IndexedDB').to.contain(OLD_TOKEN);
    expect(shown, 'text, title and names').to.contain('/bot••••••••/getMe?note=••••••••');
    expect(shown, 'text, title and names').not.to.contain(OLD_TOKEN);
  });
});
