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

/** Presses Shift+Tab `presses` times and lists each element it reached that the sticky header covered, even in part. */
async function coveredWhileTabbingBack(page: Page, presses: number): Promise<string[]> {
  const covered: string[] = [];
  for (let press = 0; press < presses; press += 1) {
    await page.keyboard.down('Shift');
    await page.keyboard.press('Tab');
    await page.keyboard.up('Shift');
    const hidden = await page.evaluate(() => {
      let element = document.activeElement;
      while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
      const header = document.querySelector('.site-header')!;
      if (!element || element === document.body || header.contains(element)) return undefined;
      const top = element.getBoundingClientRect().top;
      const headerBottom = header.getBoundingClientRect().bottom;
      const name = element.getAttribute('aria-label') ?? `${element.tagName.toLowerCase()} ${element.textContent!.trim().slice(0, 30)}`;
      return top < headerBottom ? `${name} at ${Math.round(top)}px, under the header that ends at ${Math.round(headerBottom)}px` : undefined;
    });
    if (hidden) covered.push(hidden);
  }
  return covered;
}

/** Clicks the Try it button of `operation` (e.g. `GET /pets`). */
async function tryIt(page: Page, operation: string): Promise<void> {
  await page.$eval(`button[aria-label="Try it: ${operation}"]`, (button) => (button as HTMLButtonElement).click());
}

/** The code panel's curl snippet in the page's console. */
async function curlSnippet(page: Page): Promise<string> {
  const code = await page.waitForSelector('try-it-console >>> code-snippet >>> pre', { timeout: 10_000 });
  return code!.evaluate((element) => element.textContent!);
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
    // Edited, then the same Try it again: the example comes back.
    const urlField = () => page.evaluate(() => document.querySelector('try-it-console')!.shadowRoot!.querySelector<HTMLInputElement>('#url')!.value);
    await page.evaluate(() => {
      const field = document.querySelector('try-it-console')!.shadowRoot!.querySelector<HTMLInputElement>('#url')!;
      field.value = '{{base_url}}/pets/oops';
      field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    });
    assert.equal(await urlField(), '{{base_url}}/pets/oops');
    await page.$eval('button[data-method="POST"][data-url="{{base_url}}/pets"]', (button) => (button as HTMLButtonElement).click());
    assert.equal(await urlField(), '{{base_url}}/pets');
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

  it("the npm-import page's event log shows its numbers whole, two digits included", async () => {
    const { page } = await open('/npm-import.html');
    for (let send = 0; send < 5; send += 1) assert.match(await sendFromConsole(page), /^200 OK/);
    const room = await page.$eval('.event-log ol', (log) => {
      // The marker of the log's last possible entry, in the log's own font, against the room left of the entries.
      const probe = document.createElement('span');
      probe.textContent = '20. ';
      probe.style.font = getComputedStyle(log).font;
      probe.style.whiteSpace = 'pre';
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return { entries: log.children.length, needed, padding: parseFloat(getComputedStyle(log).paddingLeft) };
    });
    assert.ok(room.entries >= 10, `${room.entries} entries`);
    assert.ok(room.padding >= room.needed, `the numbers need ${room.needed}px; the log leaves ${room.padding}px`);
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

  it('the webhook panel fits a phone: each delivery a card, every value under its column name, nothing to scroll sideways', async () => {
    const { page, problems } = await open('/', { beforeLoad: (p) => p.setViewport({ width: 375, height: 800 }) });
    await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#deliveries tbody td')?.dataset.label === 'Event', { timeout: 15_000 });
    const layout = await page.$eval('#deliveries', (table) => {
      const box = table.closest('.table-scroll')!;
      const cells = [...table.querySelectorAll('tbody tr')[0]!.querySelectorAll('td')];
      return {
        overflow: box.scrollWidth - box.clientWidth,
        labels: cells.map((cell) => getComputedStyle(cell, '::before').content),
        // Each card's cells are stacked, so every value is on screen.
        rightmost: Math.max(...cells.map((cell) => cell.getBoundingClientRect().right)) - box.getBoundingClientRect().right,
      };
    });
    assert.ok(layout.overflow <= 0, `scrolls sideways by ${layout.overflow} px`);
    assert.ok(layout.rightmost <= 0.5, `a value ends ${layout.rightmost} px past the box`);
    assert.deepEqual(layout.labels, ['"Event"', '"Requested"', '"Attempts"', '"Receiver answered"', '"Signature"', '"Result"']);
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
    // One line of header, two, and a width where it would wrap to three.
    for (const width of [1100, 800, 700]) {
      const page = await browser.newPage();
      await page.setViewport({ width, height: 800 });
      await page.goto(problem.type, { waitUntil: 'load', timeout: 15_000 });
      const place = await page.evaluate(() => {
        const target = document.querySelector(':target');
        return { id: target?.id, top: target?.getBoundingClientRect().top ?? NaN, headerBottom: document.querySelector('.site-header')!.getBoundingClientRect().bottom };
      });
      assert.equal(place.id, 'problem-invalid-parameter');
      assert.ok(place.top >= place.headerBottom, `at ${width} px the entry starts at ${place.top}px, under the header that ends at ${place.headerBottom}px`);
      await page.close();
    }
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

  it('the Try it buttons work in the order of the table: DELETE leaves the pet the others use, and each asks for what its operation answers', async () => {
    const { page, problems } = await open('/');
    await tryIt(page, 'DELETE /pets/{id}');
    assert.match(await sendFromConsole(page), /^204 No Content/);
    // The next row: its pet is still there.
    await tryIt(page, 'GET /pets/{id}/photo');
    assert.match(await sendFromConsole(page), /^200 OK/);
    // A PNG and an event stream are not JSON: the snippets readers copy say what these operations answer.
    const photo = await curlSnippet(page);
    assert.match(photo, /-H "Accept: image\/png"/);
    assert.doesNotMatch(photo, /application\/json/);
    await tryIt(page, 'GET /pets/events');
    await page.waitForFunction(() => document.querySelector('try-it-console')!.shadowRoot!.querySelector('code-snippet')!.shadowRoot!.querySelector('pre')?.textContent!.includes('/pets/events'), { timeout: 10_000, polling: 50 });
    assert.match(await curlSnippet(page), /-H "Accept: text\/event-stream"/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('fits a phone: no page scrolls sideways at 320 or 375 px, and every Try it button is on screen without scrolling a table', async () => {
    for (const width of [320, 375]) {
      for (const path of ['/', '/npm-import.html', '/code-snippet.html']) {
        const { page } = await open(path, { beforeLoad: (p) => p.setViewport({ width, height: 800 }) });
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
        assert.ok(scrollWidth <= clientWidth, `${path} at ${width} px is ${scrollWidth} px wide`);
        const offScreen = await page.$$eval('button[data-method]', (buttons) =>
          buttons
            .filter((button) => button.getBoundingClientRect().right > Math.min(document.documentElement.clientWidth, button.closest('.table-scroll')!.getBoundingClientRect().right))
            .map((button) => button.getAttribute('aria-label')),
        );
        assert.deepEqual(offScreen, [], `${path} at ${width} px`);
        // A table may scroll sideways only in a box the keyboard can scroll (the deliveries, tabindex="0").
        const cutOff = await page.$$eval('.table-scroll:not([tabindex])', (boxes) =>
          boxes.filter((box) => box.scrollWidth > box.clientWidth).map((box) => `${box.querySelector('caption')!.textContent!.slice(0, 40)}: ${box.scrollWidth} > ${box.clientWidth} px`),
        );
        assert.deepEqual(cutOff, [], `${path} at ${width} px`);
        await page.close();
      }
    }
  });

  it('keeps what Tab and Shift+Tab reach below the sticky header, also after a Try it and a change of width', async () => {
    const { page } = await open('/', { beforeLoad: (p) => p.setViewport({ width: 1200, height: 700 }) });
    // Backwards from the webhook panel, through the console and the operations table, to the header.
    await page.$eval('#notify-form select', (select) => (select as HTMLSelectElement).focus());
    assert.deepEqual(await coveredWhileTabbingBack(page, 26), [], 'at 1200 px');
    // A Try it once scrolled the page by the header's height of the moment, and kept it after a resize.
    await tryIt(page, 'GET /pets');
    await page.setViewport({ width: 800, height: 700 }); // the header wraps to two lines, still sticky
    await page.$eval('#notify-form select', (select) => (select as HTMLSelectElement).focus());
    assert.deepEqual(await coveredWhileTabbingBack(page, 26), [], 'at 800 px, after a Try it at 1200 px');
    await page.close();
  });

  it('a theme the reader chose is on each page from its first frame, without a flash of the other one', async () => {
    const { page: setup } = await open('/');
    await setup.evaluate(() => localStorage.setItem('try-it-demo-theme', 'dark'));
    try {
      for (const path of ['/', '/npm-import.html', '/code-snippet.html']) {
        const { page } = await open(path, {
          beforeLoad: (p) =>
            p
              .evaluateOnNewDocument(() => {
                // Frame callbacks run before the frame is painted.
                requestAnimationFrame(() => ((window as { firstFrameTheme?: string }).firstFrameTheme = document.documentElement.dataset.theme ?? 'none'));
              })
              .then(() => undefined),
        });
        const theme = await page.waitForFunction(() => (window as { firstFrameTheme?: string }).firstFrameTheme, { timeout: 10_000 });
        assert.equal(await theme.jsonValue(), 'dark', path);
        // And the menu says so, once it is there.
        assert.equal(await page.$eval('#theme-switch', (select) => (select as HTMLSelectElement).value), 'dark', path);
        await page.close();
      }
    } finally {
      // The other tests see the system's scheme.
      await setup.evaluate(() => localStorage.removeItem('try-it-demo-theme'));
      await setup.close();
    }
  });

  it('the theme switch darkens the elements too, and the snippet and panels inside the console, on a light system', async () => {
    for (const path of ['/', '/npm-import.html', '/code-snippet.html']) {
      const { page } = await open(path, { beforeLoad: (p) => p.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]) });
      await page.waitForFunction(() => document.querySelector('try-it-console, code-snippet')?.shadowRoot?.querySelector('pre, [part~="send-button"]'), { timeout: 10_000 });
      // What the elements draw with: their color-scheme, and the snippet's code colour, inside the console or alone.
      const schemes = () =>
        page.evaluate(() => {
          const element = document.querySelector('try-it-console, code-snippet')!;
          const snippet = element.localName === 'code-snippet' ? element : element.shadowRoot!.querySelector('code-snippet')!;
          return [getComputedStyle(element).colorScheme, getComputedStyle(snippet.shadowRoot!.querySelector('pre')!).color];
        });
      const light = await schemes();
      await page.select('#theme-switch', 'dark');
      const dark = await schemes();
      await page.select('#theme-switch', '');
      assert.equal(light[0], 'light dark', path);
      assert.deepEqual([dark[0], dark[1] !== light[1]], ['dark', true], path);
      assert.deepEqual(await schemes(), light, path);
      await page.evaluate(() => localStorage.removeItem('try-it-demo-theme'));
      await page.close();
    }
  });

  it('a Try it jumps to the console at once for a reader who asks for reduced motion', async () => {
    const { page } = await open('/', {
      beforeLoad: async (p) => {
        await p.setViewport({ width: 1200, height: 800 });
        await p.emulateMediaFeatures([{ name: 'prefers-reduced-motion', value: 'reduce' }]);
      },
    });
    // Measured in the task that clicked: a smooth scroll would only have started.
    const gap = await page.$eval('button[aria-label="Try it: GET /account"]', (button) => {
      (button as HTMLButtonElement).click();
      return document.querySelector('try-it-console')!.getBoundingClientRect().top - document.querySelector('.site-header')!.getBoundingClientRect().bottom;
    });
    assert.ok(Math.abs(gap - 8) < 2, `the console starts ${gap}px below the header`);
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
        } else if (path === '/npm-import.html') {
          // Enough sends for the event log to scroll, so that it must be reachable from the keyboard.
          for (let send = 0; send < 6; send += 1) assert.match(await sendFromConsole(page), /^200 OK/);
          assert.ok(await page.$eval('.event-log ol', (log) => log.scrollHeight > log.clientHeight), 'the event log scrolls');
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
