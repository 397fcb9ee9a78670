import { RequestError } from '../../../src/core/index.js';

/** The `RequestError` a send fails with; anything else it throws, or a send that succeeds, fails the test. */
export async function failure(promise: Promise<unknown>): Promise<RequestError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RequestError) return error;
    throw error;
  }
  throw new Error('expected the send to fail');
}
