import { hex } from './invisible-characters.js';

/**
 * `character` (or `${`) escaped as the C-like string syntaxes of JavaScript, Go, Python and PHP all read it:
 * `\n`, `\r`, `\t`, a backslash before ASCII punctuation, and `unicode(codePoint)` for the rest. Each writer's
 * regex picks which characters to escape.
 */
export function backslashEscape(character: string, unicode: (codePoint: number) => string): string {
  const named = '\n\r\t'.indexOf(character);
  if (named >= 0) return `\\${'nrt'[named]}`;
  const codePoint = character.codePointAt(0)!;
  return codePoint > 0x20 && codePoint < 0x7f ? `\\${character}` : unicode(codePoint);
}

/** Go's and Python's spelling of a code point: `\uXXXX`, or `\UXXXXXXXX` past the BMP. */
export function fixedWidthUnicode(codePoint: number): string {
  return codePoint > 0xffff ? `\\U${hex(codePoint, 8)}` : `\\u${hex(codePoint, 4)}`;
}

/** `text` with a backslash before each `'` and `\`: the body of a Python or PHP single-quoted string. */
export function escapeSingleQuoted(text: string): string {
  // Two searches (fast native scans) spare the regex pass when there is nothing to escape, as in most bodies.
  return text.includes("'") || text.includes('\\') ? text.replace(/['\\]/g, '\\$&') : text;
}
