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

  // Stand-ins go into the URL and the header names only, and only text from them is mapped back.
  const stand = new StandIns(typeof request.url === 'string' ? [request.url, ...names] : names);
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

  constructor(texts: string[]) {
    this.#prefix = unusedPrefix(texts);
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
    // The URL is quoted as given and a header name mapped back; any other value (a header value, the body, the
    // method) never held a stand-in and may hold text that looks like one, so it is quoted as it is.
    const isName = typeof value === 'string' && argument === `request.headers[${JSON.stringify(value)}]`;
    const original = argument === 'request.url' ? url : isName ? this.out(value) : value;
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

/**
 * A stand-in prefix that none of `texts` holds, in any case (a URL error can quote the host, which the URL parser
 * lowercases), so that mapping back touches nothing else: `tplv`, then the letter that follows the fewest of its
 * occurrences, and so on until none is left. Each letter cuts the occurrences at least 26-fold, so a hostile text
 * costs a few searches through it, and the prefix stays a few letters long.
 */
function unusedPrefix(texts: string[]): string {
  const lowercase = texts.map((text) => text.toLowerCase());
  let prefix = 'tplv';
  for (;;) {
    // How many occurrences of the prefix each letter follows; undefined when there is none.
    let counts: number[] | undefined;
    for (const text of lowercase) {
      for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) {
        counts ??= new Array<number>(26).fill(0);
        const letter = text.charCodeAt(at + prefix.length) - LETTER_A;
        if (letter >= 0 && letter < 26) counts[letter] += 1;
      }
    }
    if (counts === undefined) return prefix;
    prefix += String.fromCharCode(LETTER_A + counts.indexOf(Math.min(...counts)));
  }
}

const LETTER_A = 0x61;
