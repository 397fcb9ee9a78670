// Quoting for words of a bash or zsh command line that stay right when pasted into an interactive shell, where
// `$`, backticks and backslashes are live inside double quotes and `!` triggers history expansion.
import { backslashEscape } from './backslash-escapes.js';
import { INVISIBLE, hasInvisibleBesidesNewline, utf8Escapes } from './invisible-characters.js';

// Characters that double quotes leave live in an interactive shell.
const LIVE_IN_DOUBLE_QUOTES = /["$`\\!]/;

// Characters no shell (bash, zsh, even with extended globbing) gives a meaning inside an unquoted word.
const PLAIN_WORD = /^[A-Za-z0-9\-._:/@%+,=]+$/;
// Invisible characters other than newlines (safe in quotes) are escaped: line editing acts on some when pasted
// (a tab completes, CR ends the line, ESC starts a key sequence), a terminal may act on them when it echoes the
// line, and the others cannot be seen. So is a `^` starting a line: even inside quotes, an interactive shell reads
// `^old^new` there as the last command with old replaced.
const ANSI_C_SPECIAL = new RegExp(`['\\\\!]|(?<=\\n)\\^|(?!\\n)${INVISIBLE}`, 'gu');

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

/**
 * `text` as one quoted shell word: single-quoted, or `$'…'` with escapes when it holds invisible characters.
 * `knownPrintable`: the caller knows `text` is printable ASCII and newlines, so the scan for them is skipped.
 */
export function quotedWord(text: string, knownPrintable: boolean): string {
  return (!knownPrintable && hasInvisibleBesidesNewline(text)) || text.includes('\n^') ? ansiCQuoted(text) : singleQuoted(text);
}

/** `text` (printable ASCII, as a checked method or URL is) as one shell word: bare when nothing in it is special, otherwise quoted. */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : singleQuoted(text);
}

/** True when `text` can sit inside double quotes unchanged, history expansion included. */
export function isDoubleQuoteSafe(text: string, knownPrintable: boolean): boolean {
  return !LIVE_IN_DOUBLE_QUOTES.test(text) && (knownPrintable || !hasInvisibleBesidesNewline(text));
}

function ansiCEscape(character: string): string {
  const hex = () => utf8Escapes(character, '\\x');
  return '!^'.includes(character) ? hex() : backslashEscape(character, hex);
}
