// The index page's webhook panel as a phone reader and a screen-reader user meet it: each delivery card keeps its
// column names clear of the next row, and how each delivery ended is said once in the polite status line.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { startDemo, type RunningDemo } from '../../demo/server.js';

let demo: RunningDemo;
let browser: Browser;

async function openIndex(width: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.setViewport({ width, height: 800 });
  await page.goto(demo.urls.docs, { waitUntil: 'load', timeout: 15_000 });
  return { page, problems };
}

/** Picks the event and the scenario in the form, then presses Send notification. */
async function sendNotification(page: Page, event: string, scenario: 'normal' | 'failFirst' | 'wrongSecret'): Promise<void> {
  await page.$eval('#notify-form select[name="event"]', (select, value) => ((select as HTMLSelectElement).value = value), event);
  await page.$eval(`#notify-form input[value="${scenario}"]`, (radio) => (radio as HTMLInputElement).click());
  await page.$eval('#notify-form button[type="submit"]', (button) => (button as HTMLButtonElement).click());
}

describe('the demo webhook panel, hunted', () => {
  before(async () => {
    demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('on a phone, each column name of a delivery card ends inside its own cell, above the next row', async () => {
    for (const width of [390, 320]) {
      const { page, problems } = await openIndex(width);
      // Delivered at once: "Receiver answered" (two lines at this width) beside a one-line value, the case that overlapped.
      await sendNotification(page, 'pet.adopted', 'normal');
      await page.waitForFunction(() => document.querySelector('#deliveries tbody tr')?.textContent!.includes('delivered'), { timeout: 15_000 });
      const overlaps = await page.$$eval('#deliveries tbody td[data-label]', (cells) =>
        cells.flatMap((cell) => {
          const box = cell.getBoundingClientRect();
          const style = getComputedStyle(cell);
          const label = getComputedStyle(cell, '::before');
          // The name starts at the top of the cell's content; its used height is what it takes on screen.
          const labelBottom = box.top + parseFloat(style.paddingTop) + parseFloat(label.height);
          return labelBottom > box.bottom + 0.5 ? [`"${cell.dataset.label}" ends at ${labelBottom.toFixed(1)}px, its cell at ${box.bottom.toFixed(1)}px`] : [];
        }),
      );
      assert.deepEqual(overlaps, [], `at ${width} px`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  it('says in the polite status line how each delivery the reader sent ended, once, not again on each poll', async () => {
    const { page, problems } = await openIndex(1280);
    assert.deepEqual(
      await page.$eval('#notify-status', (status) => [status.getAttribute('role'), status.getAttribute('aria-live')]),
      ['status', 'polite'],
    );
    // Every text written into the status line, and every redraw of the table (one per poll).
    await page.evaluate(() => {
      const watched = window as { statusTexts?: string[]; tableRedraws?: number };
      watched.statusTexts = [];
      watched.tableRedraws = 0;
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) watched.statusTexts!.push(node.textContent!);
      }).observe(document.querySelector('#notify-status')!, { childList: true, subtree: true });
      new MutationObserver(() => (watched.tableRedraws! += 1)).observe(document.querySelector('#deliveries tbody')!, { childList: true });
    });
    const announced = (pattern: RegExp) =>
      page.waitForFunction((source) => (window as { statusTexts?: string[] }).statusTexts!.some((text) => new RegExp(source).test(text)), { timeout: 15_000 }, pattern.source);

    const retried = /^pet\.vaccinated delivered after 2 attempts \(2\d\d\); signature verified\.$/;
    await sendNotification(page, 'pet.vaccinated', 'failFirst');
    await announced(retried);
    const rejected = /^order\.placed failed after 1 attempt \(401\); signature rejected\.$/;
    await sendNotification(page, 'order.placed', 'wrongSecret');
    await announced(rejected);

    // Three more polls, each redrawing the table with both deliveries ended.
    const redraws = await page.evaluate(() => (window as { tableRedraws?: number }).tableRedraws!);
    for (let poll = 1; poll <= 3; poll += 1) {
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await page.waitForFunction((count) => (window as { tableRedraws?: number }).tableRedraws! >= count, { timeout: 15_000 }, redraws + poll);
    }
    const texts = await page.evaluate(() => (window as { statusTexts?: string[] }).statusTexts!);
    assert.equal(texts.filter((text) => retried.test(text)).length, 1, texts.join('\n'));
    assert.equal(texts.filter((text) => rejected.test(text)).length, 1, texts.join('\n'));
    assert.match(texts.at(-1)!, rejected, 'the last outcome stays in the status line');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
