import { expect } from '@open-wc/testing';
import { isHttpUrl } from '../../src/core/index.js';

describe('browser toolchain', () => {
  it('runs the core in Chromium', () => {
    expect(isHttpUrl('https://api.example/v1')).to.equal(true);
    expect(isHttpUrl('javascript:alert(1)')).to.equal(false);
  });
});
