/** `text` with a backslash before each `'` and `\`: the body of a Python or PHP single-quoted string. */
export function escapeSingleQuoted(text: string): string {
  // Two searches (fast native scans) spare the regex pass when there is nothing to escape, as in most bodies.
  return text.includes("'") || text.includes('\\') ? text.replace(/['\\]/g, '\\$&') : text;
}
