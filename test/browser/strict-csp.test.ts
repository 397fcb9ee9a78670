// The one-tag use on a docs page with a strict Content-Security-Policy and Trusted Types enforced, as security-minded
// sites serve them. The policy arrives in a <meta> of an iframe's page, which Chromium enforces like the header.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { TicRequestErrorEvent } from '../../src/events/request-error.js';

interface TestServers {
  api: string;
  /** An API that lets any page read it; its /to-api redirects to `api`. */
  corsApi: string;
  proxy: string;
}

type ConsoleElement = HTMLElement & { send(): Promise<void>; updateComplete: Promise<boolean>; url: string };

/** A page allowed what README's "Content-Security-Policy" section lists, and nothing else. */
function strictPage(servers: TestServers, connectSources: string, { proxied = true, imageSources = "'self' blob:", path = '/strict', baseUrl = servers.api, proxy = servers.proxy } = {}): string {
  const config = { ...(proxied ? { corsProxy: proxy } : {}), environments: [{ name: 'Local', variables: { base_url: baseUrl } }], history: { enabled: false } };
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${connectSources}`,
    `img-src ${imageSources}`,
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
  ].join('; ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta http-equiv="Content-Security-Policy" content="${policy}">
    <title>Strict docs page</title>
    <script type="module" src="/dist/try-it-console.bundle.js"></script>
  </head>
  <body>
    <try-it-console method="GET" url="{{base_url}}${path}">
      <script type="application/json">${JSON.stringify(config)}</script>
    </try-it-console>
    <code-snippet url="https://api.example/pets" languages="python"></code-snippet>
  </body>
</html>`;
}

/** Opens `html` in an iframe, waits for the bundle's elements, and collects the violations and errors the page reports. */
async function openPage(html: string): Promise<{ page: Window; frame: HTMLIFrameElement; violations: string[] }> {
  const frame = document.createElement('iframe');
  frame.srcdoc = html;
  document.body.append(frame);
  const page = frame.contentWindow!;
  // The window outlives the about:blank document the page replaces, so listeners on it see the page's events.
  const violations: string[] = [];
  page.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`));
  page.addEventListener('error', (event) => violations.push(`error: ${event.message}`));
  page.addEventListener('unhandledrejection', (event) => violations.push(`unhandled rejection: ${event.reason}`));
  await waitUntil(() => page.customElements?.get('try-it-console'), 'the bundle defines <try-it-console>', { timeout: 10_000 });
  return { page, frame, violations };
}

/** Sends from the page's console and returns the failure it reports. */
async function failedSend(page: Window): Promise<{ consoleElement: ConsoleElement; error: TicRequestErrorEvent['error'] }> {
  const consoleElement = page.document.querySelector('try-it-console') as ConsoleElement;
  await consoleElement.updateComplete;
  const failed = oneEvent<TicRequestErrorEvent>(consoleElement, 'tic-request-error');
  await consoleElement.send();
  return { consoleElement, error: (await failed).error };
}

describe('the standalone bundle under a strict Content-Security-Policy with Trusted Types', () => {
  let servers: TestServers;
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('renders, highlights snippets and JSON, and sends through the proxy without a violation', async () => {
    const { page, frame, violations } = await openPage(strictPage(servers, servers.proxy));
    try {
      const snippet = page.document.querySelector('code-snippet')!;
      await waitUntil(() => snippet.shadowRoot?.querySelector('pre') || violations.length > 0, 'the snippet renders');
      expect(violations, 'nothing the page forbids').to.deep.equal([]);
      expect(snippet.shadowRoot!.querySelector('pre')!.textContent).to.match(/^import requests\n\nurl = 'https:\/\/api.example\/pets'\n/);
      expect(snippet.shadowRoot!.querySelector('pre span[class^="hljs-"]'), 'highlighted').to.exist;

      const consoleElement = page.document.querySelector('try-it-console') as ConsoleElement;
      await consoleElement.updateComplete;
      await consoleElement.send();
      await consoleElement.updateComplete;
      const body = consoleElement.shadowRoot!.querySelector('[part="response-body"]')!;
      expect(body.textContent).to.contain('"url": "/strict"');
      expect(body.querySelector('span[class^="hljs-"]'), 'the JSON is highlighted').to.exist;
      // The styles apply: a constructed stylesheet is not inline style.
      expect(page.getComputedStyle(consoleElement.shadowRoot!.querySelector('[part="send-button"]')!).cursor).to.equal('pointer');
      expect(violations).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('says the page’s connect-src blocked the proxy, not that the proxy is down', async () => {
    const { page, frame, violations } = await openPage(strictPage(servers, "'self'"));
    try {
      const { consoleElement, error } = await failedSend(page);
      const proxyOrigin = new URL(servers.proxy).origin;
      expect([error.kind, error.code]).to.deep.equal(['csp', 'ERR_REQUEST_CSP']);
      expect(error.message).to.equal(
        `This page's Content-Security-Policy does not allow connections to the CORS proxy at ${proxyOrigin}, so the request was not sent. Add ${proxyOrigin} to the policy's connect-src (in the Content-Security-Policy header or <meta> of the page).`,
      );
      await consoleElement.updateComplete;
      expect(consoleElement.shadowRoot!.querySelector('[role="alert"]')!.textContent).to.contain('Blocked by the page’s Content-Security-Policy');
      expect(violations).to.deep.equal([`connect-src ${proxyOrigin}/${servers.api}/strict`]);
    } finally {
      frame.remove();
    }
  });

  it('gives a connect-src source CSP can express for a proxy at an IPv6 address', async () => {
    // Blocked before any connection; the address is loopback all the same.
    const { page, frame } = await openPage(strictPage(servers, "'self'", { proxy: 'http://[::1]:8788/' }));
    try {
      const { error } = await failedSend(page);
      expect(error.kind).to.equal('csp');
      expect(error.message).to.contain('does not allow connections to the CORS proxy at http://[::1]:8788, so the request was not sent. Add http://*:8788 (CSP cannot name an IPv6 address; or use a host name) to the policy\'s connect-src');
    } finally {
      frame.remove();
    }
  });

  it('says the page’s connect-src blocked the API, and sends no probe to explain it', async () => {
    const { page, frame, violations } = await openPage(strictPage(servers, "'self'", { proxied: false }));
    try {
      const { error } = await failedSend(page);
      const apiOrigin = new URL(servers.api).origin;
      expect(error.kind).to.equal('csp');
      expect(error.message).to.contain(`does not allow connections to ${apiOrigin}, so the request was not sent. Add ${apiOrigin} to the policy's connect-src`);
      // Only the request itself knocked: the HEAD probes that tell CORS from a dead server were not made.
      expect(violations).to.deep.equal([`connect-src ${servers.api}/strict`]);
    } finally {
      frame.remove();
    }
  });

  it('says the page’s connect-src refused where the API redirected, not the API it allows', async () => {
    // Chromium reports the refused redirect under the request's own URL, as it does a refused request.
    const { page, frame, violations } = await openPage(strictPage(servers, servers.corsApi, { proxied: false, baseUrl: servers.corsApi, path: '/to-api' }));
    try {
      const { error } = await failedSend(page);
      const allowed = new URL(servers.corsApi).origin;
      expect(error.kind).to.equal('csp');
      expect(error.message).to.equal(
        `${allowed} answered with a redirect to another origin, which this page's Content-Security-Policy does not allow connections to, so the response could not be read (the browser does not say which origin; its network panel shows it). Add that origin to the policy's connect-src, or set the console's corsProxy: the proxy follows redirects itself.`,
      );
      expect(violations).to.deep.equal([`connect-src ${servers.corsApi}/to-api`]);
    } finally {
      frame.remove();
    }
  });

  it('previews an image response where img-src allows blob:', async () => {
    const { page, frame, violations } = await openPage(strictPage(servers, servers.proxy, { path: '/image' }));
    try {
      const consoleElement = page.document.querySelector('try-it-console') as ConsoleElement;
      await consoleElement.updateComplete;
      await consoleElement.send();
      await consoleElement.updateComplete;
      const image = consoleElement.shadowRoot!.querySelector<HTMLImageElement>('[part="response-body"] img')!;
      await waitUntil(() => image.complete, 'the preview loads');
      expect(image.naturalWidth).to.be.greaterThan(0);
      expect(violations).to.deep.equal([]);
    } finally {
      frame.remove();
    }
  });

  it('says the page’s img-src refused the image preview, not that the image is invalid', async () => {
    const { page, frame, violations } = await openPage(strictPage(servers, servers.proxy, { path: '/image', imageSources: "'self'" }));
    try {
      const consoleElement = page.document.querySelector('try-it-console') as ConsoleElement;
      await consoleElement.updateComplete;
      await consoleElement.send();
      const panel = consoleElement.shadowRoot!.querySelector('[part="response-body"]')!;
      await waitUntil(() => !panel.querySelector('img'), 'the refused preview is replaced');
      expect(panel.textContent!.replace(/\s+/g, ' ').trim()).to.match(
        /^An image of [\d,]+ B, not previewed: this page’s Content-Security-Policy does not allow blob: images \(add blob: to its img-src\)\. Download it\.$/,
      );
      expect(panel.querySelector('a[download]')!.getAttribute('href')).to.match(/^blob:/);
      expect(violations).to.have.length(1);
      expect(violations[0]).to.match(/^img-src blob/);
    } finally {
      frame.remove();
    }
  });
});
