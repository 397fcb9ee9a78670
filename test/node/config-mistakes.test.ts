import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, EnvironmentManager, History, parseConsoleConfig, type Environment } from '../../src/core/index.js';

/** Asserts that `run` throws a ConfigError for `field` whose message matches `says`. */
function refused(run: () => unknown, field: string, says: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    assert.equal(error.field, field);
    assert.match(error.message, says);
    return true;
  });
}

describe('Config of the wrong shape says what to write instead', () => {
  it('history: false (or true) asks for { enabled: false }', () => {
    refused(() => parseConsoleConfig({ history: false }), 'history', /must be an object: write \{ enabled: false \}/);
    refused(() => new History(true as never), 'history', /write \{ enabled: true \}/);
  });

  it('a variable given as a number or boolean shows it written as a string', () => {
    refused(() => parseConsoleConfig({ environments: [{ name: 'local', variables: { port: 8080 } }] }), 'environments[0].variables["port"]', /must be a string: write "8080"/);
    refused(() => new EnvironmentManager({ name: 'local', variables: { debug: true as never } }), 'environments[0].variables["debug"]', /write "true"/);
  });

  it('environments given as a map of names asks for the list of { name, variables }', () => {
    refused(() => parseConsoleConfig({ environments: { prod: { base_url: 'https://api.example' } } }), 'environments', /must be a list of environments, each \{ name, variables \}/);
  });

  it('snippets given as the list of languages asks for { languages }', () => {
    refused(() => parseConsoleConfig({ snippets: ['curl'] }), 'snippets', /write \{ languages: \[ … \] \}/);
  });

  it('a list passed to new EnvironmentManager asks for the environments one by one', () => {
    const list: Environment[] = [{ name: 'prod', variables: {} }];
    refused(() => new EnvironmentManager(list as never), 'environments[0]', /new EnvironmentManager\(\.\.\.environments\)/);
    assert.deepEqual(new EnvironmentManager(...list).list(), list);
  });
});

describe('A Postman environment export pasted as an environment', () => {
  it('says how to turn its list of values into variables, instead of refusing its id', () => {
    const exported = {
      id: '5f0c…',
      name: 'Production',
      values: [{ key: 'base_url', value: 'https://api.example', type: 'default', enabled: true }],
      _postman_variable_scope: 'environment',
    };
    refused(() => parseConsoleConfig({ environments: [exported] }), 'environments[0].values', /Postman export.*Object\.fromEntries\(values\.filter/);
    // What the message says to write works.
    const { values } = exported;
    const variables = Object.fromEntries(values.filter((v) => v.enabled !== false).map((v) => [v.key, v.value]));
    assert.equal(new EnvironmentManager({ name: exported.name, variables }).resolve('{{base_url}}/pets'), 'https://api.example/pets');
  });
});
