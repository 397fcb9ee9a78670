// Snippet generation: one writer per language, sharing the request checks and the quoting rules.
export { SnippetGenerator } from './snippet-generator.js';
export { SNIPPET_LANGUAGES, isSnippetLanguage, type SnippetLanguage, type SnippetsConfig } from './snippet-language.js';
export type { SnippetRequest } from './snippet-request.js';
