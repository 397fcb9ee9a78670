// Regenerates demo/screenshot.png, the README's picture of the demo, from the real page in Debian's Chromium:
// starts the demo on free ports, sends GET /pets from the console, waits for the response, and captures the page.
// Run: npm run build && node --import tsx demo/screenshot.ts [--dark]
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { chromiumFlags, chromiumPath } from '../scripts/chromium.mjs';
import { startDemo } from './server.js';

const OUTPUT = fileURLToPath(new URL('screenshot.png', import.meta.url));
const dark = process.argv.includes('--dark');

const demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
const browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
try {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: dark ? 'dark' : 'light' }]);
  await page.setViewport({ width: 1200, height: 1000, deviceScaleFactor: 1 });
  await page.goto(demo.urls.docs, { waitUntil: 'networkidle0', timeout: 15_000 });
  await page.waitForFunction(() => customElements.get('try-it-console') !== undefined, { timeout: 10_000 });
  const send = await page.waitForSelector('try-it-console >>> [part~="send-button"]', { timeout: 10_000 });
  await send!.click();
  await page.waitForSelector('try-it-console >>> [part~="status"]', { timeout: 10_000 });
  await page.waitForNetworkIdle({ idleTime: 300, timeout: 10_000 });
  const console = await page.$('#console');
  await console!.evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.scrollBy(0, -70)); // below the sticky header
  await page.screenshot({ path: OUTPUT });
  process.stdout.write(`wrote ${OUTPUT}${problems.length ? `\npage problems:\n  ${problems.join('\n  ')}` : ''}\n`);
} finally {
  await browser.close();
  await demo.close();
}
