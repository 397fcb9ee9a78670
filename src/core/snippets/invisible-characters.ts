// Characters a reader cannot see or tell apart: controls, format characters (ZWJ, BOM, bidi marks), spaces other
// than U+0020, line and paragraph separators, private-use and unassigned code points. The string literals of the
// language snippets spell them as escapes, so the snippet shows them and no editor or terminal drops or changes them.

// `(?:…+)?` rather than `*`: V8's loop over a long text is about a third faster.
const PRINTABLE_OR_NEWLINE = /^(?:[\x20-\x7E\n]+)?$/;
const PRINTABLE = /^(?:[\x20-\x7E]+)?$/;

/**
 * A regex pattern (for the `u` flag) matching one invisible character: every "other" (C) and separator (Z)
 * character but the space. Surrogates are in C too, but only lone ones, which the request checks refuse.
 */
export const INVISIBLE = '(?! )[\\p{C}\\p{Z}]';
const INVISIBLE_BUT_NEWLINE = new RegExp(`(?!\\n)${INVISIBLE}`, 'u');

/** True when `text` holds an invisible character other than a newline: one that needs an escape to be seen. */
export function hasInvisibleBesidesNewline(text: string): boolean {
  return INVISIBLE_BUT_NEWLINE.test(text);
}

/** `codePoint` as uppercase hexadecimal, zero-padded to `width` digits. */
export function hex(codePoint: number, width: number): string {
  return codePoint.toString(16).toUpperCase().padStart(width, '0');
}

/** The UTF-8 bytes of `text`, each written as `prefix` and two hex digits (`%C3%A9`, `\xC3\xA9`). */
export function utf8Escapes(text: string, prefix: string): string {
  return [...new TextEncoder().encode(text)].map((byte) => prefix + hex(byte, 2)).join('');
}

/**
 * True for printable ASCII, plus newlines when `newlines` is set: text with no invisible character at all. A
 * fast test (the Unicode classes above are slow to scan), so the common case skips them.
 */
export function isPlainText(text: string, newlines: boolean): boolean {
  return (newlines ? PRINTABLE_OR_NEWLINE : PRINTABLE).test(text);
}
