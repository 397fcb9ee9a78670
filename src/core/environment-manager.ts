import { dynamicVariableValue } from './dynamic-variables.js';
import { parseEnvironment, parseEnvironments, type Environment } from './environment.js';
import { EnvironmentNotFoundError, InvalidArgumentError, ResolveLimitError } from './errors.js';
import { TemplateCache } from './placeholders.js';

/** What `resolveDetailed` returns: the text, and the placeholders it had to leave as written. */
export interface ResolveResult {
  text: string;
  /** Names the active environment does not define, in order of first use, without duplicates. */
  missing: string[];
  /** Names left as written because they refer back to themselves, or nest deeper than `maxDepth`. */
  cyclic: string[];
}

export interface ResolveOptions {
  /**
   * Longest text a resolve may produce, in UTF-16 code units; past it, `ResolveLimitError`.
   * @default 1_048_576 (1 MiB)
   */
  maxLength?: number;
}

/** Values may hold placeholders of their own; past this depth we stop expanding, as for a cycle. */
const MAX_DEPTH = 10;
const DEFAULT_MAX_LENGTH = 1 << 20;

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
  #expansions = new Map<string, string>();

  constructor(...environments: Environment[]) {
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
   */
  add(environment: Environment): void {
    const { name, variables } = parseEnvironment(environment);
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
   * @throws ResolveLimitError when the text would grow past `options.maxLength`.
   */
  resolveDetailed(input: string, options: ResolveOptions = {}): ResolveResult {
    if (typeof input !== 'string') throw new InvalidArgumentError('input', input, 'resolve takes a string');
    const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
    const name = this.#currentName();
    const variables = name === undefined ? new Map<string, string>() : this.#environments.get(name)!;
    return new Resolution(variables, this.#expansions, this.#templates, maxLength).run(input);
  }

  /** Calls `listener` after every change of the environments or of the active one. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
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
    for (const listener of this.#listeners) listener();
  }
}

/** One resolve call. Expansions that hold no cycle and no dynamic variable are kept per environment. */
class Resolution {
  readonly #variables: ReadonlyMap<string, string>;
  readonly #maxLength: number;
  readonly #templates: TemplateCache;
  /** Expansions that are the same wherever they appear (no cycle, no dynamic or missing variable inside). */
  readonly #stable: Map<string, string>;
  readonly #expanding: string[] = [];
  #missing: Set<string> | undefined;
  #cyclic: Set<string> | undefined;

  constructor(variables: ReadonlyMap<string, string>, stable: Map<string, string>, templates: TemplateCache, maxLength: number) {
    this.#variables = variables;
    this.#stable = stable;
    this.#templates = templates;
    this.#maxLength = maxLength;
  }

  run(input: string): ResolveResult {
    const { text } = this.#expand(input);
    return { text, missing: this.#missing ? [...this.#missing] : [], cyclic: this.#cyclic ? [...this.#cyclic] : [] };
  }

  /** `stable` is false when the result depends on where it was expanded, or is random. */
  #expand(template: string): { text: string; stable: boolean } {
    let text = '';
    let stable = true;
    for (const part of this.#templates.get(template)) {
      if (typeof part === 'string') {
        text += part;
      } else {
        const name = this.#variables.has(part.name) ? part.name : this.#variables.has(part.trimmed) ? part.trimmed : undefined;
        const expansion = name === undefined ? this.#unknown(part) : this.#variable(name, part.literal);
        if (!expansion.stable) stable = false;
        text += expansion.text;
      }
      if (text.length > this.#maxLength) throw new ResolveLimitError(this.#maxLength);
    }
    return { text, stable };
  }

  #variable(name: string, literal: string): { text: string; stable: boolean } {
    const known = this.#stable.get(name);
    if (known !== undefined) return { text: known, stable: true };
    if (this.#expanding.includes(name) || this.#expanding.length >= MAX_DEPTH) {
      (this.#cyclic ??= new Set()).add(name);
      return { text: literal, stable: false };
    }
    this.#expanding.push(name);
    const inner = this.#expand(this.#variables.get(name)!);
    this.#expanding.pop();
    if (inner.stable) this.#stable.set(name, inner.text);
    return inner;
  }

  /** A dynamic variable gets a fresh value; any other unknown name stays as written and is reported. */
  #unknown(part: { literal: string; trimmed: string }): { text: string; stable: boolean } {
    const dynamic = dynamicVariableValue(part.trimmed);
    if (dynamic !== undefined) return { text: dynamic, stable: false };
    if (part.trimmed !== '') (this.#missing ??= new Set()).add(part.trimmed);
    // Not stable: a cached expansion would hide this name from the next resolve's `missing`.
    return { text: part.literal, stable: false };
  }
}
