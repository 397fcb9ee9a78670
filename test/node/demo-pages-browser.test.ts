// The demo as a reader sees it: its three pages in Debian's Chromium against the demo's own servers (docs
// site, sample API on a second origin, CORS proxy, webhook receiver), all on ephemeral loopback ports.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type {} from '../../src/events/index.js';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { startDemo, type RunningDemo } from '../../demo/server.js';

let demo: RunningDemo;
let browser: Browser;

/** Opens a page and collects every script error and console error it raises. */
async function open(path: string, options: { docs?: string; beforeLoad?: (page: Page) => Promise<void> } = {}): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await options.beforeLoad?.(page);
  await page.goto(new URL(path, options.docs ?? demo.urls.docs).href, { waitUntil: 'load', timeout: 15_000 });
  await page.waitForFunction(() => customElements.get('try-it-console') !== undefined, { timeout: 10_000 });
  return { page, problems };
}

type Outcome = { status: number } | { error: string };

/** Clicks Send in the page's console and returns the status line of the response that send got. */
async function sendFromConsole(page: Page): Promise<string> {
  await page.evaluate(() => {
    const host = document.querySelector('try-it-console')!;
    (window as { nextOutcome?: Promise<Outcome> }).nextOutcome = new Promise((resolve) => {
      host.addEventListener('tic-response', (event) => resolve({ status: event.response.status }), { once: true });
      host.addEventListener('tic-request-error', (event) => resolve({ error: event.error.message }), { once: true });
      setTimeout(() => resolve({ error: 'no tic-response or tic-request-error within 20 s' }), 20_000);
    });
  });
  const send = await page.waitForSelector('try-it-console >>> [part~="send-button"]', { timeout: 10_000 });
  // A DOM click: a coordinate click can land elsewhere while the page is still laying out on a busy machine.
  await send!.evaluate((button) => (button as HTMLButtonElement).click());
  const outcome = await page.evaluate(() => (window as { nextOutcome?: Promise<Outcome> }).nextOutcome!);
  assert.ok('status' in outcome, `the send failed: ${'error' in outcome ? outcome.error : ''}`);
  const status = await page.waitForSelector('try-it-console >>> [part~="status"]', { timeout: 15_000 });
  return status!.evaluate((element) => element.textContent!.replace(/\s+/g, ' ').trim());
}

describe('the demo pages in Chromium', () => {
  before(async () => {
    demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('the script-tag page sends through the proxy to the second-origin API, and a Try it button presets the console', async () => {
    const { page, problems } = await open('/');
    assert.match(await sendFromConsole(page), /^200 OK/);
    await page.$eval('button[data-method="POST"][data-url="{{base_url}}/pets"]', (button) => (button as HTMLButtonElement).click());
    const method = await page.waitForFunction(() => document.querySelector('try-it-console')!.getAttribute('method'));
    assert.equal(await method.jsonValue(), 'POST');
    // The keyboard is in the console's URL field, and the smooth scroll stops with the console below the sticky header.
    assert.equal(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.id), 'url');
    await page.waitForFunction(() => {
      const top = document.querySelector('try-it-console')!.getBoundingClientRect().top;
      return Math.abs(top - document.querySelector('.site-header')!.getBoundingClientRect().bottom - 8) < 2;
    }, { timeout: 5_000 });
    assert.match(await sendFromConsole(page), /^201 Created/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it("the events operation's Try it shows each server-sent event as it comes through the proxy, then the whole stream", async () => {
    const { page, problems } = await open('/');
    // Fewer and closer together than the button asks for: the same stream, sooner.
    await page.$eval('button[aria-label="Try it: GET /pets/events"]', (button) => {
      (button as HTMLButtonElement).dataset.url = '{{base_url}}/pets/events?count=4&interval=400';
      (button as HTMLButtonElement).click();
    });
    await page.waitForFunction(() => document.querySelector('try-it-console')!.getAttribute('url')?.includes('/pets/events'));
    const ended = page.evaluate(
      () => new Promise<string>((resolve) => document.querySelector('try-it-console')!.addEventListener('tic-response', (event) => resolve(event.response.text), { once: true })),
    );
    await page.$eval('try-it-console >>> [part~="send-button"]', (button) => (button as HTMLButtonElement).click());
    // While the stream is open: the first event shown, Cancel still offered.
    // Polled: a selector wait watches the document, and changes inside a shadow root do not wake it.
    await page.waitForFunction(() => document.querySelector('try-it-console')!.shadowRoot!.querySelector('.arriving pre')?.textContent!.includes('event: pet.status'), { timeout: 10_000, polling: 50 });
    assert.ok(await page.$('try-it-console >>> [part~="cancel-button"]'), 'still sending while the events arrive');
    const whole = await ended;
    assert.equal(whole.split('\n\n').filter(Boolean).length, 4);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('serves every page with a strict Content-Security-Policy and Trusted Types, which the other tests run under', async () => {
    for (const path of ['/', '/npm-import.html', '/code-snippet.html']) {
      const policy = (await fetch(new URL(path, demo.urls.docs))).headers.get('content-security-policy') ?? '';
      assert.match(policy, /script-src 'self'; style-src 'self'; connect-src 'self' http:\/\/127\.0\.0\.1:\d+;/, path);
      assert.match(policy, /require-trusted-types-for 'script'; trusted-types lit-html;/, path);
    }
    const { page } = await open('/');
    const enforced = await page.evaluate(async (api) => {
      let innerHtml = 'assigned';
      try {
        document.createElement('div').innerHTML = '<b>text</b>';
      } catch (error) {
        innerHtml = (error as Error).name;
      }
      // The API's own origin is not in connect-src: the console reaches it through the proxy only.
      const refused = new Promise<string>((resolve) => addEventListener('securitypolicyviolation', (event) => event.effectiveDirective === 'connect-src' && resolve(event.blockedURI)));
      const direct = await fetch(api).then(() => 'fetched', () => 'failed');
      return { innerHtml, direct, refused: await refused };
    }, demo.urls.api);
    assert.deepEqual(enforced, { innerHtml: 'TypeError', direct: 'failed', refused: `${demo.urls.api}/` });
    await page.close();
  });

  it('the "Offline server" environment shows a server that does not answer, not a port the proxy refuses', async () => {
    const { page, problems } = await open('/');
    const message = await page.evaluate(async () => {
      const host = [...document.querySelectorAll('try-it-console')].find((el) => el.engine?.environments.list().some((environment) => environment.name === 'Offline server'))!;
      host.engine!.environments.setActive('Offline server');
      await host.updateComplete;
      const failed = new Promise<string>((resolve) => host.addEventListener('tic-request-error', (event) => resolve(event.error.message), { once: true }));
      host.shadowRoot!.querySelector<HTMLButtonElement>('[part~="send-button"]')!.click();
      return failed;
    });
    assert.match(message, /\(upstream_unreachable\): Could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    // Chromium logs the proxy's 502 answer as a failed resource load.
    assert.deepEqual(problems.filter((problem) => !/status of 502/.test(problem)), []);
    await page.close();
  });

  it('the npm-import page sends, and its tic-before-send handler rewrites the request', async () => {
    const { page, problems } = await open('/npm-import.html');
    assert.match(await sendFromConsole(page), /^200 OK/);
    const log = await page.waitForFunction(() => document.querySelector('.event-log ol')?.textContent, { timeout: 10_000 });
    assert.match(String(await log.jsonValue()), /tic-before-send/);
    assert.match(String(await log.jsonValue()), /tic-response/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('the <code-snippet> page shows runnable snippets without a console', async () => {
    const { page, problems } = await open('/code-snippet.html');
    const code = await page.waitForSelector('code-snippet >>> pre', { timeout: 10_000 });
    assert.match(await code!.evaluate((element) => element.textContent!), /^curl -X POST http:\/\/127\.0\.0\.1:\d+\/pets \\/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('the webhook panel shows a signed delivery the receiver verified', async () => {
    const { page, problems } = await open('/');
    await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
    // The newest delivery is the first row (an earlier test's POST /pets sent one too).
    const row = await page.waitForFunction(() => {
      const text = document.querySelector('#deliveries tbody tr')?.textContent ?? '';
      return text.startsWith('pet.adopted') && text.includes('delivered') ? text.replace(/\s+/g, ' ') : undefined;
    }, { timeout: 15_000 });
    assert.match(String(await row.jsonValue()), /1 sent \/ 1 received.*verified.*delivered \(2\d\d\)/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('the webhook panel shows why a delivery signed with the wrong secret failed, on the row itself', async () => {
    const { page } = await open('/');
    await page.$eval('#notify-form select[name="event"]', (select) => ((select as HTMLSelectElement).value = 'order.placed'));
    await page.$eval('#notify-form input[value="wrongSecret"]', (radio) => (radio as HTMLInputElement).click());
    await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
    const row = await page.waitForFunction(() => {
      const cells = [...(document.querySelector<HTMLTableRowElement>('#deliveries tbody tr')?.cells ?? [])].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim());
      return cells[0]?.startsWith('order.placed') && cells[5]?.startsWith('failed') ? cells : undefined;
    }, { timeout: 15_000 });
    const cells = (await row.jsonValue()) as string[];
    assert.equal(cells[0], 'order.placed order #1');
    assert.equal(cells[4], 'rejected');
    assert.match(cells[5]!, /^failed.*401/);
    await page.close();
  });
  it('a page asking for deliveries while a poll is in flight gets one poll, not one polling loop per click', async () => {
    // Every poll of /demo/deliveries is held unanswered and counted; the sends themselves go through.
    const { page } = await open('/', {
      beforeLoad: (p) =>
        p.evaluateOnNewDocument(() => {
          const realFetch = window.fetch.bind(window);
          const counted = window as { deliveryPolls?: number };
          counted.deliveryPolls = 0;
          window.fetch = (input, init) => {
            if (String(input).endsWith('/demo/deliveries')) {
              counted.deliveryPolls! += 1;
              return new Promise<Response>(() => {});
            }
            return realFetch(input, init);
          };
        }).then(() => undefined),
    });
    await page.waitForFunction(() => (window as { deliveryPolls?: number }).deliveryPolls === 1, { timeout: 10_000 });
    const polls = await page.evaluate(async () => {
      const status = document.querySelector('#notify-status')!;
      // Each send's handler sets this text, then asks for a refresh in the same task.
      const handed = new Promise<void>((resolve) => {
        let seen = 0;
        new MutationObserver(() => {
          if (status.textContent!.includes('handed to the notifier') && ++seen === 3) resolve();
        }).observe(status, { childList: true, characterData: true, subtree: true });
      });
      const button = document.querySelector<HTMLButtonElement>('#notify-form button[type="submit"]')!;
      for (let click = 0; click < 3; click += 1) button.click();
      await handed;
      return (window as { deliveryPolls?: number }).deliveryPolls;
    });
    assert.equal(polls, 1);
    await page.close();
  });

  it('the webhook panel stops saying the server is not answering once it answers again', async () => {
    // The first poll fails as if the demo server were down; the next ones reach it.
    const { page } = await open('/', {
      beforeLoad: (p) =>
        p.evaluateOnNewDocument(() => {
          const realFetch = window.fetch.bind(window);
          let failed = false;
          window.fetch = (input, init) => {
            if (!failed && String(input).endsWith('/demo/deliveries')) {
              failed = true;
              return Promise.reject(new TypeError('Failed to fetch'));
            }
            return realFetch(input, init);
          };
        }).then(() => undefined),
    });
    await page.waitForFunction(() => document.querySelector('#notify-status')!.textContent!.includes('not answering'), { timeout: 10_000 });
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.waitForFunction(() => document.querySelector('#notify-status')!.textContent === '', { timeout: 10_000 });
    await page.close();
  });

  it("an API error's problem type opens the docs page at its entry, below the sticky header", async () => {
    const problem = (await (await fetch(`${demo.urls.api}/pets?limit=0`)).json()) as { type: string };
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 800 });
    await page.goto(problem.type, { waitUntil: 'load', timeout: 15_000 });
    const place = await page.evaluate(() => {
      const target = document.querySelector(':target');
      return { id: target?.id, top: target?.getBoundingClientRect().top ?? NaN, headerBottom: document.querySelector('.site-header')!.getBoundingClientRect().bottom };
    });
    assert.equal(place.id, 'problem-invalid-parameter');
    assert.ok(place.top >= place.headerBottom, `the entry starts at ${place.top}px, under the header that ends at ${place.headerBottom}px`);
    await page.close();
  });

  it('names each Try it button after its operation, for screen readers', async () => {
    const { page } = await open('/');
    await page.waitForSelector('try-it-console >>> [part~="send-button"]', { timeout: 10_000 });
    const tree = await page.accessibility.snapshot({ interestingOnly: true });
    const names: string[] = [];
    const visit = (node: { role: string; name?: string; children?: unknown[] } | null | undefined): void => {
      if (!node) return;
      if (node.role === 'button' && node.name?.startsWith('Try it')) names.push(node.name);
      for (const child of node.children ?? []) visit(child as typeof node);
    };
    visit(tree as Parameters<typeof visit>[0]);
    assert.equal(names.length, await page.$$eval('button[data-method]', (buttons) => buttons.length));
    assert.equal(new Set(names).size, names.length, `button names: ${names.join(' | ')}`);
    assert.ok(names.includes('Try it: POST /pets'), names.join(' | '));
    await page.close();
  });

  it('every page passes axe in the light and the dark theme at phone width, and requests nothing from beyond this machine', async () => {
    const axeSource = await readFile(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');
    for (const scheme of ['light', 'dark'] as const) {
      for (const path of ['/', '/npm-import.html', '/code-snippet.html']) {
        const elsewhere: string[] = [];
        const { page } = await open(path, {
          beforeLoad: async (p) => {
            // axe needs to run script of its own; with the policy off, a request to elsewhere would also be seen
            // here instead of being blocked unseen.
            await p.setBypassCSP(true);
            await p.setViewport({ width: 375, height: 800 });
            await p.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
            p.on('request', (request) => {
              const url = new URL(request.url());
              if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'blob:' && url.protocol !== 'data:') elsewhere.push(request.url());
            });
          },
        });
        if (path === '/') {
          // The states worth checking: a response, a delivered and a failed webhook with their badges.
          assert.match(await sendFromConsole(page), /^200 OK/);
          await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
          await page.$eval('#notify-form input[value="wrongSecret"]', (radio) => (radio as HTMLInputElement).click());
          await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
          await page.waitForFunction(() => {
            const text = document.querySelector('#deliveries tbody')!.textContent!;
            return text.includes('delivered') && text.includes('rejected');
          }, { timeout: 15_000 });
        } else {
          await page.waitForFunction(() => document.querySelector('try-it-console, code-snippet')?.shadowRoot?.querySelector('pre, [part~="send-button"]'), { timeout: 10_000 });
        }
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const { axe } = window as unknown as { axe: { run(context: Document): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> } };
          const results = await axe.run(document);
          return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        });
        assert.deepEqual(violations, [], `${scheme} ${path}`);
        assert.deepEqual(elsewhere, [], `${scheme} ${path}`);
        await page.close();
      }
    }
  });
});

describe('the demo on IPv6 loopback (--host ::1) in Chromium', () => {
  let ipv6: RunningDemo;
  before(async () => {
    ipv6 = await startDemo({ host: '::1', port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    // open() uses the shared browser, closed by the suite above.
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await ipv6?.close();
  });

  it('sends through the proxy, which the page policy names in a form CSP can express', async () => {
    const { page, problems } = await open('/', { docs: ipv6.urls.docs });
    assert.match(await sendFromConsole(page), /^200 OK/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
