// The query of the URL field as rows of name and value, for the console's parameter table. The URL stays the one
// truth: rows are read from it on every render and an edit writes it back, every other character as it was typed.

/** A URL split around its query: `head?query#fragment`, the query's `&`-separated parts as written. */
export interface SplitUrl {
  head: string;
  /** `name=value` parts as written, `undefined` without a `?`. */
  parts: string[] | undefined;
  /** From the `#` on, or empty. */
  fragment: string;
}

export function splitQuery(url: string): SplitUrl {
  const hash = url.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash);
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const question = beforeFragment.indexOf('?');
  if (question < 0) return { head: beforeFragment, parts: undefined, fragment };
  return { head: beforeFragment.slice(0, question), parts: beforeFragment.slice(question + 1).split('&'), fragment };
}

/** The URL again, without a `?` once no part is left. */
export function joinQuery({ head, parts, fragment }: SplitUrl): string {
  return `${head}${parts?.length ? `?${parts.join('&')}` : ''}${fragment}`;
}

/** A part as its row shows it: the name, and the value (`undefined` for a part without `=`, such as `?debug`). */
export function parameterOf(part: string): [name: string, value: string | undefined] {
  const equals = part.indexOf('=');
  return equals < 0 ? [part, undefined] : [part.slice(0, equals), part.slice(equals + 1)];
}

/**
 * The part a row's name and value write. What would end the part, the query or, in a name, the name (`&`, `#`,
 * `=`) is percent-encoded, so a value typed as `a&b` is sent as one value; the rest is written as typed, as in the
 * URL field.
 */
export function partOf(name: string, value: string | undefined): string {
  return escaped(name, /[&#=]/g) + (value === undefined ? '' : `=${escaped(value, /[&#]/g)}`);
}

const escaped = (text: string, characters: RegExp) => text.replace(characters, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
