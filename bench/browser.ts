// Runs a benchmark inside Debian's Chromium: bundles a browser module with esbuild, serves it from a
// loopback origin (IndexedDB needs a real origin) and returns what the module's `run()` resolves to.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import puppeteer from 'puppeteer-core';
import { chromiumFlags, chromiumPath } from '../scripts/chromium.mjs';

export async function runInChromium<T>(entry: string): Promise<T> {
  const bundle = await build({ entryPoints: [entry], bundle: true, format: 'esm', write: false, target: 'es2022' });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((request, response) => {
    if (request.url === '/bench.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module">import { run } from "/bench.js"; window.result = run();</script>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.error(error));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction('window.result !== undefined');
    return (await page.evaluate('window.result')) as T;
  } finally {
    await browser.close();
    server.close();
  }
}
