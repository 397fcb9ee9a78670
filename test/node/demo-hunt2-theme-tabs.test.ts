// The demo's theme menu across tabs, in Chromium against the demo's own servers: a theme chosen in one tab is the
// theme of the pages open in the others, their menus included, as it is of the pages opened later.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { startDemo, type RunningDemo } from '../../demo/server.js';

let demo: RunningDemo;
let browser: Browser;

async function open(path: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(new URL(path, demo.urls.docs).href, { waitUntil: 'load', timeout: 15_000 });
  return page;
}

/** Waits until `page` shows `theme` ('' for System): the page's data-theme and its menu's choice. */
async function showsTheme(page: Page, theme: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => (document.documentElement.dataset.theme ?? '') === wanted && document.querySelector<HTMLSelectElement>('#theme-switch')!.value === wanted,
    { timeout: 10_000, polling: 50 },
    theme,
  );
}

describe('the demo theme menu across tabs, hunted', () => {
  before(async () => {
    demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('a theme chosen in one tab is applied in the other open tabs, their menus included, and so is going back to System', async () => {
    const problems: string[] = [];
    const chooser = await open('/', problems);
    const others = [await open('/npm-import.html', problems), await open('/code-snippet.html', problems)];
    for (const page of [chooser, ...others]) await showsTheme(page, '');

    await chooser.select('#theme-switch', 'dark');
    for (const page of others) await showsTheme(page, 'dark');
    // The elements follow the page there too: the console draws dark.
    assert.equal(await others[0]!.$eval('try-it-console', (element) => getComputedStyle(element).colorScheme), 'dark');

    await others[1]!.select('#theme-switch', 'light');
    for (const page of [chooser, others[0]!]) await showsTheme(page, 'light');

    await chooser.select('#theme-switch', '');
    for (const page of others) await showsTheme(page, '');
    // A tab that clears its storage (as a site's "reset settings" would) leaves the others on System too.
    await chooser.select('#theme-switch', 'dark');
    for (const page of others) await showsTheme(page, 'dark');
    await chooser.evaluate(() => localStorage.clear());
    for (const page of others) await showsTheme(page, '');

    assert.deepEqual(problems, []);
    for (const page of [chooser, ...others]) await page.close();
  });
});
