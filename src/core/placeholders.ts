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
