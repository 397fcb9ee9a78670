// The curl snippet against the spec's text, line by line; the other languages' files are well-formed for their tools.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SnippetGenerator, type SnippetRequest } from '../../src/core/index.js';
import { CORPUS } from './snippets-support/adversarial-corpus.js';

const generator = new SnippetGenerator();
const curl = (request: SnippetRequest) => generator.generate(request, 'curl').split('\n');

describe('curl snippet shape (spec: `curl -X <METHOD> <URL> \\`, `  -H "<name>: <value>" \\`, `  -d \'<body>\'`)', () => {
  it('has the exact shape with headers and a body', () => {
    assert.deepEqual(curl({
      method: 'post',
      url: 'https://api.example.com/pets',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer abc123' },
      body: '{"name":"Rex"}',
    }), [
      'curl -X POST https://api.example.com/pets \\',
      '  -H "Content-Type: application/json" \\',
      '  -H "Authorization: Bearer abc123" \\',
      '  -d \'{"name":"Rex"}\'',
    ]);
  });

  it('keeps the header order and puts no backslash on the last line', () => {
    assert.deepEqual(curl({ method: 'GET', url: 'https://api.example.com/pets', headers: { 'X-B': '2', 'X-A': '1', Accept: 'application/json' } }), [
      'curl -X GET https://api.example.com/pets \\',
      '  -H "X-B: 2" \\',
      '  -H "X-A: 1" \\',
      '  -H "Accept: application/json"',
    ]);
  });

  it('is one line without headers or body, and has no -d line without a body', () => {
    assert.deepEqual(curl({ method: 'delete', url: 'https://api.example.com/pets/1' }), ['curl -X DELETE https://api.example.com/pets/1']);
    assert.deepEqual(curl({ method: 'POST', url: 'https://api.example.com/pets', body: '' }), ['curl -X POST https://api.example.com/pets']);
    assert.deepEqual(curl({ method: 'POST', url: 'https://api.example.com/pets', body: 'a=1' }), ['curl -X POST https://api.example.com/pets \\', "  -d 'a=1'"]);
  });

  it('single-quotes a URL with shell characters', () => {
    assert.deepEqual(curl({ method: 'GET', url: "https://api.example.com/s?q=1&sort=$x&it's=!" }), [
      "curl -X GET 'https://api.example.com/s?q=1&sort=$x&it'\\''s=!'",
    ]);
  });

  it('uses --data-raw for a body starting with @ (not a file upload)', () => {
    assert.deepEqual(curl({ method: 'POST', url: 'https://api.example.com/x', body: '@/etc/passwd' }), ['curl -X POST https://api.example.com/x \\', "  --data-raw '@/etc/passwd'"]);
  });

  it('single-quotes a body with quotes and shell characters', () => {
    assert.deepEqual(curl({ method: 'POST', url: 'https://api.example.com/x', body: `it's "$HOME" \`id\` !! \\` }), [
      'curl -X POST https://api.example.com/x \\',
      `  -d 'it'\\''s "$HOME" \`id\` !! \\'`,
    ]);
  });

  it('single-quotes a header whose value double quotes would change, even in an interactive shell (`!`)', () => {
    for (const value of ['say "hi"', '$HOME', '`id`', 'C:\\dir', 'wow!']) {
      assert.deepEqual(curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-V': value } })[1], `  -H 'X-V: ${value}'`);
    }
    assert.deepEqual(curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-V': "it's" } })[1], `  -H "X-V: it's"`);
  });

  it("uses $'…' escapes for invisible characters, so a paste cannot trigger line editing", () => {
    assert.deepEqual(curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-Tab': "a\tb'!" } })[1], "  -H $'X-Tab: a\\tb\\'\\x21'");
    assert.equal(generator.generate({ method: 'POST', url: 'https://x.test/', body: 'a\r\nb\u200Bc\\' }, 'curl'), "curl -X POST https://x.test/ \\\n  -d $'a\\r\nb\\xE2\\x80\\x8Bc\\\\'");
  });

  it('writes an empty header value as `Name;` (curl reads `Name:` as "remove")', () => {
    assert.deepEqual(curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-Empty': '' } })[1], '  -H "X-Empty;"');
  });

  it('uses -I for HEAD (curl -X HEAD waits for a body)', () => {
    assert.deepEqual(curl({ method: 'head', url: 'https://x.test/a' }), ['curl -I https://x.test/a']);
  });

  it('pipes a body of 128 KiB or more from printf, which no argument can carry (Linux: "Argument list too long")', () => {
    const fits = 'a'.repeat(131071);
    assert.deepEqual(curl({ method: 'POST', url: 'https://x.test/', body: fits }), ['curl -X POST https://x.test/ \\', `  -d '${fits}'`]);
    const tooLong = 'a'.repeat(131072);
    assert.deepEqual(curl({ method: 'POST', url: 'https://x.test/', headers: { 'X-A': '1' }, body: tooLong }), [
      `printf '%s' '${tooLong}' | curl -X POST https://x.test/ \\`,
      '  -H "X-A: 1" \\',
      '  --data-binary @-',
    ]);
    // Counted in UTF-8 bytes: 43,690 euro signs are 131,070 bytes, one more is over.
    assert.match(generator.generate({ method: 'POST', url: 'https://x.test/', body: '€'.repeat(43690) }, 'curl'), /^curl -X POST [^\n]*\n  -d '€+'$/);
    assert.match(generator.generate({ method: 'POST', url: 'https://x.test/', body: '€'.repeat(43691) }, 'curl'), /^printf '%s' '€+' \| curl -X POST https:\/\/x\.test\/ \\\n  --data-binary @-$/);
    // Invisible characters keep their escapes; a leading @ is only text on stdin.
    assert.match(generator.generate({ method: 'POST', url: 'https://x.test/', body: `@\t${tooLong}` }, 'curl'), /^printf '%s' \$'@\\ta+' \| curl /);
    assert.throws(() => generator.generate({ method: 'POST', url: 'https://x.test/', body: `\0${tooLong}` }, 'curl'), /NUL/);
  });

  it('refuses a header of 128 KiB or more, counted as curl gets it (`Name: value`, in UTF-8 bytes)', () => {
    assert.equal(curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-A': 'v'.repeat(131071 - 'X-A: '.length) } }).length, 2);
    assert.throws(() => curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-A': 'v'.repeat(131072 - 'X-A: '.length) } }), /too long for one shell argument/);
    assert.throws(() => curl({ method: 'GET', url: 'https://x.test/', headers: { 'X-A': 'é'.repeat(65534) } }), /too long/);
  });
});

describe('snippet files pass their tools\' own checks', () => {
  it('Go snippets are gofmt-clean, JavaScript parses as a module, PHP and Python compile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'try-it-snippet-shape-'));
    try {
      CORPUS.forEach((testCase, index) => {
        const request = { method: testCase.method, url: `http://127.0.0.1:9/${index}${testCase.path}`, headers: testCase.headers, body: testCase.body };
        writeFileSync(join(dir, `s${index}.go`), `${generator.generate(request, 'go')}\n`);
        if (!testCase.refusedBy?.javascript) writeFileSync(join(dir, `s${index}.mjs`), generator.generate(request, 'javascript'));
        writeFileSync(join(dir, `s${index}.php`), generator.generate(request, 'php'));
        writeFileSync(join(dir, `s${index}.py`), generator.generate(request, 'python'));
      });
      // Chosen by index, not by parsing the path: the temporary directory's random name can hold "s<digit>" too.
      const files = (ext: string) => CORPUS.flatMap((testCase, i) => (ext === 'mjs' && testCase.refusedBy?.javascript ? [] : [join(dir, `s${i}.${ext}`)]));
      assert.equal(execFileSync('gofmt', ['-l', ...files('go')], { encoding: 'utf8' }), '', 'gofmt -l lists no file');
      for (const file of files('mjs')) execFileSync(process.execPath, ['--check', file]);
      for (const file of files('php')) execFileSync('php', ['-l', file], { stdio: 'ignore' });
      execFileSync('/usr/bin/python3', ['-m', 'py_compile', ...files('py')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
