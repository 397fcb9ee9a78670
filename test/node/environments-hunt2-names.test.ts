// Environment names that the select would show alike. Each test failed on the code as it was before the fix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, EnvironmentManager, parseConsoleConfig } from '../../src/core/index.js';

/** The ConfigError `run` throws, as `field: message`. */
function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    return `${error.field}: ${error.message}`;
  }
  assert.fail('accepted');
}

describe('environment names that differ only by white space', () => {
  const refusal = 'differs from the environment "Production" only by white space, so the picker would show the two alike; write "Production" to mean that one, or give it a name of its own';

  it('are refused in the configuration and by the constructor, naming the earlier one', () => {
    const environments = [{ name: 'Production', variables: {} }, { name: 'Production ', variables: {} }];
    assert.equal(configError(() => parseConsoleConfig({ enabled: true, environments })), `environments[1].name: Invalid environments[1].name: ${refusal} (got "Production ").`);
    assert.equal(configError(() => new EnvironmentManager(...environments)), `environments[1].name: Invalid environments[1].name: ${refusal} (got "Production ").`);
    // Inside too: a select collapses a run of white space in an option's text, so "Prod  EU" shows as "Prod EU".
    assert.match(configError(() => new EnvironmentManager({ name: 'Prod EU', variables: {} }, { name: 'Prod  EU', variables: {} })), /differs from the environment "Prod EU" only by white space/);
  });

  it('are refused by add, which leaves the environments as they were', () => {
    const manager = new EnvironmentManager({ name: 'Production', variables: { base_url: 'https://api.example' } });
    assert.equal(configError(() => manager.add({ name: '\tProduction', variables: {} })), `environment.name: Invalid environment.name: ${refusal} (got "\\tProduction").`);
    assert.deepEqual(manager.list(), [{ name: 'Production', variables: { base_url: 'https://api.example' } }]);
    // A name of its own, or the same name, is still fine.
    manager.add({ name: 'Production', variables: {} });
    manager.add({ name: 'Production EU', variables: {} });
    assert.deepEqual(manager.list().map((environment) => environment.name), ['Production', 'Production EU']);
  });
});
