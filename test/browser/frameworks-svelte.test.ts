// The elements in a Svelte 5 app: components in support/svelte/, compiled by svelte/compiler as the page requests them
// (support/frameworks.mjs), bound as README's "Embedding" says.
import { expect, waitUntil } from '@open-wc/testing';
import { flushSync, mount, unmount } from 'svelte';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { TicResponseEvent } from '../../src/events/index.js';
import ConsoleApp from './support/svelte/console-app.svelte';
import ReadmeExample from './support/svelte/readme-example.svelte';
import { describeEmbedding, settle, shadow, shownProblem, shownRequest, testConfig, watchProblems, type AppProps, type MountApp } from './support/framework-embedding.js';

const mountSvelteApp: MountApp = async (container, props) => {
  const app = mount(ConsoleApp, { target: container, props: { initial: props } }) as { update(props: AppProps): void };
  flushSync();
  return {
    async rerender(next) {
      app.update(next);
      flushSync();
    },
    async unmount() {
      await unmount(app);
    },
  };
};

describeEmbedding('Svelte 5', mountSvelteApp);

describe('embedded in Svelte 5: what is particular to Svelte', () => {
  it('works as README writes it, with JSON text in braces where it holds "{"', async () => {
    const servers: { api: string; proxy: string } = await (await fetch('/__test-servers.json')).json();
    const container = document.createElement('div');
    document.body.append(container);
    const responses: TicResponseEvent[] = [];
    const config = testConfig(servers, 'svelte-readme');
    const watch = watchProblems();
    try {
      const app = mount(ReadmeExample, { target: container, props: { config, onResponse: (event: TicResponseEvent) => responses.push(event) } });
      flushSync();
      const el = container.querySelector<TryItConsole>('try-it-console')!;
      await el.updateComplete;
      expect(shownProblem(el)).to.equal(undefined);
      expect(shownRequest(el)).to.deep.equal({ method: 'GET', url: '{{base_url}}/pets', headers: { Accept: 'application/json' }, body: undefined });
      shadow(el, '[part="send-button"]').click();
      await waitUntil(() => responses.length === 1, 'the handler hears the response');
      expect(responses[0]!.response.request.url).to.equal(`${servers.api}/pets`);
      await unmount(app);
      await settle();
    } finally {
      watch.stop();
      container.remove();
    }
    expect(watch.problems).to.deep.equal([]);
  });
});
