import assert from 'node:assert/strict';
import { RequestError, type RequestErrorKind } from '../../../src/core/index.js';

/** The `RequestError` of `kind` that `promise` rejects with, its message matching `message` when given. */
export async function rejectsWith(promise: Promise<unknown>, kind: RequestErrorKind, message?: RegExp): Promise<RequestError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof RequestError, `expected a RequestError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    if (message) assert.match(error.message, message);
    return error;
  }
  assert.fail(`expected a ${kind} RequestError`);
}
