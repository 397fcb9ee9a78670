/** A language the snippet generator can write. */
export type SnippetLanguage = 'curl' | 'javascript' | 'go' | 'python' | 'php';

/** Every snippet language, in the order offered when the configuration names none. */
export const SNIPPET_LANGUAGES: readonly SnippetLanguage[] = Object.freeze(['curl', 'javascript', 'go', 'python', 'php']);

/** True when `value` names a snippet language (exact spelling, lowercase). */
export function isSnippetLanguage(value: unknown): value is SnippetLanguage {
  return (SNIPPET_LANGUAGES as readonly unknown[]).includes(value);
}

/** Which languages are offered for snippet generation. */
export interface SnippetsConfig {
  /**
   * Enabled languages, in the order to offer them; duplicates are dropped.
   * @default ['curl', 'javascript', 'go', 'python', 'php'] (also when the list is empty)
   * @example { languages: ['curl', 'python'] }
   */
  languages: SnippetLanguage[];
}
