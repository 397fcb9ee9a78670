import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, RequestError, TryItError, isRequestError, isTryItError } from '../../src/core/index.js';

describe('errors', () => {
  it('carry a name, a stable code and the context', () => {
    const error = new ConfigError('history.maxItems', 0, 'must be a positive integer');
    assert.ok(error instanceof TryItError);
    assert.equal(error.name, 'ConfigError');
    assert.equal(error.code, 'ERR_CONFIG');
    assert.equal(error.field, 'history.maxItems');
    assert.match(error.message, /history\.maxItems.*positive integer.*got 0/);
  });

  it('have guards that tell request kinds apart', () => {
    const error = new RequestError('mixed-content', 'blocked');
    assert.equal(error.code, 'ERR_REQUEST_MIXED_CONTENT');
    assert.ok(isTryItError(error));
    assert.ok(isRequestError(error, 'mixed-content'));
    assert.ok(!isRequestError(error, 'cors'));
    assert.ok(!isTryItError(new Error('x')));
  });
});
