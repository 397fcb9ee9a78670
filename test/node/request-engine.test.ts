import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ConfigError, EnvironmentManager, History, InvalidArgumentError, RequestEngine, RequestError, ResponseBodyError, type RequestErrorKind, type ResponseProgress } from '../../src/core/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { closedPort } from '../closed-port.mjs';
import { rejectsWith } from './request-support/rejects-with.js';

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A loopback server whose routes answer as a real API would; it records every request it receives. */
async function startServer(route: (request: IncomingMessage, response: ServerResponse, body: string) => void) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      route(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type TestServer = Awaited<ReturnType<typeof startServer>>;

const TEN_MB = 10 * 1024 * 1024;

/** Set by a test: /drip then sends its next part only when the test calls what it holds. */
let dripOn: (() => void) | undefined;

describe('RequestEngine against a local API', () => {
  let api: TestServer;
  // A port nothing listens on.
  let closed: { origin: string };
  before(async () => {
    closed = { origin: `http://127.0.0.1:${await closedPort()}` };
    api = await startServer((request, response, body) => {
      const path = request.url!;
      if (path.startsWith('/echo')) {
        response.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'api' });
        response.end(JSON.stringify({ method: request.method, url: path, headers: request.headers, rawHeaders: request.rawHeaders, body }));
      } else if (path === '/fail') {
        response.writeHead(500, 'Broken On Purpose', { 'content-type': 'text/plain' }).end('broken');
      } else if (path === '/reset-unless-head') {
        // Up, but this request breaks: the connection is dropped before any answer.
        if (request.method === 'HEAD') response.writeHead(200).end();
        else request.socket.destroy();
      } else if (path === '/big') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < TEN_MB) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          response.end();
        };
        pump();
      } else if (path === '/hang') {
        // Headers, then silence: only the timeout or a cancel ends this.
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      } else if (path === '/moved') {
        response.writeHead(302, { location: '/echo/landed' }).end();
      } else if (path === '/cut') {
        // Headers and the first bytes of a declared 1,000-byte body, then the connection drops.
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        response.write('partial', () => setTimeout(() => response.socket?.destroy(), 50));
      } else if (path.startsWith('/mislabelled-')) {
        // Labelled gzip or br, but sent plain (or gzip with bytes after its end): the client cannot decode it.
        const encoding = path.endsWith('br') ? 'br' : 'gzip';
        const plain = Buffer.from('{"pets": []}');
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(path.endsWith('trailing') ? Buffer.concat([gzipSync(plain), plain]) : plain);
      } else if (path === '/cut-gzip') {
        // Compressed and labelled so, then the connection drops: a real break, which a browser reports as a failed decode.
        response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': '1000' });
        response.write(gzipSync('partial').subarray(0, 12), () => setTimeout(() => response.socket?.destroy(), 50));
      } else if (path === '/huge-head') {
        // 20 KB of headers: more than Node's HTTP client reads by default (16 KiB).
        response.writeHead(200, { 'content-type': 'text/plain', 'x-large': 'h'.repeat(20_000) }).end('ok');
      } else if (path === '/two-content-types') {
        // Two Content-Type headers (a proxy adding its own): fetch joins them with ", ".
        response.setHeader('content-type', ['text/plain; charset=shift_jis', 'text/plain']);
        response.end(Buffer.from([0x93, 0xfa, 0x96, 0x7b])); // 日本 in Shift_JIS
      } else if (path === '/latin1') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      } else if (path.startsWith('/bytes?')) {
        // The body and Content-Type the test asks for: /bytes?type=…&hex=….
        const query = new URL(path, 'http://api').searchParams;
        response.writeHead(200, { 'content-type': query.get('type')! }).end(Buffer.from(query.get('hex')!, 'hex'));
      } else if (path === '/drip') {
        // A stream of three parts, each sent once the client saw the one before (dripOn) or at once (without it).
        response.writeHead(201, 'Made', { 'content-type': 'text/event-stream' });
        let part = 0;
        const next = () => {
          part += 1;
          if (part > 3) return void response.end();
          response.write(`data: ${part}\n\n`);
          if (dripOn) dripOn = next;
          else next();
        };
        next();
      } else if (path === '/steady') {
        // A stream that lasts longer than the tests' timeout, never pausing half as long: ten parts, 150 ms apart.
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        let part = 0;
        const timer = setInterval(() => {
          part += 1;
          response.write(`data: ${part}\n\n`);
          if (part === 10) {
            clearInterval(timer);
            response.end();
          }
        }, 150);
        response.on('close', () => clearInterval(timer));
      } else if (path === '/silent') {
        // No answer at all: only the timeout or a cancel ends this.
      } else if (path === '/loop') {
        response.writeHead(302, { location: '/loop' }).end();
      } else if (path === '/to-closed') {
        response.writeHead(302, { location: `${closed.origin}/x` }).end();
      } else {
        response.writeHead(404).end();
      }
    });
  });
  after(() => api.close());

  const engineFor = (config: ConstructorParameters<typeof RequestEngine>[0] = {}) => new RequestEngine(config);

  it('resolves placeholders in the URL, header names and values, and the body', async () => {
    const environments = new EnvironmentManager({ name: 'local', variables: { base_url: api.origin, id: '42', header: 'X-Trace', trace: 't-1', name: 'Ada' } });
    const engine = engineFor({ environments });
    const response = await engine.send({
      method: 'post',
      url: '{{base_url}}/echo/users/{{id}}?q={{ id }}',
      headers: { '{{header}}': '{{trace}}', 'Content-Type': 'application/json' },
      body: '{"name":"{{name}}"}',
    });
    const echoed = JSON.parse(response.text);
    assert.equal(echoed.method, 'POST');
    assert.equal(echoed.url, '/echo/users/42?q=42');
    assert.equal(echoed.headers['x-trace'], 't-1');
    assert.equal(echoed.body, '{"name":"Ada"}');
    assert.equal(response.request.url, `${api.origin}/echo/users/42?q=42`);
    assert.equal(response.status, 200);
    assert.ok(response.headers.some(([name, value]) => name === 'x-served-by' && value === 'api'));
  });

  it('prefixes a relative URL with the active base_url', async () => {
    const environments = new EnvironmentManager({ name: 'local', variables: { base_url: `${api.origin}/` } });
    const response = await engineFor({ environments }).send({ method: 'GET', url: '/echo/relative' });
    assert.equal(JSON.parse(response.text).url, '/echo/relative');
    await rejectsWith(engineFor().send({ method: 'GET', url: '/echo/relative' }), 'invalid-url', /no base_url variable/);
  });

  it('merges default headers under the request’s own, case-insensitively', async () => {
    const engine = engineFor({ config: { defaultHeaders: { Accept: 'application/json', 'X-Client': 'docs', 'X-Tenant': 'default' } } });
    const response = await engine.send({ method: 'GET', url: `${api.origin}/echo`, headers: [
      { name: 'x-tenant', value: 'acme' },
      { name: 'X-Off', value: 'no', enabled: false },
      { name: '', value: 'blank row' },
    ] });
    const { headers } = JSON.parse(response.text);
    assert.equal(headers.accept, 'application/json');
    assert.equal(headers['x-client'], 'docs');
    assert.equal(headers['x-tenant'], 'acme');
    assert.equal(headers['x-off'], undefined);
    assert.deepEqual(response.request.headers, { Accept: 'application/json', 'X-Client': 'docs', 'x-tenant': 'acme' });
  });

  it('measures time to headers and in total, and the size', async () => {
    const response = await engineFor().send({ method: 'GET', url: `${api.origin}/echo` });
    assert.ok(response.timing.headers > 0 && response.timing.total >= response.timing.headers);
    assert.equal(response.size, Buffer.byteLength(response.text));
    assert.equal(response.truncated, false);
  });

  it('reads a 10 MB body fully, keeps the display part, and offers the whole for download', async () => {
    const response = await engineFor().send({ method: 'GET', url: `${api.origin}/big` });
    assert.equal(response.size, TEN_MB);
    assert.equal(response.body.byteLength, 1 << 20);
    assert.equal(response.truncated, true);
    assert.equal(response.download!.size, TEN_MB);
    // Opened in a tab, a downloaded body must never render as a page.
    assert.equal(response.download!.type, 'application/octet-stream');
    const small = await new RequestEngine({ displayLimit: 1000, downloadLimit: 5 << 20 }).send({ method: 'GET', url: `${api.origin}/big` });
    assert.equal(small.size, TEN_MB);
    assert.equal(small.body.byteLength, 1000);
    assert.equal(small.download, undefined);
    // Each limit on its own: a display limit above the download limit still shows that much.
    const wide = await new RequestEngine({ displayLimit: 3 << 20, downloadLimit: 1 << 20 }).send({ method: 'GET', url: `${api.origin}/big` });
    assert.deepEqual([wide.body.byteLength, wide.download], [3 << 20, undefined]);
    for (const limits of [{ displayLimit: -1 }, { downloadLimit: Number.NaN }, { displayLimit: 1.5 }]) {
      assert.throws(() => new RequestEngine(limits), (error: unknown) => error instanceof InvalidArgumentError && /whole number of bytes/.test(error.message));
    }
  });

  it('tells onProgress of the response once its headers came, then after each part of the body', async () => {
    const told: Array<{ status: number; statusText: string; contentType: string; received: number; text: string; headersAt: number }> = [];
    dripOn = () => {};
    let response;
    try {
      response = await engineFor().send(
        { method: 'GET', url: `${api.origin}/drip` },
        {
          onProgress: ({ status, statusText, contentType, received, bytes, headersAt }) => {
            told.push({ status, statusText, contentType, received, text: new TextDecoder().decode(bytes()), headersAt });
            if (received > 0) dripOn!(); // seen: the server may send the next part
          },
        },
      );
    } finally {
      dripOn = undefined;
    }
    assert.equal(response.text, 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
    assert.deepEqual(told, [
      { status: 201, statusText: 'Made', contentType: 'text/event-stream', received: 0, text: '', headersAt: response.timing.headers },
      ...['data: 1\n\n', 'data: 1\n\ndata: 2\n\n', response.text].map((text) => ({ status: 201, statusText: 'Made', contentType: 'text/event-stream', received: text.length, text, headersAt: response.timing.headers })),
    ]);
  });

  it('tells the end of the body so far as text, decoded as the whole will be, from a character\'s start, past the display limit too', async () => {
    const tails = async (type: string, body: Buffer, sizes: number[], displayLimit = 1 << 20) => {
      let told: ResponseProgress | undefined;
      const url = `${api.origin}/bytes?type=${encodeURIComponent(type)}&hex=${body.toString('hex')}`;
      await engineFor({ displayLimit }).send({ method: 'GET', url }, { onProgress: (progress) => (told = progress) });
      return sizes.map((size) => told!.textTail(size));
    };
    // UTF-16LE after its byte order mark: an odd start moves to a code unit, a pair's second half to the next character.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ab\u{1f600}cd', 'utf16le')]);
    assert.deepEqual(await tails('text/plain', utf16, [100, 9, 7]), [
      { text: 'ab\u{1f600}cd', cut: false },
      { text: '\u{1f600}cd', cut: true },
      { text: 'cd', cut: true },
    ]);
    // The charset the type names (windows-1252 for iso-8859-1, as browsers decode it).
    assert.deepEqual(await tails('text/plain; charset=iso-8859-1', Buffer.from('café', 'latin1'), [2]), [{ text: 'fé', cut: true }]);
    // Past a display limit of 8 bytes: the end of what came, not of the first 8; no half character.
    assert.deepEqual(await tails('text/plain', Buffer.from('0123456789é!'), [3, 2, 100], 8), [
      { text: 'é!', cut: true },
      { text: '!', cut: true },
      { text: '56789é!', cut: true },
    ]);
  });

  it('refuses send options of the wrong shape with InvalidArgumentError, before sending', async () => {
    const before = api.received.length;
    for (const [options, argument, problem] of [
      ['soon', 'options', /must be an object \{ signal\?, onProgress\? \}/],
      [{ sigal: new AbortController().signal }, 'options.sigal', /is not an option of a send; the options are signal and onProgress/],
      [{ signal: 'stop' }, 'options.signal', /must be an AbortSignal/],
      [{ onProgress: 'log' }, 'options.onProgress', /must be a function/],
    ] as const) {
      await assert.rejects(engineFor().send({ method: 'GET', url: `${api.origin}/echo` }, options as never), (error: unknown) => {
        assert.ok(error instanceof InvalidArgumentError, String(error));
        assert.equal(error.argument, argument);
        assert.match(error.message, problem);
        return true;
      });
    }
    assert.equal(api.received.length, before, 'nothing sent');
  });

  it('gives each progress the body as it was then, also when read after more came', async () => {
    const kept: Array<{ received: number; bytes(): Uint8Array; last(): Uint8Array }> = [];
    dripOn = () => {};
    try {
      await engineFor().send({ method: 'GET', url: `${api.origin}/drip` }, {
        onProgress: (progress) => {
          kept.push(progress);
          if (progress.received > 0) dripOn!(); // the next part, once this one came
        },
      });
    } finally {
      dripOn = undefined;
    }
    // Read only now, once the whole body came: each still tells its own moment.
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    for (const progress of kept) {
      assert.equal(progress.bytes().byteLength, progress.received);
      assert.equal(decode(progress.last()), decode(progress.bytes()));
    }
    assert.deepEqual(kept.map((progress) => progress.received), [0, 9, 18, 27]);
  });

  it('goes on with the send when onProgress throws, and reports what it threw', async () => {
    const reported: unknown[] = [];
    const onUncaught = (error: unknown) => reported.push(error);
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      const response = await engineFor().send({ method: 'GET', url: `${api.origin}/drip` }, { onProgress: () => { throw new Error('listener bug'); } });
      assert.equal(response.status, 201);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    assert.ok(reported.length >= 2 && reported.every((error) => (error as Error).message === 'listener bug'), String(reported));
  });

  it('sends a body of several megabytes with placeholders in it', async () => {
    const environments = new EnvironmentManager({ name: 'e', variables: { id: '42' } });
    const body = `{"id": "{{id}}", "blob": "${'x'.repeat(3 << 20)}"}`;
    const response = await engineFor({ environments, displayLimit: 8 << 20 }).send({ method: 'POST', url: `${api.origin}/echo`, body });
    assert.equal(JSON.parse(response.text).body, body.replace('{{id}}', '42'));
  });

  it('explains runaway placeholders as a request that cannot be sent, and inspect() does not throw', async () => {
    const variables: Record<string, string> = { a0: 'x'.repeat(1000) };
    for (let i = 1; i <= 8; i += 1) variables[`a${i}`] = `{{a${i - 1}}}`.repeat(10);
    const environments = new EnvironmentManager({ name: 'bomb', variables });
    const engine = engineFor({ environments });
    await rejectsWith(engine.send({ method: 'POST', url: `${api.origin}/echo`, body: '{{a8}}' }), 'invalid-request', /placeholders in the body would add more than 1048576 characters/);
    assert.deepEqual(engine.inspect({ method: 'POST', url: `${api.origin}/echo`, body: '{{a8}}' }), { missing: [], cyclic: [], warnings: [] });
  });

  it('leaves out headers a page cannot set, so Node sends what a browser would', async () => {
    const response = await engineFor().send({
      method: 'POST',
      url: `${api.origin}/echo`,
      body: 'hello',
      headers: { 'Content-Length': '2', Expect: '100-continue', Cookie: 'sid=1', 'Transfer-Encoding': 'chunked', 'X-Kept': 'yes' },
    });
    const { headers, body } = JSON.parse(response.text) as { headers: Record<string, string>; body: string };
    assert.equal(body, 'hello');
    assert.deepEqual([headers['content-length'], headers.expect, headers.cookie, headers['x-kept']], ['5', undefined, undefined, 'yes']);
  });

  it('tells where a redirected response came from', async () => {
    const redirected = await engineFor().send({ method: 'GET', url: `${api.origin}/moved` });
    assert.equal(redirected.status, 200);
    assert.equal(redirected.redirectedTo, `${api.origin}/echo/landed`);
    assert.equal(redirected.request.url, `${api.origin}/moved`);
    assert.equal((await engineFor().send({ method: 'GET', url: `${api.origin}/echo` })).redirectedTo, undefined);
  });

  it('records the request as written next to the one sent, and only when they differ', async () => {
    const environments = new EnvironmentManager({ name: 'local', variables: { base_url: api.origin, token: 's3cret', id: '7' } });
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ config: { defaultHeaders: { Accept: 'application/json' } }, environments, history });
    const rows = [
      { name: 'Authorization', value: 'Bearer {{token}}' },
      { name: 'X-Off', value: 'not sent', enabled: false },
    ];
    const response = await engine.send({ method: 'post', url: ' /echo/{{id}} ', headers: rows, body: '{"id":"{{id}}"}' });
    assert.deepEqual(JSON.parse(response.text).body, '{"id":"7"}');
    const [entry] = history.list();
    assert.equal(entry!.url, `${api.origin}/echo/7`);
    assert.deepEqual(entry!.headers, { Accept: 'application/json', Authorization: 'Bearer s3cret' });
    // Default headers are the console's, not the request's: they are merged again on the next send.
    assert.deepEqual(entry!.written, { url: '/echo/{{id}}', headers: { Authorization: 'Bearer {{token}}' }, body: '{"id":"{{id}}"}' });
    await engine.send({ method: 'PUT', url: `${api.origin}/echo/{{id}}`, body: 'same' });
    assert.deepEqual(history.list()[0]!.written, { url: `${api.origin}/echo/{{id}}`, headers: {} });
    const plain = new RequestEngine({ history });
    await plain.send({ method: 'GET', url: `${api.origin}/echo`, headers: { 'X-Why': 'test' } });
    assert.equal(history.list()[0]!.written, undefined);
  });

  it('decodes text with the response charset', async () => {
    assert.equal((await engineFor().send({ method: 'GET', url: `${api.origin}/latin1` })).text, 'café');
  });

  it('reads the charset of two Content-Type headers as fetch does: the last type, keeping the charset of an equal one before it', async () => {
    const response = await engineFor().send({ method: 'GET', url: `${api.origin}/two-content-types` });
    assert.equal(response.contentType, 'text/plain; charset=shift_jis, text/plain');
    assert.deepEqual([response.text, response.warnings], ['日本', []]);
    // Another type after it starts again: its own charset, or none.
    assert.equal((await bytes('text/plain; charset=shift_jis, text/html; charset=iso-8859-1', Buffer.from('café', 'latin1'))).text, 'café');
    assert.equal((await bytes('text/plain; charset=iso-8859-1, application/json', Buffer.from('{"a":"é"}'))).text, '{"a":"é"}');
  });

  const bytes = (type: string, body: Buffer) => engineFor().send({ method: 'GET', url: `${api.origin}/bytes?type=${encodeURIComponent(type)}&hex=${body.toString('hex')}` });
  const BOM = { utf8: Buffer.from([0xef, 0xbb, 0xbf]), utf16le: Buffer.from([0xff, 0xfe]), utf16be: Buffer.from([0xfe, 0xff]) };

  it('lets a byte order mark decide the encoding over the charset, and leaves it out, as a browser tab does', async () => {
    for (const [type, body, text] of [
      ['text/plain', Buffer.concat([BOM.utf16le, Buffer.from('héllo', 'utf16le')]), 'héllo'],
      ['application/json', Buffer.concat([BOM.utf16le, Buffer.from('{"a":1}', 'utf16le')]), '{"a":1}'],
      // "utf-16" is UTF-16LE unless a big-endian mark says otherwise.
      ['text/plain; charset=utf-16', Buffer.concat([BOM.utf16be, Buffer.from('hi', 'utf16le').swap16()]), 'hi'],
      ['text/plain; charset=iso-8859-1', Buffer.concat([BOM.utf8, Buffer.from('café')]), 'café'],
      ['text/plain; charset=utf-8', Buffer.concat([BOM.utf8, Buffer.from('café')]), 'café'],
      // The mark decides even when the label is one the console does not know: nothing to warn about.
      ['text/plain; charset=x-klingon', Buffer.concat([BOM.utf16le, Buffer.from('ok', 'utf16le')]), 'ok'],
    ] as const) {
      const response = await bytes(type, body);
      assert.deepEqual([response.text, response.warnings], [text, []], type);
    }
  });

  it('reads the charset parameter as the MIME Sniffing Standard does', async () => {
    const cafeLatin1 = Buffer.from('café', 'latin1');
    for (const type of [
      'text/plain; notcharset=utf-8; charset=iso-8859-1',
      'text/plain;charset="iso-8859-1"',
      'text/plain; charset=ISO-8859-1 ; format=flowed',
      // A ";" in a quoted value does not start a parameter; the first charset wins.
      'text/plain; note="a;charset=utf-8"; charset=iso-8859-1',
      'text/plain; charset=iso-8859-1; charset=utf-8',
      'text/plain; charset=; charset=iso-8859-1',
    ]) {
      const response = await bytes(type, cafeLatin1);
      assert.deepEqual([response.text, response.warnings], ['café', []], type);
    }
    assert.equal((await bytes('application/json; charset="iso-8859-1"', Buffer.from('{"a":"é"}', 'latin1'))).text, '{"a":"é"}');
    assert.equal((await bytes('text/plain; charset="iso\\-8859-1"', cafeLatin1)).text, 'café', 'a backslash escapes the next character');
  });

  it('shows a body in a charset it cannot decode as UTF-8, and says so', async () => {
    const response = await bytes('text/plain; charset=x-klingon', Buffer.from('café'));
    assert.equal(response.text, 'café');
    assert.deepEqual(response.warnings, [
      'The response declares charset "x-klingon", which the console cannot decode; it is shown as UTF-8, so characters outside ASCII may be wrong. Have the API declare an encoding browsers know, such as utf-8.',
    ]);
    // No charset, or an empty one, is UTF-8 without a word.
    assert.deepEqual((await bytes('text/plain', Buffer.from('café'))).warnings, []);
    assert.deepEqual((await bytes('text/plain; charset=""', Buffer.from('café'))).warnings, []);
  });

  it('treats a non-2xx answer as a completed send and records it', async () => {
    const history = new History({ enabled: true });
    const response = await new RequestEngine({ history }).send({ method: 'DELETE', url: `${api.origin}/fail`, headers: { 'X-Why': 'test' } });
    assert.equal(response.status, 500);
    assert.equal(response.statusText, 'Broken On Purpose');
    assert.equal(response.text, 'broken');
    const [entry] = history.list();
    assert.deepEqual(
      { method: entry!.method, url: entry!.url, status: entry!.status, headers: entry!.headers, body: entry!.body },
      { method: 'DELETE', url: `${api.origin}/fail`, status: 500, headers: { 'X-Why': 'test' }, body: '' },
    );
    assert.equal(response.historyEntry!.id, entry!.id);
    assert.ok(entry!.duration > 0);
  });

  it('times out a request that does not finish, and records it with status 0', async () => {
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ config: { timeout: 300 }, history });
    // The origin alone: a path or query may hold a key.
    await rejectsWith(engine.send({ method: 'GET', url: `${api.origin}/silent#access_token=secret` }), 'timeout', /^No answer from http:\/\/127\.0\.0\.1:\d+ within 0\.3 s; the server may be slow or down\./);
    assert.equal(history.list()[0]!.status, 0);
  });

  it('says how much of the response had come when its body paused longer than the timeout', async () => {
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ config: { timeout: 300 }, history });
    const error = await rejectsWith(
      engine.send({ method: 'GET', url: `${api.origin}/hang` }),
      'timeout',
      /^The response \(status 200\) stopped arriving for 0\.3 s after 7 bytes of its body: the server answered, but stopped sending\. Try again \(if the API pauses that long on purpose, the site can raise the console's timeout setting\)\.$/,
    );
    assert.ok(error.cause instanceof ResponseBodyError);
    assert.equal(history.list()[0]!.status, 0);
  });

  it('does not cut off a stream that keeps coming for longer than the timeout: the timeout is for each pause', async () => {
    const response = await new RequestEngine({ config: { timeout: 1_000 } }).send({ method: 'GET', url: `${api.origin}/steady` });
    assert.ok(response.timing.total > 1_000, `the stream took ${response.timing.total} ms`);
    assert.equal(response.text.match(/^data: \d+$/gm)?.length, 10);
  });

  it('blames a redirect that could not be followed, not the server that sent it', async () => {
    const loop = await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/loop` }), 'network');
    assert.equal(loop.message, `${api.origin} answered with a redirect to ${api.origin}/loop, and following it failed: the redirects may loop, or lead to a server that is down. The browser's network panel, or curl -v, shows each step.`);
    await rejectsWith(
      engineFor().send({ method: 'GET', url: `${api.origin}/to-closed` }),
      'network',
      new RegExp(`^${api.origin.replaceAll('.', '\\.')} answered with a redirect to ${closed.origin.replaceAll('.', '\\.')}/x, and following it failed \\(ECONNREFUSED\\): `),
    );
    // On a page of another origin, where the console's CORS proxy can follow it instead.
    const page = await rejectsWith(new RequestEngine({ pageOrigin: 'http://docs.localhost:9000' }).send({ method: 'GET', url: `${api.origin}/loop` }), 'cors');
    assert.match(page.message, /answered with a redirect to .*\/loop, and following it failed: its target may not allow pages on http:\/\/docs\.localhost:9000 to read its responses \(CORS\), may be down, or the redirects may loop\. Set the console's corsProxy .*follows redirects itself and reports where they led\.$/);
  });

  it('says the server is up when the connection broke but a HEAD request gets an answer', async () => {
    const failure = await rejectsWith(engineFor().send({ method: 'POST', url: `${api.origin}/reset-unless-head`, body: 'x' }), 'network');
    assert.match(failure.message, new RegExp(`^The request to ${api.origin.replaceAll('.', '\\.')} failed \\(\\w+\\), though the server answers a HEAD request: the connection broke during this one\\.`));
  });

  it('cancels on the caller’s signal, recording nothing before the response started, and its status after', async () => {
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ history });
    const beforeHead = new AbortController();
    const waiting = engine.send({ method: 'GET', url: `${api.origin}/silent` }, { signal: beforeHead.signal });
    setTimeout(() => beforeHead.abort(), 100);
    await rejectsWith(waiting, 'aborted', /Cancelled/);
    assert.equal(history.size, 0);
    // A stream, which the timeout no longer ends: cancelled once part of its body came, as a reader stops one.
    const duringBody = new AbortController();
    const streaming = engine.send({ method: 'GET', url: `${api.origin}/hang` }, { signal: duringBody.signal, onProgress: ({ received }) => received > 0 && duringBody.abort() });
    await rejectsWith(streaming, 'aborted', /Cancelled/);
    assert.deepEqual(history.list().map(({ url, status }) => [url, status]), [[`${api.origin}/hang`, 200]]);
  });

  it('explains a body that broke off as such, even on a cross-origin page where a dead server would look like CORS', async () => {
    const history = new History({ enabled: true });
    // Cross-origin from the page: a failed fetch there is told apart as CORS or unreachable by a probe, which this
    // live server would answer; the body's break must be reported for what it is.
    const engine = new RequestEngine({ history, pageOrigin: 'http://docs.localhost:9000' });
    const error = await rejectsWith(
      engine.send({ method: 'GET', url: `${api.origin}/cut` }),
      'network',
      /^The response \(status 200\) broke off after 7 bytes of its body: http:\/\/127\.0\.0\.1:\d+ closed the connection before the end\./,
    );
    assert.ok(error.cause instanceof ResponseBodyError);
    assert.equal(history.list()[0]!.status, 0);
  });

  it('explains a body that did not decode as its Content-Encoding says as such, not as a broken connection', async () => {
    for (const [path, code] of [['/mislabelled-gzip', 'Z_DATA_ERROR'], ['/mislabelled-br', 'ERR__ERROR'], ['/mislabelled-gzip-trailing', 'Z_DATA_ERROR']] as const) {
      const error = await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}${path}` }), 'network', /^The response \(status 200\) broke off after \d+ bytes of its body: it did not decode as its Content-Encoding \((?:gzip|br)\) says \(/);
      assert.ok(error.message.includes(code), error.message);
      assert.match(error.message, /fix its Content-Encoding\.$/);
      assert.doesNotMatch(error.message, /closed the connection/);
    }
    // A compressed body that really broke off: Node says so, so the connection alone is blamed (a browser, which says
    // neither, also names the encoding: test/browser/request-engine.test.ts).
    const cut = await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/cut-gzip` }), 'network', /closed the connection before the end\. Try again; if it keeps happening, the server or something between is dropping the response\.$/);
    assert.doesNotMatch(cut.message, /did not decode/);
  });

  it('explains headers larger than Node reads as such, not as a server that may be down', async () => {
    await rejectsWith(
      engineFor().send({ method: 'GET', url: `${api.origin}/huge-head` }),
      'network',
      /^http:\/\/127\.0\.0\.1:\d+ answered with headers larger than Node's HTTP client reads \(UND_ERR_HEADERS_OVERFLOW\); start Node with --max-http-header-size=65536 \(or more\), or have the server send fewer\.$/,
    );
  });

  it('explains an unreachable server', async () => {
    await rejectsWith(engineFor().send({ method: 'GET', url: `${closed.origin}/x` }), 'network', /Could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  it('tells a server that answers with something other than HTTP, or drops every connection unanswered, from one that cannot be reached', async () => {
    // Raw TCP: each connection gets, once the request arrives, text that is not an HTTP response, or a close. The
    // parser's error names its HPE_ code, or, in the undici this test's imports load, says what it expected.
    const cases = [
      { answer: (socket: Socket) => socket.end('HELLO\r\n\r\n'), message: /^http:\/\/127\.0\.0\.1:\d+ sent something other than a valid HTTP\/1\.1 response \((?:HPE_INVALID_CONSTANT|Response does not match the HTTP\/1\.1 protocol \(Expected HTTP\/.*\))\); fix the server's response, or what stands in front of it\.$/ },
      { answer: (socket: Socket) => socket.end(), message: /^http:\/\/127\.0\.0\.1:(\d+) accepted the connection, then closed it without answering \(UND_ERR_SOCKET\); look in the server's log for a failure on this request\. If the server serves https on port \1, write https:\/\/\.$/ },
    ];
    for (const { answer, message } of cases) {
      const server = createNetServer((socket) => socket.once('data', () => answer(socket)));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const error = await rejectsWith(engineFor().send({ method: 'POST', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`, body: '{}' }), 'network', message);
        assert.doesNotMatch(error.message, /Could not reach|is up/);
      } finally {
        server.close();
      }
    }
  });

  it('explains an unreachable server and records it also when less than 5 s of the timeout is left for its checks', async () => {
    // The checks' budget is what is left of the timeout, a fraction of a millisecond that Node's AbortSignal.timeout refused.
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ config: { timeout: 3_000 }, history });
    await rejectsWith(engine.send({ method: 'GET', url: `${closed.origin}/x` }), 'network', /Could not reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    assert.deepEqual(history.list().map((entry) => entry.status), [0]);
  });

  it('names the CORS proxy in a timeout through it: the API was never heard from', async () => {
    const silentProxy = await startServer(() => {});
    try {
      const engine = new RequestEngine({ config: { timeout: 300, corsProxy: `${silentProxy.origin}/` }, pageOrigin: 'http://docs.localhost:9000' });
      await rejectsWith(
        engine.send({ method: 'GET', url: `${api.origin}/x?key=secret` }),
        'timeout',
        /^No answer through the CORS proxy at http:\/\/127\.0\.0\.1:\d+ from http:\/\/127\.0\.0\.1:\d+ within 0\.3 s; the proxy or the API may be slow or down\. Try again in a moment \(the site sets how long the console waits: its timeout setting\)\.$/,
      );
    } finally {
      await silentProxy.close();
    }
  });

  it('sends header values outside ASCII as their UTF-8 bytes, as every snippet does', async () => {
    const value = 'café 5 € 日本 👍';
    const response = await engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: [{ name: 'X-Name', value }] });
    const { rawHeaders } = JSON.parse(response.text) as { rawHeaders: string[] };
    const received = (name: string) => rawHeaders[rawHeaders.findIndex((raw, index) => index % 2 === 0 && raw.toLowerCase() === name) + 1];
    // Node reads header bytes as Latin-1 characters: back to bytes, then UTF-8.
    assert.equal(Buffer.from(received('x-name')!, 'latin1').toString('utf8'), value);
    assert.equal(response.request.headers['X-Name'], value, 'shown as written');
  });

  it('refuses invalid requests before sending anything', async () => {
    const before = api.received.length;
    await rejectsWith(engineFor().send({ method: 'GET', url: 'not a url' }), 'invalid-url', /absolute http\(s\) URL/);
    await rejectsWith(engineFor().send({ method: 'GET', url: 'ftp://127.0.0.1/x' }), 'invalid-url');
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, body: 'x' }), 'invalid-request', /GET request cannot carry a body/);
    await rejectsWith(engineFor().send({ method: 'GE T', url: `${api.origin}/echo` }), 'invalid-request');
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: { 'Bad Name': 'x' } }), 'invalid-request');
    const environments = new EnvironmentManager({ name: 'e', variables: { evil: 'a\r\nX-Injected: 1' } });
    await rejectsWith(engineFor({ environments }).send({ method: 'GET', url: `${api.origin}/echo`, headers: { 'X-A': '{{evil}}' } }), 'invalid-request', /line break/);
    await rejectsWith(engineFor({ config: { enabled: false } }).send({ method: 'GET', url: `${api.origin}/echo` }), 'invalid-request', /disabled/);
    // UTF-8 has no form for it (fetch would throw a TypeError, which must not pass for a CORS block).
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: { 'X-Price': '5 \uD800' } }), 'invalid-request', /lone UTF-16 surrogate/);
    // So would these: a method browsers refuse, credentials in the URL, a control character in a header.
    for (const method of ['TRACE', 'track', 'CONNECT']) {
      await rejectsWith(engineFor().send({ method, url: `${api.origin}/echo` }), 'invalid-request', /cannot be sent from a web page/);
    }
    await rejectsWith(engineFor().send({ method: 'GET', url: `http://alice:s3cret@${api.origin.slice(7)}/echo` }), 'invalid-url', /user name or password.*Authorization header/);
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: { 'X-A': 'a\x01b' } }), 'invalid-request', /control character/);
    // Two rows of one name would be sent joined, or one lost.
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] }), 'invalid-request', /appears in two rows/);
    await rejectsWith(engineFor().send({ method: 'GET', url: `${api.origin}/echo`, headers: [{ name: 'X-A', value: '1' }, { name: 'X-A', value: '2' }] }), 'invalid-request', /appears in two rows/);
    assert.equal(api.received.length, before);
  });

  it('refuses to send with missing variables in strict mode, and sends them as written otherwise', async () => {
    const environments = new EnvironmentManager({ name: 'local', variables: { base_url: api.origin } });
    const strict = engineFor({ environments, config: { strictVariables: true } });
    await rejectsWith(strict.send({ method: 'GET', url: '{{base_url}}/echo?k={{api_key}}', headers: { 'X-T': '{{token}}' } }), 'unresolved-variables', /\{\{api_key\}\}, \{\{token\}\} have no value in environment "local"/);
    // A defined variable that never ends in text is not "without a value": its value needs changing.
    const chain = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`v${i}`, `{{v${i + 1}}}`]));
    environments.add({ name: 'loops', variables: { base_url: api.origin, self: 'a{{self}}', ...chain, v12: 'end' } });
    environments.setActive('loops');
    const cycle = await rejectsWith(strict.send({ method: 'GET', url: '{{base_url}}/echo?s={{self}}&k={{key}}' }), 'unresolved-variables', /\{\{key\}\} has no value in environment "loops"\. Define it there.*\{\{self\}\} refers back to itself through its value, or nests more than 10 levels deep\. Change that value/);
    assert.doesNotMatch(cycle.message, /\{\{self\}\}.*no value/);
    await rejectsWith(strict.send({ method: 'GET', url: '{{base_url}}/echo?d={{v0}}' }), 'unresolved-variables', /^Not sent: \{\{v\d+\}\} refers back to itself .*nests more than 10 levels deep/);
    assert.deepEqual(strict.inspect({ method: 'GET', url: '{{base_url}}/echo?s={{self}}&k={{key}}' }), { missing: ['key'], cyclic: ['self'], warnings: [] });
    environments.setActive('local');
    const lenient = engineFor({ environments });
    const prepared = lenient.prepare({ method: 'GET', url: '{{base_url}}/echo?k={{api_key}}' });
    assert.deepEqual(prepared.missing, ['api_key']);
    const response = await lenient.execute(prepared);
    assert.equal(JSON.parse(response.text).url, '/echo?k={{api_key}}');
  });

  it('tells a variable that refers back to itself apart from an undefined one, in inspect(), prepare() and the strict send', async () => {
    const environments = new EnvironmentManager({ name: 'loops', variables: { base_url: api.origin, self: '{{self}}', ping: '{{pong}}', pong: '{{ping}}' } });
    const request = { method: 'GET', url: '/echo/{{self}}', headers: { 'X-P': '{{ping}}' } };
    const lenient = engineFor({ environments });
    // Defined, so not missing: the env-picker must not say "does not define", nor the URL mark it undefined.
    assert.deepEqual(lenient.inspect(request), { missing: [], cyclic: ['self', 'ping'], warnings: [] });
    const prepared = lenient.prepare({ ...request, url: '/echo/{{self}}/{{nope}}' });
    assert.deepEqual([prepared.missing, prepared.cyclic], [['nope'], ['self', 'ping']]);
    const strict = engineFor({ environments, config: { strictVariables: true } });
    const before = api.received.length;
    const onlyCycles = await rejectsWith(strict.send(request), 'unresolved-variables', /^Not sent: \{\{self\}\}, \{\{ping\}\} refer back to themselves/);
    assert.doesNotMatch(onlyCycles.message, /no value|Define/);
    assert.equal(api.received.length, before);
  });

  it('refuses an empty placeholder in strict mode, and lists it as missing in every mode', async () => {
    const environments = new EnvironmentManager({ name: 'local', variables: { base_url: api.origin } });
    const strict = engineFor({ environments, config: { strictVariables: true } });
    const before = api.received.length;
    for (const url of ['/a/{{}}', '/a/{{ }}', '/a/{{{}}}']) {
      await rejectsWith(strict.send({ method: 'GET', url }), 'unresolved-variables', /^Not sent: \{\{\}\} is an empty placeholder .*names no variable\. Write a variable's name between the braces, or remove them\.$/);
      assert.deepEqual(strict.inspect({ method: 'GET', url }).missing, ['']);
    }
    await rejectsWith(strict.send({ method: 'POST', url: '/a', body: '{"k": "{{ }}"}' }), 'unresolved-variables', /empty placeholder/);
    assert.equal(api.received.length, before);
    // Lenient: sent as written, like an undefined variable, and listed so the console can mark it.
    const lenient = engineFor({ environments });
    assert.deepEqual(lenient.prepare({ method: 'GET', url: '/echo/{{}}/{{x}}' }).missing, ['', 'x']);
    assert.deepEqual(lenient.template({ method: 'GET', url: '/echo/{{}}' }).url, '{{base_url}}/echo/{{}}');
  });

  it('refuses mixed content on an https page before sending', async () => {
    const engine = new RequestEngine({ pageOrigin: 'https://docs.example' });
    await rejectsWith(engine.send({ method: 'GET', url: 'http://api.invalid/x' }), 'mixed-content', /plain-http URL http:\/\/api\.invalid\/x/);
    // Loopback is a secure context even over http, so a local API is not mixed content.
    assert.equal(engine.prepare({ method: 'GET', url: `${api.origin}/echo` }).fetchUrl, `${api.origin}/echo`);
  });

  it('checks and routes again a request the page rewrote', async () => {
    const engine = new RequestEngine({ config: { corsProxy: 'http://127.0.0.1:9/' }, pageOrigin: api.origin });
    const prepared = engine.prepare({ method: 'GET', url: `${api.origin}/echo/original` });
    assert.equal(prepared.viaProxy, false);
    const response = await engine.execute({ ...prepared, url: `${api.origin}/echo/rewritten`, headers: { ...prepared.headers, 'X-Signed': 'yes' } });
    assert.equal(JSON.parse(response.text).url, '/echo/rewritten');
    assert.equal(response.request.fetchUrl, `${api.origin}/echo/rewritten`);
    assert.equal(engine.history.list()[0]!.url, `${api.origin}/echo/rewritten`);
    await rejectsWith(engine.execute({ ...prepared, headers: { 'X-Bad': 'a\nb' } }), 'invalid-request', /line break/);
    await rejectsWith(engine.execute({ ...prepared, url: 'javascript:alert(1)' }), 'invalid-url');
    await rejectsWith(engine.execute({ ...prepared, headers: { 'X-A': '1', 'x-a': '2' } }), 'invalid-request', /appears twice/);
  });

  it('lists the variables a request lacks, default headers and base_url included', () => {
    const environments = new EnvironmentManager({ name: 'e', variables: { a: '1' } });
    const engine = new RequestEngine({ environments, config: { defaultHeaders: { 'X-Key': '{{api_key}}' } } });
    assert.deepEqual(engine.inspect({ method: 'GET', url: '/pets/{{a}}/{{b}}', headers: { 'X-C': '{{c}}' } }).missing, ['b', 'base_url', 'c', 'api_key']);
  });

  it('keeps the placeholders in the template a snippet shows', () => {
    const engine = new RequestEngine({ config: { defaultHeaders: { Accept: 'application/json', 'X-Key': '{{api_key}}' } } });
    assert.deepEqual(engine.template({ method: 'post', url: '/pets', headers: { accept: 'text/plain' }, body: '' }), {
      method: 'POST', url: '{{base_url}}/pets', headers: { 'X-Key': '{{api_key}}', accept: 'text/plain' }, body: undefined, missing: [], cyclic: [],
    });
  });

  it('lets a header row whose name is a placeholder replace the default header it resolves to, in the template as in a send', () => {
    const environments = new EnvironmentManager({ name: 'e', variables: { base_url: api.origin, hn: ' x-key ', other: 'X-KEY' } });
    const engine = new RequestEngine({ environments, config: { defaultHeaders: { 'X-Key': 'default' } } });
    const request = { method: 'GET', url: '/echo', headers: [{ name: '{{hn}}', value: 'row' }] };
    assert.deepEqual(engine.prepare(request).headers, { 'x-key': 'row' });
    assert.deepEqual(engine.template(request).headers, { '{{hn}}': 'row' });
    // Two rows that a send would refuse as one name twice: the template refuses them too.
    const twice = { ...request, headers: [...request.headers, { name: '{{other}}', value: 'again' }] };
    assert.throws(() => engine.prepare(twice), /The header X-KEY appears in two rows/);
    assert.throws(() => engine.template(twice), /The header X-KEY appears in two rows/);
  });

  it('warns about headers a browser will not send', () => {
    const prepared = engineFor().prepare({ method: 'GET', url: `${api.origin}/echo`, headers: { Cookie: 'a=b', 'Sec-Fetch-Mode': 'x', Accept: '*/*', Host: 'h' } });
    assert.equal(prepared.warnings.length, 3);
    assert.match(prepared.warnings[0]!, /Cookie header.*the snippets do send it/);
    // Host belongs to every HTTP client: the snippets refuse it too, and the warning must not say otherwise.
    assert.match(prepared.warnings[2]!, /Host header is set by every HTTP client.*the snippets refuse it/);
  });

  it('refuses headers given as a Headers or a Map, and fields that are not strings, naming the field', async () => {
    const before = api.received.length;
    const url = `${api.origin}/echo`;
    const plainObject = /^Invalid request\.headers: got a (Headers|Map), .*pass a plain object instead: Object\.fromEntries\(headers\)\.$/;
    // Their entries are not own keys: read as an object, the Authorization header would be dropped without a word.
    await rejectsWith(engineFor().send({ method: 'GET', url, headers: new Headers({ Authorization: 'Bearer t0k3n' }) as never }), 'invalid-request', plainObject);
    await rejectsWith(engineFor().send({ method: 'GET', url, headers: new Map([['Authorization', 'Bearer t0k3n']]) as never }), 'invalid-request', plainObject);
    // The same in a tic-before-send rewrite, which execute() checks again.
    const engine = engineFor();
    const prepared = engine.prepare({ method: 'GET', url, headers: { Authorization: 'Bearer t0k3n' } });
    await rejectsWith(engine.execute({ ...prepared, headers: new Headers(prepared.headers) as never }), 'invalid-request', plainObject);
    await rejectsWith(engine.execute({ ...prepared, url: new URL(url) as never }), 'invalid-request', /^Invalid request\.url: must be a string, not a URL object; pass url\.href/);
    await rejectsWith(engineFor().send({ method: 'GET', url: new URL(url) as never }), 'invalid-request', /^Invalid request\.url: must be a string, not a URL object; pass url\.href \(got a URL\)\.$/);
    await rejectsWith(engineFor().send({ method: 'POST', url, body: { a: 1 } as never }), 'invalid-request', /^Invalid request\.body: must be a string.*JSON\.stringify\(body\)/);
    await rejectsWith(engineFor().send({ method: 'GET', url, headers: { 'X-N': 5 as never } }), 'invalid-request', /^Invalid request\.headers\["X-N"\]: must be a string \(got 5\)\.$/);
    await rejectsWith(engineFor().send({ method: 'GET', url, headers: [{ name: 'X-N', value: 5 as never }] }), 'invalid-request', /^Invalid request\.headers\[0\]\.value: must be a string \(got 5\)\.$/);
    await rejectsWith(engineFor().send({ method: 5 as never, url }), 'invalid-request', /^Invalid request\.method: must be a string/);
    assert.throws(() => engine.template({ method: 'GET', url, headers: new Map() as never }), (error: unknown) => error instanceof RequestError && plainObject.test(error.message));
    assert.deepEqual(engine.inspect({ method: 'GET', url, headers: new Headers() as never }), { missing: [], cyclic: [], warnings: [] });
    assert.equal(api.received.length, before);
  });

  it('puts a relative URL after base_url with one "/" between them, and the template resolves to the URL sent', async () => {
    // base_url's own trailing "/" stands for the URL's leading one; any further slash is base_url's, kept as written.
    for (const [baseUrl, path, template] of [
      ['/echo', '/echo/pets', '{{base_url}}/pets'],
      ['/echo/', '/echo/pets', '{{base_url}}pets'],
      ['/echo//', '/echo//pets', '{{base_url}}pets'],
      ['/echo///', '/echo///pets', '{{base_url}}pets'],
    ] as const) {
      const environments = new EnvironmentManager({ name: 'Local', variables: { base_url: `{{origin}}${baseUrl}`, origin: api.origin } });
      const engine = engineFor({ environments });
      const response = await engine.send({ method: 'GET', url: '/pets' });
      assert.equal(JSON.parse(response.text).url, path, baseUrl);
      assert.equal(response.request.url, `${api.origin}${path}`);
      const written = engine.template({ method: 'GET', url: '/pets' });
      assert.equal(written.url, template, baseUrl);
      // What <code-snippet> shows with "Show values" on.
      assert.equal(environments.resolve(written.url), response.request.url, baseUrl);
    }
  });

  it('refuses a base_url with a query or fragment, in a send and in the template alike', async () => {
    const before = api.received.length;
    for (const [baseUrl, extra] of [[`${api.origin}/echo?api_key=k`, '?api_key=k'], [`${api.origin}/echo#docs`, '#docs']]) {
      const engine = engineFor({ environments: new EnvironmentManager({ name: 'Prod', variables: { base_url: baseUrl } }) });
      const explanation = new RegExp(`^The base_url of environment "Prod", "${baseUrl.replace(/[?.]/g, '\\$&')}", has a (query|fragment) \\("\\${extra}"\\)\\. A relative URL is appended to base_url's path, so base_url cannot have a query or fragment; put "\\${extra}" in the request URL instead\\.$`);
      const sent = await rejectsWith(engine.send({ method: 'GET', url: '/pets/7' }), 'invalid-url', explanation);
      assert.throws(() => engine.template({ method: 'GET', url: '/pets/7' }), (error: unknown) => error instanceof RequestError && error.kind === 'invalid-url' && error.message === sent.message);
      // A full URL does not go after base_url.
      assert.equal(engine.template({ method: 'GET', url: `${api.origin}/pets` }).url, `${api.origin}/pets`);
    }
    assert.equal(api.received.length, before);
  });

  it('says what is wrong with the value of base_url, and names undefined variables behind a failed check', async () => {
    const attempt = (variables: Record<string, string>, request: { method: string; url: string; headers?: Record<string, string>; body?: string }, kind: RequestErrorKind, message: RegExp) =>
      rejectsWith(engineFor({ environments: new EnvironmentManager({ name: 'Prod', variables }) }).send(request), kind, message);
    await attempt({ base_url: '' }, { method: 'GET', url: '/pets' }, 'invalid-url', /^The base_url of environment "Prod" is empty, so a relative URL has nothing to go after; set it to the API's address/);
    // Typed without its scheme: the fix written out, http:// for this machine.
    await attempt({ base_url: 'api.example.com' }, { method: 'GET', url: '/pets' }, 'invalid-url', /^The base_url of environment "Prod", "api\.example\.com", is not an absolute http\(s\) URL; write it as https:\/\/api\.example\.com, or write the full URL in the request\.$/);
    // The URL starts with the variable: the fix is said of the variable.
    await attempt({ base_url: '127.0.0.1:8080' }, { method: 'GET', url: '{{base_url}}/pets' }, 'invalid-url', /^"127\.0\.0\.1:8080\/pets" is not an absolute http\(s\) URL: \{\{base_url\}\} is "127\.0\.0\.1:8080" in environment "Prod", a host without its scheme\. Set base_url to http:\/\/127\.0\.0\.1:8080, or write the URL as http:\/\/127\.0\.0\.1:8080\/pets\.$/);
    await attempt({ host: 'localhost' }, { method: 'GET', url: '{{ host }}:8080/pets' }, 'invalid-url', /: \{\{host\}\} is "localhost" in environment "Prod", a host without its scheme\. Set host to http:\/\/localhost, or write the URL as http:\/\/localhost:8080\/pets\.$/);
    // A variable that holds only part of the host is not told to be a URL.
    await attempt({ tenant: 'acme' }, { method: 'GET', url: '{{tenant}}.example.com/pets' }, 'invalid-url', /^"acme\.example\.com\/pets" is not an absolute http\(s\) URL; write it as https:\/\/acme\.example\.com\/pets, and check the variables it uses\.$/);
    await attempt({ base_url: 'ftp://files.example.com' }, { method: 'GET', url: '/pets' }, 'invalid-url', /write it as https:\/\/host or https:\/\/host\/path, or write/);
    // A path without its leading "/" is no host; a name that only starts like this machine's is another machine.
    await attempt({ base_url: 'https://api.example.com' }, { method: 'GET', url: 'pets/1' }, 'invalid-url', /^"pets\/1" is neither an absolute http\(s\) URL nor a path starting with "\/"; write \/pets\/1 to send it after base_url, or write the full URL\.$/);
    await attempt({}, { method: 'GET', url: 'pets?limit=2' }, 'invalid-url', /^"pets\?limit=2" is neither an absolute http\(s\) URL nor a path starting with "\/"; write the full URL \(https:\/\/host\/pets\?limit=2\), or add a base_url variable \(e\.g\. https:\/\/api\.example\.com\) and write \/pets\?limit=2\.$/);
    await attempt({ base_url: 'localhost.evil.example' }, { method: 'GET', url: '{{base_url}}/x' }, 'invalid-url', /Set base_url to https:\/\/localhost\.evil\.example, or write the URL as https:\/\/localhost\.evil\.example\/x\.$/);
    await attempt({ base_url: 'localhost' }, { method: 'GET', url: '{{base_url}}/x' }, 'invalid-url', /Set base_url to http:\/\/localhost, or write the URL as http:\/\/localhost\/x\.$/);
    await attempt({ base_url: '0.0.0.0:8080' }, { method: 'GET', url: '{{base_url}}/x' }, 'invalid-url', /Set base_url to http:\/\/0\.0\.0\.0:8080, or write the URL as http:\/\/0\.0\.0\.0:8080\/x\.$/);
    await attempt({ base_url: 'api:8443' }, { method: 'GET', url: '{{base_url}}/x' }, 'invalid-url', /Set base_url to https:\/\/api:8443, or write the URL as https:\/\/api:8443\/x\.$/);
    await attempt({ base_url: ' https://api.example.com' }, { method: 'GET', url: '/pets' }, 'invalid-url', /^The base_url of environment "Prod", " https:\/\/api\.example\.com", starts or ends with a space/);
    await attempt({ base_url: '{{host}}' }, { method: 'GET', url: '/pets' }, 'invalid-url', /is not an absolute http\(s\) URL.* Likely cause: \{\{host\}\} has no value in environment "Prod"\. Define it there, or pick another environment\.$/);
    const sandbox = { base_url: api.origin };
    await attempt(sandbox, { method: 'GET', url: '{{base_url}}/echo', headers: { '{{auth_header}}': 'k' } }, 'invalid-request', /^"\{\{auth_header\}\}" is not a valid header name; use only letters \(A-Z, a-z\), digits and !#\$%&'\*\+-\.\^_`\|~, with no spaces or colons\. Likely cause: \{\{auth_header\}\} has no value in environment "Prod"\./);
    await attempt(sandbox, { method: 'GET', url: '{{api_host}}/pets' }, 'invalid-url', /^"\{\{api_host\}\}\/pets" is not an absolute http\(s\) URL; write it as https:\/\/host\/path\. Likely cause: \{\{api_host\}\} has no value in environment "Prod"\./);
    // The parser takes braces in a host name: without this check, the send would fail as "could not reach".
    await attempt(sandbox, { method: 'GET', url: 'http://{{tenant}}.localhost/pets' }, 'invalid-url', /as its host, and no host name holds "\{" or "\}"\. Likely cause: \{\{tenant\}\} has no value in environment "Prod"\./);
    // A variable that has nothing to do with the failure is not blamed for it.
    const unrelated = await attempt(sandbox, { method: 'GET', url: '{{base_url}}/echo?k={{api_key}}', body: 'x' }, 'invalid-request', /GET request cannot carry a body/);
    assert.doesNotMatch(unrelated.message, /Likely cause/);
  });

  it('explains the resolve limit with a fix a console user can make', async () => {
    const environments = new EnvironmentManager({ name: 'Uploads', variables: { image: 'A'.repeat(1_100_000) } });
    const error = await rejectsWith(
      engineFor({ environments }).send({ method: 'POST', url: `${api.origin}/echo`, body: '{"image":"{{image}}"}' }),
      'invalid-request',
      /^The placeholders in the body would add more than 1048576 characters\. Paste content that large into the request itself \(its own length is not limited\) rather than into a variable, and check environment "Uploads"/,
    );
    // The console has no setting for the limit.
    assert.doesNotMatch(error.message, /raise the limit/);
  });

  it('refuses a URL that browsers would send rewritten, saying what to write', async () => {
    const before = api.received.length;
    const host = api.origin.slice('http://'.length);
    const environments = new EnvironmentManager({ name: 'Local', variables: { id: '7\n', query: 'q=1 ' } });
    const engine = engineFor({ environments });
    for (const [url, message] of [
      [`${api.origin}/echo/pe\tts`, /contains a tab, which browsers remove from a URL without a word .*; remove it, or write it percent-encoded as %09/],
      [`${api.origin}/echo/{{id}}/photo`, /^"http:\/\/127\.0\.0\.1:\d+\/echo\/7\\n\/photo" contains a line break \(LF\), .*%0A/],
      [`${api.origin}/echo?{{query}}`, /starts or ends with a space or control character, which browsers strip/],
      [`http:\\\\${host}\\echo`, /contains "\\" before its query, which browsers read as "\/" in an http\(s\) URL; write "\/" to separate path segments, or %5C for a backslash/],
      [`${api.origin}/echo\\x?q=\\`, /contains "\\" before its query, which browsers read as "\/"/],
      [`http:${host}/echo`, new RegExp(`does not have exactly two slashes after "http:", .*; write http://${host}/echo\\.$`)],
      [`http:///${host}/echo`, new RegExp(`does not have exactly two slashes after "http:", .*; write http://${host}/echo\\.$`)],
      [`${api.origin}/echo/a/../b`, /has a "\." or "\.\." path segment, which browsers resolve before sending; write the resolved path \(\/echo\/b\)/],
    ] as const) {
      await rejectsWith(engine.send({ method: 'GET', url }), 'invalid-url', message);
    }
    assert.equal(api.received.length, before);
    // Characters the parser percent-encodes are sent, as before; a backslash in the query or fragment as written.
    assert.equal(JSON.parse((await engine.send({ method: 'GET', url: `${api.origin}/echo?tag=a b&x=/../` })).text).url, '/echo?tag=a%20b&x=/../');
    assert.equal(JSON.parse((await engine.send({ method: 'GET', url: `${api.origin}/echo?path=C:\\temp#a\\b` })).text).url, '/echo?path=C:\\temp');
  });

  it('checks the method as written, before uppercasing it', async () => {
    // "ſ".toUpperCase() is "S" and "ı".toUpperCase() is "I": uppercased first, these would pass as POST and DELETI.
    for (const method of ['poſt', 'deletı']) {
      await rejectsWith(engineFor().send({ method, url: `${api.origin}/echo` }), 'invalid-request', new RegExp(`^"${method}" is not an HTTP method`));
    }
    assert.equal(JSON.parse((await engineFor().send({ method: ' post ', url: `${api.origin}/echo`, body: 'x' })).text).method, 'POST');
  });

  it('refuses two header rows of one name in the template with the message a send gives', async () => {
    const engine = engineFor();
    for (const second of ['X-Tenant', 'x-tenant']) {
      const request = { method: 'GET', url: `${api.origin}/echo`, headers: [{ name: 'X-Tenant', value: 'a' }, { name: second, value: 'b' }] };
      const sent = await rejectsWith(engine.send(request), 'invalid-request', /appears in two rows/);
      assert.throws(() => engine.template(request), (error: unknown) => error instanceof RequestError && error.kind === 'invalid-request' && error.message === sent.message);
      // One of them switched off: both agree again.
      const one = { ...request, headers: [request.headers[0]!, { ...request.headers[1]!, enabled: false }] };
      assert.deepEqual(engine.template(one).headers, { 'X-Tenant': 'a' });
    }
  });
});

describe('RequestEngine through a CORS proxy', () => {
  let proxy: TestServer;
  let api: TestServer;
  before(async () => {
    api = await startServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('from the api'));
    // Stands in for try-it-proxy's wire format: it forwards to the target given in either style.
    proxy = await startServer((request, response, body) => {
      if (request.url!.startsWith('/refuse')) {
        response.writeHead(403, { 'content-type': 'application/json', 'x-try-it-proxy-error': 'private_address' });
        response.end(JSON.stringify({ error: { code: 'private_address', message: 'The target resolves to a private address.' } }));
        return;
      }
      const target = request.url!.startsWith('/?url=') ? new URL(request.url!, 'http://proxy').searchParams.get('url')! : request.url!.slice(1);
      fetch(target, { method: request.method, body: body || undefined }).then(async (upstream) => {
        response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '', 'x-via': 'proxy' });
        response.end(await upstream.text());
      });
    });
  });
  after(async () => {
    await proxy.close();
    await api.close();
  });

  it('routes with a {url} template, encoding the target, and shows the real URL in history', async () => {
    const history = new History({ enabled: true });
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/?url={url}` }, history, pageOrigin: 'http://docs.localhost:9000' });
    const target = `${api.origin}/pets?tag=a&b=c d`;
    const response = await engine.send({ method: 'GET', url: target });
    assert.equal(response.text, 'from the api');
    assert.equal(proxy.received.at(-1)!.url, `/?url=${encodeURIComponent(target)}`);
    assert.equal(response.request.viaProxy, true);
    assert.equal(history.list()[0]!.url, target);
  });

  it('routes in prefix style', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/` }, pageOrigin: 'http://docs.localhost:9000' });
    const response = await engine.send({ method: 'POST', url: `${api.origin}/pets`, body: 'x' });
    assert.equal(proxy.received.at(-1)!.url, `/${api.origin}/pets`);
    assert.ok(response.headers.some(([name]) => name === 'x-via'));
  });

  it('encodes the target after a prefix ending in "=", a query parameter, so the package’s own proxy passes it on byte for byte', async () => {
    const ownProxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    try {
      const target = `${api.origin}/search?q=rock+roll&tag=a%26b&limit=2`;
      for (const corsProxy of [`${ownProxy.url}?url=`, `${ownProxy.url}?url={url}`]) {
        const engine = new RequestEngine({ config: { corsProxy }, pageOrigin: 'http://docs.localhost:9000' });
        const response = await engine.send({ method: 'GET', url: target });
        assert.equal(response.request.fetchUrl, `${ownProxy.url}?url=${encodeURIComponent(target)}`, corsProxy);
        assert.equal(api.received.at(-1)!.url, '/search?q=rock+roll&tag=a%26b&limit=2', corsProxy);
        assert.equal(engine.history.list()[0]!.url, target, corsProxy);
      }
    } finally {
      await ownProxy.close();
    }
  });

  it('goes direct for a same-origin target', () => {
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/` }, pageOrigin: api.origin });
    const prepared = engine.prepare({ method: 'GET', url: `${api.origin}/pets` });
    assert.deepEqual([prepared.viaProxy, prepared.fetchUrl], [false, `${api.origin}/pets`]);
  });

  it('shows the proxy’s refusal as the reason', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/refuse?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
    const refusal = await rejectsWith(engine.send({ method: 'GET', url: `${api.origin}/x` }), 'proxy-refused', /refused the request \(private_address\): The target resolves to a private address\./);
    assert.equal(refusal.proxyCode, 'private_address');
  });

  it('lists only the headers the API sent for a response through the proxy, as a browser does: not the proxy\'s own', async () => {
    const ownProxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    const ownApi = await startServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain', 'x-from-api': '1' }).end('ok'));
    try {
      const engine = new RequestEngine({ config: { corsProxy: `${ownProxy.url}?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
      const response = await engine.send({ method: 'GET', url: `${ownApi.origin}/x` });
      const names = response.headers.map(([name]) => name);
      assert.ok(names.includes('x-from-api') && names.includes('content-type'), `the API's own: ${names.join(', ')}`);
      // Added by the proxy (Vary: Origin, and hardening headers the page never reads).
      for (const added of ['vary', 'x-content-type-options', 'content-security-policy']) assert.ok(!names.includes(added), `${added} is the proxy's: ${names.join(', ')}`);
    } finally {
      await ownProxy.close();
      await ownApi.close();
    }
  });

  it('warns of a header carrying a client address that the proxy leaves out, as the API then never sees it', async () => {
    const ownProxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    const echo = await startServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers)));
    try {
      const headers = { 'X-Forwarded-Proto': 'https', 'CF-IPCountry': 'NL', 'X-Keep': '1' };
      const proxied = new RequestEngine({ config: { corsProxy: `${ownProxy.url}?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
      const response = await proxied.send({ method: 'GET', url: `${echo.origin}/`, headers });
      const received = JSON.parse(response.text) as Record<string, string>;
      assert.deepEqual([received['x-forwarded-proto'], received['cf-ipcountry'], received['x-keep']], [undefined, undefined, '1']);
      // Shown beside the request before it is sent (inspect) and with its response.
      assert.deepEqual(proxied.inspect({ method: 'GET', url: `${echo.origin}/`, headers }).warnings, response.request.warnings);
      assert.deepEqual(response.request.warnings, ['X-Forwarded-Proto', 'CF-IPCountry'].map((name) => `The CORS proxy does not pass the ${name} header on: headers that carry a client's address or whereabouts are left out there. It will not reach the API (the snippets do send it).`));
      // Sent directly, they arrive: no warning.
      const direct = await new RequestEngine({}).send({ method: 'GET', url: `${echo.origin}/`, headers });
      assert.deepEqual([(JSON.parse(direct.text) as Record<string, string>)['x-forwarded-proto'], direct.request.warnings], ['https', []]);
    } finally {
      await ownProxy.close();
      await echo.close();
    }
  });

  it('says the proxy could not get a usable answer from the API, not that it refused, when the API is down', async () => {
    const ownProxy = await startProxy({ port: 0, host: '127.0.0.1', allowPrivate: true, allowOrigins: '*' });
    const down = `http://127.0.0.1:${await closedPort()}`;
    try {
      const engine = new RequestEngine({ config: { corsProxy: `${ownProxy.url}?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
      const failure = await rejectsWith(engine.send({ method: 'GET', url: `${down}/pets` }), 'proxy-refused', /^The CORS proxy could not get a usable answer from the API \(upstream_unreachable\): /);
      assert.equal(failure.proxyCode, 'upstream_unreachable');
    } finally {
      await ownProxy.close();
    }
  });

  it('refuses a custom method the proxy cannot receive, before sending', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/` }, pageOrigin: 'http://docs.localhost:9000' });
    const before = proxy.received.length;
    await rejectsWith(engine.send({ method: 'FROBNICATE', url: `${api.origin}/x` }), 'invalid-request', /cannot relay the custom method FROBNICATE/);
    assert.equal(proxy.received.length, before);
    assert.equal(engine.prepare({ method: 'purge', url: `${api.origin}/x` }).viaProxy, true);
  });

  it('says why a HEAD request was refused though the answer has no body', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `${proxy.origin}/refuse?url={url}` }, pageOrigin: 'http://docs.localhost:9000' });
    await rejectsWith(engine.send({ method: 'HEAD', url: `${api.origin}/x` }), 'proxy-refused', /\(private_address\): the proxy answered 403; send the request as GET/);
  });

  it('takes a prefix-style proxy given without its trailing slash, and refuses one that cannot take a URL after it', async () => {
    const engine = new RequestEngine({ config: { corsProxy: proxy.origin }, pageOrigin: 'http://docs.localhost:9000' });
    assert.equal(engine.prepare({ method: 'GET', url: `${api.origin}/pets` }).fetchUrl, `${proxy.origin}/${api.origin}/pets`);
    assert.equal((await engine.send({ method: 'GET', url: `${api.origin}/pets` })).text, 'from the api');
    assert.throws(() => new RequestEngine({ config: { corsProxy: `${proxy.origin}/relay` } }), (error: unknown) => error instanceof ConfigError && /must end with "\/", "\?" or "="/.test(error.message));
  });

  it('explains a proxy that is not running', async () => {
    const engine = new RequestEngine({ config: { corsProxy: `http://127.0.0.1:${await closedPort()}/` }, pageOrigin: 'http://docs.localhost:9000' });
    await rejectsWith(engine.send({ method: 'GET', url: `${api.origin}/x` }), 'network', /Could not reach the CORS proxy/);
  });
});
