// What a value is without what it holds, for errors about fields that may carry a credential (a misspelt `secret`).

/** "a string", "an object", "an array", "null"… */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = Array.isArray(value) ? 'array' : typeof value;
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

/** "a WebhookChannel", "an Agent", "a Uint8Array" (a "you" sound): a class name with its article. */
export function withArticle(name: string): string {
  return `${/^(?:[AEIO]|U(?!int))/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** An instance of a class by its class ("a Headers", "an IncomingMessage"), anything else as `kindOf` says it. */
export function classOrKindOf(value: unknown): string {
  const className: unknown = typeof value === 'object' && value !== null ? value.constructor?.name : undefined;
  return typeof className === 'string' && className !== '' && className !== 'Object' ? withArticle(className) : kindOf(value);
}
