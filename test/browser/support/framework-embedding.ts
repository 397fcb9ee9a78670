// What README's "Embedding" promises every framework that binds properties and events (Vue 3, React 19, Svelte 5, Angular 21),
// checked the same way for each: a framework test file mounts a small real app and hands this suite its mount
// function. Requests go only to the loopback servers of test-servers.mjs.
import { expect, waitUntil } from '@open-wc/testing';
import type { TryItConsole } from '../../../src/components/try-it-console/try-it-console.component.js';
import type { RequestHistory } from '../../../src/components/request-history/request-history.component.js';
import type { CodeSnippet } from '../../../src/components/code-snippet/code-snippet.component.js';
import { History, type ConsoleConfig } from '../../../src/core/index.js';
import {
  TicBeforeSendEvent,
  TicCopyEvent,
  TicEnvironmentChangeEvent,
  TicHistoryDeleteEvent,
  TicHistorySelectEvent,
  TicLanguageChangeEvent,
  TicRequestErrorEvent,
  TicResponseEvent,
} from '../../../src/events/index.js';

export interface TestServers {
  api: string;
  proxy: string;
  /** A port nothing listens on. */
  closed: string;
}

/**
 * A configuration that reaches the test API through the proxy, with a history of its own: `name` (the framework and
 * the test) keeps it apart from every other test's.
 */
export function testConfig(servers: Pick<TestServers, 'api' | 'proxy'>, name: string): ConsoleConfig {
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey: `frameworks-${name}-${Date.now()}` },
  };
}

/** What the app renders: the console, and beside it a `<request-history>` and a `<code-snippet>` of their own. */
export interface AppProps {
  config: ConsoleConfig;
  method: string;
  url: string;
  /** An object, or its JSON text as the attribute holds it. */
  headers: Record<string, string> | string;
  body: string;
  /** For the app's own `<request-history>`. */
  history: History;
  /** For the app's own `<code-snippet>`: the text a `languages` attribute holds. */
  languages: string;
  /** Every `tic-` event listener the app binds calls this, with the event as the framework hands it over. */
  onEvent: (event: Event) => void;
}

export interface MountedApp {
  /** Renders the app again with `props`, as a parent's render does, and resolves once the framework has patched the DOM. */
  rerender(props: AppProps): Promise<void>;
  unmount(): Promise<void>;
}

export type MountApp = (container: HTMLElement, props: AppProps) => Promise<MountedApp>;

/** The events the app binds a listener to, each with the class it must arrive as. */
export const APP_EVENTS = {
  'tic-before-send': TicBeforeSendEvent,
  'tic-response': TicResponseEvent,
  'tic-request-error': TicRequestErrorEvent,
  'tic-environment-change': TicEnvironmentChangeEvent,
  'tic-history-select': TicHistorySelectEvent,
  'tic-history-delete': TicHistoryDeleteEvent,
  'tic-language-change': TicLanguageChangeEvent,
  'tic-copy': TicCopyEvent,
} as const;

/**
 * The class an event arrived as, by name when it is one of ours, so that a failed check prints a word: chai printing
 * an event walks the page behind its target.
 */
export const kindOf = (event: Event) => Object.values(APP_EVENTS).find((type) => event instanceof type)?.name ?? `${event.constructor.name} ${event.type}`;

export const shadow = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const inner = <T extends Element = HTMLElement>(el: Element, host: string, selector: string) => shadow(el, host).shadowRoot!.querySelector<T>(selector)!;

export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** The request the console shows for editing. */
export function shownRequest(el: TryItConsole) {
  const rows = [...el.shadowRoot!.querySelectorAll('.header-row')].map((row) => [row.querySelector<HTMLInputElement>('input.name')!.value, row.querySelector<HTMLInputElement>('input.value')!.value]);
  return {
    method: shadow<HTMLSelectElement>(el, '[part="method"]').value,
    url: shadow<HTMLInputElement>(el, '[part="url"]').value,
    headers: Object.fromEntries(rows) as Record<string, string>,
    body: el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part="body"]')?.value,
  };
}

/** What the element shows in place of itself when it cannot work (a configuration or preset problem). */
export const shownProblem = (el: Element) => el.shadowRoot!.querySelector('[role="alert"]')?.textContent?.replace(/\s+/g, ' ').trim();

/**
 * Console errors and warnings, uncaught errors and unhandled rejections while the page runs: a framework's warning
 * about an element it does not know, or an error from an element removed and added again, fails the test.
 */
export function watchProblems() {
  const problems: string[] = [];
  const original = { error: console.error, warn: console.warn };
  console.error = (...args: unknown[]) => {
    problems.push(`console.error: ${args.map(String).join(' ')}`);
    original.error.apply(console, args);
  };
  console.warn = (...args: unknown[]) => {
    problems.push(`console.warn: ${args.map(String).join(' ')}`);
    original.warn.apply(console, args);
  };
  const onError = (event: ErrorEvent) => problems.push(`uncaught: ${event.message}`);
  const onRejection = (event: PromiseRejectionEvent) => problems.push(`unhandled rejection: ${String(event.reason)}`);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    problems,
    stop() {
      Object.assign(console, original);
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    },
  };
}

/** Rounds of the event loop: the elements close what they held a microtask after removal, IndexedDB later still. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve));
}

let run = 0;

/**
 * The shared checks, run against the app `mount` renders. Each test starts the app from props of its own and
 * unmounts it afterwards; no test leaves a console error or warning behind.
 */
export function describeEmbedding(framework: string, mount: MountApp): void {
  describe(`embedded in ${framework}`, () => {
    let servers: TestServers;
    let container: HTMLDivElement;
    let app: MountedApp | undefined;
    let watch: ReturnType<typeof watchProblems>;
    let events: Event[];
    /** The app's listener of tic-history-select calls preventDefault(), as an app asking before edits are replaced. */
    let refusePicks: boolean;

    before(async () => {
      servers = await (await fetch('/__test-servers.json')).json();
    });

    beforeEach(() => {
      events = [];
      refusePicks = false;
      container = document.createElement('div');
      document.body.append(container);
      watch = watchProblems();
    });

    afterEach(async () => {
      await app?.unmount();
      app = undefined;
      container.remove();
      await settle();
      watch.stop();
      expect(watch.problems, 'logged while the app ran').to.deep.equal([]);
    });

    /** Fresh props: new objects of equal content on every call, as a component's render makes them. */
    function props(key: string, changes: Partial<AppProps> = {}): AppProps {
      return {
        config: {
          corsProxy: servers.proxy,
          environments: [
            { name: 'Local', variables: { base_url: servers.api, pet_id: '7' } },
            { name: 'Other', variables: { base_url: servers.api, pet_id: '99' } },
          ],
          history: { enabled: true, storageKey: key },
          snippets: { languages: ['curl', 'python'] },
        },
        method: 'POST',
        url: '{{base_url}}/pets',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: '{"name":"Rex"}',
        history: sharedHistory,
        languages: 'curl python',
        onEvent: (event) => {
          events.push(event);
          if (refusePicks && event.type === 'tic-history-select') event.preventDefault();
        },
        ...changes,
      };
    }
    let sharedHistory: History;
    let storageKey: string;
    beforeEach(() => {
      run += 1;
      storageKey = `frameworks-${framework}-${Date.now()}-${run}`;
      sharedHistory = new History({ enabled: true });
      sharedHistory.add({ id: 'older', method: 'GET', url: 'https://api.example/pets', status: 200, duration: 12 });
      sharedHistory.add({ id: 'newer', method: 'DELETE', url: 'https://api.example/pets/1', status: 404, duration: 8 });
    });

    const consoleElement = () => container.querySelector('try-it-console')!;
    const ofType = <K extends keyof typeof APP_EVENTS>(type: K) => events.filter((event) => event.type === type) as InstanceType<(typeof APP_EVENTS)[K]>[];

    async function mounted(changes: Partial<AppProps> = {}): Promise<TryItConsole> {
      app = await mount(container, props(storageKey, changes));
      const el = consoleElement();
      await el.updateComplete;
      return el;
    }

    async function rerender(changes: Partial<AppProps> = {}): Promise<void> {
      await app!.rerender(props(storageKey, changes));
      await consoleElement().updateComplete;
    }

    async function sendAndWait(el: TryItConsole): Promise<Event> {
      const before = events.length;
      shadow(el, '[part="send-button"]').click();
      await waitUntil(() => events.slice(before).some((event) => event.type === 'tic-response' || event.type === 'tic-request-error'), 'the app hears how the send ended');
      await el.updateComplete;
      return events.slice(before).find((event) => event.type === 'tic-response' || event.type === 'tic-request-error')!;
    }

    it('passes the configuration as a property, and presets the method, URL, headers and body', async () => {
      const el = await mounted();
      expect(el.hasAttribute('config'), 'not set as an attribute ("[object Object]")').to.equal(false);
      expect(shownProblem(el)).to.equal(undefined);
      expect(el.engine!.environments.list().map((environment) => environment.name)).to.deep.equal(['Local', 'Other']);
      expect(inner(el, 'env-picker', 'select').textContent).to.contain('Other');
      expect(shownRequest(el)).to.deep.equal({
        method: 'POST',
        url: '{{base_url}}/pets',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: '{"name":"Rex"}',
      });
    });

    it('reads headers passed as JSON text, as the attribute holds them', async () => {
      const el = await mounted({ headers: '{"Accept":"application/json","X-Trace":"1"}' });
      expect(shownProblem(el)).to.equal(undefined);
      expect(shownRequest(el).headers).to.deep.equal({ Accept: 'application/json', 'X-Trace': '1' });
      await rerender({ headers: '{"Accept":"text/plain"}' });
      expect(shownRequest(el).headers, 'another text: the new operation').to.deep.equal({ Accept: 'text/plain' });
      await rerender({ headers: 'Accept: text/plain' });
      expect(shownProblem(el), 'text that is not a JSON object, explained').to.contain('headers');
    });

    it('keeps the user’s edits when the app renders equal values again, and loads a changed preset whole', async () => {
      const el = await mounted();
      const engine = el.engine;
      typeInto(shadow(el, '[part="url"]'), '{{base_url}}/pets?edited=1');
      typeInto(shadow(el, '[part="body"]'), '{"name":"Edited"}');
      await el.updateComplete;
      const edited = shownRequest(el);

      await rerender();
      expect(shownRequest(el), 'equal new objects: a re-render').to.deep.equal(edited);
      expect(el.engine === engine, 'an equal new config builds no new engine').to.equal(true);

      await rerender({ url: '{{base_url}}/pets/{{pet_id}}', method: 'PUT', headers: { 'X-Request': 'two' }, body: '{"name":"Max"}' });
      expect(shownRequest(el), 'another operation, loaded whole').to.deep.equal({ method: 'PUT', url: '{{base_url}}/pets/{{pet_id}}', headers: { 'X-Request': 'two' }, body: '{"name":"Max"}' });

      await rerender({ url: '{{base_url}}/pets/{{pet_id}}', method: 'PUT', headers: { 'X-Request': 'two' }, body: '{"name":"Rex"}' });
      expect(shownRequest(el).body, 'only the body changed: loaded too').to.equal('{"name":"Rex"}');
    });

    it('hands the console’s typed events to the app’s listeners', async () => {
      const el = await mounted();
      const response = await sendAndWait(el);
      expect(kindOf(response)).to.equal('TicResponseEvent');
      const { status, body } = (response as TicResponseEvent).response;
      expect(status).to.equal(200);
      expect(JSON.parse(new TextDecoder().decode(body))).to.include({ method: 'POST', url: '/pets', body: '{"name":"Rex"}' });
      expect(ofType('tic-before-send').map(kindOf)).to.deep.equal(['TicBeforeSendEvent']);

      const select = inner<HTMLSelectElement>(el, 'env-picker', 'select');
      select.value = 'Other';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      expect(ofType('tic-environment-change').map((event) => event.name)).to.deep.equal(['Other']);

      await waitUntil(() => inner(el, 'request-history', 'button.entry'), 'the send is in the history');
      inner(el, 'request-history', 'button.entry').click();
      expect(ofType('tic-history-select').map((event) => event.entry.url)).to.deep.equal([`${servers.api}/pets`]);
      await el.updateComplete;
      expect(shownRequest(el).url, 'the entry picked is loaded, as written').to.equal('{{base_url}}/pets');

      await rerender({ url: `${servers.closed}/pets`, method: 'GET' });
      const failure = await sendAndWait(el);
      expect(kindOf(failure)).to.equal('TicRequestErrorEvent');
      const { kind, proxyCode } = (failure as TicRequestErrorEvent).error;
      expect([kind, proxyCode], 'the proxy could not reach the closed port').to.deep.equal(['proxy-refused', 'upstream_unreachable']);
      expect(events.map(kindOf), 'each event as its class').to.deep.equal(events.map((event) => APP_EVENTS[event.type as keyof typeof APP_EVENTS]?.name));
    });

    it('keeps the request being edited when the app’s tic-history-select listener calls preventDefault()', async () => {
      const el = await mounted();
      await sendAndWait(el);
      typeInto(shadow(el, '[part="url"]'), '{{base_url}}/pets?edited=1');
      refusePicks = true;
      await waitUntil(() => inner(el, 'request-history', 'button.entry'), 'the send is in the history');
      inner(el, 'request-history', 'button.entry').click();
      await el.updateComplete;
      expect(ofType('tic-history-select')).to.have.length(1);
      expect(shownRequest(el).url).to.equal('{{base_url}}/pets?edited=1');
    });

    it('shows a History passed to <request-history>, and hands its events to the app', async () => {
      await mounted();
      const history = container.querySelector<RequestHistory>('request-history')!;
      await history.updateComplete;
      expect(shownProblem(history)).to.equal(undefined);
      const entries = [...history.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.entry')];
      expect(entries.map((entry) => entry.querySelector('.method')!.textContent)).to.deep.equal(['DELETE', 'GET']);
      entries[1]!.click();
      expect(ofType('tic-history-select').map((event) => event.entry.id)).to.deep.equal(['older']);
      history.shadowRoot!.querySelector<HTMLButtonElement>('button.delete')!.click();
      expect(ofType('tic-history-delete').map((event) => event.id)).to.deep.equal(['newer']);
      expect(sharedHistory.list().map((entry) => entry.id), 'deleted from the History given').to.deep.equal(['older']);
    });

    it('reads languages passed as the attribute’s text, and hands <code-snippet>’s events to the app', async () => {
      await mounted();
      const snippet = container.querySelector<CodeSnippet>('code-snippet')!;
      await snippet.updateComplete;
      const tabs = [...snippet.shadowRoot!.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
      expect(tabs.map((tab) => tab.textContent!.trim())).to.deep.equal(['curl', 'Python']);
      expect(snippet.shadowRoot!.querySelector('pre code')!.textContent).to.contain('curl -X POST https://api.example/pets');
      tabs[1]!.click();
      expect(ofType('tic-language-change').map((event) => event.language)).to.deep.equal(['python']);
      snippet.shadowRoot!.querySelector<HTMLButtonElement>('[part="copy-button"]')!.click();
      await waitUntil(() => ofType('tic-copy').length === 1, 'the app hears the copy');
      expect(ofType('tic-copy')[0]!.language).to.equal('python');
    });

    it('is unmounted and mounted again without errors, the new console working on the same history', async () => {
      const first = await mounted();
      await sendAndWait(first);
      await app!.unmount();
      app = undefined;
      expect(container.querySelector('try-it-console') === null, 'gone with the app').to.equal(true);
      await settle();

      const second = await mounted({ url: '{{base_url}}/pets/{{pet_id}}', method: 'GET' });
      expect(second === first, 'a new element').to.equal(false);
      await waitUntil(() => inner(second, 'request-history', 'button.entry'), 'the first app’s send is in the history');
      const response = await sendAndWait(second);
      expect(kindOf(response)).to.equal('TicResponseEvent');
      expect((response as TicResponseEvent).response.request.url).to.equal(`${servers.api}/pets/7`);
      await waitUntil(() => second.shadowRoot!.querySelector('request-history')!.shadowRoot!.querySelectorAll('button.entry').length === 2, 'both sends are in the history');
    });

    it('is unmounted with a send in flight without errors, the send ending as cancelled', async () => {
      const el = await mounted({ url: '{{base_url}}/hold', method: 'GET' });
      // Heard on the element itself: a framework may take its own listeners off as it unmounts (Svelte does).
      const ended: TicRequestErrorEvent[] = [];
      el.addEventListener('tic-request-error', (event) => ended.push(event));
      shadow(el, '[part="send-button"]').click();
      await waitUntil(() => ofType('tic-before-send').length === 1, 'the send started');
      await app!.unmount();
      app = undefined;
      await waitUntil(() => ended.length === 1, 'the send ended');
      expect(ended[0]!.error.kind).to.equal('aborted');
    });
  });
}
