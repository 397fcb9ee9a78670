import { scanPlaceholders } from './placeholders.js';
import type { SnippetGenerator } from './snippets/snippet-generator.js';
import type { SnippetRequest } from './snippets/snippet-request.js';

/**
 * A snippet that keeps `{{variable}}` placeholders as written, for docs readers who keep their own
 * environments (Postman-style). The generator only accepts requests it can send exactly, so each
 * placeholder stands in as a plain token (one every language writes unchanged) and is put back after.
 * A placeholder that begins the URL stands in as a whole origin, since it usually holds `base_url`.
 */
export function generateTemplateSnippet(generator: SnippetGenerator, request: SnippetRequest, language: string): string {
  const stand = new StandIns([request.url, request.body ?? '', ...Object.entries(request.headers ?? {}).flat()]);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[stand.in(name)] = stand.in(value);
  const snippet = generator.generate(
    { method: request.method, url: stand.in(request.url, { leadingOrigin: true }), headers, body: request.body === undefined ? undefined : stand.in(request.body) },
    language,
  );
  return stand.out(snippet);
}

/** Tokens that replace placeholders, and the way back. */
class StandIns {
  readonly #prefix: string;
  readonly #placeholders: string[] = [];

  constructor(texts: string[]) {
    // A prefix that none of the texts holds, so putting placeholders back touches nothing else.
    let prefix = 'tplv';
    while (texts.some((text) => text.includes(prefix))) prefix += 'x';
    this.#prefix = prefix;
  }

  in(text: string, { leadingOrigin = false } = {}): string {
    let out = '';
    let copiedUpTo = 0;
    for (const span of scanPlaceholders(text)) {
      const index = this.#placeholders.push(text.slice(span.start, span.end)) - 1;
      const token = leadingOrigin && span.start === 0 ? `https://${this.#prefix}${index}o.invalid` : `${this.#prefix}${index}z`;
      out += text.slice(copiedUpTo, span.start) + token;
      copiedUpTo = span.end;
    }
    return out + text.slice(copiedUpTo);
  }

  out(snippet: string): string {
    const tokens = new RegExp(`https://${this.#prefix}(\\d+)o\\.invalid|${this.#prefix}(\\d+)z`, 'g');
    return snippet.replace(tokens, (token, origin?: string, inline?: string) => this.#placeholders[Number(origin ?? inline)] ?? token);
  }
}
