import { nothing, type ComplexAttributeConverter } from 'lit';

/** `text` read as a JSON object of strings (`{"Accept":"application/json"}`), or `undefined` when it is not one. */
export function headersFromJson(text: string): Record<string, string> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every((v) => typeof v === 'string')) {
      return parsed as Record<string, string>;
    }
  } catch {
    // Not JSON: undefined, as for JSON of another shape.
  }
  return undefined;
}

/**
 * A `headers` property as set. Frameworks that set every binding as a property (React, Vue, Svelte) pass the
 * attribute's JSON text: read as the attribute is. Anything else is returned as it is, for the caller's checks.
 */
export function headersProperty(value: unknown): unknown {
  return typeof value === 'string' ? headersFromJson(value) ?? value : value;
}

/**
 * `headers='{"Accept":"application/json"}'`: a JSON object of strings. Other text is kept as it is, so the element
 * explains it in place, as it does the same text set as the property.
 */
export const headersAttribute: ComplexAttributeConverter<Record<string, string>> = {
  fromAttribute: (value) => (value ? headersProperty(value) : {}) as Record<string, string>,
  toAttribute: (value) => JSON.stringify(value),
};

/**
 * `languages="curl python"`: a space-separated list. Frameworks that set every binding as a property pass that text as
 * the property: read as the attribute is. Anything else is returned as it is, for the caller's checks.
 */
export function wordList(value: unknown): unknown {
  return typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value;
}

/** `languages="curl python"`: a space-separated list. */
export const wordListAttribute: ComplexAttributeConverter<string[] | undefined> = {
  fromAttribute: (value) => wordList(value ?? undefined) as string[] | undefined,
  toAttribute: (value) => value?.join(' '),
};

/** A text attribute whose removal brings back `fallback`, the property's default, where Lit would set `null`. */
export function textAttribute(fallback: string): ComplexAttributeConverter<string> {
  return {
    fromAttribute: (value) => value ?? fallback,
    toAttribute: (value) => value,
  };
}

/**
 * The `aria-level` of an element's headings, from its `heading-level` attribute or property (text or a number): a
 * whole number from 1 to 6 fits them in the page's outline; anything else leaves them at the level they are written
 * at, 2.
 */
export function ariaLevel(headingLevel: unknown): number | typeof nothing {
  const level = Number(headingLevel);
  return Number.isInteger(level) && level >= 1 && level <= 6 && level !== 2 ? level : nothing;
}
