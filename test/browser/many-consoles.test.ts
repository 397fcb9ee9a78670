// A docs page embeds one console per operation: here 30 on one page, sharing one configuration and one history
// (one storageKey). The tests count what the page holds open and what the consoles tell each other, never time.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createStore, set, values } from 'idb-keyval';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { History, IdbHistoryStore, type ConsoleConfig, type HistoryStoreChange, type StoredHistoryRecord } from '../../src/core/index.js';
import type { TicResponseEvent } from '../../src/events/index.js';
import { deleteDatabase } from './support/delete-database.js';
import { isOpen } from './support/open-connection.js';
import { withoutIndexedDB } from './support/without-indexeddb.js';

const CONSOLES = 30;

let servers: { api: string; proxy: string };
let run = 0;

/** A fresh storage key, its database deleted. */
async function freshStorageKey(): Promise<string> {
  run += 1;
  const storageKey = `many-consoles-${Date.now()}-${run}`;
  await deleteDatabase(`try-it-console:${storageKey}`);
  return storageKey;
}

function pageConfig(storageKey: string, maxItems = 50): ConsoleConfig {
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey, maxItems },
  };
}

/**
 * One console per operation; the even ones configured by the page's script (one object for all), the odd ones by a
 * child JSON script, as a static page does it.
 */
async function docsPage(config: ConsoleConfig): Promise<TryItConsole[]> {
  const page = await fixture<HTMLElement>(html`<main>
    ${Array.from({ length: CONSOLES }, (_, n) =>
      n % 2 === 0
        ? html`<try-it-console .config=${config} method="GET" url="{{base_url}}/pets/${n}"></try-it-console>`
        : html`<try-it-console method="GET" url="{{base_url}}/pets/${n}"><script type="application/json">${JSON.stringify(config)}</script></try-it-console>`,
    )}
  </main>`);
  const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
  await Promise.all(consoles.map((console) => console.updateComplete));
  await Promise.all(consoles.map((console) => console.engine!.history.ready()));
  return consoles;
}

/** The IndexedDB connections and BroadcastChannels opened from now on, until `restore()`. */
function countOpened() {
  const connections: IDBDatabase[] = [];
  const channels: BroadcastChannel[] = [];
  const originalOpen = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
    const request = version === undefined ? originalOpen.call(this, name) : originalOpen.call(this, name, version);
    request.addEventListener('success', () => connections.push(request.result));
    return request;
  };
  const OriginalChannel = globalThis.BroadcastChannel;
  globalThis.BroadcastChannel = class extends OriginalChannel {
    constructor(name: string) {
      super(name);
      channels.push(this);
    }
  };
  return {
    connections,
    channels,
    restore: () => {
      IDBFactory.prototype.open = originalOpen;
      globalThis.BroadcastChannel = OriginalChannel;
    },
  };
}

/** Whether a channel is still open: a closed one refuses to post. The probe is no change a history acts on. */
function isChannelOpen(channel: BroadcastChannel): boolean {
  try {
    channel.postMessage({ type: 'probe' });
    return true;
  } catch {
    return false;
  }
}

const listedUrls = (console: TryItConsole) => console.engine!.history.list().map((entry) => entry.url);

describe('30 consoles on one page sharing one history', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('open one IndexedDB connection and one BroadcastChannel, list a send made in any of them, and close both once all are removed', async () => {
    const storageKey = await freshStorageKey();
    const opened = countOpened();
    try {
      const consoles = await docsPage(pageConfig(storageKey));
      expect({ connections: opened.connections.length, channels: opened.channels.length }).to.deep.equal({ connections: 1, channels: 1 });
      // One list in memory, not a copy per console (up to maxItems entries with their bodies each).
      expect(new Set(consoles.map((console) => console.engine!.history)).size, 'histories in memory').to.equal(1);

      // Another tab of the docs site, on the same database.
      const otherTab = new History({ enabled: true }, { store: new IdbHistoryStore(storageKey, { indexedDB }) });
      await otherTab.ready();
      await consoles[7]!.send();
      const sent = `${servers.api}/pets/7`;
      await waitUntil(() => consoles.every((console) => listedUrls(console).includes(sent)), 'every console lists the send of the eighth', { timeout: 10_000 });
      const lastList = consoles.at(-1)!.shadowRoot!.querySelector('request-history')!;
      await waitUntil(() => lastList.shadowRoot!.textContent!.includes('/pets/7'), 'the last console shows it');
      await waitUntil(() => otherTab.list().some((entry) => entry.url === sent), 'the other tab lists it');
      otherTab.add({ method: 'GET', url: 'https://api.example/from-another-tab', status: 200, duration: 1 });
      await waitUntil(() => consoles.every((console) => listedUrls(console)[0] === 'https://api.example/from-another-tab'), 'every console lists the other tab’s entry first', { timeout: 10_000 });
      expect(consoles.map((console) => listedUrls(console).length)).to.deep.equal(consoles.map(() => 2));
      otherTab.close();
      await otherTab.flush();

      // The docs site navigates away: every console goes.
      for (const console of consoles) console.remove();
      await new Promise((resolve) => setTimeout(resolve));
      await Promise.all(consoles.map((console) => console.engine?.history.flush()));
      await waitUntil(() => !opened.connections.some(isOpen), 'every connection closed');
      expect(opened.channels.filter(isChannelOpen), 'channels left open').to.have.length(0);

      // And back: a console added again opens the database again and lists what it holds.
      document.body.append(consoles[3]!);
      await consoles[3]!.updateComplete;
      await consoles[3]!.engine!.history.ready();
      expect(listedUrls(consoles[3]!)).to.deep.equal(['https://api.example/from-another-tab', sent]);
      consoles[3]!.remove();
    } finally {
      opened.restore();
    }
  });

  it('announce each record they trim from a store fuller than their maxItems once, not once per console', async () => {
    const storageKey = await freshStorageKey();
    const raw = createStore(`try-it-console:${storageKey}`, 'history');
    const start = Date.now() - 60_000;
    for (let n = 0; n < 20; n += 1) {
      const record: StoredHistoryRecord = { entry: { id: `e${n}`, method: 'GET', url: `https://api.example/${n}`, headers: {}, body: '', status: 200, duration: 1, timestamp: new Date(start + n) }, addedAt: start + n };
      await set(record.entry.id, record, raw);
    }
    (await new Promise<IDBDatabase>((resolve) => (indexedDB.open(`try-it-console:${storageKey}`).onsuccess = (event) => resolve((event.target as IDBOpenDBRequest).result)))).close();

    const announced: HistoryStoreChange[] = [];
    const originalPost = BroadcastChannel.prototype.postMessage;
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, message: unknown) {
      announced.push(message as HistoryStoreChange);
      originalPost.call(this, message);
    };
    try {
      // Five kept: the configuration's maxItems went down since the other 15 were stored.
      const consoles = await docsPage(pageConfig(storageKey, 5));
      await Promise.all(consoles.map((console) => console.engine!.history.flush()));
      const newest = ['https://api.example/19', 'https://api.example/18', 'https://api.example/17', 'https://api.example/16', 'https://api.example/15'];
      expect(consoles.filter((console) => JSON.stringify(listedUrls(console)) !== JSON.stringify(newest)), 'consoles not listing the five newest').to.have.length(0);
      expect((await values(raw)).length, 'records stored').to.equal(5);
      const deletes = announced.filter((change) => change.type === 'delete');
      expect(deletes.length, 'deletions announced').to.equal(15);
      expect(new Set(deletes.map((change) => (change as { id: string }).id)).size).to.equal(15);
      for (const console of consoles) console.remove();
    } finally {
      BroadcastChannel.prototype.postMessage = originalPost;
    }
  });
});

describe('30 consoles on one page sharing their environments', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  const environments = () => [
    { name: 'Production', variables: { base_url: `${servers.api}/production` } },
    { name: 'Sandbox', variables: { base_url: `${servers.api}/sandbox` } },
  ];
  const picker = (console: TryItConsole) => console.shadowRoot!.querySelector('env-picker')!.shadowRoot!.querySelector('select')!;
  function pick(console: TryItConsole, name: string): void {
    const select = picker(console);
    select.value = name;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  }
  async function shown(consoles: TryItConsole[]): Promise<string[]> {
    await Promise.all(consoles.map((console) => console.updateComplete));
    await Promise.all(consoles.map((console) => console.shadowRoot!.querySelector('env-picker')!.updateComplete));
    return consoles.map((console) => picker(console).value);
  }

  it('show and send to the environment picked in any one of them, the page script’s and the JSON ones alike', async () => {
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: environments(), history: { enabled: false } };
    const page = await fixture<HTMLElement>(html`<main>
      ${Array.from({ length: CONSOLES }, (_, n) =>
        n % 2 === 0
          ? html`<try-it-console .config=${config} url="{{base_url}}/pets/${n}"></try-it-console>`
          : html`<try-it-console url="{{base_url}}/pets/${n}"><script type="application/json">${JSON.stringify(config)}</script></try-it-console>`,
      )}
      <try-it-console .config=${{ ...config, environments: environments().reverse() }} url="{{base_url}}/other"></try-it-console>
    </main>`);
    const all = [...page.querySelectorAll<TryItConsole>('try-it-console')];
    const consoles = all.slice(0, CONSOLES);
    const otherEnvironments = all.at(-1)!;
    pick(consoles[0]!, 'Sandbox');
    expect((await shown(consoles)).filter((name) => name !== 'Sandbox'), 'consoles not showing Sandbox').to.have.length(0);
    // Other environments (here, listed in another order) are another choice.
    expect(await shown([otherEnvironments])).to.deep.equal(['Sandbox']);
    pick(otherEnvironments, 'Production');
    expect((await shown(consoles)).filter((name) => name !== 'Sandbox'), 'consoles not showing Sandbox').to.have.length(0);

    const response = oneEvent<TicResponseEvent>(consoles[13]!, 'tic-response');
    void consoles[13]!.send();
    expect((await response).response.request.url).to.equal(`${servers.api}/sandbox/pets/13`);
  });

  it('keep a choice made while one of them was away, and let a console added back show it', async () => {
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: environments(), history: { enabled: false } };
    const page = await fixture<HTMLElement>(html`<main>${Array.from({ length: 3 }, () => html`<try-it-console .config=${config}></try-it-console>`)}</main>`);
    const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
    await shown(consoles);
    pick(consoles[2]!, 'Sandbox');
    expect(await shown(consoles)).to.deep.equal(['Sandbox', 'Sandbox', 'Sandbox']);
    const away = consoles[2]!;
    away.remove();
    await new Promise((resolve) => setTimeout(resolve));
    pick(consoles[0]!, 'Production');
    page.append(away);
    expect(await shown(consoles)).to.deep.equal(['Production', 'Production', 'Production']);
  });
});

describe('a value the reader sets in one console', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('is sent by every console sharing the environments, Ctrl+Enter in the field sending at once', async () => {
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: [{ name: 'Docs', variables: { base_url: servers.api, token: 'paste-your-key' } }], history: { enabled: false } };
    const page = await fixture<HTMLElement>(html`<main>${Array.from({ length: 3 }, (_, n) => html`<try-it-console .config=${config} url="{{base_url}}/pets/${n}" .headers=${{ Authorization: 'Bearer {{token}}' }}></try-it-console>`)}</main>`);
    const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
    await Promise.all(consoles.map((console) => console.updateComplete));
    const picker = consoles[0]!.shadowRoot!.querySelector('env-picker')!;
    await picker.updateComplete;
    picker.shadowRoot!.querySelector<HTMLButtonElement>('button.edit[data-name="token"]')!.click();
    await picker.updateComplete;
    await sendKeys({ type: 'sk_test_mine' });
    const sent = oneEvent<TicResponseEvent>(consoles[0]!, 'tic-response');
    await sendKeys({ down: 'Control' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Control' });
    expect(JSON.parse((await sent).response.text).headers.authorization, 'sent at once, with the value set').to.equal('Bearer sk_test_mine');
    const other = oneEvent<TicResponseEvent>(consoles[2]!, 'tic-response');
    void consoles[2]!.send();
    expect(JSON.parse((await other).response.text).headers.authorization, 'another console').to.equal('Bearer sk_test_mine');
  });
});

describe('consoles sharing environments, removed and added back', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('a console added back does not override a choice made since in another console sharing its environments', async () => {
    const names = ['Production', 'Sandbox', 'Staging'];
    const config: ConsoleConfig = { corsProxy: servers.proxy, environments: names.map((name) => ({ name, variables: { base_url: `${servers.api}/${name}` } })), history: { enabled: false } };
    const page = await fixture<HTMLElement>(html`<main><try-it-console .config=${config}></try-it-console></main>`);
    const first = page.querySelector<TryItConsole>('try-it-console')!;
    await first.updateComplete;
    first.engine!.environments.setActive('Sandbox');
    first.remove();
    await new Promise((resolve) => setTimeout(resolve));
    // Meanwhile another console with the same environments comes, and the reader picks Staging in it.
    const second = document.createElement('try-it-console') as TryItConsole;
    second.config = config;
    page.append(second);
    await second.updateComplete;
    second.engine!.environments.setActive('Staging');
    page.append(first);
    await first.updateComplete;
    expect({ first: first.engine!.environments.active()!.name, second: second.engine!.environments.active()!.name }).to.deep.equal({ first: 'Staging', second: 'Staging' });

    // Alone again, a console added back starts on the choice it kept.
    second.remove();
    first.remove();
    await new Promise((resolve) => setTimeout(resolve));
    page.append(first);
    await first.updateComplete;
    expect(first.engine!.environments.active()!.name).to.equal('Staging');
  });
});

describe('30 consoles on one page without IndexedDB', () => {
  it('announce that the history cannot be kept once, not once per console, and show it in each', async () => {
    await withoutIndexedDB(async () => {
      const config: ConsoleConfig = { history: { enabled: true, storageKey: `many-warn-${Date.now()}` } };
      const page = await fixture<HTMLElement>(html`<main>${Array.from({ length: CONSOLES }, () => html`<try-it-console .config=${config}></try-it-console>`)}</main>`);
      const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
      await Promise.all(consoles.map((console) => console.engine!.history.ready()));
      const lists = consoles.map((console) => console.shadowRoot!.querySelector('request-history')!);
      await Promise.all(lists.map((list) => list.updateComplete));
      const regions = () => lists.map((list) => list.shadowRoot!.querySelector('[role="status"]')!.textContent!.trim());
      await waitUntil(() => regions().some((text) => text.includes('could not be loaded')), 'the warning is announced');
      // Well past the announcer's 100 ms pause, so that a second announcement would have been made.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(regions().filter((text) => text.includes('could not be loaded')), 'live regions saying it').to.have.length(1);
      expect(lists.filter((list) => !list.shadowRoot!.querySelector('.warning')?.textContent!.includes('could not be loaded')), 'lists not showing it').to.have.length(0);
    });
  });

  it('announce it from a list the reader can see, and again for the history of another page of the site', async () => {
    await withoutIndexedDB(async () => {
      const config: ConsoleConfig = { history: { enabled: true, storageKey: `many-warn-hidden-${Date.now()}` } };
      const regions = (page: HTMLElement) =>
        [...page.querySelectorAll<TryItConsole>('try-it-console')].map((console) => console.shadowRoot!.querySelector('request-history')!.shadowRoot!.querySelector('[role="status"]')!.textContent!.includes('could not be loaded'));
      const docsPage = async () => {
        // The first operation's console sits in a closed <details>: its live region is not rendered, so never heard.
        const page = await fixture<HTMLElement>(html`<main>
          <details><summary>GET /pets</summary><try-it-console .config=${config}></try-it-console></details>
          <section><try-it-console .config=${config}></try-it-console></section>
        </main>`);
        const consoles = [...page.querySelectorAll<TryItConsole>('try-it-console')];
        await Promise.all(consoles.map((console) => console.engine!.history.ready()));
        await waitUntil(() => regions(page).some(Boolean), 'the warning is announced');
        await new Promise((resolve) => setTimeout(resolve, 400)); // past the announcer's 100 ms pause
        return page;
      };
      const page = await docsPage();
      expect(regions(page)).to.deep.equal([false, true]);
      // The site shows another page: new consoles, a new history, the same failure, said again.
      page.remove();
      await new Promise((resolve) => setTimeout(resolve));
      expect(regions(await docsPage())).to.deep.equal([false, true]);
    });
  });
});
