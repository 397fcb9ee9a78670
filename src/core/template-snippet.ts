import { InvalidArgumentError, LanguageNotEnabledError, describeValue } from './errors.js';
import { scanPlaceholders } from './placeholders.js';
import { INVISIBLE } from './snippets/invisible-characters.js';
import { writeCheckedSnippet, type SnippetGenerator } from './snippets/snippet-generator.js';
import type { SnippetLanguage } from './snippets/snippet-language.js';
import { checkSnippetRequest, withoutEmptyQuery, type CheckedRequest, type SnippetRequest } from './snippets/snippet-request.js';
import { brokenPlaceholderAdvice, brokenPlaceholders } from './unresolved-explanation.js';

const HAS_INVISIBLE = new RegExp(INVISIBLE, 'u');
const SCHEME_AND_SLASHES = /^[a-z][a-z\d+.-]*:\/\//i;
const PLACEHOLDER_SCHEME = /^\{\{[^{}]*\}\}:\/\//;
const END_OF_AUTHORITY = /[/?#]/;
const DIGITS = /^\d+$/;
// The host of a URL with its placeholders masked: after the scheme and any credentials, before the port.
const MASKED_HOST = /^[^:/?#]*:\/\/(?:[^/?#@]*@)?([^/?#]*?)(?::[\d_]*)?(?=[/?#]|$)/;
// A host whose last label is a number, which URL parsers read as an IPv4 address.
const ENDS_IN_NUMBER = /(?:^|\.)\d+\.?$/;
const NON_ASCII = /[^\x00-\x7F]/;
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A snippet that keeps `{{variable}}` placeholders as written, for docs readers who keep their own
 * environments (Postman-style). In header values and the body a placeholder is text like any other. The URL
 * and header names must pass stricter checks, so there each placeholder stands in as a plain token while the
 * request is checked; the snippet is then written from the request as given, so every placeholder is quoted
 * and escaped for its string literal like the text around it. A placeholder that begins the URL stands in as a
 * whole origin, since it usually holds `base_url`, or as the scheme when `://` follows it; placeholders after the
 * host's `:` as the port's digits, and one right after those too (`{{host}}:{{port}}{{base_path}}`), since it may
 * hold either; placeholders in a host whose last label is a number (`192.168.{{subnet}}.1`) as digits.
 * @throws LanguageNotEnabledError when `language` is not enabled.
 * @throws InvalidArgumentError when the request cannot be written (the message quotes the request as given).
 */
export function generateTemplateSnippet(generator: SnippetGenerator, request: SnippetRequest, language: string): string {
  // Refused by the checks as a "{" to percent-encode, which is not the fix.
  const broken = typeof request?.url === 'string' ? brokenPlaceholders(request.url) : [];
  if (broken.length > 0) throw new InvalidArgumentError('request.url', request.url, `holds ${brokenPlaceholderAdvice(broken)}`);
  const headers = plainHeaders(request?.headers);
  const names = Object.keys(headers ?? {});
  if (!hasPlaceholder(request?.url) && !names.some(hasPlaceholder)) return generator.generate(request, language);
  const enabled = generator.languages();
  if (!enabled.includes(language as SnippetLanguage)) throw new LanguageNotEnabledError(language, enabled);

  // Stand-ins go into the URL and the header names only, and only text from them is mapped back.
  const stand = new StandIns(typeof request.url === 'string' ? [request.url, ...names] : names);
  // Placeholders masked once, for the two reads of the URL's literal text: its host and an empty query.
  const maskedUrl = typeof request.url === 'string' ? maskPlaceholders(request.url) : '';
  let checked: CheckedRequest;
  try {
    // What is not a plain object (a Headers, a Map…) goes to the checks as it is, to be refused.
    const standInHeaders = headers === undefined ? request.headers : stand.inNames(headers);
    checked = checkSnippetRequest({ method: request.method, url: stand.inUrl(request.url, maskedUrl), headers: standInHeaders, body: request.body });
  } catch (error) {
    throw stand.restore(error, request.url);
  }
  const headersAsWritten = checked.headers.map(([name, value]) => [stand.out(name), value] as const);
  return writeCheckedSnippet({ ...checked, url: withoutEmptyQueryOutsidePlaceholders(request.url, maskedUrl), headers: headersAsWritten }, language as SnippetLanguage);
}

function plainHeaders(headers: unknown): Record<string, string> | undefined {
  return typeof headers === 'object' && headers !== null && !(Symbol.iterator in headers) ? (headers as Record<string, string>) : undefined;
}

function hasPlaceholder(text: unknown): boolean {
  return typeof text === 'string' && !scanPlaceholders(text).next().done;
}

/**
 * `url` without the `?` that the checks dropped from its stand-in form: one outside placeholders, whose names may
 * hold `?` or `#`. `masked` is `url` with its placeholders masked, lengths kept: its first `?` is the one
 * withoutEmptyQuery looks at.
 */
function withoutEmptyQueryOutsidePlaceholders(url: string, masked: string): string {
  if (withoutEmptyQuery(masked).length === masked.length) return url;
  const query = masked.indexOf('?');
  return url.slice(0, query) + url.slice(query + 1);
}

/** `url` with each placeholder replaced by as many `_`, so that its literal text can be read alone, at the same places. */
function maskPlaceholders(url: string): string {
  const parts: string[] = [];
  let copiedUpTo = 0;
  for (const span of scanPlaceholders(url)) {
    parts.push(url.slice(copiedUpTo, span.start), '_'.repeat(span.end - span.start));
    copiedUpTo = span.end;
  }
  return parts.join('') + url.slice(copiedUpTo);
}

/** Tokens that replace placeholders while a request is checked, and the way back for the errors. */
class StandIns {
  readonly #prefix: string;
  readonly #placeholders: string[] = [];
  // The URL as checked, whose host an error may quote.
  #url: string | undefined;
  // A stand-in in any text the checks write: an origin (`https://…o`) or its host, or an inline token (`…z`).
  readonly #tokens: RegExp;

  constructor(texts: string[]) {
    this.#prefix = unusedPrefix(texts);
    this.#tokens = new RegExp(`(?:https://)?${this.#prefix}(\\d+)[oz]`, 'g');
  }

  /**
   * The URL with placeholders replaced: by an origin at the start, digits in the port and in an IPv4 address, a
   * token elsewhere. `masked` is the URL with its placeholders masked.
   */
  inUrl(url: string, masked: string): string {
    // Not a string: left for the checks to refuse.
    if (typeof url !== 'string') return url;
    const authority = new AuthorityReader(url, masked);
    this.#url = this.#in(url, 'request.url', (index, literalBefore) => {
      const place = authority.next(literalBefore);
      if (place === 'origin') return `https://${this.#prefix}${index}o`;
      // No error shows the scheme's or the port's stand-in: a URL error quotes the URL as given.
      if (place === 'scheme') return 'https';
      // A port is digits, and one is enough.
      if (place === 'port') return '1';
      if (place === 'ipv4') return authority.ipv4StandIn();
      return place === 'more port' ? '' : `${this.#prefix}${index}z`;
    });
    return this.#url;
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
    return text.replace(this.#tokens, (token, index: string) => {
      const placeholder = this.#placeholders[Number(index)];
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
    const problemAsGiven = argument === 'request.url' ? this.#urlProblemAsGiven(problem) : this.out(problem);
    return new InvalidArgumentError(quotedArgument, original, problemAsGiven);
  }

  /**
   * `problem` with the placeholders back. A host is quoted as the URL parser writes it: a label with non-ASCII text
   * as `xn--`, its ASCII (a stand-in too), then a code that depends on where each character stands, and so on the
   * placeholder's value. Such a label is shown as `xn--…`, and why.
   */
  #urlProblemAsGiven(problem: string): string {
    const url = this.#url;
    const host = url !== undefined && problem.includes('xn--') && URL.canParse(url) ? new URL(url).hostname : '';
    const folded = new Set<string>();
    const shownHost = host
      .split('.')
      .map((label) => {
        if (!label.startsWith('xn--') || !label.includes(this.#prefix)) return label;
        for (const [token] of label.matchAll(this.#tokens)) folded.add(this.out(token));
        return 'xn--…';
      })
      .join('.');
    if (folded.size === 0) return this.out(problem);
    // Each stand-in is numbered apart, so the host's text is nowhere else in the message.
    return `${this.out(problem.replaceAll(host, shownHost))}; xn--… stands for a label that holds non-ASCII text and ${[...folded].join(', ')}: its IDNA form depends on the value, so keep each placeholder in a label of its own, or put the whole label in a variable`;
  }

  /** `text` with each placeholder replaced by `standIn(index, literal text since the one before)`; `field` names `text` in an error. */
  #in(text: string, field: string, standIn: (index: number, literalBefore: string) => string): string {
    // Joined once: the text may hold a great many placeholders.
    const parts: string[] = [];
    let copiedUpTo = 0;
    for (const span of scanPlaceholders(text)) {
      const placeholder = text.slice(span.start, span.end);
      // The writers take the URL and header names to hold no invisible character, which a snippet would hide.
      if (HAS_INVISIBLE.test(placeholder)) {
        throw new InvalidArgumentError(field, text, `has the placeholder ${JSON.stringify(placeholder)}, whose name holds an invisible character (a tab, a line break…); rename the variable`);
      }
      const literal = text.slice(copiedUpTo, span.start);
      parts.push(literal, standIn(this.#placeholders.push(placeholder) - 1, literal));
      copiedUpTo = span.end;
    }
    parts.push(text.slice(copiedUpTo));
    return parts.join('');
  }
}

/**
 * Where each placeholder of a URL stands, read from the literal text between placeholders (never from a name,
 * which may hold `/` or `:`): each piece of text is read once, so that a URL costs one read whatever its
 * placeholders.
 */
class AuthorityReader {
  // The scheme and `//`, before the authority: none when the URL begins with a placeholder, the origin or the scheme.
  readonly #schemeLength: number | undefined;
  // The URL begins with a placeholder and `://`: the placeholder holds the scheme, and `://` starts the next literal.
  readonly #placeholderScheme: boolean;
  #afterScheme = false;
  #first = true;
  #inAuthority = false;
  // In the port: 'start' right after the authority's last `:`, 'digits' once digits or placeholders followed.
  #port: 'no' | 'start' | 'digits' = 'no';
  // For a host that ends in a number (an IPv4 address): the labels its first placeholder adds to make four.
  #missingLabels: number | undefined;

  /** `masked` is `url` with its placeholders masked. */
  constructor(url: string, masked: string) {
    this.#schemeLength = SCHEME_AND_SLASHES.exec(url)?.[0].length;
    this.#placeholderScheme = PLACEHOLDER_SCHEME.test(url);
    const host = MASKED_HOST.exec(masked)?.[1];
    if (host !== undefined && ENDS_IN_NUMBER.test(host)) this.#missingLabels = Math.max(0, 4 - host.replace(/\.$/, '').split('.').length);
  }

  /**
   * The stand-in for a placeholder in a host that ends in a number: a letter would make it an invalid IPv4 address,
   * a digit keeps it valid. The first also stands in for the labels missing from four, which it may hold
   * (`10.{{net}}.1`), so that the host is as the URL parser writes it.
   */
  ipv4StandIn(): string {
    const standIn = `1${'.1'.repeat(this.#missingLabels ?? 0)}`;
    this.#missingLabels = 0;
    return standIn;
  }

  /** Where the next placeholder stands, given the literal text since the one before (or since the start). */
  next(literalBefore: string): 'origin' | 'scheme' | 'port' | 'more port' | 'ipv4' | 'elsewhere' {
    let literal = literalBefore;
    if (this.#first) {
      this.#first = false;
      this.#inAuthority = literal === '' || this.#schemeLength !== undefined;
      this.#afterScheme = this.#placeholderScheme;
      if (literal === '') return this.#afterScheme ? 'scheme' : 'origin';
      literal = literal.slice(this.#schemeLength);
    } else if (this.#afterScheme) {
      this.#afterScheme = false;
      literal = literal.slice('://'.length);
    }
    if (this.#inAuthority) this.#read(literal);
    if (!this.#inAuthority) return 'elsewhere';
    if (this.#port === 'no') return this.#missingLabels === undefined ? 'elsewhere' : 'ipv4';
    const place = this.#port === 'start' ? 'port' : 'more port';
    this.#port = 'digits';
    return place;
  }

  #read(literal: string): void {
    if (END_OF_AUTHORITY.test(literal)) {
      this.#inAuthority = false;
      return;
    }
    const colon = literal.lastIndexOf(':');
    if (colon >= 0) {
      this.#port = colon === literal.length - 1 ? 'start' : DIGITS.test(literal.slice(colon + 1)) ? 'digits' : 'no';
    } else if (literal !== '' && !DIGITS.test(literal)) {
      this.#port = 'no';
    }
  }
}

/**
 * A stand-in prefix that none of `texts` holds, in any case (a URL error can quote the host, which the URL parser
 * lowercases) or in the host's form (`ｔ` is `t` there), so that mapping back touches nothing else: `tplv`, then
 * the letter that follows the fewest of its occurrences, and so on until none is left. Each letter cuts the
 * occurrences at least 26-fold, so a hostile text costs a few searches through it, and the prefix stays a few
 * letters long.
 */
function unusedPrefix(texts: string[]): string {
  // The host's form is about NFKC, lowercase, without the characters IDNA ignores (a soft hyphen…).
  const lowercase = texts.flatMap((text) =>
    NON_ASCII.test(text) ? [text.toLowerCase(), text.replace(DEFAULT_IGNORABLE, '').normalize('NFKC').toLowerCase()] : [text.toLowerCase()],
  );
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
