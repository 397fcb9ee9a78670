import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SnippetGenerator, generateTemplateSnippet } from '../../src/core/index.js';

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
});
