// The sample API's endpoints for the kinds of response the console shows each its own way (XML laid out, plain text,
// a redirect, a gzip-compressed body, a file to download), on the wire and through the docs page's Try it buttons,
// in Chromium against the demo's own servers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { crc32, gunzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type {} from '../../src/events/index.js';
import { chromiumFlags, chromiumPath } from '../../scripts/chromium.mjs';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { acceptsGzip } from '../../demo/sample-api/catalog.js';
import { CHANGELOG } from '../../demo/sample-api/changelog.js';
import { get } from './demo-support/demo-client.js';

let demo: RunningDemo;
let browser: Browser;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly `headers` (fetch would add Accept-Encoding and decode the body), and the bytes as sent. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within 10 s`)));
    request.on('error', reject);
    request.end();
  });
}

/** The entries of a ZIP file, read from its central directory, each checked against its CRC-32. */
function unzip(archive: Buffer): Map<string, string> {
  const end = archive.length - 22;
  assert.equal(archive.readUInt32LE(end), 0x06054b50, 'the end of central directory record closes the file');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const entries = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    assert.equal(archive.readUInt32LE(at), 0x02014b50);
    const [method, checksum, size, nameLength, extraLength, commentLength, localAt] = [
      archive.readUInt16LE(at + 10), archive.readUInt32LE(at + 16), archive.readUInt32LE(at + 24), archive.readUInt16LE(at + 28),
      archive.readUInt16LE(at + 30), archive.readUInt16LE(at + 32), archive.readUInt32LE(at + 42),
    ];
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    assert.equal(method, 0, `${name} is stored`);
    assert.equal(archive.readUInt32LE(localAt), 0x04034b50, `${name}'s local header`);
    const start = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const content = archive.subarray(start, start + size);
    assert.equal(crc32(content), checksum, `${name}'s CRC-32`);
    entries.set(name, content.toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

async function openIndex(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(demo.urls.docs, { waitUntil: 'load', timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('try-it-console')?.shadowRoot?.querySelector('[part~="send-button"]'), { timeout: 10_000 });
  return { page, problems };
}

/** Presses the Try it button of `operation`, then Send, and waits for the response panel to show that response. */
async function tryAndSend(page: Page, operation: string): Promise<{ status: number; statusLine: string }> {
  await page.$eval(`button[aria-label="Try it: ${operation}"]`, (button) => (button as HTMLButtonElement).click());
  const status = page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const host = document.querySelector('try-it-console')!;
        host.addEventListener('tic-response', (event) => resolve(event.response.status), { once: true });
        host.addEventListener('tic-request-error', (event) => reject(new Error(event.error.message)), { once: true });
      }),
  );
  await page.$eval('try-it-console >>> [part~="send-button"]', (button) => (button as HTMLButtonElement).click());
  const result = await status;
  await page.evaluate(() => document.querySelector('try-it-console')!.updateComplete);
  const statusLine = await page.$eval('try-it-console >>> [part~="status"]', (line) => line.textContent!.replace(/\s+/g, ' ').trim());
  return { status: result, statusLine };
}

/** The text the console's response body panel shows. */
function shownBody(page: Page): Promise<string> {
  return page.$eval('try-it-console >>> [part~="response-body"]', (body) => (body as HTMLElement).innerText);
}

describe("the sample API's response kinds, hunted", () => {
  before(async () => {
    demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: chromiumFlags });
  });
  after(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('lists the new endpoints at GET /', async () => {
    const { endpoints } = (await (await get(`${demo.urls.api}/`)).json()) as { endpoints: string[] };
    for (const endpoint of ['GET /pets.xml?tag=&status=&limit=', 'GET /catalog', 'GET /export', 'GET /changelog', 'GET /v1/pets']) assert.ok(endpoints.includes(endpoint), endpoint);
  });

  it('serves the pets as XML on one line, filtered as /pets is, and the changelog as plain text', async () => {
    const xml = await rawGet(`${demo.urls.api}/pets.xml`);
    assert.equal(xml.headers['content-type'], 'application/xml; charset=utf-8');
    const text = xml.body.toString('utf8');
    assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?><pets count="5"><pet id="1"><name>Biscuit<\/name><tag>dog<\/tag><status>available<\/status><\/pet>/);
    assert.doesNotMatch(text, /\n/);
    const cats = (await rawGet(`${demo.urls.api}/pets.xml?tag=cat`)).body.toString('utf8');
    assert.deepEqual([...cats.matchAll(/<name>([^<]*)<\/name>/g)].map((match) => match[1]), ['Marmalade', 'Captain Whiskers']);
    const wrong = await rawGet(`${demo.urls.api}/pets.xml?status=sold`);
    assert.deepEqual([wrong.status, wrong.headers['content-type']], [400, 'application/problem+json']);

    const changelog = await rawGet(`${demo.urls.api}/changelog`);
    assert.deepEqual([changelog.status, changelog.headers['content-type'], changelog.body.toString('utf8')], [200, 'text/plain; charset=utf-8', CHANGELOG]);
  });

  it('moves the old /v1/pets paths to /pets for good, the query kept, and nothing else', async () => {
    for (const [old, moved] of [['/v1/pets?status=available', '/pets?status=available'], ['/v1/pets/2', '/pets/2'], ['/v1/pets/2/photo', '/pets/2/photo']]) {
      const response = await rawGet(`${demo.urls.api}${old}`);
      assert.deepEqual([response.status, response.headers.location, response.body.length], [301, moved, 0], old);
    }
    for (const elsewhere of ['/v1/account', '/v1//evil.example/pets', '/v1/petsx']) assert.equal((await rawGet(`${demo.urls.api}${elsewhere}`)).status, 404, elsewhere);
  });

  it('sends the catalog gzip-compressed to a client that accepts gzip, the same bytes each time, and as it is to one that does not', async () => {
    const plain = await rawGet(`${demo.urls.api}/catalog`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    const catalog = JSON.parse(plain.body.toString('utf8')) as { count: number; products: unknown[] };
    assert.equal(catalog.products.length, catalog.count);

    const compressed = await rawGet(`${demo.urls.api}/catalog`, { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(compressed.headers['content-encoding'], 'gzip');
    assert.equal(Number(compressed.headers['content-length']), compressed.body.length);
    assert.ok(compressed.body.length * 4 < plain.body.length, `${compressed.body.length} bytes sent for ${plain.body.length}`);
    assert.deepEqual(gunzipSync(compressed.body), plain.body);
    assert.deepEqual((await rawGet(`${demo.urls.api}/catalog`, { 'Accept-Encoding': 'gzip' })).body, compressed.body);
    assert.equal((await rawGet(`${demo.urls.api}/catalog`, { 'Accept-Encoding': 'gzip;q=0, br' })).headers['content-encoding'], undefined);

    const cases: Array<[string | undefined, boolean]> = [
      [undefined, false], ['', false], ['identity', false], ['gzip', true], ['GZIP', true], ['br, gzip;q=0.5', true], ['x-gzip', true],
      ['*', true], ['*;q=0', false], ['gzip;q=0', false], ['gzip;q=0, *', false], ['gzip;q=0.000', false], ['br, *;q=0.1', true],
    ];
    for (const [header, accepted] of cases) assert.equal(acceptsGzip(header), accepted, String(header));
  });

  it('offers every pet as a ZIP file to download, named by Content-Disposition, the same bytes for the same pets', async () => {
    const archive = await rawGet(`${demo.urls.api}/export`);
    assert.equal(archive.headers['content-type'], 'application/zip');
    assert.equal(archive.headers['content-disposition'], 'attachment; filename="petstore-export.zip"');
    const entries = unzip(archive.body);
    assert.deepEqual([...entries.keys()], ['pets.json', 'pets.xml', 'README.txt']);
    assert.deepEqual(JSON.parse(entries.get('pets.json')!), await (await get(`${demo.urls.api}/pets`)).json());
    assert.equal(entries.get('pets.xml'), `${(await rawGet(`${demo.urls.api}/pets.xml`)).body.toString('utf8')}\n`);
    assert.deepEqual((await rawGet(`${demo.urls.api}/export`)).body, archive.body);
  });

  it("each kind shows in the console as it should, from the docs page's Try it buttons, through the proxy", async () => {
    const { page, problems } = await openIndex();

    assert.equal((await tryAndSend(page, 'GET /pets.xml')).status, 200);
    const xml = await shownBody(page);
    // Laid out: one element a line, each pet indented under <pets>.
    assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<pets count="\d+">\n(?:[ \t]+)<pet id="1">/);
    assert.ok(xml.split('\n').length > 10, xml);

    assert.equal((await tryAndSend(page, 'GET /changelog')).status, 200);
    assert.equal((await shownBody(page)).trim(), CHANGELOG.trim());

    const redirected = await tryAndSend(page, 'GET /v1/pets');
    assert.equal(redirected.status, 200);
    assert.equal(
      await page.$eval('try-it-console >>> [part~="redirected"]', (line) => line.textContent!.replace(/\s+/g, ' ').trim()),
      `Redirected to ${demo.urls.api}/pets?status=available`,
    );
    assert.match(await shownBody(page), /"name": "Biscuit"/);

    const catalog = await tryAndSend(page, 'GET /catalog');
    assert.equal(catalog.status, 200);
    assert.match(catalog.statusLine, /\b[\d.]+ KB decoded from [\d.]+ KB\b/);
    assert.match(await shownBody(page), /"sku": "SHOP-0001"/);

    assert.equal((await tryAndSend(page, 'GET /export')).status, 200);
    assert.match(await shownBody(page), /^Binary data \(application\/zip, [\d.]+ KB\)\.$/);
    assert.equal(await page.$$eval('try-it-console >>> a[download]', (links) => links.map((link) => link.getAttribute('download')).join()), 'petstore-export.zip');

    assert.deepEqual(problems, []);
    await page.close();
  });
});
