// The elements in a React 19 app (createElement and createRoot, in StrictMode as apps run), bound as README's
// "Embedding" says: objects as properties, `on…` props as event listeners.
import { expect, waitUntil } from '@open-wc/testing';
import { Fragment, StrictMode, createElement as h, useLayoutEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicResponseEvent } from '../../src/events/index.js';
import { describeEmbedding, settle, shadow, shownProblem, testConfig, watchProblems, type AppProps, type MountApp } from './support/framework-embedding.js';

/** Every binding as a prop, as JSX would write it: `<try-it-console config={config} ontic-response={onResponse} />`. */
function ConsoleApp(props: AppProps) {
  const { onEvent } = props;
  return h(
    Fragment,
    null,
    h('try-it-console', {
      config: props.config,
      method: props.method,
      url: props.url,
      headers: props.headers,
      body: props.body,
      'ontic-before-send': onEvent,
      'ontic-response': onEvent,
      'ontic-request-error': onEvent,
      'ontic-environment-change': onEvent,
      'ontic-history-select': onEvent,
    }),
    h('request-history', { history: props.history, 'ontic-history-select': onEvent, 'ontic-history-delete': onEvent }),
    h('code-snippet', { method: 'POST', url: 'https://api.example/pets', languages: props.languages, 'ontic-language-change': onEvent, 'ontic-copy': onEvent }),
  );
}

const mountReactApp: MountApp = async (container, props) => {
  const root = createRoot(container);
  const render = (next: AppProps) => flushSync(() => root.render(h(StrictMode, null, h(ConsoleApp, next))));
  render(props);
  return {
    async rerender(next) {
      render(next);
    },
    async unmount() {
      root.unmount();
    },
  };
};

let servers: { api: string; proxy: string };
let container: HTMLDivElement;

const config = (name: string) => testConfig(servers, `react-${name}`);

// First, while the elements are not defined: this file imports the package only afterwards.
describe('embedded in React 19, rendered before the package is imported', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('names in place of the console the configuration React set as an attribute', async () => {
    container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    try {
      flushSync(() => root.render(h('try-it-console', { config: config('too-early'), url: '{{base_url}}/pets' })));
      const el = container.querySelector('try-it-console')!;
      expect(el.getAttribute('config'), 'an element React does not know has no config property').to.equal('[object Object]');
      await import('../../src/index.js');
      await (el as TryItConsole).updateComplete;
      expect(shownProblem(el)).to.contain("import 'try-it-console' before the first render");
    } finally {
      root.unmount();
      container.remove();
    }
  });
});

describe('with the package imported', () => {
  before(() => import('../../src/index.js'));

  describeEmbedding('React 19', mountReactApp);

  describe('embedded in React 19: what is particular to React', () => {
    beforeEach(() => {
      container = document.createElement('div');
      document.body.append(container);
    });
    afterEach(() => container.remove());

    it('works from server-rendered HTML when the configuration and listener are set in a layout effect, as README says', async () => {
      const responses: TicResponseEvent[] = [];
      const onResponse = (event: TicResponseEvent) => responses.push(event);
      const appConfig = config('hydrated');
      // README's advice for hydration, word for word but for JSX.
      function HydratedConsole() {
        const ref = useRef<TryItConsole>(null);
        useLayoutEffect(() => {
          const element = ref.current!;
          element.config = appConfig;
          element.addEventListener('tic-response', onResponse);
          return () => element.removeEventListener('tic-response', onResponse);
        }, [appConfig, onResponse]);
        return h('try-it-console', { ref, method: 'GET', url: '{{base_url}}/pets' });
      }
      const watch = watchProblems();
      try {
        container.innerHTML = renderToString(h(HydratedConsole));
        const root = hydrateRoot(container, h(StrictMode, null, h(HydratedConsole)));
        await waitUntil(() => (container.querySelector<TryItConsole>('try-it-console')!.config as unknown) === appConfig, 'hydrated');
        const el = container.querySelector<TryItConsole>('try-it-console')!;
        await el.updateComplete;
        expect(el.engine!.environments.active()!.name).to.equal('Local');
        shadow(el, '[part="send-button"]').click();
        await waitUntil(() => responses.length === 1, 'the listener set in the effect hears the response');
        expect(responses[0]!.response.request.url).to.equal(`${servers.api}/pets`);
        root.unmount();
        await settle();
      } finally {
        watch.stop();
      }
      expect(watch.problems).to.deep.equal([]);
    });
  });
});
