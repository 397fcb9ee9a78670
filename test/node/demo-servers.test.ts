// The demo behind `npm start`, on ephemeral loopback ports: the docs pages, the sample API (without CORS), and the
// proxy that lets the docs origin read it. Nothing here needs the elements to be defined.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConsoleConfig } from '../../src/core/index.js';
import { PROBLEM_TYPES } from '../../demo/sample-api/problem-details.js';
import { startDemo, type RunningDemo } from '../../demo/server.js';
import { corsHeaders, get, postJson } from './demo-support/demo-client.js';

let demo: RunningDemo;
let docs: string;
let api: string;

before(async () => {
  demo = await startDemo({ port: 0, apiPort: 0, receiverPort: 0, proxyPort: 0 });
  docs = demo.urls.docs;
  api = demo.urls.api;
});
after(() => demo.close());

async function page(path: string): Promise<string> {
  const response = await get(new URL(path, docs).href);
  assert.equal(response.status, 200, path);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  return response.text();
}

describe('demo docs site', () => {
  it('serves the script-tag page with the standalone bundle and a working config for this run', async () => {
    const html = await page('/');
    assert.match(html, /<script type="module" src="\/dist\/try-it-console\.bundle\.js"><\/script>/);
    assert.doesNotMatch(html, /%[A-Z_]+%/, 'every template marker is filled');
    const json = /<try-it-console[^>]*>\s*<script type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    assert.ok(json, 'the console carries its configuration as child JSON');
    const config = parseConsoleConfig(JSON.parse(json));
    assert.equal(config.corsProxy, demo.urls.proxy);
    assert.equal(config.environments[0]?.name, 'Local demo');
    assert.equal(config.environments[0]?.variables.base_url, api);
    assert.match(html, /\{\{base_url\}\}\/pets/, 'the console placeholders are left for the console');
  });

  it('serves the npm-import page and its bundle, built from `import "try-it-console"`', async () => {
    const html = await page('/npm-import.html');
    assert.match(html, /src="\/assets\/npm-import\.js"/);
    assert.match(html, new RegExp(`data-api-origin="${api}"`));
    const script = await get(new URL('/assets/npm-import.js', docs).href);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    const text = await script.text();
    assert.ok(text.length > 10_000, 'the package and lit are bundled in');
    assert.doesNotMatch(text, /from ["']try-it-console["']/, 'no bare import is left for the browser');
  });

  it('serves <code-snippet> alone, the stylesheet, the page scripts and the build', async () => {
    const html = await page('/code-snippet.html');
    assert.match(html, /<code-snippet method="POST" url="http:\/\/127\.0\.0\.1:\d+\/pets"/);
    assert.match(html, /src="\/dist\/try-it-console\.bundle\.js"/);
    for (const [path, type] of [
      ['/demo.css', /^text\/css/],
      ['/dist/try-it-console.bundle.js', /^text\/javascript/],
      ['/dist/index.js', /^text\/javascript/],
      ['/assets/webhook-panel.js', /^text\/javascript/],
      ['/assets/theme-switch.js', /^text\/javascript/],
    ] as const) {
      const response = await get(new URL(path, docs).href);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      await response.arrayBuffer();
    }
  });

  it('gives every page the shared header, with its own link marked current', async () => {
    for (const [path, current] of [['/', '/'], ['/npm-import.html', '/npm-import.html'], ['/code-snippet.html', '/code-snippet.html']] as const) {
      const html = await page(path);
      assert.doesNotMatch(html, /%[A-Z_]+%/, `${path}: every template marker is filled`);
      assert.match(html, /<header class="site-header">[\s\S]*<select id="theme-switch">[\s\S]*<\/header>/, path);
      const marked = [...html.matchAll(/<a href="([^"]+)" aria-current="page">/g)].map((match) => match[1]);
      assert.deepEqual(marked, [current], path);
    }
  });

  it('serves nothing outside demo/ and dist/', async () => {
    for (const path of ['/dist/../package.json', '/dist/%2e%2e/package.json', '/%2e%2e/package.json', '/server.ts', '/dist/..%2fpackage.json', '/nope.html']) {
      const response = await get(`${docs.replace(/\/$/, '')}${path}`);
      assert.equal(response.status, 404, path);
      await response.arrayBuffer();
    }
  });

  it('takes notify requests only as JSON, so another site cannot trigger them with a form', async () => {
    const form = await get(new URL('/demo/notify', docs).href, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'event=pet.adopted' });
    assert.equal(form.status, 415);
    const bad = await postJson(new URL('/demo/notify', docs).href, { event: 'Not An Event!' });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { message: string } }).error.message, /event must be/);
  });
});

describe('demo sample API', () => {
  it('lists, creates, reads, replaces and deletes pets, with no CORS headers', async () => {
    const list = await get(`${api}/pets`);
    assert.equal(list.status, 200);
    assert.deepEqual(corsHeaders(list), []);
    assert.ok(((await list.json()) as unknown[]).length >= 3);

    const created = await postJson(`${api}/pets`, { name: 'Rex', tag: 'dog' });
    assert.equal(created.status, 201);
    const pet = (await created.json()) as { id: number; name: string; status: string };
    assert.equal(created.headers.get('location'), `/pets/${pet.id}`);
    assert.deepEqual([pet.name, pet.status], ['Rex', 'available']);

    const replaced = await get(`${api}/pets/${pet.id}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Rex', tag: 'dog', status: 'adopted' }) });
    assert.equal(((await replaced.json()) as { status: string }).status, 'adopted');
    assert.equal((await get(`${api}/pets/${pet.id}`, { method: 'DELETE' })).status, 204);
    const gone = await get(`${api}/pets/${pet.id}`);
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { type: string }).type, `${docs}#problem-pet-not-found`);
  });

  it('answers a browser preflight without any CORS header, so pages must use the proxy', async () => {
    const preflight = await get(`${api}/pets`, { method: 'OPTIONS', headers: { Origin: demo.docsOrigins[0]!, 'Access-Control-Request-Method': 'POST' } });
    assert.deepEqual(corsHeaders(preflight), []);
  });

  it('rejects invalid pets with 422 naming the fields, and bad JSON with 400', async () => {
    const invalid = await postJson(`${api}/pets`, { name: '', tag: 'Big Dog' });
    assert.equal(invalid.status, 422);
    assert.deepEqual(((await invalid.json()) as { errors: Array<{ pointer: string }> }).errors.map((error) => error.pointer), ['/name', '/tag']);
    const broken = await get(`${api}/pets`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":' });
    assert.equal(broken.status, 400);
    await broken.arrayBuffer();
  });

  it('answers every error as RFC 9457 problem details, each type documented on the docs page', async () => {
    const json = { 'Content-Type': 'application/json' };
    const cases: Array<[string, RequestInit, number, string, Record<string, unknown>?]> = [
      ['/pets', { method: 'POST', headers: json, body: '{"name":"","tag":"dog"}' }, 422, 'invalid-pet', { errors: [{ pointer: '/name', detail: 'name must be a non-empty string of at most 100 characters' }] }],
      ['/pets?limit=abc', {}, 400, 'invalid-parameter', { errors: [{ parameter: 'limit', detail: 'limit must be a whole number from 1 to 100 (got "abc")' }] }],
      ['/pets?status=sold', {}, 400, 'invalid-parameter', { errors: [{ parameter: 'status', detail: 'status must be one of available, pending, adopted (got "sold")' }] }],
      ['/slow?delay=soon', {}, 400, 'invalid-parameter'],
      ['/pets', { method: 'POST', headers: json, body: '{"name":' }, 400, 'invalid-json'],
      // A form or text body is not a pet: refused, not parsed as JSON regardless (curl -d sends a form).
      ['/pets', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '{"name":"Rex","tag":"dog"}' }, 415, 'unsupported-media-type'],
      ['/pets/1', { method: 'PUT', body: '{"name":"Rex","tag":"dog"}' }, 415, 'unsupported-media-type'],
      ['/pets', { method: 'POST', headers: json, body: 'x'.repeat(70_000) }, 413, 'body-too-large'],
      ['/account', {}, 401, 'unauthorized'],
      ['/pets/9999', {}, 404, 'pet-not-found'],
      ['/nowhere', {}, 404, 'not-found'],
      ['/pets/1', { method: 'PATCH' }, 405, 'method-not-allowed'],
      ['/status/503', {}, 503, 'example-error'],
      ['/status/200', {}, 400, 'invalid-parameter'],
    ];
    const documented = new Set([...(await page('/')).matchAll(/ id="(problem-[a-z-]+)"/g)].map((match) => match[1]));
    for (const [path, init, status, type, extra] of cases) {
      const response = await get(`${api}${path}`, init);
      assert.equal(response.status, status, path);
      assert.equal(response.headers.get('content-type'), 'application/problem+json', path);
      const problem = (await response.json()) as Record<string, unknown>;
      assert.equal(problem.type, `${docs}#problem-${type}`, path);
      assert.ok(documented.has(`problem-${type}`), `the docs page documents ${type}`);
      assert.equal(problem.status, status, path);
      assert.equal(typeof problem.title, 'string', path);
      assert.equal(typeof problem.detail, 'string', path);
      assert.equal(problem.instance, path, path);
      if (extra) assert.deepEqual({ errors: problem.errors }, extra, path);
    }
    assert.equal((await get(`${api}/pets`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' })).headers.get('accept'), 'application/json');
    // Every type the API can send has its entry; an empty filter is no filter.
    assert.deepEqual([...documented].sort(), Object.keys(PROBLEM_TYPES).map((name) => `problem-${name}`).sort());
    assert.equal((await get(`${api}/pets?status=&limit=`)).status, 200);
  });

  it('serves a PNG photo, a ~5 MB JSON inventory, a slow answer and example errors', async () => {
    const photo = await get(`${api}/pets/1/photo`);
    assert.equal(photo.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await photo.arrayBuffer()).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const inventory = await get(`${api}/inventory`);
    const text = await inventory.text();
    assert.ok(text.length >= 5 * 1024 * 1024 && text.length < 6 * 1024 * 1024, `inventory is ${text.length} bytes`);
    assert.equal((JSON.parse(text) as { count: number; items: unknown[] }).items.length, (JSON.parse(text) as { count: number }).count);

    const started = performance.now();
    const slow = await get(`${api}/slow?delay=150`);
    assert.deepEqual(await slow.json(), { waited: 150 });
    assert.ok(performance.now() - started >= 140);

    const unavailable = await get(`${api}/status/503`);
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get('retry-after'), '30');
    await unavailable.arrayBuffer();
  });

  it('streams server-sent events from /pets/events, count and interval bounded', async () => {
    const events = await get(`${api}/pets/events?count=3&interval=0`);
    assert.equal(events.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const blocks = (await events.text()).split('\n\n').filter(Boolean);
    assert.deepEqual(blocks.map((block) => block.split('\n').slice(0, 2)), [1, 2, 3].map((id) => [`id: ${id}`, 'event: pet.status']));
    for (const block of blocks) {
      const data = JSON.parse(block.split('\n')[2]!.replace(/^data: /, '')) as { petId: number; name: string; status: string };
      assert.ok(Number.isInteger(data.petId) && data.name.length > 0 && ['available', 'pending', 'adopted'].includes(data.status), block);
    }
    for (const query of ['count=0', 'count=51', 'interval=5001']) {
      const refused = await get(`${api}/pets/events?${query}`);
      assert.equal(refused.status, 400, query);
      await refused.arrayBuffer();
    }
  });

  it('requires the bearer token on /account', async () => {
    const anonymous = await get(`${api}/account`);
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer/);
    await anonymous.arrayBuffer();
    const wrong = await get(`${api}/account`, { headers: { Authorization: 'Bearer expired-token' } });
    assert.equal(wrong.status, 401);
    await wrong.arrayBuffer();
    const signedIn = await get(`${api}/account`, { headers: { Authorization: 'Bearer demo-token' } });
    assert.equal(signedIn.status, 200);
    assert.equal(((await signedIn.json()) as { name: string }).name, 'Demo Reader');
  });
});

describe('demo CORS proxy', () => {
  it('relays the sample API to the docs origin with CORS headers, in the prefix style the pages use', async () => {
    const origin = demo.docsOrigins[0]!;
    const response = await get(`${demo.urls.proxy}${api}/pets?tag=cat`, { headers: { Origin: origin } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), origin);
    const pets = (await response.json()) as Array<{ tag: string }>;
    assert.ok(pets.length > 0 && pets.every((pet) => pet.tag === 'cat'));
  });

  it('serves the docs site under localhost too, and answers its preflight for the bearer header', async () => {
    const origin = demo.docsOrigins.find((o) => o.includes('localhost'))!;
    const preflight = await get(`${demo.urls.proxy}${api}/account`, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    assert.ok(preflight.status < 300, `preflight answered ${preflight.status}`);
    assert.equal(preflight.headers.get('access-control-allow-origin'), origin);
    const account = await get(`${demo.urls.proxy}${api}/account`, { headers: { Origin: origin, Authorization: 'Bearer demo-token' } });
    assert.equal(account.status, 200);
    await account.arrayBuffer();
  });

  it('refuses pages from other origins', async () => {
    const response = await get(`${demo.urls.proxy}${api}/pets`, { headers: { Origin: 'https://elsewhere.example' } });
    // The refusal itself stays readable (the console shows its reason); the API's answer never reaches the page.
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'origin_not_allowed');
  });
});

/** Listens on `host`:`port` as another program would; undefined when the port is taken there already. */
function hold(host: string, port: number): Promise<Server | undefined> {
  const server = createServer((_request, response) => response.end('another program'));
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => resolve(server));
  });
}

/** Starts the demo with `options`: the running demo, or the error it did not start with. */
async function startOutcome(options: Parameters<typeof startDemo>[0]): Promise<Error | RunningDemo> {
  return startDemo(options).then(
    (running) => running,
    (error: Error) => error,
  );
}

describe('demo ports and localhost', () => {
  // Browsers send http://localhost:<port>/ to ::1 first: a program there (a dev server on macOS's localhost) would
  // get the page the banner offers, although the demo listens on 127.0.0.1:<port> without any conflict.
  it('refuses a chosen docs port whose localhost twin on ::1 is another program', async () => {
    let blocker: Server | undefined;
    for (let attempt = 0; attempt < 5 && !blocker; attempt += 1) {
      // A port free on 127.0.0.1, then held on ::1.
      const probe = await hold('127.0.0.1', 0);
      const port = (probe!.address() as AddressInfo).port;
      await new Promise((resolve) => probe!.close(resolve));
      blocker = await hold('::1', port);
    }
    assert.ok(blocker, 'a port could be held on ::1');
    const port = (blocker.address() as AddressInfo).port;
    try {
      const outcome = await startOutcome({ port, apiPort: 0, receiverPort: 0, proxyPort: 0 });
      if (!(outcome instanceof Error)) await outcome.close();
      assert.ok(outcome instanceof Error, `the demo started on ${port}, where http://localhost:${port}/ reaches another program`);
      assert.match(outcome.message, new RegExp(`docs site could not listen on port ${port}: it is already in use\\. Another program listens on \\[::1\\]:${port}, where browsers go first for http://localhost:${port}/\\. Pick another with --port or PORT\\.`));
    } finally {
      await new Promise((resolve) => blocker!.close(resolve));
    }
  });

  it('moves the default docs port when its localhost twin on ::1 is taken, and says so', async () => {
    // Held here, or by something else already: either way http://localhost:8080/ is not the demo's.
    const blocker = await hold('::1', 8080);
    try {
      const outcome = await startOutcome({ apiPort: 0, receiverPort: 0, proxyPort: 0 });
      assert.ok(!(outcome instanceof Error), `the demo started: ${outcome instanceof Error ? outcome.message : ''}`);
      try {
        assert.notEqual(new URL(outcome.urls.docs).port, '8080');
        assert.deepEqual(outcome.movedPorts.find((moved) => moved.option === 'port')?.wanted, 8080);
      } finally {
        await outcome.close();
      }
    } finally {
      await new Promise((resolve) => (blocker ? blocker.close(resolve) : resolve(undefined)));
    }
  });
});
