/** Variable names whose values are masked until revealed: tokens, keys, passwords and the like. */
const SECRET_NAME = /(token|secret|passw(or)?d|pwd|api[-_]?key|apikey|auth|credential|private|session|cookie|signature)/i;

export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}
