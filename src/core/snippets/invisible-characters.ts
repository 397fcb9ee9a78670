// Characters a reader cannot see or tell apart: controls, format characters (ZWJ, BOM, bidi marks), spaces other
// than U+0020, line and paragraph separators, private-use and unassigned code points. The string literals of the
// language snippets spell them as escapes, so the snippet shows them and no editor or terminal drops or changes them.

/** The character-class body (for use inside `[...]` with the `u` flag) of the invisible characters. */
export const INVISIBLE_CLASS = '\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u3000';

const PRINTABLE = /^[\x20-\x7E]*$/;
const PRINTABLE_OR_NEWLINE = /^[\x20-\x7E\n]*$/;

/** `codePoint` as uppercase hexadecimal, zero-padded to `width` digits. */
export function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).toUpperCase().padStart(width, '0');
}

/**
 * True for printable ASCII, plus newlines when `newlines` is set: text with no invisible character at all. A
 * fast test (the Unicode classes above are slow to scan), so the common case skips them.
 */
export function isPlainText(text: string, newlines: boolean): boolean {
  return (newlines ? PRINTABLE_OR_NEWLINE : PRINTABLE).test(text);
}
