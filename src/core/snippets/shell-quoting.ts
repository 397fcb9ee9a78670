// Quoting for words of a bash or zsh command line, safe to paste into an interactive shell: single quotes are the
// only quoting that stops `$`, backticks, backslashes and history expansion of `!` alike.

// Characters no shell (bash, zsh, even with extended globbing) gives a meaning inside an unquoted word.
const PLAIN_WORD = /^[A-Za-z0-9\-._:/@%+,=]+$/;

/** `text` single-quoted: every character literal, `'` written as `'\''`. */
export function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** `text` as one shell word: bare when nothing in it is special, otherwise single-quoted. */
export function shellWord(text: string): string {
  return PLAIN_WORD.test(text) ? text : singleQuoted(text);
}

/** True when `text` can sit inside double quotes unchanged, also with history expansion on (no `"$\`\\!`). */
export function isDoubleQuoteSafe(text: string): boolean {
  return !/["$`\\!]/.test(text);
}
