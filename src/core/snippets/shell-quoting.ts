// Quoting for words of a bash or zsh command line that stay right when pasted into an interactive shell, where
// `$`, backticks and backslashes are live inside double quotes and `!` triggers history expansion.
import { INVISIBLE_CLASS, hex, isPlainText } from './invisible-characters.js';

// Characters no shell (bash, zsh, even with extended globbing) gives a meaning inside an unquoted word.
const PLAIN_WORD = /^[A-Za-z0-9\-._:/@%+,=]+$/;
// Line editing acts on these when pasted (a tab completes, CR ends the line, ESC starts a key sequence) and
// a terminal may act on them when it echoes the line; the others are invisible. Newlines are safe in quotes.
const NEEDS_ESCAPES = new RegExp(`(?!\\n)[${INVISIBLE_CLASS}]`, 'u');
const ANSI_C_SPECIAL = new RegExp(`['\\\\!]|(?!\\n)[${INVISIBLE_CLASS}]`, 'gu');
// Characters that double quotes leave live in an interactive shell.
const LIVE_IN_DOUBLE_QUOTES = /["$`\\!]/;
const NAMED_ESCAPES: Record<string, string> = { "'": "\\'", '\\': '\\\\', '\t': '\\t', '\r': '\\r' };

/**
 * `text` as one quoted shell word: single-quoted, or `$'…'` with escapes when it holds invisible characters.
 * `knownPrintable`: the caller knows `text` is printable ASCII and newlines, so the scan for them is skipped.
 */
export function quotedWord(text: string, knownPrintable = false): string {
  return !knownPrintable && !isPlainText(text, true) && NEEDS_ESCAPES.test(text) ? ansiCQuoted(text) : singleQuoted(text);
}

/** `text` (printable ASCII, as a checked method or URL is) as one shell word: bare when nothing in it is special, otherwise quoted. */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : singleQuoted(text);
}

/** True when `text` can sit inside double quotes unchanged, history expansion included. */
export function isDoubleQuoteSafe(text: string, knownPrintable = false): boolean {
  return !LIVE_IN_DOUBLE_QUOTES.test(text) && (knownPrintable || isPlainText(text, false) || !NEEDS_ESCAPES.test(text));
}

// Every character literal; `'` written as `'\''`. History expansion does not look inside single quotes.
function singleQuoted(text: string): string {
  // The search first: cheaper than replaceAll over a long body with no `'`, the usual case.
  return `'${text.includes("'") ? text.replaceAll("'", "'\\''") : text}'`;
}

// bash and zsh ANSI-C quoting. Escapes are UTF-8 bytes (`\xHH`), which do not depend on the locale as `\u`
// does; `!` is escaped too so no shell's history expansion can see it.
function ansiCQuoted(text: string): string {
  return `$'${text.replace(ANSI_C_SPECIAL, ansiCEscape)}'`;
}

function ansiCEscape(character: string): string {
  const named = NAMED_ESCAPES[character];
  if (named !== undefined) return named;
  return [...new TextEncoder().encode(character)].map((byte) => `\\x${hex(byte, 2)}`).join('');
}
