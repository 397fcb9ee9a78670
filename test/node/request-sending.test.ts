// A hostile review of preparing and sending: each test here failed before the fix it names.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvironmentManager, History, RequestEngine, RequestError } from '../../src/core/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { rejectsWith } from './request-support/rejects-with.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** A loopback server recording every request; `route` answers once the request body has arrived. */
async function startServer(route: (request: IncomingMessage, response: ServerResponse, body: string) => void, port = 0) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body, at });
      route(request, response, body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

const echo = (request: IncomingMessage, response: ServerResponse, body: string) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
};

// Unprivileged ports on the Fetch standard's bad-port list: one of them is free to listen on.
const UNPRIVILEGED_BAD_PORTS = [6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 4190, 5060, 5061, 6000, 3659, 4045];

describe('Sending: ports browsers refuse', () => {
  let api: TestServer;
  let onBadPort: TestServer;
  before(async () => {
    api = await startServer(echo);
    for (const port of UNPRIVILEGED_BAD_PORTS) {
      onBadPort = await startServer(echo, port).catch(() => undefined as never);
      if (onBadPort) break;
    }
    assert.ok(onBadPort, 'no bad port free to listen on');
  });
  after(async () => {
    await api.close();
    await onBadPort.close();
  });

  it('refuses a target on a bad port up front, instead of calling a server that is up unreachable', async () => {
    const port = new URL(onBadPort.origin).port;
    const error = await rejectsWith(
      new RequestEngine().send({ method: 'GET', url: `${onBadPort.origin}/pets` }),
      'invalid-url',
      new RegExp(`^"${onBadPort.origin.replaceAll('.', '\\.')}/pets" uses port ${port}, which browsers refuse to connect to \\(so do Node's fetch and the CORS proxy\\)`),
    );
    assert.doesNotMatch(error.message, /Could not reach/);
    assert.equal(onBadPort.received.length, 0);
    // The proxy refuses it too, so through it the send is refused the same way, before anything goes out.
    const proxied = new RequestEngine({ config: { corsProxy: `${api.origin}/` }, pageOrigin: 'http://docs.localhost:9000' });
    await rejectsWith(proxied.send({ method: 'GET', url: `${onBadPort.origin}/pets` }), 'invalid-url', new RegExp(`uses port ${port}`));
    assert.equal(api.received.length, 0);
  });

  it('refuses a CORS proxy on a bad port, naming the proxy', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `${onBadPort.origin}/` }, pageOrigin: 'http://docs.localhost:9000' });
    const port = new URL(onBadPort.origin).port;
    await rejectsWith(
      engine.send({ method: 'GET', url: `${api.origin}/pets` }),
      'invalid-url',
      new RegExp(`^The CORS proxy at ${onBadPort.origin.replaceAll('.', '\\.')} uses port ${port}, which browsers refuse to connect to .*Run the proxy on another port, and point corsProxy at it\\.$`),
    );
    assert.equal(onBadPort.received.length, 0);
    // A target on the page's own origin goes direct, so the proxy's port does not matter.
    const direct = new RequestEngine({ config: { corsProxy: `${onBadPort.origin}/` }, pageOrigin: api.origin });
    assert.equal((await direct.send({ method: 'GET', url: `${api.origin}/pets` })).status, 200);
  });
});

describe('Sending: outcomes and history', () => {
  let api: TestServer;
  before(async () => {
    api = await startServer((request, response, body) => {
      if (request.url === '/reset-then-slow-head') {
        // The send breaks; the probe that follows is answered only after a while.
        if (request.method === 'HEAD') setTimeout(() => response.writeHead(200).end(), 500);
        else request.socket.destroy();
      } else {
        echo(request, response, body);
      }
    });
  });
  after(() => api.close());

  it('records the duration of a failed send up to its failure, not the probes that explain it', async () => {
    const history = new History({ enabled: true });
    await rejectsWith(new RequestEngine({ history }).send({ method: 'POST', url: `${api.origin}/reset-then-slow-head`, body: 'x' }), 'network', /server answers a HEAD request/);
    const probe = api.received.find(({ method }) => method === 'HEAD')!;
    const [entry] = history.list();
    assert.equal(entry!.status, 0);
    // The send had failed before the probe was sent, and the probe was answered 500 ms after it arrived.
    const endedAt = entry!.timestamp.getTime() + entry!.duration;
    assert.ok(endedAt < probe.at + 5, `the entry ends ${endedAt - probe.at} ms after the probe arrived`);
  });

  it('warns that a JSON body sent without Content-Type goes as text/plain;charset=UTF-8', async () => {
    const environments = new EnvironmentManager({ name: 'Prod', variables: { id: '42' } });
    const engine = new RequestEngine({ environments });
    const request = { method: 'POST', url: `${api.origin}/pets`, body: ' {"name":"Rex","id":{{id}}}' };
    const response = await engine.send(request);
    // What fetch adds, and what an API reading JSON (Express's json(), a 415) refuses or ignores.
    assert.equal(JSON.parse(response.text).headers['content-type'], 'text/plain;charset=UTF-8');
    const warning = 'This body is JSON, but with no Content-Type header it is sent as text/plain;charset=UTF-8 (what fetch gives a text body), which an API reading JSON may refuse or ignore. Add the header Content-Type: application/json.';
    assert.deepEqual(response.request.warnings, [warning]);
    assert.deepEqual(engine.inspect(request).warnings, [warning]);
    assert.deepEqual(engine.prepare({ ...request, body: '[1, 2]' }).warnings, [warning]);
    // Text is labelled as what it is; an unfinished document is not JSON yet.
    for (const body of ['hello', '{"name":', '42']) assert.deepEqual(engine.prepare({ ...request, body }).warnings, [], body);
    for (const headers of [{ 'content-type': 'application/json' }, { 'CONTENT-TYPE': 'text/plain' }] as Record<string, string>[]) {
      assert.deepEqual(engine.prepare({ ...request, headers }).warnings, []);
    }
    assert.deepEqual(new RequestEngine({ config: { defaultHeaders: { 'Content-Type': 'application/json' } } }).prepare(request).warnings, []);
    assert.deepEqual(engine.prepare({ method: 'DELETE', url: request.url }).warnings, []);
  });

  it('warns that a body labelled JSON does not parse, with the parser\'s words, and still sends it', async () => {
    const engine = new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables: { id: '42' } }) });
    const request = { method: 'POST', url: `${api.origin}/pets`, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '{"name": "Rex",}' };
    const response = await engine.send(request);
    assert.equal(JSON.parse(response.text).body, '{"name": "Rex",}', 'sent as written');
    const [warning, ...others] = response.request.warnings;
    assert.deepEqual(others, []);
    assert.match(warning!, /^The body is not valid JSON, although its Content-Type is application\/json; charset=utf-8: .*position 15.*\. The API will likely refuse it \(400\); fix the JSON, or change the Content-Type\.$/);
    assert.equal(engine.inspect({ ...request, headers: { 'content-type': 'application/problem+json' } }).warnings.length, 1, 'a +json type');
    // Parsed, unlabelled, labelled otherwise, empty (a default Content-Type on a GET), or waiting for a variable: no warning.
    const quiet = [
      { ...request, body: '{"name": "Rex", "id": {{id}}}' },
      { ...request, body: '{"name": "Rex", "id": {{undefined_id}}}' },
      { ...request, body: '  ' },
      { ...request, headers: { 'Content-Type': 'text/plain' } },
      { ...request, headers: { 'Content-Type': 'application/jsonl' } },
      { method: 'GET', url: request.url, headers: request.headers },
    ];
    for (const each of quiet) assert.deepEqual(engine.inspect(each).warnings.filter((text) => text.includes('not valid JSON')), [], JSON.stringify(each));
  });

  it('never quotes an environment value in the invalid-JSON warning: an API key put in unquoted is not read back', async () => {
    const secret = 'sk_live_51HqLyjWDarjtT1zdp7dc';
    const engine = new RequestEngine({ environments: new EnvironmentManager({ name: 'Prod', variables: { apiKey: secret } }) });
    const request = { method: 'POST', url: `${api.origin}/charges`, headers: { 'Content-Type': 'application/json' }, body: '{"amount": 5, "key": {{apiKey}}}' };
    const warnings = [...engine.inspect(request).warnings, ...engine.prepare(request).warnings];
    const response = await engine.send(request);
    assert.deepEqual([...warnings, ...response.request.warnings].filter((text) => text.includes(secret.slice(0, 10))), []);
    // A body without placeholders is still checked when a default header holds one.
    const withToken = new RequestEngine({ config: { defaultHeaders: { Authorization: 'Bearer {{apiKey}}' } }, environments: new EnvironmentManager({ name: 'Prod', variables: { apiKey: secret } }) });
    const sent = await withToken.send({ ...request, body: '{"amount": 5,}' });
    assert.match(sent.request.warnings[0] ?? '', /^The body is not valid JSON/);
  });

  it('sends a GET whose body a before-send handler emptied, as a send treats an empty body', async () => {
    const engine = new RequestEngine();
    const prepared = engine.prepare({ method: 'GET', url: `${api.origin}/pets` });
    const response = await engine.execute({ ...prepared, body: '' });
    assert.equal(JSON.parse(response.text).method, 'GET');
    assert.equal(response.request.body, undefined);
  });

  it('refuses a lone UTF-16 surrogate in the URL or the body, which would go out as U+FFFD or crash the proxy route', async () => {
    // Half an emoji, as a tool that cuts text by UTF-16 units leaves it in a variable.
    const environments = new EnvironmentManager({ name: 'Prod', variables: { base_url: api.origin, q: 'rock \uD83C' } });
    const before = api.received.length;
    const direct = new RequestEngine({ environments });
    const lone = /holds a lone UTF-16 surrogate, which has no UTF-8 form \(it would be sent as U\+FFFD, "\uFFFD"\); remove it\.$/;
    const url = await rejectsWith(direct.send({ method: 'GET', url: '/pets?q={{q}}' }), 'invalid-url', lone);
    assert.match(url.message, /^"http:\/\/127\.0\.0\.1:\d+\/pets\?q=rock \\ud83c" holds/);
    await rejectsWith(direct.send({ method: 'POST', url: '/pets', headers: { 'Content-Type': 'application/json' }, body: '{"q":"{{q}}"}' }), 'invalid-request', new RegExp(`^The body ${lone.source}`));
    // Through a proxy whose {url} is the encoded target, encodeURIComponent threw a URIError ("URI malformed").
    const proxied = new RequestEngine({ environments, config: { corsProxy: `${api.origin}/?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
    await rejectsWith(proxied.send({ method: 'GET', url: '/pets?q={{q}}' }), 'invalid-url', lone);
    assert.equal(api.received.length, before);
  });

  it('says which header row a variable emptied the name of', async () => {
    const environments = new EnvironmentManager({ name: 'Prod', variables: { base_url: api.origin, auth_header: '' } });
    const engine = new RequestEngine({ environments });
    const request = { method: 'GET', url: '/pets', headers: [{ name: '{{auth_header}}', value: 'k' }] };
    const before = api.received.length;
    const error = await rejectsWith(engine.send(request), 'invalid-request', /^The header name \{\{auth_header\}\} is empty once its placeholders are resolved; give them a value in the active environment, or switch the row off\.$/);
    assert.throws(() => engine.template(request), (thrown: unknown) => thrown instanceof RequestError && thrown.message === error.message);
    assert.equal(api.received.length, before);
  });
});

describe('Sending through a CORS proxy: refusals', () => {
  let api: TestServer;
  before(async () => {
    api = await startServer(echo);
  });
  after(() => api.close());

  it('reports Cancel while a proxy refusal’s body is arriving as cancelled, and records nothing', async () => {
    // The refusal's headers, then a body that does not end: the user cancels while it arrives.
    const proxy = await startServer((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/json', 'x-try-it-proxy-error': 'private_address' });
      response.write('{"error":');
    });
    try {
      const controller = new AbortController();
      const history = new History({ enabled: true });
      // The real fetch; Cancel is pressed once the refusal's headers are in.
      const cancelOnHeaders: typeof fetch = async (...args) => {
        const response = await fetch(...args);
        controller.abort();
        return response;
      };
      const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/` }, history, pageOrigin: 'http://docs.localhost:9000', fetch: cancelOnHeaders });
      await rejectsWith(engine.send({ method: 'GET', url: `${api.origin}/pets` }, { signal: controller.signal }), 'aborted', /^Cancelled/);
      assert.equal(history.size, 0);
    } finally {
      await proxy.close();
    }
  });

  it('sends through the proxy without credentials, whatever the configuration says, and with them directly', async () => {
    // With the proxy on the docs site's origin, 'same-origin' would send the reader's login to that site (HTTP
    // authentication, cookies), which the proxy would pass on to whichever API the console calls.
    const proxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    const modes: (RequestCredentials | undefined)[] = [];
    const recording: typeof fetch = (input, init) => {
      modes.push(init?.credentials);
      return fetch(input, init);
    };
    try {
      const config = { corsProxy: proxy.url, credentials: 'same-origin' as const };
      await new RequestEngine({ config, pageOrigin: new URL(proxy.url).origin, fetch: recording }).send({ method: 'GET', url: `${api.origin}/pets` });
      await new RequestEngine({ config, pageOrigin: api.origin, fetch: recording }).send({ method: 'GET', url: `${api.origin}/pets` });
      assert.deepEqual(modes, ['omit', 'same-origin']);
    } finally {
      await proxy.close();
    }
  });

  it('explains an origin_not_allowed refusal from a proxy on the page’s own origin', async () => {
    // A docs site serving the proxy itself. Browsers send no Origin with a GET or HEAD to the page's own origin
    // (Fetch standard, "append a request Origin header"), nor does Node's fetch: the proxy sees a request without one.
    let proxyOrigin = '';
    const proxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: (origin) => origin === proxyOrigin });
    proxyOrigin = new URL(proxy.url).origin;
    try {
      const engine = new RequestEngine({ config: { corsProxy: proxy.url }, pageOrigin: proxyOrigin });
      const error = await rejectsWith(engine.send({ method: 'GET', url: `${api.origin}/pets` }), 'proxy-refused');
      assert.equal(error.proxyCode, 'origin_not_allowed');
      assert.match(error.message, /^The CORS proxy refused the request \(origin_not_allowed\): Requests without an Origin header are not allowed/);
      assert.match(error.message, / This page is on the proxy's own origin, and browsers send no Origin header with a GET or HEAD request to their own origin\. try-it-proxy reads the browser's Sec-Fetch-Site header instead, and serves such a page when its origin is allowed; another proxy may need an origin of its own \(another host or port\)\.$/);
      // A page elsewhere gets the proxy's reason alone.
      const elsewhere = await rejectsWith(new RequestEngine({ config: { corsProxy: proxy.url }, pageOrigin: 'http://docs.localhost:9000' }).send({ method: 'GET', url: `${api.origin}/pets` }), 'proxy-refused');
      assert.doesNotMatch(elsewhere.message, /own origin/);
    } finally {
      await proxy.close();
    }
  });
});

describe('Sending: the page origin given to the engine', () => {
  it('reads a pageOrigin written with a path, case or default port as the origin it is', async () => {
    const api = await startServer(echo);
    try {
      const { port } = new URL(api.origin);
      // No proxy listens there: only a request taken for cross-origin would go to it.
      for (const written of [`${api.origin}/`, `HTTP://127.0.0.1:${port}/docs/`]) {
        const engine = new RequestEngine({ config: { corsProxy: 'http://127.0.0.1:8999/' }, pageOrigin: written });
        const response = await engine.send({ method: 'GET', url: `${api.origin}/pets` });
        assert.equal(response.status, 200, written);
        assert.equal(response.request.viaProxy, false, written);
      }
    } finally {
      await api.close();
    }
  });

  it('refuses a pageOrigin that is no http(s) origin, and keeps "null", the origin of sandboxed and file: pages', () => {
    for (const wrong of ['docs.example.com', 'ftp://docs.example.com', '', 42]) {
      assert.throws(() => new RequestEngine({ pageOrigin: wrong as string }), (error: unknown) => error instanceof Error && error.name === 'InvalidArgumentError' && /pageOrigin: must be the page's origin/.test(error.message), String(wrong));
    }
    assert.equal(new RequestEngine({ config: { corsProxy: 'http://127.0.0.1:8999/' }, pageOrigin: 'null' }).prepare({ method: 'GET', url: 'http://127.0.0.1:8998/x' }).viaProxy, true);
  });
});
