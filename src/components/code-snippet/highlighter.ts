// highlight.js core with exactly the languages the console shows: the five snippet languages (curl is
// bash) and JSON for responses. Registered once, on first use, so importing an element costs nothing.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';

const GRAMMARS = { bash, go, javascript, json, php, python } as const;
export type HighlightLanguage = keyof typeof GRAMMARS;

let registered = false;

/**
 * The code as highlight.js HTML. highlight.js escapes the code itself, so hostile text stays text; the
 * only markup is its own `<span class="hljs-…">`.
 */
export function highlight(code: string, language: HighlightLanguage): string {
  if (!registered) {
    for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);
    registered = true;
  }
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
