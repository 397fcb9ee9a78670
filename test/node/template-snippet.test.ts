import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { InvalidArgumentError, LanguageNotEnabledError, SnippetGenerator, generateTemplateSnippet, type SnippetRequest } from '../../src/core/index.js';
import { interpreterEnvironment } from './snippets-support/interpreters.js';
import { stringLiterals } from './snippets-support/string-literals.js';

describe('generateTemplateSnippet', () => {
  const generator = new SnippetGenerator();
  const request = {
    method: 'post',
    url: '{{base_url}}/pets/{{id}}?tenant={{ tenant }}',
    headers: { Authorization: 'Bearer {{token}}', '{{header_name}}': 'x' },
    body: '{"owner":"{{owner}}"}',
  };

  for (const language of generator.languages()) {
    it(`keeps placeholders as written in ${language}`, () => {
      const snippet = generateTemplateSnippet(generator, request, language);
      for (const written of ['{{base_url}}/pets/{{id}}?tenant={{ tenant }}', 'Bearer {{token}}', '{{header_name}}', '{{owner}}']) {
        assert.ok(snippet.includes(written), `${language} snippet lacks ${written}:\n${snippet}`);
      }
      assert.doesNotMatch(snippet, /tplv|\.invalid/);
    });
  }

  it('is the ordinary snippet when there are no placeholders', () => {
    const plain = { method: 'GET', url: 'https://api.example/pets', headers: { Accept: 'application/json' } };
    assert.equal(generateTemplateSnippet(generator, plain, 'curl'), generator.generate(plain, 'curl'));
  });

  it('never confuses a stand-in with text that looks like one', () => {
    const tricky = { method: 'GET', url: 'https://tplv0z.example/{{a}}', headers: { 'X-A': 'tplvx0z' } };
    const snippet = generateTemplateSnippet(generator, tricky, 'curl');
    assert.ok(snippet.includes('https://tplv0z.example/{{a}}'), snippet);
    assert.ok(snippet.includes('X-A: tplvx0z'), snippet);
  });

  it('writes placeholders in the body and header values like any other text, so no escape can spell a stand-in', () => {
    // A tab before "plv0z" is `\tplv0z` once escaped, which spelled the stand-in of the placeholder before it.
    for (const text of ['{{x}}\tplv0z', '{{x}}\ntplv0z {{y}}', '${{x}}', "{{it's}} {{a\\b}}", '{{x}}\u200Btplv0z']) {
      for (const language of generator.languages()) {
        const plain: SnippetRequest = { method: 'POST', url: 'https://api.example/x', headers: { 'X-T': text.replace('\n', ' ') }, body: text };
        assert.equal(generateTemplateSnippet(generator, plain, language), generator.generate(plain, language), `${language}: ${JSON.stringify(text)}`);
        // With placeholders in the URL too, the body and the header value are still written as the generator writes them.
        const ordinaryLines = generator.generate(plain, language).split('\n').filter((line) => line.includes('plv0z') || line.includes('{{'));
        const templated = generateTemplateSnippet(generator, { ...plain, url: '{{base_url}}/x' }, language);
        for (const line of ordinaryLines.filter((line) => !line.includes('api.example'))) assert.ok(templated.includes(line), `${language}: ${JSON.stringify(line)} in\n${templated}`);
      }
    }
  });

  it('takes a placeholder in the port or the host', () => {
    for (const url of ['https://api.example:{{port}}/x', 'http://localhost:{{port}}', 'http://{{host}}:{{port}}/v1?x={{y}}', 'https://{{sub}}.example.com/x', 'https://api.{{tld}}/x', 'http://[::1]:{{port}}/', '{{base_url}}:{{port}}/x']) {
      for (const language of generator.languages()) {
        assert.ok(generateTemplateSnippet(generator, { method: 'GET', url }, language).includes(url), `${language}: ${url}`);
      }
    }
  });

  it('takes a placeholder in an IPv4 address, which URL parsers read as one when its last label is a number', () => {
    // `http://10.0.{{x}}.1/` was refused as "not an absolute URL": a letter stand-in made the address invalid.
    // A placeholder may hold part of a label or several labels (`10.{{net}}.1` with net = `0.0`).
    const urls = ['http://10.0.{{x}}.1/', 'http://192.168.{{subnet}}.1:8080/v1', 'http://{{a}}.{{b}}.0.1:{{port}}/', 'http://10.0.1{{x}}.1/', 'http://10.{{net}}.1/', 'http://{{net}}.1:8{{p}}/x'];
    for (const url of urls) {
      for (const language of generator.languages()) {
        assert.ok(generateTemplateSnippet(generator, { method: 'GET', url }, language).includes(url), `${language}: ${url}`);
      }
    }
    // Still checked as a host: what no value can make right is refused, quoting the URL as given.
    assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: 'http://1.2.3.4.{{x}}.5/' }, 'curl'), /absolute http.*got "http:\/\/1\.2\.3\.4\.\{\{x\}\}\.5\/"/);
    assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: 'http://010.0.{{x}}.1/' }, 'curl'), /read in different ways.*got "http:\/\/010\.0\.\{\{x\}\}\.1\/"/);
  });

  it('takes a placeholder for the scheme, as a send resolves it', () => {
    // `{{protocol}}://{{host}}/x` was refused with "write the host as {{protocol}}": the first placeholder was taken for the whole origin.
    for (const url of ['{{protocol}}://{{host}}/x', '{{scheme}}://api.example:{{port}}/v1?q={{q}}', '{{ protocol }}://{{host}}']) {
      for (const language of generator.languages()) {
        assert.ok(generateTemplateSnippet(generator, { method: 'GET', url }, language).includes(url), `${language}: ${url}`);
      }
    }
    assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: '{{scheme}}://a b/' }, 'curl'), /got "\{\{scheme\}\}:\/\/a b\/"/);
  });

  it('takes placeholders right after a port placeholder, which may hold more digits or the path', () => {
    // `{{host}}:{{port}}{{base_path}}` is a common Postman URL; these were refused as "not an absolute URL".
    const urls = ['http://h:{{port}}{{path}}', 'https://h:{{port}}{{x}}/', '{{base_url}}:{{port}}{{base_path}}/pets', 'https://h:8{{x}}/', 'https://h:{{x}}8/', `https://h:${'{{p}}'.repeat(10)}/`];
    for (const url of urls) {
      for (const language of generator.languages()) {
        assert.ok(generateTemplateSnippet(generator, { method: 'GET', url }, language).includes(url), `${language}: ${url}`);
      }
    }
  });

  it('reports a problem with the request as given, never with a stand-in', () => {
    const cases: Array<[SnippetRequest, string, RegExp]> = [
      [{ method: 'GET', url: '{{base_url}}/a b/{{id}}' }, 'request.url', /" ".*%20 \(got "\{\{base_url\}\}\/a b\/\{\{id\}\}"\)/],
      [{ method: 'GET', url: '{{base_url}}/a/../{{id}}' }, 'request.url', /resolved path \(\/\{\{id\}\}\)/],
      [{ method: 'GET', url: 'https://api.example:{{port}}/a b' }, 'request.url', /got "https:\/\/api\.example:\{\{port\}\}\/a b"/],
      // A port is digits: text after its placeholder is the URL's fault, as it would be after `:1`.
      [{ method: 'GET', url: 'http://h:{{port}}x/' }, 'request.url', /absolute http.*got "http:\/\/h:\{\{port\}\}x\/"/],
      [{ method: 'GET', url: 'https://{{user}}:{{password}}@api.example/' }, 'request.url', /Authorization header/],
      [{ method: 'GET', url: '{{base_url}}/', headers: { '{{a"b}} c': '1' } }, 'request.headers["{{a\\"b}} c"]', /HTTP token.*got "\{\{a\\"b\}\} c"/],
      [{ method: 'GET', url: '{{base_url}}/', headers: { '{{name}}': 'a\r\nb' } }, 'request.headers["{{name}}"]', /line break/],
      [{ method: 'GET', url: '{{base_url}}/{{a\tb}}' }, 'request.url', /placeholder "\{\{a\\tb\}\}".*invisible character.*rename the variable/],
      [{ method: 'GET', url: '{{base_url}}/', headers: new Map([['a', 'b']]) as unknown as Record<string, string> }, 'request.headers', /plain object/],
      // The host's IDNA form with the placeholder kept, and without the port, whose stand-in is a number.
      [{ method: 'GET', url: 'https://{{tenant}}.bücher.example:{{port}}/x' }, 'request.url', /read in different ways; write the host as \{\{tenant\}\}\.xn--bcher-kva\.example \(got/],
      // The host that begins with a placeholder, which stands in as a whole origin.
      [{ method: 'GET', url: '{{base}}.exämple/x' }, 'request.url', /read in different ways; write the host as \{\{base\}\}\.xn--exmple-cua \(got "\{\{base\}\}\.exämple\/x"\)/],
      // A label with a placeholder and non-ASCII text has no IDNA form to write: it depends on the value.
      [{ method: 'GET', url: 'https://{{tenant}}-bücher.example/x' }, 'request.url', /read in different ways; write the host as xn--…\.example; xn--… stands for a label that holds non-ASCII text and \{\{tenant\}\}: its IDNA form depends on the value, so keep each placeholder in a label of its own/],
      [{ method: 'GET', url: '{{base}}ü.{{tld}}/x' }, 'request.url', /write the host as xn--…\.\{\{tld\}\}; xn--… stands for a label that holds non-ASCII text and \{\{base\}\}:/],
      [{ method: 'GET', url: '{{a}}.b{{c}}ü{{d}}.example/{{e}}' }, 'request.url', /write the host as \{\{a\}\}\.xn--…\.example; .*non-ASCII text and \{\{c\}\}, \{\{d\}\}:/],
    ];
    for (const [bad, argument, message] of cases) {
      for (const language of generator.languages()) {
        assert.throws(() => generateTemplateSnippet(generator, bad, language), (error: unknown) => {
          assert.ok(error instanceof InvalidArgumentError, String(error));
          assert.equal(error.argument, argument);
          assert.match(error.message, message);
          assert.doesNotMatch(error.message, /tplv|\.invalid/);
          return true;
        }, `${language}: ${bad.url}`);
      }
    }
    assert.throws(() => generateTemplateSnippet(new SnippetGenerator({ languages: ['curl'] }), request, 'go'), LanguageNotEnabledError);
  });

  it('quotes the method, the body and a header value as given, though they spell a stand-in', () => {
    const cases: Array<[SnippetRequest, string, unknown]> = [
      [{ method: 'tplv0z x', url: '{{base_url}}/x' }, 'request.method', 'tplv0z x'],
      [{ method: 'HEAD', url: '{{base_url}}/{{id}}', body: 'tplv0z tplv1z' }, 'request.body', 'tplv0z tplv1z'],
      [{ method: 'GET', url: '{{base_url}}/x', headers: { '{{name}}': 'tplv1z\n' } }, 'request.headers["{{name}}"]', 'tplv1z\n'],
    ];
    for (const [bad, argument, value] of cases) {
      assert.throws(() => generateTemplateSnippet(generator, bad, 'curl'), (error: unknown) => {
        assert.ok(error instanceof InvalidArgumentError, String(error));
        assert.equal(error.argument, argument);
        assert.equal(error.value, value);
        assert.ok(error.message.endsWith(`(got ${JSON.stringify(value)}).`), error.message);
        return true;
      });
    }
  });

  it('keeps every text that spells a stand-in, in any case and with any run of x, as written', () => {
    // Text in the URL, the header names and values and the body that spells a stand-in of this request
    // (`https://tplv0o.invalid` for base_url, `tplv1z` for id, `tplv2z` for name) or of a longer prefix.
    for (const text of ['tplv', 'tplv1z', 'TPLV1Z', 'tplvx1z', 'tplvxxx1z', `tplv${'x'.repeat(40)}1z`, 'tplva1z', 'tplvtplv1z', 'tplv2z-tplvx2z']) {
      const hostile = (spelling: string): SnippetRequest => ({
        method: 'POST',
        url: `{{base_url}}/${spelling}/{{id}}?q=${spelling}`,
        headers: { [`X-${spelling}`]: spelling, '{{name}}': spelling },
        body: `${spelling} {{b}}`,
      });
      // Letters are written as they are in every language: spelled another way, the snippet is the same but for them.
      const respell = (code: string) => code.replaceAll('tplv', 'qrsu').replaceAll('TPLV', 'QRSU');
      for (const language of generator.languages()) {
        assert.equal(respell(generateTemplateSnippet(generator, hostile(text), language)), generateTemplateSnippet(generator, hostile(respell(text)), language), `${language}: ${text}`);
      }
      // An error can quote the URL's resolved path, and its host as the URL parser lowercases it.
      assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: `{{base_url}}/${text}/a/../{{id}}` }, 'curl'), new RegExp(`resolved path \\(/${text}/\\{\\{id\\}\\}\\)`));
      assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: `https://{{a}}.${text}.bücher.example/{{id}}` }, 'curl'), new RegExp(`write the host as \\{\\{a\\}\\}\\.${text.toLowerCase()}\\.xn--bcher-kva\\.example \\(`));
    }
    // The URL parser writes a host in NFKC without the characters IDNA ignores: fullwidth `ｔ` is `t`, a soft hyphen is dropped.
    for (const text of ['ｔｐｌｖ０ｚ', 'ＴＰＬＶ０Ｚ', 'tp\u00ADlv0z']) {
      assert.throws(() => generateTemplateSnippet(generator, { method: 'GET', url: `https://x.${text}.exämple/{{a}}` }, 'curl'), /write the host as x\.tplv0z\.xn--exmple-cua \(/, text);
    }
    // One snippet in full: the request as written, with no stand-in left and no placeholder filled.
    assert.equal(
      generateTemplateSnippet(generator, { method: 'GET', url: '{{base_url}}/tplvx1z/{{id}}', headers: { 'X-tplv1z': 'tplv0z' } }, 'curl'),
      'curl -X GET \'{{base_url}}/tplvx1z/{{id}}\' \\\n  -H "X-tplv1z: tplv0z"',
    );
  });

  it('drops an empty query as the generator does, finding `?` and `#` outside the placeholders', () => {
    // The generator drops a `?` with nothing after it; a `#` or `?` in a placeholder's name is part of the name.
    const cases: Array<[string, string]> = [
      ['https://h/{{a#b}}?', 'https://h/{{a#b}}'],
      ['https://h/{{?#}}', 'https://h/{{?#}}'],
      ['https://h/{{a?}}?#f', 'https://h/{{a?}}#f'],
      ['https://h/x?#{{f}}', 'https://h/x#{{f}}'],
      ['{{base_url}}/x?', '{{base_url}}/x'],
      ['https://h/x?{{q}}', 'https://h/x?{{q}}'],
      ['https://h/x#{{a}}?', 'https://h/x#{{a}}?'],
    ];
    for (const [url, written] of cases) {
      assert.equal(generateTemplateSnippet(generator, { method: 'GET', url }, 'curl'), `curl -X GET '${written}'`, url);
    }
  });

  it('writes a snippet for a URL with 400,000 placeholders, reading it once', () => {
    // Each placeholder once re-read the URL written so far (to find the port), a quadratic time: about 5 s for
    // 20,000 placeholders in the host, so many minutes for these. Now well under a second.
    const url = `https://${'{{h}}'.repeat(200_000)}:{{port}}/${'{{p}}'.repeat(200_000)}`;
    assert.ok(generateTemplateSnippet(generator, { method: 'GET', url }, 'javascript').includes(`"${url}"`));
  });

  it('writes a snippet when the URL, a header name and the body hold a megabyte run of x or of tplv', () => {
    // The stand-ins must stay short and cost about one read of the text: a prefix grown one x at a time was
    // quadratic in the run, and past about 50 KB too long for a regular expression.
    for (const run of [`tplv${'x'.repeat(1 << 16)}`, `tplv${'x'.repeat(1 << 20)}`, 'tplv'.repeat(1 << 18)]) {
      const hostile = { method: 'POST', url: `{{base_url}}/${run}/{{id}}`, headers: { [`X-${run}`]: run, 'X-{{name}}': run }, body: run };
      for (const language of ['javascript', 'python']) {
        const snippet = generateTemplateSnippet(generator, hostile, language);
        for (const written of [`{{base_url}}/${run}/{{id}}`, `X-${run}`, 'X-{{name}}']) assert.ok(snippet.includes(written), `${language}: ${written.slice(0, 40)}`);
      }
    }
  });
});

describe('generateTemplateSnippet quotes every placeholder for its language', { concurrency: 2 }, () => {
  const generator = new SnippetGenerator();
  // Names with every character a string literal or the shell treats specially: quotes, backslash, `$`, a
  // backtick, `!` (history expansion), `,` inside braces (brace expansion), spaces and non-ASCII text.
  const hostile = {
    method: 'POST',
    url: '{{base_url}}/a/{{it\'s "q" \\ `x` $y}}/{{a,b}}/{{wow!}}/{{ключ}}?q={{ tenant }}',
    headers: { '{{header_name}}': "{{it's}}", 'X-Id': '{{$guid}}', Authorization: 'Bearer {{"t"}} {{`id`}} {{\\n}}' },
    body: '${{x}} {{a\'b}}\t`{{c}}` {{$HOME}}',
  };
  let workDir: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    workDir = mkdtempSync(join(tmpdir(), 'try-it-template-'));
    env = interpreterEnvironment(workDir);
  });

  after(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  for (const language of generator.languages()) {
    it(`in ${language}, read back by the language itself`, async () => {
      const snippet = generateTemplateSnippet(generator, hostile, language);
      const values = await stringLiterals(language, snippet, workDir, `template-${language}`, env);
      const headerTexts = Object.entries(hostile.headers).flatMap(([name, value]) => (language === 'curl' || language === 'php' ? [`${name}: ${value}`] : [name, value]));
      for (const text of [hostile.url, ...headerTexts, hostile.body]) {
        assert.ok(values.includes(text), `${language} does not hold ${JSON.stringify(text)}; it holds ${JSON.stringify(values)}\n${snippet}`);
      }
    });
  }
});
