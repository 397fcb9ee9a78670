import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomId } from '../../src/core/index.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomId', () => {
  it('is a version 4 UUID', () => {
    assert.match(randomId(), UUID_V4);
  });

  it('is built from getRandomValues where randomUUID is missing (a plain-http page)', () => {
    const global = globalThis as { isSecureContext?: boolean };
    global.isSecureContext = false;
    try {
      const ids = new Set(Array.from({ length: 1000 }, () => randomId()));
      assert.equal(ids.size, 1000);
      for (const id of ids) assert.match(id, UUID_V4);
    } finally {
      delete global.isSecureContext;
    }
  });
});
