import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  EnvironmentManager,
  EnvironmentNotFoundError,
  History,
  InvalidArgumentError,
  ResolveLimitError,
  parseEnvironments,
  scanPlaceholders,
  type Environment,
} from '../../src/core/index.js';
import { withReportedErrors } from './reported-errors.js';

const prod: Environment = { name: 'prod', variables: { base_url: 'https://api.example', token: 'p-123' } };
const staging: Environment = { name: 'staging', variables: { base_url: 'https://staging.api.example', token: 's-456' } };

describe('EnvironmentManager: the spec operations', () => {
  it('NewEnvironmentManager holds the given environments; List returns them in order', () => {
    const manager = new EnvironmentManager(prod, staging);
    assert.deepEqual(manager.list(), [prod, staging]);
    assert.deepEqual(new EnvironmentManager().list(), []);
  });

  it('Active is the first environment before any SetActive, and undefined with none', () => {
    assert.deepEqual(new EnvironmentManager(prod, staging).active(), prod);
    assert.equal(new EnvironmentManager().active(), undefined);
  });

  it('SetActive selects by exact name', () => {
    const manager = new EnvironmentManager(prod, staging);
    manager.setActive('staging');
    assert.equal(manager.active()?.name, 'staging');
    assert.throws(() => manager.setActive('Staging'), EnvironmentNotFoundError);
  });

  it('SetActive with an unknown name throws and leaves the active environment unchanged', () => {
    const manager = new EnvironmentManager(prod, staging);
    manager.setActive('staging');
    assert.throws(
      () => manager.setActive('qa'),
      (error: unknown) =>
        error instanceof EnvironmentNotFoundError &&
        error.code === 'ERR_ENVIRONMENT_NOT_FOUND' &&
        error.environmentName === 'qa' &&
        /"qa".*"prod", "staging"/.test(error.message),
    );
    assert.equal(manager.active()?.name, 'staging');
    assert.throws(() => new EnvironmentManager().setActive('x'), /no environments are registered/);
  });

  it('Resolve follows the rule: {{base_url}}/<path> becomes <base_url_value>/<path>', () => {
    const manager = new EnvironmentManager(prod, staging);
    assert.equal(manager.resolve('{{base_url}}/users/42'), 'https://api.example/users/42');
    manager.setActive('staging');
    assert.equal(manager.resolve('{{base_url}}/users/42'), 'https://staging.api.example/users/42');
  });

  it('Add registers an environment at runtime; the first one added to an empty manager is active', () => {
    const manager = new EnvironmentManager();
    manager.add(staging);
    manager.add(prod);
    assert.deepEqual(manager.list().map((e) => e.name), ['staging', 'prod']);
    assert.equal(manager.active()?.name, 'staging');
    manager.setActive('prod');
    assert.equal(manager.resolve('{{token}}'), 'p-123');
  });

  it('Add with an existing name replaces its variables in place, and it stays active', () => {
    const manager = new EnvironmentManager(prod, staging);
    manager.setActive('prod');
    manager.add({ name: 'prod', variables: { base_url: 'https://v2.api.example' } });
    assert.deepEqual(manager.list().map((e) => e.name), ['prod', 'staging']);
    assert.equal(manager.active()?.name, 'prod');
    assert.equal(manager.resolve('{{base_url}}|{{token}}'), 'https://v2.api.example|{{token}}');
  });

  it('List and Active return copies: changing them changes nothing inside', () => {
    const given = { name: 'prod', variables: { base_url: 'https://api.example' } };
    const manager = new EnvironmentManager(given);
    given.variables.base_url = 'https://changed.example';
    manager.list()[0]!.variables.base_url = 'https://changed.example';
    manager.active()!.variables.base_url = 'https://changed.example';
    assert.equal(manager.resolve('{{base_url}}'), 'https://api.example');
  });

  it('tells subscribers about changes', () => {
    const manager = new EnvironmentManager(prod, staging);
    let calls = 0;
    const unsubscribe = manager.subscribe(() => (calls += 1));
    manager.setActive('staging');
    manager.add({ name: 'qa', variables: {} });
    unsubscribe();
    manager.setActive('prod');
    assert.equal(calls, 2);
  });

  it('finishes a change and tells every subscriber even when one throws, reporting the error', () => {
    const manager = new EnvironmentManager(prod, staging);
    withReportedErrors((reported) => {
      let later = 0;
      manager.subscribe(() => {
        throw new Error('faulty subscriber');
      });
      manager.subscribe(() => (later += 1));
      manager.setActive('staging');
      assert.equal(manager.active()!.name, 'staging');
      assert.equal(later, 1);
      assert.deepEqual(reported.map((error) => (error as Error).message), ['faulty subscriber']);
    });
  });
});

describe('Subscribing: EnvironmentManager and History', () => {
  it('refuses a listener that is not a function when subscribing, not at every later change', () => {
    const manager = new EnvironmentManager(prod, staging);
    const history = new History({ enabled: true });
    withReportedErrors((reported) => {
      for (const bad of [42, null, undefined, 'listener', {}]) {
        for (const subscribe of [(l: unknown) => manager.subscribe(l as () => void), (l: unknown) => history.subscribe(l as () => void)]) {
          assert.throws(
            () => subscribe(bad),
            (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'listener' && /subscribe takes a function/.test(error.message),
          );
        }
      }
      manager.setActive('staging');
      history.add({ method: 'GET', url: 'https://api.example/', headers: {}, body: '', status: 200, duration: 1 });
      assert.deepEqual(reported, []);
    });
  });
});

describe('EnvironmentManager: resolve rules', () => {
  const manager = new EnvironmentManager({
    name: 'dev',
    variables: { host: 'localhost', port: '8080', base_url: 'http://{{host}}:{{port}}', self: 'x{{self}}', ping: '{{pong}}', pong: '{{ping}}', empty: '' },
  });

  it('trims whitespace around a name, after trying it as written', () => {
    assert.equal(manager.resolve('{{ host }}:{{port }}'), 'localhost:8080');
    const spaced = new EnvironmentManager({ name: 'e', variables: { ' a ': 'as-written', a: 'trimmed' } });
    assert.equal(spaced.resolve('{{ a }}|{{a}}'), 'as-written|trimmed');
  });

  it('leaves a missing variable exactly as written and reports it', () => {
    const result = manager.resolveDetailed('{{base_url}}/{{ version }}/{{missing}}?k={{missing}}');
    assert.equal(result.text, 'http://localhost:8080/{{ version }}/{{missing}}?k={{missing}}');
    assert.deepEqual(result.missing, ['version', 'missing']);
    assert.deepEqual(result.cyclic, []);
  });

  it('resolves values that hold placeholders (nested)', () => {
    assert.equal(manager.resolve('{{base_url}}/x'), 'http://localhost:8080/x');
  });

  it('leaves a self-reference or a cycle literal and never loops', () => {
    const self = manager.resolveDetailed('{{self}}');
    assert.equal(self.text, 'x{{self}}');
    assert.deepEqual(self.cyclic, ['self']);
    const cycle = manager.resolveDetailed('{{ping}}');
    assert.equal(cycle.text, '{{ping}}');
    assert.deepEqual(cycle.cyclic, ['ping']);
  });

  it('stops nesting past a fixed depth, as for a cycle', () => {
    const variables: Record<string, string> = { v30: 'end' };
    for (let i = 0; i < 30; i += 1) variables[`v${i}`] = `{{v${i + 1}}}`;
    const deep = new EnvironmentManager({ name: 'deep', variables });
    const result = deep.resolveDetailed('{{v0}}');
    assert.match(result.text, /^\{\{v\d+\}\}$/);
    assert.equal(result.cyclic.length, 1);
    assert.equal(deep.resolve('{{v25}}'), 'end');
  });

  it('gives the same result whatever was resolved before (cached expansions respect the depth limit)', () => {
    const variables: Record<string, string> = { v11: 'end' };
    for (let i = 0; i < 11; i += 1) variables[`v${i}`] = `{{v${i + 1}}}`;
    const fresh = () => new EnvironmentManager({ name: 'chain', variables });
    const first = fresh().resolveDetailed('{{v0}}');
    const warmed = fresh();
    assert.equal(warmed.resolve('{{v5}}'), 'end');
    assert.deepEqual(warmed.resolveDetailed('{{v0}}'), first);
    assert.deepEqual(first.cyclic.length, 1);
    assert.equal(fresh().resolveDetailed('{{v5}} {{v0}}').text, `end ${first.text}`);
    assert.equal(fresh().resolveDetailed('{{v0}} {{v5}}').text, `${first.text} end`);
  });

  it('counts only the environment’s own variables', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype']) {
      const result = manager.resolveDetailed(`{{${name}}}`);
      assert.equal(result.text, `{{${name}}}`);
      assert.deepEqual(result.missing, [name]);
    }
    const own = new EnvironmentManager({ name: 'p', variables: JSON.parse('{"__proto__": "proto-value", "constructor": "c"}') });
    assert.equal(own.resolve('{{__proto__}}-{{constructor}}'), 'proto-value-c');
    assert.deepEqual(own.list()[0]!.variables, JSON.parse('{"__proto__": "proto-value", "constructor": "c"}'));
  });

  it('matches Postman on unbalanced and nested braces', () => {
    assert.equal(manager.resolve('{{{host}}}'), '{localhost}');
    assert.equal(manager.resolve('{{host}'), '{{host}');
    assert.equal(manager.resolve('{host}}'), '{host}}');
    assert.equal(manager.resolve('{{ho{st}}'), '{{ho{st}}');
    assert.equal(manager.resolve('{{host}x}}'), '{{host}x}}');
    assert.equal(manager.resolve('{{{{host}}'), '{{localhost');
    assert.equal(manager.resolve('}}{{host}}{{'), '}}localhost{{');
    assert.equal(manager.resolve('{{}}{{ }}'), '{{}}{{ }}');
    assert.equal(manager.resolve('{{empty}}|'), '|');
  });

  it('leaves an empty placeholder as written and reports it as the name \'\', unless a variable of spaces fills it', () => {
    assert.deepEqual(manager.resolveDetailed('/a/{{}}/{{ }}/{{{}}}'), { text: '/a/{{}}/{{ }}/{{{}}}', missing: [''], cyclic: [] });
    assert.deepEqual(new EnvironmentManager({ name: 'e', variables: { hole: 'x{{}}' } }).resolveDetailed('{{hole}}').missing, ['']);
    const spaces = new EnvironmentManager({ name: 'e', variables: { ' ': 'space' } });
    assert.deepEqual(spaces.resolveDetailed('{{ }}|{{}}'), { text: 'space|{{}}', missing: [''], cyclic: [] });
  });

  it('replaces dynamic variables with fresh values', () => {
    const text = manager.resolve('{{$guid}} {{$guid}} {{$timestamp}} {{$isoTimestamp}} {{$randomInt}} {{$randomUUID}}');
    const [guid1, guid2, timestamp, iso, randomInt, uuid] = text.split(' ');
    for (const id of [guid1, uuid]) assert.match(id!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(new Set([guid1, guid2, uuid]).size, 3);
    assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 60);
    assert.equal(new Date(iso!).toISOString(), iso);
    assert.ok(Number.isInteger(Number(randomInt)) && Number(randomInt) >= 0 && Number(randomInt) <= 1000);
    const overridden = new EnvironmentManager({ name: 'o', variables: { $guid: 'fixed' } });
    assert.equal(overridden.resolve('{{$guid}}'), 'fixed');
    assert.deepEqual(manager.resolveDetailed('{{$unknown}}').missing, ['$unknown']);
  });

  it('resolves a 1 MB template with many placeholders', () => {
    const unit = '{{host}}/{{missing}}/{{ port }}{ }}{{';
    const template = unit.repeat(Math.ceil((1 << 20) / unit.length));
    const result = manager.resolveDetailed(template);
    assert.equal(result.text, template.replaceAll('{{host}}', 'localhost').replaceAll('{{ port }}', '8080'));
    assert.deepEqual(result.missing, ['missing']);
  });

  it('fails with ResolveLimitError instead of growing past the cap', () => {
    const variables: Record<string, string> = { a0: 'x'.repeat(1000) };
    for (let i = 1; i <= 8; i += 1) variables[`a${i}`] = `{{a${i - 1}}}`.repeat(10);
    const bomb = new EnvironmentManager({ name: 'bomb', variables });
    assert.throws(() => bomb.resolve('{{a8}}'), (error: unknown) => error instanceof ResolveLimitError && error.limit === 1 << 20);
    assert.throws(() => bomb.resolve('{{a2}}', { maxGrowth: 50_000 }), ResolveLimitError);
    assert.equal(bomb.resolve('{{a2}}').length, 100_000);
    assert.throws(() => bomb.resolve('x'.repeat(20) + '{{a0}}', { maxGrowth: 10 }), ResolveLimitError);
  });

  it('caps what placeholders add, not the input: a long body with a few placeholders resolves', () => {
    const body = `{"host": "{{host}}", "blob": "${'x'.repeat(3 << 20)}"}`;
    assert.equal(manager.resolve(body), body.replace('{{host}}', 'localhost'));
    assert.equal(manager.resolve('y'.repeat(2 << 20), { maxGrowth: 0 }).length, 2 << 20);
  });

  it('refuses a cap that is not a number of characters', () => {
    for (const maxGrowth of [Number.NaN, -1, '10']) {
      assert.throws(() => manager.resolve('{{host}}', { maxGrowth: maxGrowth as number }), (error: unknown) => error instanceof InvalidArgumentError && /maxGrowth/.test(error.message));
    }
    assert.equal(manager.resolve('{{host}}', { maxGrowth: Number.POSITIVE_INFINITY }), 'localhost');
  });

  it('finds placeholder spans for highlighting', () => {
    assert.deepEqual([...scanPlaceholders('a{{b}}c{{ d }}{{{e}}}')], [
      { start: 1, end: 6, name: 'b' },
      { start: 7, end: 14, name: ' d ' },
      { start: 15, end: 20, name: 'e' },
    ]);
  });
});

describe('EnvironmentManager: bad input', () => {
  it('refuses environments without a usable name', () => {
    for (const bad of [{ name: '', variables: {} }, { name: '   ', variables: {} }, { name: 42, variables: {} }, { variables: {} }, null, 'prod', []]) {
      assert.throws(() => new EnvironmentManager(bad as unknown as Environment), ConfigError);
      assert.throws(() => new EnvironmentManager().add(bad as unknown as Environment), ConfigError);
    }
  });

  it('refuses non-string variable values and names no placeholder could reach, naming the field', () => {
    assert.throws(
      () => new EnvironmentManager({ name: 'x', variables: { port: 8080 as unknown as string } }),
      (error: unknown) => error instanceof ConfigError && error.field === 'environments[0].variables["port"]' && /must be a string.*got 8080/.test(error.message),
    );
    assert.throws(() => new EnvironmentManager({ name: 'x', variables: { 'a}b': '1' } }), ConfigError);
    assert.throws(() => new EnvironmentManager({ name: 'x', variables: { '': '1' } }), ConfigError);
    assert.throws(() => new EnvironmentManager({ name: 'x', variables: [] as unknown as Record<string, string> }), ConfigError);
  });

  it('refuses unknown fields and duplicate names at construction', () => {
    assert.throws(() => new EnvironmentManager({ name: 'x', variables: {}, values: [] } as unknown as Environment), /environments\[0\]\.values.*not a known field/);
    assert.throws(() => new EnvironmentManager(prod, { ...staging, name: 'prod' }), (error: unknown) => error instanceof ConfigError && error.field === 'environments[1].name');
  });

  it('refuses resolve options that are not an object, null included, as the signature says (options?: ResolveOptions)', () => {
    const manager = new EnvironmentManager(prod);
    for (const bad of [null, 42, 'fast']) {
      for (const resolve of [() => manager.resolve('{{token}}', bad as never), () => manager.resolveDetailed('{{token}}', bad as never)]) {
        assert.throws(resolve, (error: unknown) => error instanceof InvalidArgumentError && error.argument === 'options' && /or left out/.test(error.message));
      }
    }
    assert.equal(manager.resolve('{{token}}', undefined), 'p-123');
    assert.equal(manager.resolve('{{token}}', {}), 'p-123');
  });

  it('refuses a hole in a list of environments, naming its index', () => {
    const sparse = [, { name: 'A', variables: {} }] as unknown[];
    assert.throws(() => parseEnvironments(sparse), (error: unknown) => error instanceof ConfigError && error.field === 'environments[0]' && /hole/.test(error.message));
    assert.throws(() => parseEnvironments([prod, , staging]), (error: unknown) => error instanceof ConfigError && error.field === 'environments[1]');
  });

  it('refuses a resolve of something that is not a string', () => {
    const manager = new EnvironmentManager(prod);
    for (const bad of [undefined, null, 42, {}]) {
      assert.throws(() => manager.resolve(bad as unknown as string), InvalidArgumentError);
    }
  });
});

describe('EnvironmentManager: repeated resolves', () => {
  it('reports a missing variable every time, also inside a cached value', () => {
    const manager = new EnvironmentManager({ name: 'e', variables: { auth: 'Bearer {{secret}}', base: 'https://api.example' } });
    for (let run = 0; run < 3; run += 1) {
      assert.deepEqual(manager.resolveDetailed('{{auth}}'), { text: 'Bearer {{secret}}', missing: ['secret'], cyclic: [] });
      assert.deepEqual(manager.resolveDetailed('{{base}}/{{id}}').missing, ['id']);
      assert.deepEqual(manager.resolveDetailed('{{ping}}').missing, ['ping']);
    }
  });

  it('gives the same answer from the cache as without it, after every kind of change', () => {
    const manager = new EnvironmentManager({ name: 'a', variables: { x: '{{y}}', y: '1' } }, { name: 'b', variables: { x: '{{y}}' } });
    assert.equal(manager.resolve('{{x}}'), '1');
    manager.setActive('b');
    assert.deepEqual(manager.resolveDetailed('{{x}}'), { text: '{{y}}', missing: ['y'], cyclic: [] });
    manager.add({ name: 'b', variables: { x: '{{y}}', y: '2' } });
    assert.equal(manager.resolve('{{x}}'), '2');
  });
});
