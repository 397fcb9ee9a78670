import { parseEnvironments, type Environment } from './environment.js';
import { ConfigError } from './errors.js';
import { parseHistoryConfig, type HistoryConfig, type ResolvedHistoryConfig } from './history-config.js';
import { CLIENT_OWNED_HEADERS, headerValueProblem, isHeaderName, isHttpUrl } from './http-syntax.js';
import { SnippetGenerator, type SnippetLanguage, type SnippetsConfig } from './snippets/index.js';
import { expectArray, expectBoolean, expectKnownFields, expectPlainObject, expectString, expectTimerMilliseconds, setOwnProperty } from './validation.js';

/** Everything a site can set on a console. Only `enabled` matters for turning it on; the rest has defaults. */
export interface ConsoleConfig {
  /**
   * Turns the console on or off; off, the elements render a notice and send nothing.
   * @default true
   */
  enabled?: boolean;
  /**
   * Proxy for cross-origin requests. With `{url}` in it, that is replaced by the encoded target URL
   * (`https://proxy.example/?url={url}`); without, the target URL is appended: encoded after a final `=`
   * (`https://proxy.example/?url=`, a query parameter), as written after `/` or `?` (`https://proxy.example/`).
   * No credentials, fragment or surrounding whitespace.
   */
  corsProxy?: string;
  /** Headers added to every request; a header of the request itself wins (names compared case-insensitively). */
  defaultHeaders?: Record<string, string>;
  /** Named environments; the first is active until the user picks another. */
  environments?: Environment[];
  /** @default { enabled: true, maxItems: 50 } */
  history?: HistoryConfig;
  /** @default all five languages: curl, javascript, go, python, php */
  snippets?: SnippetsConfig;
  /**
   * Milliseconds a request waits for its response to start, and then for each next part of its body, before it is
   * abandoned as timed out (a stream that keeps coming is not cut off); at most 2147483647 (about 24.8 days), the
   * longest a timer can wait.
   * @default 30_000
   */
  timeout?: number;
  /**
   * Refuse to send while a `{{variable}}` is missing from the active environment.
   * @default false
   */
  strictVariables?: boolean;
  /**
   * Whether the browser sends cookies and HTTP auth with requests. `omit` keeps a docs reader's own
   * sessions out of requests they did not mean to authenticate.
   * @default 'omit'
   */
  credentials?: CredentialsMode;
}

/** fetch's `RequestCredentials`, spelled out so that the core's types need no DOM library (a Node project). */
export type CredentialsMode = 'omit' | 'same-origin' | 'include';

/** A checked configuration with every default filled in. */
export interface ResolvedConsoleConfig {
  enabled: boolean;
  corsProxy: string | undefined;
  defaultHeaders: Record<string, string>;
  environments: Environment[];
  history: ResolvedHistoryConfig;
  snippets: { languages: SnippetLanguage[] };
  timeout: number;
  strictVariables: boolean;
  credentials: CredentialsMode;
}

const FIELDS = ['enabled', 'corsProxy', 'defaultHeaders', 'environments', 'history', 'snippets', 'timeout', 'strictVariables', 'credentials'];
const CREDENTIALS: readonly CredentialsMode[] = ['omit', 'same-origin', 'include'];

/**
 * Checks a console configuration once, up front, and fills in the defaults.
 * @throws ConfigError naming the field and the bad value.
 */
export function parseConsoleConfig(value: unknown = {}): ResolvedConsoleConfig {
  const input = expectPlainObject(value, 'config');
  expectKnownFields(input, FIELDS, 'config');
  const config: ResolvedConsoleConfig = {
    enabled: input.enabled === undefined ? true : expectBoolean(input.enabled, 'enabled'),
    corsProxy: input.corsProxy === undefined ? undefined : parseCorsProxy(input.corsProxy),
    defaultHeaders: parseHeaderMap(input.defaultHeaders, 'defaultHeaders'),
    environments: parseEnvironmentList(input.environments),
    history: parseHistoryConfig(input.history),
    snippets: { languages: parseSnippetLanguages(input.snippets) },
    timeout: input.timeout === undefined ? 30_000 : expectTimerMilliseconds(input.timeout, 'timeout'),
    strictVariables: input.strictVariables === undefined ? false : expectBoolean(input.strictVariables, 'strictVariables'),
    credentials: parseCredentials(input.credentials),
  };
  if (config.credentials === 'include' && config.corsProxy !== undefined) {
    // The proxy strips cookies and never allows credentialed reads, so every proxied send would fail.
    throw new ConfigError('credentials', 'include', 'cannot be "include" with a corsProxy, which never carries the reader\'s cookies; send credentials as headers instead');
  }
  return config;
}

// The proxied URL is built from the string as written, not from what the URL parser makes of it: what the parser
// forgives (surrounding whitespace, a fragment) or fetch refuses (credentials) is refused here, not at every send.
function parseCorsProxy(value: unknown): string {
  const proxy = expectString(value, 'corsProxy');
  const trimmed = proxy.replace(/^[\s\x00-\x1f]+|[\s\x00-\x1f]+$/g, '');
  if (trimmed !== proxy) {
    throw new ConfigError('corsProxy', proxy, `has whitespace around it, which would end up in every proxied URL; write ${JSON.stringify(trimmed)}`);
  }
  // The console's own {{variables}} invite `{{url}}`, other tools `{URL}` or `${url}`: the braces left around the
  // target would make every proxied send fail.
  const marker = [...proxy.matchAll(/\$?\{+url\}+/gi)].find(([written]) => written !== '{url}')?.[0];
  if (marker !== undefined) {
    throw new ConfigError('corsProxy', proxy, `marks the place of the target with ${marker}; write {url}, lowercase in single braces: ${JSON.stringify(proxy.replace(marker, '{url}'))}`);
  }
  const sample = proxy.replaceAll('{url}', 'target');
  if (!isHttpUrl(sample)) {
    throw new ConfigError('corsProxy', proxy, 'must be an absolute http(s) URL, e.g. https://proxy.example/?url={url}');
  }
  const { username, password } = new URL(sample);
  if (username !== '' || password !== '') {
    const withoutCredentials = proxy.replace(/^(https?:[\\/]*)[^\\/?#]*@/i, '$1');
    throw new ConfigError('corsProxy', proxy, `has a user name or password, which fetch refuses in a URL; the proxy is public to the page anyway, so send no credentials in its URL: write ${JSON.stringify(withoutCredentials)}`);
  }
  if (proxy.includes('#')) {
    throw new ConfigError('corsProxy', proxy, `has a fragment ("#"), which never reaches the proxy, nor would a target written after it; write ${JSON.stringify(proxy.slice(0, proxy.indexOf('#')))}`);
  }
  // Prefix style: the target is appended, so the proxy URL must end where a URL can follow.
  if (proxy.includes('{url}') || /[/?=]$/.test(proxy)) return proxy;
  const { pathname, search } = new URL(proxy);
  if (pathname === '/' && search === '') return `${proxy}/`;
  throw new ConfigError('corsProxy', proxy, `gets the target URL appended, so it must end with "/", "?" or "="; write ${JSON.stringify(`${proxy}/`)}, or mark the place with {url}`);
}

/** Header names and values the browser would refuse are caught here, not at the first send. */
export function parseHeaderMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  const input = expectPlainObject(value, field);
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(input)) {
    const at = `${field}[${JSON.stringify(name)}]`;
    if (!isHeaderName(name)) throw new ConfigError(at, name, 'is not a valid header name (letters, digits and !#$%&\'*+-.^_`|~ only)');
    if (seen.has(name.toLowerCase())) throw new ConfigError(at, name, 'repeats a header name (names are case-insensitive)');
    if (CLIENT_OWNED_HEADERS.has(name.toLowerCase())) throw new ConfigError(at, name, 'is set by every HTTP client from the request itself; remove it');
    seen.add(name.toLowerCase());
    const headerValue = expectString(raw, at);
    // Sent as UTF-8 bytes, as the snippets send them; a lone surrogate has no UTF-8 form.
    const problem = headerValueProblem(headerValue) ?? (headerValue.isWellFormed() ? undefined : 'holds a lone UTF-16 surrogate, which has no UTF-8 form; remove it');
    if (problem) throw new ConfigError(at, headerValue, problem);
    setOwnProperty(headers, name, headerValue);
  }
  return headers;
}

/** Environments keyed by name, a natural way to write them, are refused with the list to write instead. */
function parseEnvironmentList(value: unknown): Environment[] {
  if (value === undefined) return [];
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    throw new ConfigError('environments', value, 'must be a list of environments, each { name, variables }: write [{ "name": "prod", "variables": { "base_url": "https://api.example" } }]');
  }
  return parseEnvironments(expectArray(value, 'environments'));
}

/** The generator's own rules (configured order, duplicates dropped, none given means all five). */
function parseSnippetLanguages(value: unknown): SnippetLanguage[] {
  if (value === undefined) return new SnippetGenerator().languages();
  if (Array.isArray(value)) throw new ConfigError('snippets', value, 'must be an object holding the list: write { languages: [ … ] }');
  const input = expectPlainObject(value, 'snippets');
  expectKnownFields(input, ['languages'], 'snippets');
  // The generator would skip a hole and then keep it as an `undefined` language.
  if (Array.isArray(input.languages)) expectArray(input.languages, 'snippets.languages');
  return new SnippetGenerator(value as SnippetsConfig).languages();
}

function parseCredentials(value: unknown): CredentialsMode {
  if (value === undefined) return 'omit';
  if (!CREDENTIALS.includes(value as CredentialsMode)) {
    throw new ConfigError('credentials', value, `must be one of ${CREDENTIALS.join(', ')}`);
  }
  return value as CredentialsMode;
}
