// What a value is without what it holds, for errors about fields that may carry a credential (a misspelt `secret`).

/** "a string", "an object", "an array", "null"… */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = Array.isArray(value) ? 'array' : typeof value;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
