import { ConfigError } from './errors.js';
import { expectArray, expectKnownFields, expectPlainObject, expectString, setOwnProperty } from './validation.js';

/** A named set of variables. A variable named `base_url` holds the base address of the API. */
export interface Environment {
  /** Display name, and the key `setActive` selects by. */
  name: string;
  /** Variable name to value; `{{name}}` placeholders are replaced by these values. */
  variables: Record<string, string>;
}

/**
 * Checks an environment given by a site and returns a clean copy (own string values only).
 * `field` names it in errors, e.g. `environments[1]`.
 */
export function parseEnvironment(value: unknown, field = 'environment'): Environment {
  const input = expectPlainObject(value, field);
  // A Postman environment export, pasted as it is: its first unknown field (`id`) would not say what to change.
  if (Array.isArray(input.values) && input.variables === undefined) {
    throw new ConfigError(`${field}.values`, input.values, 'looks like a Postman export\'s list of { key, value }; give { name, variables } with variables as one object of name to value: Object.fromEntries(values.filter((v) => v.enabled !== false).map((v) => [v.key, v.value]))');
  }
  expectKnownFields(input, ['name', 'variables'], field);
  const name = expectString(input.name, `${field}.name`);
  if (name.trim() === '') throw new ConfigError(`${field}.name`, name, 'must be a non-empty name');
  const variables: Record<string, string> = {};
  if (input.variables !== undefined) {
    const given = expectPlainObject(input.variables, `${field}.variables`);
    for (const [key, raw] of Object.entries(given)) {
      const at = `${field}.variables[${JSON.stringify(key)}]`;
      const problem = variableNameProblem(key);
      if (problem) throw new ConfigError(at, key, problem);
      // JSON invites `"port": 8080`; a placeholder is text, so say how to write it as such.
      if (typeof raw === 'number' || typeof raw === 'boolean') throw new ConfigError(at, raw, `must be a string: write ${JSON.stringify(String(raw))}`);
      // Not assignment: a variable named `__proto__` must stay an ordinary variable.
      setOwnProperty(variables, key, expectString(raw, at));
    }
  }
  return { name, variables };
}

/** Why `name` cannot be a variable's, or undefined. */
export function variableNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '' || /[{}]/.test(name)) return 'a variable name must be non-empty and contain no braces, or no {{placeholder}} could refer to it';
}

/**
 * Refuses `name` beside an environment of `names` it matches but for white space (at its ends, or a run of it inside):
 * a select shows an option's text trimmed and collapsed, so the two would look alike. `field` names it in the error.
 */
export function expectDistinctEnvironmentName(name: string, names: Iterable<string>, field: string): void {
  const shown = (text: string) => text.trim().replace(/\s+/g, ' ');
  for (const other of names) {
    if (other !== name && shown(other) === shown(name)) {
      throw new ConfigError(field, name, `differs from the environment ${JSON.stringify(other)} only by white space, so the picker would show the two alike; write ${JSON.stringify(other)} to mean that one, or give it a name of its own`);
    }
  }
}

/** Checks a list of environments (config or constructor arguments): each valid, no name twice, even as a select shows it. */
export function parseEnvironments(values: readonly unknown[], field = 'environments'): Environment[] {
  const seen = new Set<string>();
  return expectArray(values, field).map((value, index) => {
    const environment = parseEnvironment(value, `${field}[${index}]`);
    if (seen.has(environment.name)) {
      throw new ConfigError(`${field}[${index}].name`, environment.name, 'duplicates the name of an earlier environment; names must be unique');
    }
    expectDistinctEnvironmentName(environment.name, seen, `${field}[${index}].name`);
    seen.add(environment.name);
    return environment;
  });
}
