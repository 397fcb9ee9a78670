// highlight.js core with exactly the five snippet languages (curl is bash). JSON responses are highlighted
// with the JavaScript grammar, of which JSON is a subset. Registered once, on first use.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';

const GRAMMARS = { bash, go, javascript, php, python } as const;
export type HighlightLanguage = keyof typeof GRAMMARS;

let registered = false;
/** The last result per language: an element re-renders with an unchanged snippet far more often than it changes. */
const lastResults = new Map<HighlightLanguage, { code: string; html: string }>();

/**
 * The code as highlight.js HTML. highlight.js escapes the code itself, so hostile text stays text; the
 * only markup is its own `<span class="hljs-…">`.
 */
export function highlight(code: string, language: HighlightLanguage): string {
  if (!registered) {
    for (const [name, grammar] of Object.entries(GRAMMARS)) hljs.registerLanguage(name, grammar);
    registered = true;
  }
  const last = lastResults.get(language);
  if (last?.code === code) return last.html;
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  lastResults.set(language, { code, html });
  return html;
}
