import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EnvironmentManager, ResolveLimitError } from '../../src/core/index.js';
import { unresolvedExplanation, unresolvedSentWarning } from '../../src/core/unresolved-explanation.js';
import { subscriberChangeTests } from './core-support/subscriber-changes.js';

describe('EnvironmentManager: subscribers changing their subscription while told of a change', () => {
  subscriberChangeTests(() => {
    const manager = new EnvironmentManager({ name: 'a', variables: {} }, { name: 'b', variables: {} });
    return { owner: manager, changes: [() => manager.setActive('b'), () => manager.setActive('a')] };
  });
});

describe('EnvironmentManager: resolving stays linear', () => {
  it('stops with ResolveLimitError when a value expanded at each use is gone through past the cap, adding next to nothing', () => {
    // Each use of `v` goes through its 20,001 placeholders again (it holds one that is missing, or dynamic), for 4 or
    // 5 characters: with more uses, resolving took minutes.
    for (const last of ['{{nope}}', '{{$randomInt}}']) {
      const manager = new EnvironmentManager({ name: 'e', variables: { empty: '', v: `${'{{empty}}'.repeat(20_000)}${last}` } });
      assert.throws(
        () => manager.resolve('{{v}}'.repeat(60)),
        (error: unknown) => error instanceof ResolveLimitError && /^Resolving placeholders would go through the pieces of values again more than 1048576 times \(a value of many placeholders used many times\)/.test(error.message),
        last,
      );
      assert.equal(manager.resolve('{{v}}', { maxGrowth: Number.POSITIVE_INFINITY }).length > 0, true);
    }
  });

  it('still resolves values expanded at each use when they are used often', () => {
    const manager = new EnvironmentManager({ name: 'e', variables: { auth: 'Bearer {{token}}', id: '{{$guid}}', chain: '{{auth}} {{id}}' } });
    const result = manager.resolveDetailed('{{chain}}\n'.repeat(20_000));
    assert.deepEqual(result.missing, ['token']);
    assert.equal(result.text.split('\n').length, 20_001);
    assert.equal(new Set(result.text.split('\n').slice(0, -1).map((line) => line.slice(-36))).size, 20_000, 'a fresh $guid per use');
  });
});

describe('Explaining placeholders left as written', () => {
  it('names where a cyclic variable spelt with spaces around it was sent', () => {
    const manager = new EnvironmentManager({ name: 'dev', variables: { ' a ': 'x{{ a }}' } });
    const { missing, cyclic } = manager.resolveDetailed('https://api.example/{{ a }}');
    assert.deepEqual(cyclic, [' a ']);
    const warning = unresolvedSentWarning({ url: 'https://api.example/x{{ a }}', headers: {}, body: undefined, missing, cyclic }, manager);
    assert.match(warning ?? '', /^Sent with \{\{ a \}\} \(in the URL\) as written/);
  });

  it('does not send the reader to an environment when there is none', () => {
    const explanation = unresolvedExplanation(['token'], [], undefined);
    assert.doesNotMatch(explanation, /Define it there|pick another environment/);
    assert.match(explanation, /^\{\{token\}\} has no value: there is no environment to define it in\. Add one to the configuration's environments, or write the value in place\.$/);
    assert.match(unresolvedExplanation(['a', 'b'], [], undefined), /^\{\{a\}\}, \{\{b\}\} have no value: there is no environment to define them in\. .* write the values in place\.$/);
  });
});
