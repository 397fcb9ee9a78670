// The response panel shows no secret of the request in clear: the URL a redirect that kept the query led to, an image's
// alt text and a download's name are masked as the "Sends to" line masks the URL, each mask named "hidden value" for
// screen readers.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { MASK } from '../../src/components/url-credential-masking.js';
import type { ConsoleConfig } from '../../src/core/index.js';

let servers: { api: string; corsApi: string; proxy: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

/** The loopback API without CORS through the real proxy, and one with CORS read directly, with a token to mask. */
function config(): ConsoleConfig {
  return { corsProxy: servers.proxy, environments: [{ name: 'Demo', variables: { base_url: servers.api, cors_url: servers.corsApi, token: 'demo-token' } }], history: { enabled: false } };
}

async function sent(url: string): Promise<TryItConsole> {
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url=${url}></try-it-console>`);
  await el.send();
  await el.updateComplete;
  return el;
}

/** A one-pixel PNG, as hex for the CORS API's /bytes route. */
const PNG_HEX = [...atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==')].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('');

describe('<try-it-console> hunt 6: no secret of the request in clear in the response panel', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('masks the URL a redirect that kept the query led to: a credential parameter, and a masked value in any parameter', async () => {
    const el = await sent('{{base_url}}/redirect-keep?api_key={{token}}&q={{token}}');
    const line = $(el, '[part="redirected"]');
    expect(line.textContent).to.equal(`Redirected to ${servers.api}/landed?api_key=${MASK}&q=${MASK}&x=1`);
    // As the Sends to line: each mask said as "hidden value", not as eight bullets.
    const masks = [...line.querySelectorAll('[role="img"]')].map((mask) => [mask.getAttribute('aria-label'), mask.textContent]);
    expect(masks).to.deep.equal([['hidden value', MASK], ['hidden value', MASK]]);
    expect($(el, '[part="resolved-url"]').textContent).to.not.contain('demo-token');
  });

  it('masks a credential parameter written in the URL itself in the URL a redirect led to', async () => {
    const el = await sent(`${servers.api}/redirect-keep?token=abcd1234efgh`);
    expect($(el, '[part="redirected"]').textContent).to.equal(`Redirected to ${servers.api}/landed?token=${MASK}&x=1`);
  });

  it('masks the secrets of the URL in the alt text of an image response, said as "hidden value"', async () => {
    for (const [query, secret] of [['api_key={{token}}', 'demo-token'], ['token=abcd1234efgh', 'abcd1234efgh']]) {
      const el = await sent(`{{cors_url}}/bytes?type=image%2Fpng&hex=${PNG_HEX}&${query}`);
      const alt = $<HTMLImageElement>(el, '[part="response-body"] img').alt;
      expect(alt, query).to.not.contain(secret);
      expect(alt, query).to.not.contain(MASK[0]);
      expect(alt, query).to.match(/^Image returned by GET http:\/\/127\.0\.0\.1:\d+\/bytes\?type=image%2Fpng&hex=[0-9a-f]+&(api_key|token)= hidden value$/);
    }
  });

  it('does not name a download as the server did when that name holds a masked value', async () => {
    const named = async (name: string) => $(await sent(`{{cors_url}}/disposition?name=${name}`), 'a.download').getAttribute('download');
    expect(await named('report-{{token}}.csv'), 'named after the URL instead').to.equal('disposition.txt');
    expect(await named('report.csv'), 'a name holding no secret is kept').to.equal('report.csv');
  });
});
