// How <request-history> and <try-it-console> mask the credentials of a URL they show (history's list, failures).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, maskUrlCredentials } from '../../src/components/url-credential-masking.js';

describe('maskUrlCredentials', () => {
  it('masks credential parameters also when bracketed (PHP, Rails, qs), by the key they stand for, but for the broad names (filter[key])', () => {
    assert.equal(
      maskUrlCredentials('https://api.example/v1?api_key[]=k1&user[access_token]=t1&user%5Bpassword%5D=p1&user[name]=ada&tags[]=a&api_key[0]=k2&filter[key]=color&token[]=t3&key[0]=k4'),
      `https://api.example/v1?api_key[]=${MASK}&user[access_token]=${MASK}&user%5Bpassword%5D=${MASK}&user[name]=ada&tags[]=a&api_key[0]=${MASK}&filter[key]=color&token[]=${MASK}&key[0]=${MASK}`,
    );
  });

  it('keeps the quote that closes a quoted URL in a message, and masks a quote inside a value with it', () => {
    assert.equal(
      maskUrlCredentials('"https://api.example/pets?api_key=sk-live-0123" uses port 25; "https://api.example/?token=a"b&page=2" is not'),
      `"https://api.example/pets?api_key=${MASK}" uses port 25; "https://api.example/?token=${MASK}&page=2" is not`,
    );
  });
});
