// Text put inside HTML or XML markup, as an element's content or an attribute's value.
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `text` with the five characters markup gives a meaning escaped (`&apos;` is HTML5's as well as XML's). */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}
