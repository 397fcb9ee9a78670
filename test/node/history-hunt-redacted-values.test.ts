// History.redactedValues: what <request-history> masks in its rows, also after the environment has replaced the value
// (a rotated token) and also when keepCredentials keeps it in the entries. Failed on the code as it was before (no
// such list, and keepCredentials forgot the values).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { History } from '../../src/core/index.js';

describe('History: redactedValues', () => {
  it('lists the values given to redactValue once each, longest first, leaving those under 4 characters', () => {
    const history = new History({ enabled: true });
    for (const value of ['tok-1', 'abc', 'longer-token-2', 'tok-1']) history.redactValue(value);
    assert.deepEqual(history.redactedValues, ['longer-token-2', 'tok-1']);
    history.redactedValues.pop();
    assert.deepEqual(history.redactedValues, ['longer-token-2', 'tok-1'], 'a copy');
  });

  it('lists them with keepCredentials too, which keeps them in the entries', () => {
    const history = new History({ enabled: true, keepCredentials: true });
    history.redactValue('rotated-token');
    assert.equal(history.add({ method: 'GET', url: 'https://api.example/?k=rotated-token', status: 200, duration: 1 }).url, 'https://api.example/?k=rotated-token');
    assert.deepEqual(history.redactedValues, ['rotated-token']);
  });
});
