// Why placeholders stayed as written, and what to do: in the refusal of a strict send, beside a value that failed a
// check, and in the response to a send that went out with them; and what else goes out as written by a slip (a
// placeholder a brace short, the marker of a value history did not keep). Apart from request-preparation, whose
// exports are the public core's: these only word messages.
import { dynamicVariableNames } from './dynamic-variables.js';
import type { Environment } from './environment.js';
import type { EnvironmentManager } from './environment-manager.js';
import { REDACTED } from './history-config.js';
import { mapTemplate, scanPlaceholders } from './placeholders.js';
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
  const places = placeholderPlaces(request);
  // Trimmed as the places are: a cyclic name is the variable's, which may be one with spaces around it (`{{ a }}`).
  const sent = (names: readonly string[]) => names.filter((name) => places.has(name.trim()));
  const [missingSent, cyclicSent] = [sent(missing), sent(cyclic)];
  const named = [...missingSent, ...cyclicSent].map((name) => `{{${name}}} (in ${places.get(name.trim())!.join(', ')})`);
  if (named.length === 0) return undefined;
  return `Sent with ${named.join(', ')} as written: the API got the braces, not a value. ${unresolvedExplanation(missingSent, cyclicSent, environments.active())}`;
}

/**
 * For the refusal of a strict send: where the placeholders left as written are, as a sentence ("{{token}} is in the
 * Authorization header."), or '' when all are in the URL, which the reader has in view.
 */
export function unresolvedPlaces(request: Pick<PreparedRequest, 'url' | 'headers' | 'body'>, names: readonly string[]): string {
  const places = placeholderPlaces(request);
  const placed = names.filter((name) => places.has(name.trim())).map((name) => [name, places.get(name.trim())!] as const);
  if (placed.every(([, at]) => at.length === 1 && at[0] === 'the URL')) return '';
  return ` ${placed.map(([name, at]) => `{{${name}}} is in ${at.join(' and ')}`).join('; ')}.`;
}

/** Each placeholder's name, trimmed, with the places that hold it: the URL, a header by name, the body. */
function placeholderPlaces(request: Pick<PreparedRequest, 'url' | 'headers' | 'body'>): Map<string, string[]> {
  const places = new Map<string, string[]>();
  // A header name holding one is refused as no token, in every mode: only a strict send gets to name it.
  const names = Object.keys(request.headers).map((name): [string, string] => [`the header name ${name}`, name]);
  for (const [place, text] of [...placedTexts(request), ...names]) {
    for (const { name } of scanPlaceholders(text)) {
      const at = places.get(name.trim()) ?? [];
      if (!at.includes(place)) places.set(name.trim(), [...at, place]);
    }
  }
  return places;
}

/**
 * For the warnings, while the request is edited and in its response: where it holds a placeholder a brace short
 * (`Bearer {{token}`), and the fix. Sent all the same (a body may be a template), but in strict mode; in the URL, a
 * send refuses it.
 */
export function brokenPlaceholderWarnings(request: Pick<PreparedRequest, 'url' | 'headers' | 'body'>): string[] {
  return brokenPlaceholderPlaces(request).map((told) => `T${told.slice(1)}; otherwise the API gets the braces, not a value.`);
}

/** Where `request` holds a placeholder a brace short, each as "the body holds {{a}, which … write {{a}}". */
export function brokenPlaceholderPlaces(request: Pick<PreparedRequest, 'url' | 'headers' | 'body'>): string[] {
  return placedTexts(request).flatMap(([place, text]) => {
    const broken = brokenPlaceholders(text);
    return broken.length === 0 ? [] : [`${place} holds ${brokenPlaceholderAdvice(broken)}`];
  });
}

/**
 * For a response refusing the request (400 or more): where it held the marker of a value history did not keep
 * (`Bearer [redacted]`, loaded back from history), or `undefined`. Not for one that succeeded, as the console's note
 * about the marker goes then: the API did without the value.
 */
export function redactedSentWarning(request: Pick<PreparedRequest, 'url' | 'headers' | 'body'>): string | undefined {
  // A query parameter's row writes "[" and "]" percent-encoded once edited.
  const places = placedTexts(request).filter(([, text]) => text.includes(REDACTED) || text.includes(encodeURIComponent(REDACTED)));
  if (places.length === 0) return undefined;
  return `Sent with ${REDACTED} (in ${places.map(([place]) => place).join(', ')}) as written: it marks a value the history did not keep. Type that value in its place, and send again.`;
}

/** The request's texts, each with where it is: the URL, a header by name, the body. */
function placedTexts({ url, headers, body }: Pick<PreparedRequest, 'url' | 'headers' | 'body'>): [place: string, text: string][] {
  return [['the URL', url], ...Object.entries(headers).map(([name, value]): [string, string] => [`the ${name} header`, value]), ['the body', body ?? '']];
}

/**
 * Text meant as a placeholder but a brace short (`{{pet_id}`, `{{token`, `{ token }}`), as written, each once. Only
 * in a text whose braces do not pair up: a placeholder's own do, and so do JSON's and GraphQL's (`{me{name}}`), so a
 * missing brace leaves one unpaired. `{{{x}}}` holds the placeholder `{{x}}` (as in Postman), and is none of these.
 */
export function brokenPlaceholders(text: string): string[] {
  if (!text.includes('{')) return [];
  let unpaired = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x7b /* { */) unpaired += 1;
    else if (code === 0x7d /* } */) unpaired -= 1;
  }
  if (unpaired === 0) return [];
  return [...new Set(withoutPlaceholders(text).match(NEAR_PLACEHOLDER))];
}

/** Two braces, a name and at most one brace; or one brace, a name and two. */
const NEAR_PLACEHOLDER = /\{\{[\t ]*[\p{L}\p{N}_$.-]+(?:[\t ]*\})?|(?<!\{)\{[\t ]*[\p{L}\p{N}_$.-]+[\t ]*\}\}/gu;

/** What `brokenPlaceholders` found, as words: "{{a}, which is not a placeholder (…): write {{a}}". The first three. */
export function brokenPlaceholderAdvice(broken: readonly string[]): string {
  const shown = broken.slice(0, 3);
  const fixed = shown.map((written) => `{{${written.replace(/^\{+|\}+$/g, '')}}}`);
  const one = shown.length === 1;
  return `${shown.join(', ')}, which ${one ? 'is not a placeholder' : 'are not placeholders'} (a placeholder has two braces on each side): write ${fixed.join(', ')}`;
}

/**
 * For a URL holding a placeholder a brace short (`/pets/{{pet_id}`): refused, by a send and a template alike, since it
 * would go out percent-encoded (`/pets/%7B%7Bpet_id%7D`), which no API route matches. `undefined` for any other URL.
 */
export function brokenPlaceholderProblem(url: string): string | undefined {
  const broken = brokenPlaceholders(url);
  return broken.length === 0 ? undefined : `The URL holds ${brokenPlaceholderAdvice(broken)}.`;
}

/**
 * For a URL written with a path parameter as OpenAPI writes it (`/pets/{petId}`, copied from a docs page): refused as
 * a placeholder a brace short is, since no route matches /pets/%7BpetId%7D. Read from the URL as written, where a
 * placeholder in braces (`{{{x}}}`, sent as `{value}` on purpose) is no such thing. `undefined` for any other URL.
 */
export function pathParameterProblem(written: string): string | undefined {
  const parameter = PATH_PARAMETER.exec(withoutPlaceholders(written).split(/[?#]/, 1)[0]!)?.[1];
  return parameter && `The URL holds {${parameter}}, a path parameter as OpenAPI writes it, which would be sent as %7B${parameter}%7D: write {{${parameter}}} for a variable's value, or the value itself.`;
}

/**
 * `text` with each placeholder as a character that neither continues a name nor is a brace: the braces left are the
 * ones no placeholder holds (`{{a}}{b}}` still shows `{b}}`).
 */
function withoutPlaceholders(text: string): string {
  return mapTemplate(text, (piece) => piece, () => '\0');
}

/** `{name}` with one brace on each side, not a placeholder a brace short (`{{name}`), which is told as such. */
const PATH_PARAMETER = /(?<!\{)\{([\p{L}\p{N}_$.-]+)\}(?!\})/u;

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
