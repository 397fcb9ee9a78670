import { InvalidArgumentError, LanguageNotEnabledError, describeValue } from './errors.js';
import { scanPlaceholders } from './placeholders.js';
import { INVISIBLE } from './snippets/invisible-characters.js';
import { writeCheckedSnippet, type SnippetGenerator } from './snippets/snippet-generator.js';
import type { SnippetLanguage } from './snippets/snippet-language.js';
import { checkSnippetRequest, withoutEmptyQuery, type CheckedRequest, type SnippetRequest } from './snippets/snippet-request.js';

const HAS_INVISIBLE = new RegExp(INVISIBLE, 'u');
// What comes before a port: the scheme, `//`, the host (or a stand-in origin), and `:`.
const BEFORE_PORT = /^[a-z][a-z\d+.-]*:\/\/[^/?#]*:$/i;

/**
 * A snippet that keeps `{{variable}}` placeholders as written, for docs readers who keep their own
 * environments (Postman-style). In header values and the body a placeholder is text like any other. The URL
 * and header names must pass stricter checks, so there each placeholder stands in as a plain token while the
 * request is checked; the snippet is then written from the request as given, so every placeholder is quoted
 * and escaped for its string literal like the text around it. A placeholder that begins the URL stands in as a
 * whole origin, since it usually holds `base_url`; one right after the host's `:` as a port.
 * @throws LanguageNotEnabledError when `language` is not enabled.
 * @throws InvalidArgumentError when the request cannot be written (the message quotes the request as given).
 */
export function generateTemplateSnippet(generator: SnippetGenerator, request: SnippetRequest, language: string): string {
  const headers = plainHeaders(request?.headers);
  const names = Object.keys(headers ?? {});
  if (!hasPlaceholder(request?.url) && !names.some(hasPlaceholder)) return generator.generate(request, language);
  const enabled = generator.languages();
  if (!enabled.includes(language as SnippetLanguage)) throw new LanguageNotEnabledError(language, enabled);

  const stand = new StandIns([request.url, request.body, ...names, ...Object.values(headers ?? {})]);
  let checked: CheckedRequest;
  try {
    // What is not a plain object (a Headers, a Map…) goes to the checks as it is, to be refused.
    const standInHeaders = headers === undefined ? request.headers : stand.inNames(headers);
    checked = checkSnippetRequest({ method: request.method, url: stand.inUrl(request.url), headers: standInHeaders, body: request.body });
  } catch (error) {
    throw stand.restore(error, request.url);
  }
  const headersAsWritten = checked.headers.map(([name, value]) => [stand.out(name), value] as const);
  return writeCheckedSnippet({ ...checked, url: withoutEmptyQuery(request.url), headers: headersAsWritten }, language as SnippetLanguage);
}

function plainHeaders(headers: unknown): Record<string, string> | undefined {
  return typeof headers === 'object' && headers !== null && !(Symbol.iterator in headers) ? (headers as Record<string, string>) : undefined;
}

function hasPlaceholder(text: unknown): boolean {
  return typeof text === 'string' && !scanPlaceholders(text).next().done;
}

/** Tokens that replace placeholders while a request is checked, and the way back for the errors. */
class StandIns {
  readonly #prefix: string;
  readonly #placeholders: string[] = [];

  constructor(texts: unknown[]) {
    // A prefix that none of the texts holds, so that mapping an error back touches nothing else.
    let prefix = 'tplv';
    while (texts.some((text) => typeof text === 'string' && text.includes(prefix))) prefix += 'x';
    this.#prefix = prefix;
  }

  /** The URL with placeholders replaced: by an origin at the start, a port after the host, a token elsewhere. */
  inUrl(url: string): string {
    // Not a string: left for the checks to refuse.
    if (typeof url !== 'string') return url;
    return this.#in(url, 'request.url', (index, before) => {
      if (before === '') return `https://${this.#prefix}${index}o.invalid`;
      // A port is digits. No error shows this one: a URL error quotes the URL as given.
      return BEFORE_PORT.test(before) ? '1' : `${this.#prefix}${index}z`;
    });
  }

  /** `headers` with the placeholders in their names replaced by tokens. */
  inNames(headers: Record<string, string>): Record<string, string> {
    // No prototype, so a header named `__proto__` stays a header.
    const result = Object.create(null) as Record<string, string>;
    for (const [name, value] of Object.entries(headers)) {
      result[this.#in(name, `request.headers[${JSON.stringify(name)}]`, (index) => `${this.#prefix}${index}z`)] = value;
    }
    return result;
  }

  /** `text` with the placeholders back in place of the tokens, each passed through `escape`. */
  out(text: string, escape = (placeholder: string) => placeholder): string {
    const tokens = new RegExp(`https://${this.#prefix}(\\d+)o\\.invalid|${this.#prefix}(\\d+)z`, 'g');
    return text.replace(tokens, (token, origin?: string, inline?: string) => {
      const placeholder = this.#placeholders[Number(origin ?? inline)];
      return placeholder === undefined ? token : escape(placeholder);
    });
  }

  /** `error` as the request as given would have caused it: its argument, value and message hold no stand-in. */
  restore(error: unknown, url: unknown): unknown {
    if (!(error instanceof InvalidArgumentError)) return error;
    const { argument, value, message } = error;
    // InvalidArgumentError's message is `Invalid <argument>: <problem> (got <value>).`
    const problem = message.slice(`Invalid ${argument}: `.length, message.length - ` (got ${describeValue(value)}).`.length);
    const original = argument === 'request.url' ? url : typeof value === 'string' ? this.out(value) : value;
    // The argument quotes a header name as JSON.
    const quotedArgument = this.out(argument, (placeholder) => JSON.stringify(placeholder).slice(1, -1));
    return new InvalidArgumentError(quotedArgument, original, this.out(problem));
  }

  /** `text` with each placeholder replaced by `standIn(index, text so far)`; `field` names `text` in an error. */
  #in(text: string, field: string, standIn: (index: number, before: string) => string): string {
    let out = '';
    let copiedUpTo = 0;
    for (const span of scanPlaceholders(text)) {
      const placeholder = text.slice(span.start, span.end);
      // The writers take the URL and header names to hold no invisible character, which a snippet would hide.
      if (HAS_INVISIBLE.test(placeholder)) {
        throw new InvalidArgumentError(field, text, `has the placeholder ${JSON.stringify(placeholder)}, whose name holds an invisible character (a tab, a line break…); rename the variable`);
      }
      out += text.slice(copiedUpTo, span.start);
      out += standIn(this.#placeholders.push(placeholder) - 1, out);
      copiedUpTo = span.end;
    }
    return out + text.slice(copiedUpTo);
  }
}
