import { InvalidArgumentError } from '../errors.js';
// isToken for both header names and methods: one function less in the generator's bundle.
import { CLIENT_OWNED_HEADERS, headerValueProblem, isToken } from '../http-syntax.js';
import { isPlainText, utf8Escapes } from './invisible-characters.js';

/** The input to the snippet generator: the request a snippet must send. */
export interface SnippetRequest {
  /** Any HTTP method; sent uppercased. */
  method: string;
  /**
   * Absolute http(s) URL, sent exactly as written: characters outside RFC 3986 must be percent-encoded, and a host
   * outside ASCII written in its IDNA form (`xn--…`).
   */
  url: string;
  /** Headers in the order to send them, as a plain object (not a `Headers` or a `Map`). */
  headers?: Record<string, string>;
  /** The body, sent byte for byte as UTF-8. An empty string is the same as no body. */
  body?: string;
}

/** A request that passed every check, in the form the language writers use. */
export interface CheckedRequest {
  method: string;
  url: string;
  headers: ReadonlyArray<readonly [name: string, value: string]>;
  body: string | undefined;
  /**
   * True when every header value and the body hold only printable ASCII (and, in the body, newlines), as nearly
   * every request does. The writers then skip their scans for invisible characters, which cost more than the
   * rest of a snippet for a 1 KB body.
   */
  printable: boolean;
}

// The scheme, both slashes (parsers read `http:host/x` as `http://host/x`, but Go's and Python's clients find no host
// in it; `https:///host` fails the host check) and the authority.
const HTTP_URL_START = /^https?:\/\/([^/?#]*)/i;
// A `.` or `..` path segment, `%2e` included.
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;
// Optional whitespace around a field value is not part of it (RFC 9110 §5.5); every client trims it.
// The lookbehind keeps it linear: without it, each blank of a long inner run starts a scan to the run's end.
const SURROUNDING_WHITESPACE = /^[ \t]+|(?<![ \t])[ \t]+$/g;
const BAD_PERCENT_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
// One test that the common header value passes: printable ASCII with no whitespace to trim at either end.
const PRINTABLE_AND_TRIMMED = /^(?:[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?)?$/;
// A DNS name whose last label starts with a letter (so it is no IPv4 address), without a port: as the URL parser
// writes it, but for case, so the usual URL needs no parse to check its host.
const PLAIN_HOST = /^(?:[a-z\d-]+\.)+[a-z][a-z\d-]*$/i;
// Characters RFC 3986 allows in a URI. Anything else (space, quotes, braces, non-ASCII…) is percent-encoded
// differently by each client, so it cannot be "sent exactly as written" and is refused with the fix.
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;

/** Checks `request` and returns it normalised (method uppercased, header values trimmed, empty body dropped). */
export function checkSnippetRequest(request: SnippetRequest): CheckedRequest {
  if (typeof request !== 'object' || request === null) throw new InvalidArgumentError('request', request, 'must be an object with method and url');
  const method = checkMethod(request.method);
  const url = checkUrl(request.url);
  const [headers, printableValues] = checkHeaders(request.headers);
  const body = checkBody(request.body, method);
  // The URL, the method and the header names are printable ASCII by their checks; values and body may not be.
  const printable = printableValues && (body === undefined || isPlainText(body, true));
  return { method, url, headers, body, printable };
}

function checkMethod(method: unknown): string {
  if (typeof method !== 'string' || !isToken(method)) {
    throw new InvalidArgumentError('request.method', method, 'must be an HTTP method such as GET, POST or a custom token like PURGE');
  }
  const upper = method.toUpperCase();
  if (upper === 'CONNECT') throw new InvalidArgumentError('request.method', method, 'CONNECT opens a tunnel rather than sending a request; use another method');
  return upper;
}

function checkUrl(url: unknown): string {
  // Most regexes below run only when a search (much cheaper) finds what they look for, so the common URL costs five
  // regexes and no parse besides URL.canParse.
  let start: RegExpExecArray | null = null;
  if (typeof url !== 'string' || !(start = HTTP_URL_START.exec(url)) || !URL.canParse(url)) {
    throw new InvalidArgumentError('request.url', url, 'must be an absolute http:// or https:// URL');
  }
  const [urlStart, authority] = start as unknown as [string, string];
  // The path, query and fragment: everything after the host and port.
  const path = url.slice(urlStart.length);
  const hostAsWritten = authority.slice(authority.lastIndexOf('@') + 1);
  // A host written other than as the URL parser writes it (`127.1`, `0x7f.0.0.1`, a name outside ASCII, `:80` on
  // http) is rewritten by curl and fetch, but sent as written, or not found, by Go and Python. The message names the
  // name alone: the port stays as written (a default one left out), and in a template it is a stand-in.
  if (!PLAIN_HOST.test(hostAsWritten) && hostAsWritten.toLowerCase() !== new URL(url).host) {
    throw new InvalidArgumentError('request.url', url, `has a host that HTTP clients read in different ways; write the host as ${new URL(url).hostname}`);
  }
  // Brackets are only allowed around an IPv6 host.
  if (!URI_CHARACTERS.test(url) || /[[\]]/.test(path)) {
    const bad = [...url].find((c) => !URI_CHARACTERS.test(c)) ?? /[[\]]/.exec(path)![0];
    throw new InvalidArgumentError('request.url', url, `contains ${JSON.stringify(bad)}, which HTTP clients encode in different ways; write it percent-encoded as ${utf8Escapes(bad, '%')}`);
  }
  // A dot segment starts with `/.` or `/%2e`.
  if ((url.includes('/.') || url.includes('/%')) && DOT_SEGMENT.test(path.split(/[?#]/)[0]!)) {
    throw new InvalidArgumentError('request.url', url, `has a "." or ".." path segment, which curl and fetch resolve before sending; write the resolved path (${new URL(url).pathname})`);
  }
  if (BAD_PERCENT_ESCAPE.test(url)) throw new InvalidArgumentError('request.url', url, 'has a "%" that does not start a %XX escape; write a literal "%" as %25');
  if (url.indexOf('#') !== url.lastIndexOf('#')) throw new InvalidArgumentError('request.url', url, 'has more than one "#"; write the later ones as %23');
  // An `@` in the authority: the URL carries a user name, perhaps a password. fetch refuses credentials in a URL;
  // the other clients send them as Basic auth, Python only with a password.
  if (authority.includes('@')) {
    throw new InvalidArgumentError('request.url', url, 'has credentials before "@", which fetch refuses; send an Authorization header instead');
  }
  return withoutEmptyQuery(url);
}

// The checked headers, and whether every value is printable ASCII.
function checkHeaders(headers: unknown): [CheckedRequest['headers'], boolean] {
  if (headers === undefined || headers === null) return [[], true];
  // A Headers or a Map has no own keys to read: it would give a snippet without headers.
  if (typeof headers !== 'object' || Symbol.iterator in headers) {
    throw new InvalidArgumentError('request.headers', headers, 'must be a plain object mapping header names to values (for a Headers or a Map: Object.fromEntries(headers))');
  }
  const names = Object.keys(headers);
  const seen = new Set<string>(); // Lowercased names so far.
  const checked: Array<readonly [string, string]> = [];
  let printableValues = true;
  for (const name of names) {
    const lower = name.toLowerCase();
    const problem = !isToken(name)
      ? 'the header name must be an HTTP token (letters, digits and !#$%&\'*+-.^_`|~, no spaces or colons)'
      : CLIENT_OWNED_HEADERS.has(lower)
        ? 'every HTTP client sets this header from the request itself; remove it'
        : seen.has(lower)
          ? 'the same header appears twice (names ignore case); merge the values into one, separated by ", "'
          : undefined;
    if (problem !== undefined) throw new InvalidArgumentError(headerField(name), name, problem);
    seen.add(lower);
    let value: unknown = (headers as Record<string, unknown>)[name];
    if (typeof value !== 'string' || !PRINTABLE_AND_TRIMMED.test(value)) {
      value = checkHeaderValue(name, value);
      printableValues &&= isPlainText(value as string, false);
    }
    checked.push([name, value as string]);
  }
  return [checked, printableValues];
}

function checkBody(body: unknown, method: string): string | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body !== 'string') throw new InvalidArgumentError('request.body', body, 'must be a string');
  // Not well-formed: a lone surrogate, which has no UTF-8 form.
  if (!body.isWellFormed()) throw new InvalidArgumentError('request.body', body, 'contains a lone UTF-16 surrogate, which has no UTF-8 form; remove it');
  if (method === 'HEAD') throw new InvalidArgumentError('request.body', body, 'a HEAD request carries no body; remove it or use another method');
  return body;
}

// The detailed checks, for a value that failed the quick one.
function checkHeaderValue(name: string, value: unknown): string {
  if (typeof value !== 'string' || !isPlainText(value, false)) {
    // The slow path, only for values that fail: find the problem to report.
    const problem = typeof value !== 'string'
      ? 'must be a string'
      : headerValueProblem(value) ?? (!value.isWellFormed() ? 'contains a lone UTF-16 surrogate, which has no UTF-8 form' : undefined);
    if (problem !== undefined) throw new InvalidArgumentError(headerField(name), value, `the value ${problem}; remove it, no HTTP client can send it`);
  }
  return (value as string).replace(SURROUNDING_WHITESPACE, '');
}

/** The argument a header's error names: `request.headers["X-Name"]`. */
export function headerField(name: string): string {
  return `request.headers[${JSON.stringify(name)}]`;
}

/** `url` without a `?` that has nothing after it: fetch and requests drop it, so all five snippets drop it. */
export function withoutEmptyQuery(url: string): string {
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  const queryEnd = fragment < 0 ? url.length : fragment;
  return query === queryEnd - 1 ? url.slice(0, query) + url.slice(query + 1) : url;
}
