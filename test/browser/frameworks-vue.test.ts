// The elements in a Vue 3 app, bound as README's "Embedding" says: templates compiled in the page by Vue's own
// compiler (the runtime + compiler build), with isCustomElement naming the four tags.
import { expect, waitUntil } from '@open-wc/testing';
import { KeepAlive, createApp, defineComponent, h, markRaw, nextTick, reactive, ref, type App } from 'vue';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import { EnvironmentManager, History, SnippetGenerator } from '../../src/core/index.js';
import type { TicResponseEvent } from '../../src/events/index.js';
import { describeEmbedding, settle, shadow, shownProblem, shownRequest, testConfig, watchProblems, type AppProps, type MountApp } from './support/framework-embedding.js';

/** Said in place of the code. */
const snippetProblem = (el: CodeSnippet) => el.shadowRoot!.querySelector('.problem')?.textContent ?? undefined;

const TAGS = ['try-it-console', 'env-picker', 'request-history', 'code-snippet'];

/** Configured as README says: the four tags are custom elements, and no other tag with a '-' is. */
function vueApp(root: Parameters<typeof createApp>[0]): App {
  const app = createApp(root);
  app.config.compilerOptions.isCustomElement = (tag) => TAGS.includes(tag);
  return app;
}

const APP_TEMPLATE = `
  <try-it-console :config="config" :method="method" :url="url" :headers="headers" :body="body"
    @tic-before-send="onEvent" @tic-response="onEvent" @tic-request-error="onEvent"
    @tic-environment-change="onEvent" @tic-history-select="onEvent" />
  <request-history :history="history" @tic-history-select="onEvent" @tic-history-delete="onEvent" />
  <code-snippet method="POST" url="https://api.example/pets" :languages="languages" @tic-language-change="onEvent" @tic-copy="onEvent" />
`;

/** The app's state is Vue state, as an app's would be: the config and headers reach the elements as reactive proxies. */
const mountVueApp: MountApp = async (container, props) => {
  // README: a History in Vue state is passed markRaw(), as Vue's proxy would hide its private fields.
  const state = reactive({ ...props, history: markRaw(props.history) });
  const app = vueApp({ setup: () => state, template: APP_TEMPLATE });
  app.mount(container);
  await nextTick();
  return {
    async rerender(next: AppProps) {
      Object.assign(state, { ...next, history: markRaw(next.history) });
      await nextTick();
    },
    async unmount() {
      app.unmount();
      await nextTick();
    },
  };
};

describeEmbedding('Vue 3', mountVueApp);

describe('embedded in Vue 3: what is particular to Vue', () => {
  let servers: { api: string; proxy: string };
  let container: HTMLDivElement;
  let app: App | undefined;

  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    app?.unmount();
    app = undefined;
    container.remove();
  });

  it('works as README writes it, the URL’s {{placeholders}} kept as text by Vue’s compiler', async () => {
    const responses: Event[] = [];
    const config = testConfig(servers, 'vue-readme');
    const watch = watchProblems();
    try {
      app = vueApp({
        setup: () => ({ config, onResponse: (event: Event) => responses.push(event) }),
        template: `<try-it-console :config="config" method="GET" url="{{base_url}}/pets" @tic-response="onResponse" />`,
      });
      app.mount(container);
      await nextTick();
      const el = container.querySelector<TryItConsole>('try-it-console')!;
      await el.updateComplete;
      expect(shownRequest(el)).to.deep.equal({ method: 'GET', url: '{{base_url}}/pets', headers: {}, body: undefined });
      shadow(el, '[part="send-button"]').click();
      await waitUntil(() => responses.length === 1, 'the handler hears the response');
      expect((responses[0] as TicResponseEvent).response.request.url).to.equal(`${servers.api}/pets`);
      app.unmount();
      app = undefined;
      await settle();
    } finally {
      watch.stop();
    }
    expect(watch.problems).to.deep.equal([]);
  });

  it('explains in place a History passed as Vue’s reactive proxy, and shows it once passed markRaw()', async () => {
    const filled = () => {
      const history = new History({ enabled: true });
      history.add({ method: 'GET', url: 'https://api.example/pets', status: 200, duration: 3 });
      return history;
    };
    const given = ref<History>(filled());
    app = vueApp({ setup: () => ({ given }), template: '<request-history :history="given" />' });
    app.mount(container);
    await nextTick();
    const el = container.querySelector<RequestHistory>('request-history')!;
    await el.updateComplete;
    expect(shownProblem(el)).to.contain('markRaw(history)');

    // Another History: markRaw() marks the object, and setting the ref to the one it holds would change nothing.
    given.value = markRaw(filled());
    await nextTick();
    await el.updateComplete;
    expect(shownProblem(el)).to.equal(undefined);
    expect(el.shadowRoot!.querySelectorAll('button.entry')).to.have.length(1);
  });

  it('explains in place an EnvironmentManager passed as Vue’s reactive proxy, and works once passed markRaw()', async () => {
    const manager = () => new EnvironmentManager({ name: 'Production', variables: { base_url: 'https://api.example' } }, { name: 'Sandbox', variables: { base_url: 'https://sandbox.api.example' } });
    // Vue state holding one, as an app sharing its environments between a picker and snippets would.
    const state = reactive({ manager: manager() });
    const watch = watchProblems();
    try {
      app = vueApp({ setup: () => state, template: '<env-picker :manager="manager" /><code-snippet url="{{base_url}}/pets" :environments="manager" />' });
      app.mount(container);
      await nextTick();
      const picker = container.querySelector<EnvPicker>('env-picker')!;
      const snippet = container.querySelector<CodeSnippet>('code-snippet')!;
      await picker.updateComplete;
      await snippet.updateComplete;
      expect(shownProblem(picker)).to.contain('markRaw(');
      expect(snippetProblem(snippet)).to.contain('markRaw(');

      state.manager = markRaw(manager());
      await nextTick();
      await picker.updateComplete;
      await snippet.updateComplete;
      expect(shownProblem(picker)).to.equal(undefined);
      expect([...picker.shadowRoot!.querySelectorAll('option')].map((option) => option.textContent)).to.deep.equal(['Production', 'Sandbox']);
      expect(snippetProblem(snippet)).to.equal(undefined);
      expect(snippet.shadowRoot!.querySelector('pre code')!.textContent).to.contain('{{base_url}}/pets');
      await settle();
    } finally {
      watch.stop();
    }
    expect(watch.problems, 'thrown in Vue’s patch, or logged').to.deep.equal([]);
  });

  it('explains in place a SnippetGenerator passed as Vue’s reactive proxy, and works once passed markRaw()', async () => {
    const state = reactive({ generator: new SnippetGenerator({ languages: ['python', 'curl'] }) });
    const watch = watchProblems();
    try {
      app = vueApp({ setup: () => state, template: '<code-snippet url="https://api.example/pets" :generator="generator" />' });
      app.mount(container);
      await nextTick();
      const snippet = container.querySelector<CodeSnippet>('code-snippet')!;
      await snippet.updateComplete;
      expect(snippetProblem(snippet)).to.contain('markRaw(generator)');

      state.generator = markRaw(new SnippetGenerator({ languages: ['python', 'curl'] }));
      await nextTick();
      await snippet.updateComplete;
      expect(snippetProblem(snippet)).to.equal(undefined);
      expect([...snippet.shadowRoot!.querySelectorAll('[role="tab"]')].map((tab) => tab.textContent!.trim())).to.deep.equal(['Python', 'curl']);
      await settle();
    } finally {
      watch.stop();
    }
    expect(watch.problems, 'thrown in Vue’s patch, or logged').to.deep.equal([]);
  });

  it('keeps the environment chosen and works again when <KeepAlive> brings the console back', async () => {
    const watch = watchProblems();
    try {
      const config = {
        corsProxy: servers.proxy,
        environments: [
          { name: 'Local', variables: { base_url: servers.api } },
          { name: 'Other', variables: { base_url: `${servers.api}/other` } },
        ],
        history: { enabled: true, storageKey: `frameworks-vue-keep-alive-${Date.now()}` },
      };
      const ConsolePage = defineComponent({ name: 'ConsolePage', setup: () => ({ config }), template: '<try-it-console :config="config" url="{{base_url}}/pets" />' });
      const OtherPage = defineComponent({ name: 'OtherPage', render: () => h('p', 'Another page') });
      const page = ref<'console' | 'other'>('console');
      app = vueApp({ setup: () => () => h(KeepAlive, null, [h(page.value === 'console' ? ConsolePage : OtherPage)]) });
      app.mount(container);
      await nextTick();
      const el = container.querySelector<TryItConsole>('try-it-console')!;
      await el.updateComplete;
      const select = shadow(el, 'env-picker').shadowRoot!.querySelector<HTMLSelectElement>('select')!;
      select.value = 'Other';
      select.dispatchEvent(new Event('change', { bubbles: true }));

      page.value = 'other';
      await nextTick();
      expect(el.isConnected, 'kept by <KeepAlive>, out of the page').to.equal(false);
      await settle();
      page.value = 'console';
      await nextTick();
      expect(container.querySelector('try-it-console') === el, 'the same element back').to.equal(true);
      await el.updateComplete;
      expect(el.engine!.environments.active()!.name).to.equal('Other');

      const responded = new Promise<void>((resolve) => el.addEventListener('tic-response', () => resolve(), { once: true }));
      shadow(el, '[part="send-button"]').click();
      await responded;
      await waitUntil(() => shadow(el, 'request-history').shadowRoot!.querySelector('button.entry'), 'the send is in the reopened history');
      expect(el.engine!.history.list()[0]!.url).to.equal(`${servers.api}/other/pets`);
      await settle();
    } finally {
      watch.stop();
    }
    expect(watch.problems).to.deep.equal([]);
  });
});
