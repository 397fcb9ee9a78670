import { ConfigError, LanguageNotEnabledError } from '../errors.js';
import { SNIPPET_LANGUAGES, isSnippetLanguage, type SnippetLanguage, type SnippetsConfig } from './snippet-language.js';
import { checkSnippetRequest, type CheckedRequest, type SnippetRequest } from './snippet-request.js';
// The writers in the order that gives the smallest gzip bundle (README: under 5,000 bytes); it changes a few bytes.
import { curlSnippet } from './curl.js';
import { pythonSnippet } from './python.js';
import { javascriptSnippet } from './javascript.js';
import { goSnippet } from './go.js';
import { phpSnippet } from './php.js';

const WRITERS: Record<SnippetLanguage, (request: CheckedRequest) => string> = {
  curl: curlSnippet,
  javascript: javascriptSnippet,
  go: goSnippet,
  python: pythonSnippet,
  php: phpSnippet,
};

/**
 * Writes ready-to-run snippets that send exactly the given request, in the enabled languages.
 * @example
 * const snippets = new SnippetGenerator({ languages: ['curl', 'python'] });
 * snippets.generate({ method: 'get', url: 'https://api.example.com/pets' }, 'curl');
 */
export class SnippetGenerator {
  readonly #languages: readonly SnippetLanguage[];

  /** @throws ConfigError when `languages` is not a list or names an unknown language. */
  constructor(config: Partial<SnippetsConfig> = {}) {
    this.#languages = enabledLanguages(config?.languages);
  }

  /** The enabled languages, in the configured order. */
  languages(): SnippetLanguage[] {
    return [...this.#languages];
  }

  /**
   * The snippet for `request` in `language`.
   * @throws LanguageNotEnabledError when `language` is not enabled.
   * @throws InvalidArgumentError when the request cannot be sent as given (the message says what to change).
   */
  generate(request: SnippetRequest, language: string): string {
    if (!(this.#languages as readonly string[]).includes(language)) throw new LanguageNotEnabledError(language, this.#languages);
    return WRITERS[language as SnippetLanguage](checkSnippetRequest(request));
  }
}

function enabledLanguages(languages: unknown): readonly SnippetLanguage[] {
  if (languages === undefined || languages === null) return SNIPPET_LANGUAGES;
  if (!Array.isArray(languages)) throw new ConfigError('snippets.languages', languages, `must be a list drawn from ${SNIPPET_LANGUAGES.join(', ')}`);
  languages.forEach((language, index) => {
    if (!isSnippetLanguage(language)) throw new ConfigError(`snippets.languages[${index}]`, language, `must be one of ${SNIPPET_LANGUAGES.join(', ')}`);
  });
  return languages.length === 0 ? SNIPPET_LANGUAGES : [...new Set(languages as SnippetLanguage[])];
}

/** The snippet in `language` for a request that passed the checks: for callers that check a request their own way. */
export function writeCheckedSnippet(request: CheckedRequest, language: SnippetLanguage): string {
  return WRITERS[language](request);
}
