// A docs site that serves the CORS proxy on its own origin (here the test page's, under /__proxy/). Chromium sends a
// page's GET and HEAD to its own origin without an Origin header (the Fetch standard's rule), but with
// Sec-Fetch-Site: same-origin, which the proxy reads instead.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/components/try-it-console/try-it-console.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';

describe('the CORS proxy on the docs page’s own origin', () => {
  it('relays the page’s GET and HEAD, which Chromium sends without an Origin header, and its POST', async () => {
    const { api } = (await (await fetch('/__test-servers.json')).json()) as { api: string };
    const config = { corsProxy: `${location.origin}/__proxy/`, environments: [{ name: 'Local', variables: { base_url: api } }], history: { enabled: false } };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="{{base_url}}/own-origin"></try-it-console>`);
    for (const method of ['GET', 'HEAD', 'POST']) {
      el.method = method;
      await el.updateComplete;
      await el.send();
      await el.updateComplete;
      const shadow = el.shadowRoot!;
      expect(shadow.querySelector('[role="alert"]')?.textContent ?? '', method).to.equal('');
      expect(shadow.querySelector('[part="status"]')!.textContent, method).to.match(/^\s*200 OK/);
      if (method !== 'HEAD') expect(shadow.querySelector('[part="response-body"]')!.textContent, method).to.contain(`"method": "${method}"`);
    }
  });
});
