// Postman-compatible `{{name}}` placeholders: found in one linear pass, so that a hostile template
// (a megabyte of braces) costs no more than reading it.

/** One placeholder found in a text: `text.slice(start, end)` is the whole `{{…}}`. */
export interface PlaceholderSpan {
  start: number;
  end: number;
  /** The name exactly as written between the braces (not trimmed). */
  name: string;
}

/**
 * Every placeholder in `text`, in order. A placeholder is `{{`, a name with no `{` or `}`, then `}}`,
 * which is what Postman's `/\{\{([^{}]*?)}}/g` matches: `{{{a}}}` holds `{{a}}`, `{{a}b}}` holds none.
 */
export function* scanPlaceholders(text: string): Generator<PlaceholderSpan> {
  let open = text.indexOf('{{');
  while (open !== -1) {
    // Skip to the last `{` of a run of braces: the name starts right after it.
    let nameStart = open + 2;
    while (text.charCodeAt(nameStart) === OPEN_BRACE) nameStart += 1;
    let cursor = nameStart;
    while (cursor < text.length) {
      const code = text.charCodeAt(cursor);
      if (code === OPEN_BRACE || code === CLOSE_BRACE) break;
      cursor += 1;
    }
    if (text.charCodeAt(cursor) === CLOSE_BRACE && text.charCodeAt(cursor + 1) === CLOSE_BRACE) {
      yield { start: nameStart - 2, end: cursor + 2, name: text.slice(nameStart, cursor) };
      open = text.indexOf('{{', cursor + 2);
    } else {
      // No placeholder here; a `{` that stopped the name may start the next one.
      open = text.indexOf('{{', cursor);
    }
  }
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A template split into literal text and placeholders, so it can be resolved again without re-scanning. */
export type TemplatePart = string | { literal: string; name: string; trimmed: string };

/** Splits `text` into parts; adjacent literal text is one string. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let copiedUpTo = 0;
  for (const { start, end, name } of scanPlaceholders(text)) {
    if (start > copiedUpTo) parts.push(text.slice(copiedUpTo, start));
    parts.push({ literal: text.slice(start, end), name, trimmed: name.trim() });
    copiedUpTo = end;
  }
  if (copiedUpTo < text.length) parts.push(text.slice(copiedUpTo));
  return parts;
}

/**
 * `text` with its literal text given to `literal` and each placeholder (as written) to `placeholder`, joined again:
 * e.g. placeholders blanked to the same length, so that positions and what surrounds them stay those of the text.
 */
export function mapTemplate(text: string, literal: (piece: string) => string, placeholder: (written: string) => string): string {
  return parseTemplate(text).map((part) => (typeof part === 'string' ? literal(part) : placeholder(part.literal))).join('');
}

/**
 * Parsed templates, kept while their total length stays under a budget. A console resolves the same
 * URL, headers and body on every keystroke and render, so parsing each once pays off.
 */
export class TemplateCache {
  readonly #parts = new Map<string, TemplatePart[]>();
  readonly #budget: number;
  #size = 0;

  constructor(budget = 4 << 20) {
    this.#budget = budget;
  }

  get(text: string): TemplatePart[] {
    const cached = this.#parts.get(text);
    if (cached) return cached;
    const parts = parseTemplate(text);
    if (text.length <= this.#budget / 4) {
      this.#parts.set(text, parts);
      this.#size += text.length;
      // Oldest first out, until the budget holds again.
      for (const key of this.#parts.keys()) {
        if (this.#size <= this.#budget) break;
        this.#parts.delete(key);
        this.#size -= key.length;
      }
    }
    return parts;
  }
}
