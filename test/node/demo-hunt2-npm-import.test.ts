// The npm-import page as a reader uses it, in Chromium against the demo's own servers: its operation picker puts an
// operation back whatever the console holds (a history pick, an edit), and the code it shows is the code it runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type {} from '../../src/events/index.js';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { CodeSampleError, codeSample } from '../../demo/docs-site/code-sample.js';

let demo: RunningDemo;
let browser: Browser;

async function openNpmImport(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(new URL('/npm-import.html', demo.urls.docs).href, { waitUntil: 'load', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('try-it-console')?.shadowRoot?.querySelector('#url'), { timeout: 10_000 });
  return { page, problems };
}

/** Clicks the picker's button for `summary` (e.g. `List pets`). */
async function pick(page: Page, summary: string): Promise<void> {
  await page.$$eval(
    '.operation-picker button',
    (buttons, wanted) => {
      const button = buttons.find((candidate) => candidate.textContent!.replace(/\s+/g, ' ').trim().endsWith(wanted));
      if (!button) throw new Error(`no picker button for ${wanted}`);
      (button as HTMLButtonElement).click();
    },
    summary,
  );
}

interface Shown {
  method: string;
  url: string;
  body: string;
  label: string | null;
  region: string | null;
  pressed: string[];
}

/** What the console holds once it has rendered, and what the picker and the console's name say. */
async function shown(page: Page): Promise<Shown> {
  await page.evaluate(() => document.querySelector('try-it-console')!.updateComplete);
  return page.evaluate(() => {
    const element = document.querySelector('try-it-console')!;
    const root = element.shadowRoot!;
    return {
      method: root.querySelector<HTMLSelectElement>('#method')!.value,
      url: root.querySelector<HTMLInputElement>('#url')!.value,
      body: root.querySelector<HTMLTextAreaElement>('#body')?.value ?? '',
      label: element.getAttribute('label'),
      region: root.querySelector('.layout')!.getAttribute('aria-label'),
      pressed: [...document.querySelectorAll('.operation-picker button[aria-pressed="true"]')].map((button) => button.textContent!.replace(/\s+/g, ' ').trim()),
    };
  });
}

/** Clicks Send and returns the status of the response it got. */
async function send(page: Page): Promise<number> {
  const status = page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const host = document.querySelector('try-it-console')!;
        host.addEventListener('tic-response', (event) => resolve(event.response.status), { once: true });
        host.addEventListener('tic-request-error', (event) => reject(new Error(event.error.message)), { once: true });
      }),
  );
  await page.$eval('try-it-console >>> [part~="send-button"]', (button) => (button as HTMLButtonElement).click());
  return status;
}

/** Types `value` into the console's URL field as a reader would leave it. */
async function editUrl(page: Page, value: string): Promise<void> {
  await page.evaluate((text) => {
    const field = document.querySelector('try-it-console')!.shadowRoot!.querySelector<HTMLInputElement>('#url')!;
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }, value);
}

describe('the npm-import page, hunted', () => {
  before(async () => {
    demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('an operation picked again after a history pick or an edit is loaded, and the picker and the console name what it holds', async () => {
    const { page, problems } = await openNpmImport();
    await pick(page, 'Add a pet');
    assert.equal(await send(page), 201);
    await pick(page, 'List pets');
    assert.deepEqual(await shown(page), { method: 'GET', url: '{{base_url}}/pets', body: '', label: 'List pets', region: 'List pets', pressed: ['GET List pets'] });

    // The POST sent above, picked from the console's history once it is listed.
    await page.waitForFunction(
      () => {
        const history = document.querySelector('try-it-console')!.shadowRoot!.querySelector('request-history')!.shadowRoot!;
        const entry = [...history.querySelectorAll<HTMLButtonElement>('button.entry')].find((button) => button.querySelector('.method')!.textContent === 'POST');
        entry?.click();
        return entry !== undefined;
      },
      { timeout: 10_000, polling: 50 },
    );
    const fromHistory = await shown(page);
    assert.equal(fromHistory.method, 'POST');
    assert.match(fromHistory.body, /"name": "Mochi"/);
    // No operation of the picker is what the console holds now, and its name does not say one is.
    assert.deepEqual([fromHistory.pressed, fromHistory.label, fromHistory.region], [[], 'Request from history', 'Request from history']);

    await pick(page, 'List pets');
    assert.deepEqual(await shown(page), { method: 'GET', url: '{{base_url}}/pets', body: '', label: 'List pets', region: 'List pets', pressed: ['GET List pets'] });

    // Edited, then the same operation again: the operation comes back.
    await editUrl(page, '{{base_url}}/pets/oops');
    assert.equal((await shown(page)).url, '{{base_url}}/pets/oops');
    await pick(page, 'List pets');
    assert.deepEqual(await shown(page), { method: 'GET', url: '{{base_url}}/pets', body: '', label: 'List pets', region: 'List pets', pressed: ['GET List pets'] });
    assert.equal(await send(page), 200);

    // And another operation after an edit loads that one, as before.
    await editUrl(page, '{{base_url}}/pets?tag=cat');
    await pick(page, 'Add a pet');
    const added = await shown(page);
    assert.deepEqual([added.method, added.url, added.label, added.pressed], ['POST', '{{base_url}}/pets', 'Add a pet', ['POST Add a pet']]);
    assert.equal(added.body, '{\n  "name": "Mochi",\n  "tag": "cat"\n}');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('the code sample on the page is the page script that runs, its configuration and bindings included', async () => {
    const { page, problems } = await openNpmImport();
    // The page's sample of its own code: the block that imports the package (the others are other frameworks').
    const sample = await page.$$eval('pre code', (blocks) => blocks.map((code) => code.textContent!).find((text) => text.includes("import 'try-it-console'")) ?? '');
    const source = (await readFile(fileURLToPath(new URL('../../demo/npm-import.ts', import.meta.url)), 'utf8')).split('\n');
    // Every line shown is a line of demo/npm-import.ts, in the file's order ("// …" marks what is left out).
    let at = 0;
    for (const line of sample.split('\n').filter((text) => text.trim() !== '' && text.trim() !== '// …')) {
      const found = source.indexOf(line, at);
      assert.ok(found >= 0, `shown but not in demo/npm-import.ts (in this order): ${JSON.stringify(line)}`);
      at = found + 1;
    }
    // What the running console was given is what the sample gives it: each configuration key and attribute.
    const running = await page.evaluate(() => {
      const element = document.querySelector('try-it-console')!;
      return { keys: Object.keys(element.config ?? {}), attributes: element.getAttributeNames() };
    });
    const configuration = /const config: ConsoleConfig = \{\n([\s\S]*?)\n\};/.exec(sample)?.[1];
    assert.ok(configuration, 'the sample shows the configuration object');
    assert.deepEqual([...configuration.matchAll(/^ {2}(\w+):/gm)].map((match) => match[1]), running.keys);
    for (const attribute of running.attributes) assert.match(sample, new RegExp(`<try-it-console[^>]*\\s${attribute}=`), `the sample sets ${attribute}`);
    // The picker's call that puts an operation back.
    assert.match(sample, /\.load\(/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe("the code sample taken from a page's script", () => {
  it('joins the marked regions, marking what is left out between them', () => {
    const source = ['// header', '// #region sample', "import 'x';", '// #endregion', 'hidden();', '  // #region sample', 'shown();', '  // #endregion', ''].join('\n');
    assert.equal(codeSample(source, 'page.ts'), "import 'x';\n\n// …\n\nshown();");
  });

  it('refuses a script without regions, with a region left open or one inside another, saying how to mark them', () => {
    for (const [source, detail] of [
      ['plain();', /page\.ts cannot be read: it has no region\. Mark each part/],
      ['// #region sample\nopen();', /its last region has no end/],
      ['// #region sample\n// #region sample\n// #endregion', /line 2 starts a region inside another/],
    ] as const) {
      assert.throws(() => codeSample(source, 'page.ts'), (error: unknown) => error instanceof CodeSampleError && error.code === 'ERR_DEMO_CODE_SAMPLE' && detail.test(error.message));
    }
  });
});
