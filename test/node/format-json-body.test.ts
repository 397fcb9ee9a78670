// The body editor's Format JSON: the body laid out with every value and {{placeholder}} kept as typed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatJsonBody } from '../../src/components/try-it-console/format-json-body.js';

describe('formatJsonBody', () => {
  it('lays out a JSON body two spaces a level, numbers and strings exactly as typed', () => {
    assert.deepEqual(formatJsonBody('{"id":12345678901234567890,"price":1.10,"tags":["a","b"],"empty":{}}'), {
      text: '{\n  "id": 12345678901234567890,\n  "price": 1.10,\n  "tags": [\n    "a",\n    "b"\n  ],\n  "empty": {}\n}',
    });
  });

  it('keeps {{placeholders}} where they are, standing for values or inside strings, names with spaces and $ too', () => {
    assert.deepEqual(formatJsonBody('{"id":{{id}},"name":"{{first}} {{ last }}","at":{{$timestamp}},"list":[{{a}},{{b}}]}'), {
      text: '{\n  "id": {{id}},\n  "name": "{{first}} {{ last }}",\n  "at": {{$timestamp}},\n  "list": [\n    {{a}},\n    {{b}}\n  ]\n}',
    });
  });

  it('gives the parser’s words for a body that is not JSON, its position counted in the body as typed', () => {
    const result = formatJsonBody('{"id": {{identifier}}, "name": "Rex",}');
    assert.ok('problem' in result);
    // The "}" after the stray comma is at index 37 of the body as typed, placeholder and all.
    assert.match(result.problem, /position 37\b/);
    assert.ok('problem' in formatJsonBody('{"a": 1'));
  });
});

describe('formatJsonBody, what it quotes and what it keeps', () => {
  it('quotes the body as typed where the parser quotes the text it parsed, placeholders and all', () => {
    const short = formatJsonBody('[{{id}}, ]');
    assert.deepEqual(short, { problem: 'Unexpected token \']\', "[{{id}}, ]" is not valid JSON' });
    const long = formatJsonBody(`[${'{{id}},'.repeat(20)}x,{{id}}]`);
    assert.ok('problem' in long);
    assert.match(long.problem, /^Unexpected token 'x', \.\.\."[{}id,]*x,\{\{id\}\}\]" is not valid JSON$/);
  });

  it('keeps characters of the body that its placeholders’ stand-ins would use', () => {
    assert.deepEqual(formatJsonBody('["\uE0005\uE000",{{p}}]'), { text: '[\n  "\uE0005\uE000",\n  {{p}}\n]' });
    assert.deepEqual(formatJsonBody('["\uE0000\uE001","{{p}}"]'), { text: '[\n  "\uE0000\uE001",\n  "{{p}}"\n]' });
  });
});
