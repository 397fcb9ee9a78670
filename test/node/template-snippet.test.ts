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

  it('reports a problem with the request as given, never with a stand-in', () => {
    const cases: Array<[SnippetRequest, string, RegExp]> = [
      [{ method: 'GET', url: '{{base_url}}/a b/{{id}}' }, 'request.url', /" ".*%20 \(got "\{\{base_url\}\}\/a b\/\{\{id\}\}"\)/],
      [{ method: 'GET', url: '{{base_url}}/a/../{{id}}' }, 'request.url', /resolved path \(\/\{\{id\}\}\)/],
      [{ method: 'GET', url: 'https://api.example:{{port}}/a b' }, 'request.url', /got "https:\/\/api\.example:\{\{port\}\}\/a b"/],
      [{ method: 'GET', url: 'http://h:{{port}}{{path}}' }, 'request.url', /absolute http.*got "http:\/\/h:\{\{port\}\}\{\{path\}\}"/],
      [{ method: 'GET', url: 'https://{{user}}:{{password}}@api.example/' }, 'request.url', /Authorization header/],
      [{ method: 'GET', url: '{{base_url}}/', headers: { '{{a"b}} c': '1' } }, 'request.headers["{{a\\"b}} c"]', /HTTP token.*got "\{\{a\\"b\}\} c"/],
      [{ method: 'GET', url: '{{base_url}}/', headers: { '{{name}}': 'a\r\nb' } }, 'request.headers["{{name}}"]', /line break/],
      [{ method: 'GET', url: '{{base_url}}/{{a\tb}}' }, 'request.url', /placeholder "\{\{a\\tb\}\}".*invisible character.*rename the variable/],
      [{ method: 'GET', url: '{{base_url}}/', headers: new Map([['a', 'b']]) as unknown as Record<string, string> }, 'request.headers', /plain object/],
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
