// Hunt, round 2: well-known keys the environment panel masks under any name (and the console keeps out of history).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MASK, maskedValue } from '../../src/components/env-picker/secret-masking.js';

describe('maskedValue: well-known keys under a name that says nothing', () => {
  it('masks Anthropic keys, as it masks OpenAI’s sk-proj-…', () => {
    const apiKey = `sk-ant-api03-${'Ab1_-'.repeat(19)}AA`;
    const adminKey = `sk-ant-admin01-${'x9Y'.repeat(31)}AA`;
    assert.deepEqual([maskedValue('anthropic', apiKey), maskedValue('value', `Bearer ${adminKey}`)], [MASK, MASK]);
  });

  it('masks Hugging Face tokens', () => {
    assert.equal(maskedValue('huggingface', `hf_${'aBcDeFgHiJ'.repeat(3)}KLmn`), MASK);
  });

  it('leaves text that only starts alike readable', () => {
    assert.deepEqual(
      ['sk-ant-short', 'mask-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaaa', 'hf_model_name', `hf_${'a'.repeat(40)}`, `chf_${'a'.repeat(34)}`].map((value) => maskedValue('value', value)),
      [undefined, undefined, undefined, undefined, undefined],
    );
  });
});
