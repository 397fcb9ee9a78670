// The query of the URL field as rows of name and value, for the console's parameter table. The URL stays the one
// truth: rows are read from it on every render and an edit writes it back, every other character as it was typed.
import { mapTemplate } from '../../core/placeholders.js';

/** A URL split around its query: `head?query#fragment`, the query's `&`-separated parts as written. */
export interface SplitUrl {
  head: string;
  /** `name=value` parts as written, `undefined` without a `?`. */
  parts: string[] | undefined;
  /** From the `#` on, or empty. */
  fragment: string;
}

/** `text` with its placeholders blanked out, of the same length: the `&`, `#`, `?` or `=` in `{{a&b}}` ends nothing. */
export function blankedPlaceholders(text: string): string {
  return mapTemplate(text, (piece) => piece, (written) => ' '.repeat(written.length));
}

/** `url` split around its query; a `#`, `?` or `&` inside a placeholder splits nothing. */
export function splitQuery(url: string): SplitUrl {
  const seen = blankedPlaceholders(url);
  const hash = seen.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash);
  const end = hash < 0 ? url.length : hash;
  const question = seen.slice(0, end).indexOf('?');
  if (question < 0) return { head: url.slice(0, end), parts: undefined, fragment };
  const parts = [];
  let from = question + 1;
  for (let at = seen.indexOf('&', from); at >= 0 && at < end; at = seen.indexOf('&', from)) {
    parts.push(url.slice(from, at));
    from = at + 1;
  }
  parts.push(url.slice(from, end));
  return { head: url.slice(0, question), parts, fragment };
}

/** The URL again, without a `?` once no part is left. */
export function joinQuery({ head, parts, fragment }: SplitUrl): string {
  return `${head}${parts?.length ? `?${parts.join('&')}` : ''}${fragment}`;
}

/** A part as its row shows it: the name, and the value (`undefined` for a part without `=`, such as `?debug`). */
export function parameterOf(part: string): [name: string, value: string | undefined] {
  const equals = blankedPlaceholders(part).indexOf('=');
  return equals < 0 ? [part, undefined] : [part.slice(0, equals), part.slice(equals + 1)];
}

// What HTTP clients send differently (a space, a quote, brackets), and a `%` followed by what no escape starts with
// (`50% off`): the snippet refuses them, so a row writes them percent-encoded, as the snippet asks. Kept as typed:
// braces (they start placeholders), letters outside ASCII (read, not %E6%97%A5), and a `%` before a hex digit or at
// the end, which may be an escape being typed or edited (Backspace in `%20`).
const UNSENDABLE = /[\x00-\x20"<>\\^`|\x7F[\]]|%(?=[^\dA-Fa-f])/.source;
const NAME_ENDS = /[&#=]/g;
const VALUE_ENDS = /[&#]/g;
const IN_NAME = new RegExp(`${NAME_ENDS.source}|${UNSENDABLE}`, 'gu');
const IN_VALUE = new RegExp(`${VALUE_ENDS.source}|${UNSENDABLE}`, 'gu');

/** A name as its part writes it: what would end it (`&`, `#`, `=`) or what clients send differently, encoded. */
export const nameText = (name: string) => escaped(name, NAME_ENDS, IN_NAME);
/** A value as its part writes it: what would end it (`&`, `#`) or what clients send differently, encoded. */
export const valueText = (value: string) => escaped(value, VALUE_ENDS, IN_VALUE);

/**
 * The part a row's name and value write. What would end the part, the query or, in a name, the name (`&`, `#`,
 * `=`), and what clients send differently (a space, `"`, `[`) are percent-encoded; the rest is written
 * as typed, as in the URL field, placeholders included.
 */
export function partOf(name: string, value: string | undefined): string {
  return nameText(name) + (value === undefined ? '' : `=${valueText(value)}`);
}

/**
 * `text` with `all` percent-encoded outside its placeholders; from a `{{` not closed yet (one being typed, as
 * `{{ limit }}`), only `ends`.
 */
function escaped(text: string, ends: RegExp, all: RegExp): string {
  const encode = (piece: string) => {
    const open = piece.indexOf('{{');
    return open < 0 ? piece.replace(all, encodeURIComponent) : piece.slice(0, open).replace(all, encodeURIComponent) + piece.slice(open).replace(ends, encodeURIComponent);
  };
  return mapTemplate(text, encode, (written) => written);
}
