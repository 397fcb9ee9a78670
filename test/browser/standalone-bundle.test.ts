// The one-tag use: a plain HTML page with no build step loads the minified bundle and gets all four elements.
import { expect, waitUntil } from '@open-wc/testing';

interface TestServers {
  api: string;
  proxy: string;
}

function plainPage(servers: TestServers): string {
  const config = { corsProxy: servers.proxy, environments: [{ name: 'Local', variables: { base_url: servers.api } }], history: { enabled: false } };
  return `<!doctype html>
<html lang="en">
  <head><title>Plain docs page</title><script type="module" src="/dist/try-it-console.bundle.js"></script></head>
  <body>
    <try-it-console method="GET" url="{{base_url}}/from-bundle">
      <script type="application/json">${JSON.stringify(config)}</script>
    </try-it-console>
    <code-snippet url="https://api.example/pets" languages="curl"></code-snippet>
  </body>
</html>`;
}

describe('the standalone bundle on a plain HTML page', () => {
  it('keeps the error classes\' names through minification', async () => {
    const bundle = await import(/* @vite-ignore */ `${location.origin}/dist/try-it-console.bundle.js`);
    const names = ['TryItError', 'ConfigError', 'RequestError', 'EnvironmentNotFoundError', 'HistoryEntryNotFoundError', 'LanguageNotEnabledError', 'ResolveLimitError'];
    for (const name of names) expect(bundle[name].name).to.equal(name);
    try {
      bundle.parseConsoleConfig({ history: { enabled: true, maxItems: 0 } });
      expect.fail('a bad config must throw');
    } catch (error) {
      expect((error as Error).name).to.equal('ConfigError');
    }
  });

  it('defines the elements, reads the JSON config and sends a request', async () => {
    const servers: TestServers = await (await fetch('/__test-servers.json')).json();
    const frame = document.createElement('iframe');
    frame.srcdoc = plainPage(servers);
    document.body.append(frame);
    try {
      const page = frame.contentWindow!;
      await waitUntil(() => page.customElements?.get('try-it-console'), 'the bundle defines <try-it-console>', { timeout: 10_000 });
      for (const tag of ['env-picker', 'request-history', 'code-snippet']) expect(page.customElements.get(tag), tag).to.exist;
      const consoleElement = page.document.querySelector('try-it-console') as HTMLElement & { send(): Promise<void>; updateComplete: Promise<boolean> };
      await consoleElement.updateComplete;
      await consoleElement.send();
      await consoleElement.updateComplete;
      const body = consoleElement.shadowRoot!.querySelector('[part="response-body"]')!.textContent!;
      expect(body).to.contain('"url": "/from-bundle"');
      const snippet = page.document.querySelector('code-snippet')!.shadowRoot!.querySelector('pre')!.textContent;
      expect(snippet).to.equal('curl -X GET https://api.example/pets');
    } finally {
      frame.remove();
    }
  });
});
