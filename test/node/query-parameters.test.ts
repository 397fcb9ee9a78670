// The console's parameter rows read the URL's query and write it back: reading then writing changes nothing, and a
// row's edit changes its part alone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { joinQuery, parameterOf, partOf, splitQuery } from '../../src/components/try-it-console/query-parameters.js';

describe('query parameters', () => {
  it('gives back every URL as it was, however odd its query, fragment or placeholders', () => {
    const urls = ['', '?', '??', '#', '?#', 'https://a/p', 'https://a/p?', 'https://a/p?&&', 'https://a/p?a=1&b&c=d=e#f?g=h&i', '{{base_url}}/p?x={{x}}&{{name}}={{value}}#{{frag}}', 'a#b?c', '?=&=='];
    for (const url of urls) assert.equal(joinQuery(splitQuery(url)), url, url);
  });

  it('writes back each part from its row unchanged, and encodes only what would end a part', () => {
    for (const part of ['a=1', 'debug', '', '=', 'a==b', '%26=%23', '{{n}}={{v}}', 'x=a+b%20c']) {
      const [name, value] = parameterOf(part);
      assert.equal(partOf(name, value), part, part);
    }
    assert.equal(partOf('a&b=c#d', 'x&y#z=w'), 'a%26b%3Dc%23d=x%26y%23z=w');
    assert.equal(joinQuery({ head: 'https://a/p', parts: [], fragment: '#top' }), 'https://a/p#top');
  });
});
