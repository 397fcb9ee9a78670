import { dynamicVariableValue } from './dynamic-variables.js';
import { expectDistinctEnvironmentName, parseEnvironment, parseEnvironments, type Environment } from './environment.js';
import { ConfigError, EnvironmentNotFoundError, InvalidArgumentError, ResolveLimitError } from './errors.js';
import { expectListener, notifySubscribers } from './listeners.js';
import { TemplateCache, type TemplatePart } from './placeholders.js';

/** What `resolveDetailed` returns: the text, and the placeholders it had to leave as written. */
export interface ResolveResult {
  text: string;
  /**
   * Names the active environment does not define, in order of first use, without duplicates. An empty placeholder
   * (`{{}}`, `{{ }}`) names no variable and is listed as `''`.
   */
  missing: string[];
  /** Names left as written because they refer back to themselves, or nest more than 10 levels deep. */
  cyclic: string[];
}

export interface ResolveOptions {
  /**
   * Most characters (UTF-16 code units) the placeholders may add to the input; past it, `ResolveLimitError`.
   * The input's own length does not count, so a long body with a few placeholders resolves like a short one. The same cap,
   * plus the input's length, holds for the pieces of values gone through again at each use (those holding a dynamic,
   * missing or cyclic placeholder), which may add nothing.
   * @default 1_048_576 (1 MiB)
   */
  maxGrowth?: number;
}

/** Values may hold placeholders of their own; past this depth we stop expanding, as for a cycle. */
const MAX_DEPTH = 10;
const DEFAULT_MAX_GROWTH = 1 << 20;

/**
 * Holds named environments, tracks the active one and replaces `{{variable}}` placeholders with its
 * values. Compatible with Postman's placeholders, so users can paste Postman environments.
 *
 * @example
 * const envs = new EnvironmentManager({ name: 'prod', variables: { base_url: 'https://api.example' } });
 * envs.resolve('{{base_url}}/users'); // 'https://api.example/users'
 */
export class EnvironmentManager {
  /** In registration order. Maps, not objects, so `{{__proto__}}` can never reach a prototype. */
  #environments = new Map<string, Map<string, string>>();
  /** Undefined until `setActive`: then the first environment is the active one. */
  #activeName: string | undefined;
  #listeners = new Set<() => void>();
  readonly #templates = new TemplateCache();
  /** Stable expansions of the active environment's variables; emptied whenever anything changes. */
  #expansions = new Map<string, StableExpansion>();

  constructor(...environments: Environment[]) {
    if (environments.length === 1 && Array.isArray(environments[0])) {
      throw new ConfigError('environments[0]', environments[0], 'is a list, and the constructor takes the environments one by one: write new EnvironmentManager(...environments)');
    }
    for (const { name, variables } of parseEnvironments(environments)) this.#environments.set(name, new Map(Object.entries(variables)));
  }

  /** The selected environment (a copy), or `undefined` when none is registered. */
  active(): Environment | undefined {
    const name = this.#currentName();
    return name === undefined ? undefined : this.#copy(name);
  }

  /**
   * Selects the environment with exactly this name.
   * @throws EnvironmentNotFoundError when no environment has the name; the active one stays as it was.
   */
  setActive(name: string): void {
    if (typeof name !== 'string' || !this.#environments.has(name)) {
      throw new EnvironmentNotFoundError(String(name), [...this.#environments.keys()]);
    }
    this.#activeName = name;
    this.#notify();
  }

  /**
   * Registers an environment. A name that exists already has its variables replaced in place: it keeps
   * its position, and stays active if it was.
   * @throws ConfigError when the environment is invalid, or its name differs from an existing one only by white space
   * at its ends.
   */
  add(environment: Environment): void {
    const { name, variables } = parseEnvironment(environment);
    expectDistinctEnvironmentName(name, this.#environments.keys(), 'environment.name');
    this.#environments.set(name, new Map(Object.entries(variables)));
    this.#notify();
  }

  /** All environments in registration order, as copies: changing them changes nothing here. */
  list(): Environment[] {
    return [...this.#environments.keys()].map((name) => this.#copy(name));
  }

  /**
   * Replaces each `{{variable}}` with the active environment's value. A placeholder whose variable is
   * missing stays exactly as written; `resolveDetailed` also reports which ones.
   */
  resolve(input: string, options?: ResolveOptions): string {
    return this.resolveDetailed(input, options).text;
  }

  /**
   * Resolves like `resolve`, and reports the placeholders left as written, so a console can mark them
   * and refuse to send in strict mode.
   * @throws ResolveLimitError when the placeholders would add more than `options.maxGrowth` characters, or go through
   * values again past it (see `maxGrowth`).
   * @throws InvalidArgumentError when `input` is not a string, or `options` is given and not an object.
   */
  resolveDetailed(input: string, options?: ResolveOptions): ResolveResult {
    if (typeof input !== 'string') throw new InvalidArgumentError('input', input, 'resolve takes a string');
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw new InvalidArgumentError('options', options, 'must be an object such as { maxGrowth: 100_000 }, or left out');
    }
    // A misspelt option would resolve under the default cap without a word.
    for (const key of options === undefined ? [] : Object.keys(options)) {
      if (key !== 'maxGrowth') throw new InvalidArgumentError(`options.${key}`, (options as Record<string, unknown>)[key], 'is not a known option; known: maxGrowth');
    }
    const maxGrowth = options?.maxGrowth ?? DEFAULT_MAX_GROWTH;
    if (typeof maxGrowth !== 'number' || !(maxGrowth >= 0)) {
      throw new InvalidArgumentError('options.maxGrowth', maxGrowth, 'must be a number of characters, 0 or more (Infinity for no cap)');
    }
    const name = this.#currentName();
    const variables = name === undefined ? new Map<string, string>() : this.#environments.get(name)!;
    return new Resolution(variables, this.#expansions, this.#templates, input.length + maxGrowth, maxGrowth).run(input);
  }

  /**
   * Calls `listener` after every change of the environments or of the active one. Returns the unsubscribe.
   * @throws InvalidArgumentError when `listener` is not a function.
   */
  subscribe(listener: () => void): () => void {
    expectListener(listener);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #currentName(): string | undefined {
    return this.#activeName ?? this.#environments.keys().next().value;
  }

  #copy(name: string): Environment {
    return { name, variables: Object.fromEntries(this.#environments.get(name)!) };
  }

  #notify(): void {
    this.#expansions = new Map();
    notifySubscribers(this.#listeners);
  }
}

/** An expansion, and how many variables deep it had to go (0 for text without any). */
interface Expansion {
  text: string;
  /** False when the result depends on where it was expanded, or is random. */
  stable: boolean;
  depth: number;
}

/** A variable's stable expansion, kept with the nesting depth it needs. */
interface StableExpansion {
  text: string;
  depth: number;
}

/** One resolve call. Expansions that hold no cycle and no dynamic variable are kept per environment. */
class Resolution {
  readonly #variables: ReadonlyMap<string, string>;
  readonly #limit: number;
  readonly #maxGrowth: number;
  readonly #templates: TemplateCache;
  /** Expansions that are the same wherever they appear (no cycle, no dynamic or missing variable inside). */
  readonly #stable: Map<string, StableExpansion>;
  readonly #expanding: string[] = [];
  /** Variables expanded so far in this call. */
  readonly #expanded = new Set<string>();
  /** Parts of values gone through again (see `#variable`), counted against the cap. */
  #partsAgain = 0;
  #missing: Set<string> | undefined;
  #cyclic: Set<string> | undefined;

  constructor(variables: ReadonlyMap<string, string>, stable: Map<string, StableExpansion>, templates: TemplateCache, limit: number, maxGrowth: number) {
    this.#variables = variables;
    this.#stable = stable;
    this.#templates = templates;
    this.#limit = limit;
    this.#maxGrowth = maxGrowth;
  }

  run(input: string): ResolveResult {
    const { text } = this.#expand(this.#templates.get(input));
    return { text, missing: this.#missing ? [...this.#missing] : [], cyclic: this.#cyclic ? [...this.#cyclic] : [] };
  }

  #expand(parts: TemplatePart[]): Expansion {
    let text = '';
    let stable = true;
    let depth = 0;
    for (const part of parts) {
      if (typeof part === 'string') {
        text += part;
      } else {
        const name = this.#variables.has(part.name) ? part.name : this.#variables.has(part.trimmed) ? part.trimmed : undefined;
        const expansion = name === undefined ? this.#unknown(part) : this.#variable(name, part.literal);
        if (!expansion.stable) stable = false;
        depth = Math.max(depth, expansion.depth);
        text += expansion.text;
      }
      if (text.length > this.#limit) throw new ResolveLimitError(this.#maxGrowth);
    }
    return { text, stable, depth };
  }

  #variable(name: string, literal: string): Expansion {
    // A cached expansion stands only where it fits in the depth left: the result must not depend on what an
    // earlier resolve happened to expand first.
    const known = this.#stable.get(name);
    if (known !== undefined && this.#expanding.length + known.depth <= MAX_DEPTH) return { ...known, stable: true };
    if (this.#expanding.includes(name) || this.#expanding.length >= MAX_DEPTH) {
      (this.#cyclic ??= new Set()).add(name);
      return { text: literal, stable: false, depth: 0 };
    }
    const parts = this.#templates.get(this.#variables.get(name)!);
    // A value expanded at each use (it holds a dynamic, missing or cyclic placeholder) is gone through each time, adding
    // little or nothing where its placeholders are empty: uncounted, a value of many such, used many times, took minutes.
    if (this.#expanded.has(name) && (this.#partsAgain += parts.length) > this.#limit) throw new ResolveLimitError(this.#maxGrowth, true);
    this.#expanded.add(name);
    this.#expanding.push(name);
    const inner = this.#expand(parts);
    this.#expanding.pop();
    const expansion = { text: inner.text, stable: inner.stable, depth: inner.depth + 1 };
    if (inner.stable) this.#stable.set(name, { text: expansion.text, depth: expansion.depth });
    return expansion;
  }

  /**
   * A dynamic variable gets a fresh value; any other unknown name stays as written and is reported, the empty one
   * too: strict mode must refuse `{{}}` as it refuses any placeholder left as written.
   */
  #unknown(part: { literal: string; trimmed: string }): Expansion {
    const dynamic = dynamicVariableValue(part.trimmed);
    if (dynamic !== undefined) return { text: dynamic, stable: false, depth: 0 };
    (this.#missing ??= new Set()).add(part.trimmed);
    // Not stable: a cached expansion would hide this name from the next resolve's `missing`.
    return { text: part.literal, stable: false, depth: 0 };
  }
}
