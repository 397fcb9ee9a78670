// Why placeholders stayed as written, and what to do: in the refusal of a strict send, beside a value that failed a
// check, and in the response to a send that went out with them. Apart from request-preparation, whose exports are the
// public core's: these only word messages.
import { dynamicVariableNames } from './dynamic-variables.js';
import type { Environment } from './environment.js';
import type { EnvironmentManager } from './environment-manager.js';
import { scanPlaceholders } from './placeholders.js';
import type { PreparedRequest } from './request-preparation.js';

/** Why the placeholders stayed as written, and what to do: empty ones, undefined names and cycles need different fixes. */
export function unresolvedExplanation(missing: readonly string[], cyclic: readonly string[], environment: Environment | undefined): string {
  const placeholders = (names: readonly string[]) => names.map((name) => `{{${name}}}`).join(', ');
  const undefinedNames = missing.filter((name) => name !== '');
  const sentences: string[] = [];
  if (missing.includes('')) {
    sentences.push('{{}} is an empty placeholder (nothing but spaces, if anything, between its braces), so it names no variable. Write a variable\'s name between the braces, or remove them.');
  }
  if (undefinedNames.length > 0) {
    const one = undefinedNames.length === 1;
    sentences.push(environment
      ? `${placeholders(undefinedNames)} ${one ? 'has' : 'have'} no value in environment "${environment.name}". Define ${one ? 'it' : 'them'} there, or pick another environment.`
      : `${placeholders(undefinedNames)} ${one ? 'has' : 'have'} no value: there is no environment to define ${one ? 'it' : 'them'} in. Add one to the configuration's environments, or write the value${one ? '' : 's'} in place.`);
    sentences.push(...undefinedNames.map((name) => likelyMeant(name, environment, one)).filter((hint) => hint !== ''));
  }
  if (cyclic.length > 0) {
    const one = cyclic.length === 1;
    sentences.push(`${placeholders(cyclic)} ${one ? 'refers' : 'refer'} back to ${one ? 'itself' : 'themselves'} through ${one ? 'its value' : 'their values'}, or ${one ? 'nests' : 'nest'} more than 10 levels deep. Change ${one ? 'that value' : 'those values'} to end in plain text.`);
  }
  return sentences.join(' ');
}

/**
 * For a response's warnings: the placeholders a request went out with as written (strictVariables off), where they
 * were (the URL, a header by name, the body) and why, or `undefined` when none went out. Names only, never values.
 */
export function unresolvedSentWarning(request: Pick<PreparedRequest, 'url' | 'headers' | 'body' | 'missing' | 'cyclic'>, environments: EnvironmentManager): string | undefined {
  const { missing = [], cyclic = [] } = request;
  if (missing.length === 0 && cyclic.length === 0) return undefined;
  // Looked for in what was sent: a before-send handler may have filled one in.
  const places = new Map<string, string[]>();
  const look = (text: string | undefined, place: string) => {
    for (const { name } of scanPlaceholders(text ?? '')) {
      const at = places.get(name.trim()) ?? [];
      if (!at.includes(place)) places.set(name.trim(), [...at, place]);
    }
  };
  look(request.url, 'the URL');
  for (const [name, value] of Object.entries(request.headers)) look(value, `the ${name} header`);
  look(request.body, 'the body');
  // Trimmed as the places are: a cyclic name is the variable's, which may be one with spaces around it (`{{ a }}`).
  const sent = (names: readonly string[]) => names.filter((name) => places.has(name.trim()));
  const [missingSent, cyclicSent] = [sent(missing), sent(cyclic)];
  const named = [...missingSent, ...cyclicSent].map((name) => `{{${name}}} (in ${places.get(name.trim())!.join(', ')})`);
  if (named.length === 0) return undefined;
  return `Sent with ${named.join(', ')} as written: the API got the braces, not a value. ${unresolvedExplanation(missingSent, cyclicSent, environments.active())}`;
}

/**
 * What an undefined `name` likely meant, as a sentence ('' when nothing comes close): a variable of the environment
 * spelt alike but for case, `_`, `-` and spaces (`baseUrl` for `base_url`), or one of the dynamic variables.
 */
function likelyMeant(name: string, environment: Environment | undefined, alone: boolean): string {
  if (name.startsWith('$')) return `The dynamic variables are ${dynamicVariableNames.map((known) => `{{${known}}}`).join(', ')}.`;
  const near = speltAlike(name, environment);
  return near === undefined ? '' : `Did you mean {{${near}}}${alone ? '' : ` for {{${name}}}`}?`;
}

/** The environment's variable named as `name` but for case, `_`, `-` and spaces. */
export function speltAlike(name: string, environment: Environment | undefined): string | undefined {
  const loose = (text: string) => text.toLowerCase().replace(/[\s_-]/g, '');
  return Object.keys(environment?.variables ?? {}).find((defined) => loose(defined) === loose(name));
}
