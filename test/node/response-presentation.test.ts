// How the console shows a response, as pure functions: sizes, header text, and what it says about a body it cannot
// show as the server meant it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { downloadName, formatBytes, formatBytesOf, headerText, presentBody } from '../../src/components/try-it-console/body-presentation.js';
import type { ConsoleResponse } from '../../src/core/request-engine.js';
import { ResponseBodyError, readBody } from '../../src/core/response-body.js';

/** A response as the engine gives it; `text` decoded as UTF-8 (as a stream when cut), as the engine does without a charset. */
function response(contentType: string, body: Uint8Array, size = body.byteLength): ConsoleResponse {
  const truncated = body.byteLength < size;
  return {
    request: { method: 'GET', url: 'https://api.example/pets', headers: {}, fetchUrl: 'https://api.example/pets', viaProxy: false, warnings: [] } as unknown as ConsoleResponse['request'],
    status: 200,
    statusText: 'OK',
    redirectedTo: undefined,
    headers: [['content-type', contentType]],
    contentType,
    timing: { headers: 1, total: 2 },
    size,
    body,
    text: new TextDecoder().decode(body, { stream: truncated }),
    warnings: [],
    truncated,
    download: undefined,
    historyEntry: undefined,
  };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('response sizes', () => {
  it('picks the unit after rounding, so just under 1 MiB reads 1 MB, not 1024 KB, and a whole number has no .0', () => {
    assert.equal(formatBytes(1023), '1023 B');
    assert.equal(formatBytes(1024), '1 KB');
    assert.equal(formatBytes(1024 * 1024 - 1), '1 MB');
    assert.equal(formatBytes(1024 * 1024 - 52), '1023.9 KB');
    assert.deepEqual(formatBytesOf(1024 * 1024 - 1, 1024 * 1024), ['1,048,575 B', '1,048,576 B']);
  });

  it('counts a body of several gigabytes in GB', () => {
    assert.equal(formatBytes(3 * 1024 ** 3), '3 GB');
    assert.equal(formatBytes(1024 ** 3 - 1), '1 GB');
  });
});

describe('header text', () => {
  it('reads a value fetch gives one character per byte as UTF-8 when it is UTF-8, and leaves other values as they are', () => {
    const bytes = (text: string) => String.fromCharCode(...utf8(text));
    assert.equal(headerText(bytes('Créé')), 'Créé');
    assert.equal(headerText(bytes('attachment; filename="résumé ✓.txt"')), 'attachment; filename="résumé ✓.txt"');
    // Latin-1 (not UTF-8), plain ASCII and text already decoded stay as they are.
    assert.equal(headerText('caf\u00e9'), 'caf\u00e9');
    assert.equal(headerText('no-cache'), 'no-cache');
    assert.equal(headerText('✓ already text'), '✓ already text');
  });
});

describe('body presentation', () => {
  it('says why a body sent as JSON is shown as text, and nothing about valid JSON', () => {
    const invalid = presentBody(response('application/json; charset=utf-8', utf8('{"a":1,}')));
    assert.equal(invalid.kind, 'text');
    assert.equal('notes' in invalid && invalid.notes.length, 1);
    assert.match('notes' in invalid ? invalid.notes[0]! : '', /^Not valid JSON, though sent as application\/json: /);
    const valid = presentBody(response('application/json', utf8('{"a":1}')));
    assert.deepEqual([valid.kind, 'notes' in valid && valid.notes], ['json', []]);
    // JSON text sequences (RFC 7464) are several documents, each after a RS: not JSON, and not said to be.
    const sequence = presentBody(response('application/json-seq', utf8('\u001e{"a":1}\n\u001e{"a":2}\n')));
    assert.deepEqual([sequence.kind, 'notes' in sequence && sequence.notes], ['text', []]);
    // Cut at the display limit, it cannot be checked: nothing said, and laid out up to where it is cut.
    const cut = presentBody(response('application/json', utf8('{"a":[1,'), 100));
    assert.deepEqual([cut.kind, 'text' in cut && cut.text, 'notes' in cut && cut.notes], ['json', '{\n  "a": [\n    1,\n    ', []]);
  });

  it('lays out the start of a JSON document cut at the display limit, a string cut too, and leaves other cut text as sent', () => {
    const cutString = presentBody(response('application/json', utf8('[{"name":"Rex"},{"name":"Fi'), 100));
    assert.deepEqual(['text' in cutString && cutString.text, cutString.kind], ['[\n  {\n    "name": "Rex"\n  },\n  {\n    "name": "Fi', 'json']);
    // Labelled JSON but not starting as a document (an HTML error page): shown as sent.
    const html = presentBody(response('application/json', utf8('<html><p>a, b: c</p>'), 100));
    assert.deepEqual([html.kind, 'text' in html && html.text], ['text', '<html><p>a, b: c</p>']);
    // A bracket that closes nothing: not JSON after all, shown as sent.
    const closing = presentBody(response('application/json', utf8('[1]]'), 100));
    assert.deepEqual([closing.kind, 'text' in closing && closing.text], ['text', '[1]]']);
    const plain = presentBody(response('text/plain', utf8('{"a": 1,'), 100));
    assert.deepEqual([plain.kind, 'text' in plain && plain.text], ['text', '{"a": 1,']);
  });

  it('lays out an XML body (+xml types too) when whole and well-formed, and shows one cut, HTML or mixed content as sent', () => {
    const shown = (contentType: string, text: string, size?: number) => {
      const body = presentBody(response(contentType, utf8(text), size));
      return [body.kind, 'text' in body && body.text];
    };
    const feed = '<?xml version="1.0"?><feed><entry><title>Hi</title></entry></feed>';
    const laidOut = '<?xml version="1.0"?>\n<feed>\n  <entry>\n    <title>Hi</title>\n  </entry>\n</feed>';
    assert.deepEqual(shown('application/xml; charset=utf-8', feed), ['text', laidOut]);
    assert.deepEqual(shown('text/xml', feed), ['text', laidOut]);
    assert.deepEqual(shown('application/atom+xml', feed), ['text', laidOut]);
    assert.deepEqual(shown('application/xml', feed, 1000), ['text', feed], 'cut at the display limit');
    assert.deepEqual(shown('text/html', '<html><body><p>Hi</p></body></html>'), ['text', '<html><body><p>Hi</p></body></html>']);
    assert.deepEqual(shown('application/xhtml+xml', '<p>Hello <b>world</b></p>'), ['text', '<p>Hello <b>world</b></p>']);
    assert.deepEqual(shown('application/xml', '<error>1 < 2</error>'), ['text', '<error>1 < 2</error>']);
    // Past the size laid out: as sent, as for JSON.
    const large = `<items>${'<item>x</item>'.repeat(80_000)}</items>`;
    assert.deepEqual(shown('application/xml', large), ['text', large]);
  });

  it('says when bytes are not valid UTF-8, but not for a U+FFFD sent as such or a character cut at the display limit', () => {
    const notes = (shown: ReturnType<typeof presentBody>) => ('notes' in shown ? shown.notes : undefined);
    const latin1 = notes(presentBody(response('text/plain', new Uint8Array([0x63, 0x61, 0x66, 0xe9]))));
    assert.equal(latin1?.length, 1);
    assert.match(latin1[0]!, /not valid UTF-8/);
    assert.deepEqual(notes(presentBody(response('text/plain', utf8('sent: \ufffd')))), []);
    const halfOfE = utf8('café').subarray(0, 4); // "caf" and the first byte of "é", of a 5-byte body
    assert.deepEqual(notes(presentBody(response('text/plain', halfOfE, 5))), []);
  });
});

describe('download names', () => {
  const named = (url: string, contentType: string, redirectedTo?: string) => downloadName({ ...response(contentType, utf8('x')), request: { url } as ConsoleResponse['request'], redirectedTo });

  it('names a download after the URL a redirect led to, as browsers do', () => {
    assert.equal(named('https://api.example/reports/latest', 'application/pdf', 'https://cdn.example/reports/q3-2026.pdf'), 'q3-2026.pdf');
    // Another proxy may pass on an API's X-Try-It-Proxy-Final-Url of any text: the request's URL then.
    assert.equal(named('https://api.example/reports/latest', 'application/pdf', 'not a URL'), 'latest.pdf');
  });

  it('gives an extension that programs know, not a subtype that is none', () => {
    assert.equal(named('https://api.example/reports/42', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), '42.bin');
    assert.equal(named('https://api.example/reports/42.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), '42.xlsx');
    assert.equal(named('https://api.example/events', 'text/event-stream'), 'events.txt');
    assert.equal(named('https://api.example/export', 'application/x-ndjson'), 'export.ndjson');
    assert.equal(named('https://api.example/export.ndjson', 'application/x-ndjson'), 'export.ndjson');
    assert.equal(named('https://api.example/blob', 'application/vnd.example.thing'), 'blob.bin');
    assert.equal(named('https://api.example/problem', 'application/problem+json'), 'problem.json');
  });

  it('names it "response" when the last segment holds a value the environment panel masks, or a well-known key', () => {
    const withSecrets = (url: string, secrets: string[]) => downloadName({ ...response('text/plain', utf8('x')), request: { url } as ConsoleResponse['request'], redirectedTo: undefined }, secrets);
    assert.equal(withSecrets('https://hooks.example/hooks/readerHOOKSECRET0123', ['readerHOOKSECRET0123']), 'response.txt');
    assert.equal(withSecrets('https://hooks.example/hooks/prefix-readerHOOKSECRET0123', ['', 'readerHOOKSECRET0123']), 'response.txt');
    assert.equal(withSecrets('https://api.example/keys/sk_live_51HxQ2eKz8fA9bC3dE4fG5hJ6', []), 'response.txt');
    assert.equal(withSecrets('https://api.example/pets/1', ['readerHOOKSECRET0123', '']), '1.txt');
    // A secret holding "/" spans segments; a value too short to be a key (a pin of "1") names nothing.
    assert.equal(withSecrets('https://hooks.example/hooks/abc/defSECRET', ['abc/defSECRET']), 'response.txt');
    assert.equal(withSecrets('https://api.example/pets/1', ['1']), '1.txt');
  });
});

describe('readBody', () => {
  it('keeps the start of a body that stopped part-way, so the console can show what came', async () => {
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array<ArrayBuffer>>({
      pull(controller) {
        pulls += 1;
        if (pulls <= 2) controller.enqueue(new TextEncoder().encode(`data: ${pulls}\n\n`) as Uint8Array<ArrayBuffer>);
        else controller.error(new Error('connection reset'));
      },
    });
    await assert.rejects(readBody(stream, { displayLimit: 12 }), (error: unknown) => {
      assert.ok(error instanceof ResponseBodyError);
      assert.equal(error.received, 18);
      assert.equal(new TextDecoder().decode(error.bytes), 'data: 1\n\ndat');
      return true;
    });
  });
});
