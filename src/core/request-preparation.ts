import type { ResolvedConsoleConfig } from './console-config.js';
import type { Environment } from './environment.js';
import type { EnvironmentManager, ResolveResult } from './environment-manager.js';
import { RequestError, ResolveLimitError, describeValue } from './errors.js';
import type { WrittenRequest } from './history-entry.js';
import { CLIENT_OWNED_HEADERS, FORBIDDEN_METHODS, afterAuthority, headerValueProblem, isHeaderName, isHttpUrl, isMethod } from './http-syntax.js';
import { UNTYPED_JSON_WARNING, contentTypeOf, invalidJsonWarning, isJsonDocument } from './json-body.js';
import { scanPlaceholders } from './placeholders.js';
import { isBadPort, isClientAddressHeader, isCrossOrigin, isPotentiallyTrustworthy, proxiedUrl } from './proxy-route.js';
import { FROM_A_VARIABLE, silentUrlRewrite } from './silent-url-rewrite.js';
import { brokenPlaceholderAdvice, brokenPlaceholderPlaces, brokenPlaceholderProblem, brokenPlaceholderWarnings, brokenPlaceholders, pathParameterProblem, speltAlike, unresolvedExplanation, unresolvedPlaces } from './unresolved-explanation.js';
import { INVISIBLE, hex, utf8Escapes } from './snippets/invisible-characters.js';
import { setOwnProperty } from './validation.js';

/** One header row as the console edits it: rows can be switched off without deleting them. */
export interface HeaderRow {
  name: string;
  value: string;
  /** @default true */
  enabled?: boolean;
}

/** A request as the user wrote it: placeholders unresolved, the URL possibly relative to `base_url`. */
export interface ConsoleRequest {
  method: string;
  url: string;
  headers?: Record<string, string> | HeaderRow[];
  body?: string;
}

/** A request ready to go: resolved, merged, checked and routed. */
export interface PreparedRequest {
  /** Uppercased. */
  method: string;
  /** The real target URL: what history and snippets show. */
  url: string;
  /** Default headers under the request's own (which win, compared case-insensitively), all resolved. */
  headers: Record<string, string>;
  /** `undefined` when there is none to send. */
  body: string | undefined;
  /** What is actually fetched: the target, or the proxy URL carrying it. */
  fetchUrl: string;
  viaProxy: boolean;
  /** Placeholders left as written because the active environment does not define their names (`''` for `{{}}`). */
  missing: string[];
  /** Placeholders left as written because their values refer back to themselves, or nest more than 10 levels deep. */
  cyclic: string[];
  /** Things the user should know that do not stop the send, e.g. a header browsers refuse to set. */
  warnings: string[];
  /** The request as written, when it differs from this one: what its history entry loads back. */
  written?: WrittenRequest;
}

export interface PreparationContext {
  config: ResolvedConsoleConfig;
  environments: EnvironmentManager;
  /** The page's origin; `undefined` outside a browser, where there is no same-origin. */
  pageOrigin: string | undefined;
}

/** Headers a page cannot set: browsers drop them silently, so we say so. (Fetch standard, forbidden request-header.) */
const FORBIDDEN_HEADERS = new Set([
  'accept-charset', 'accept-encoding', 'access-control-request-headers', 'access-control-request-method', 'connection',
  'content-length', 'cookie', 'cookie2', 'date', 'dnt', 'expect', 'host', 'keep-alive', 'origin', 'referer',
  'set-cookie', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via',
]);

/** The port of `url` when fetch refuses to connect to it, else `undefined`. */
function badPortOf(url: string): string | undefined {
  const { port } = new URL(url);
  return port !== '' && isBadPort(Number(port)) ? port : undefined;
}

/** A request with its placeholders resolved and the default headers merged in: steps 1 and 2 of a send. */
export interface ResolvedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Names the active environment does not define, left as written; `''` for an empty placeholder (`{{}}`). */
  missing: string[];
  /** Names that are defined but refer back to themselves, or nest more than 10 levels deep; not in `missing`. */
  cyclic: string[];
  /**
   * Why a relative URL could not be put after the active `base_url` (empty, not absolute, with a query…), which
   * then stays relative: a send refuses the request with this explanation.
   */
  baseUrlProblem?: string;
  /**
   * Why the URL as written goes wrong at its start (`{{base_url}}pets`, which runs into the host): a send refuses the
   * request with this explanation. Where the URL passes checkAndRoute's checks all the same (`https://api.example.compets`
   * is a valid URL, to another host), checkAndRoute returns it among the warnings, so that `inspect` shows it before
   * Send. `inspect` shows it too for a URL that fails them but starts with its scheme (`http://localhost:8080pets`,
   * whose path runs into the port); any other is explained by Send.
   */
  urlProblem?: string;
}

/** Steps 1-4 of a send (DESIGN §5): resolve placeholders, merge default headers, check, route. */
export function prepareRequest(request: ConsoleRequest, context: PreparationContext): PreparedRequest {
  const resolved = resolveRequest(request, context);
  const { missing, cyclic, baseUrlProblem, urlProblem } = resolved;
  const environment = context.environments.active();
  if (context.config.strictVariables) {
    if (missing.length > 0 || cyclic.length > 0) {
      throw new RequestError('unresolved-variables', `Not sent: ${unresolvedExplanation(missing, cyclic, environment)}${unresolvedPlaces(resolved, [...missing, ...cyclic])}`);
    }
    // In the URL, refused in every mode (by checkUrl); elsewhere, strict mode refuses what it would send as written.
    const [broken] = brokenPlaceholderPlaces({ ...resolved, url: '' });
    if (broken !== undefined) throw new RequestError('unresolved-variables', `Not sent: ${broken}.`);
  }
  const problem = baseUrlProblem ?? urlProblem ?? (brokenPlaceholderProblem(resolved.url) ? undefined : pathParameterProblem(request.url));
  if (problem !== undefined) throw new RequestError('invalid-url', problem);
  const prepared: PreparedRequest = { ...checkAndRoute(resolved, context, (text) => likelyCause(text, missing, cyclic, environment)), missing, cyclic };
  const invalidJson = invalidJsonWarning(request.body, resolved.headers);
  if (invalidJson !== undefined) prepared.warnings.unshift(invalidJson);
  const written = writtenRequest(request, resolved);
  if (written) prepared.written = written;
  return prepared;
}

/** `request` as written (switched-on rows only), or `undefined` when resolving and merging changed nothing. */
function writtenRequest(request: ConsoleRequest, resolved: ResolvedRequest): WrittenRequest | undefined {
  const url = request.url.trim();
  const headers: Record<string, string> = {};
  for (const row of headerRows(request.headers)) setOwnProperty(headers, row.name.trim(), row.value);
  const body = request.body === '' ? undefined : request.body;
  const sameHeaders = JSON.stringify(Object.entries(headers)) === JSON.stringify(Object.entries(resolved.headers));
  if (url === resolved.url && body === resolved.body && sameHeaders) return undefined;
  return body === resolved.body ? { url, headers } : { url, headers, body: body ?? '' };
}

/**
 * For a value that failed a check: a sentence naming the placeholders in it a brace short, or else those that stayed
 * unresolved, the likely cause, or '' when it holds none. Runs only on failures, so it may scan.
 */
function likelyCause(text: string, missing: readonly string[], cyclic: readonly string[], environment: Environment | undefined): string {
  const broken = brokenPlaceholders(text);
  if (broken.length > 0) return ` Likely cause: it holds ${brokenPlaceholderAdvice(broken)}.`;
  if (missing.length === 0 && cyclic.length === 0) return '';
  const left = new Set<string>();
  for (const { name } of scanPlaceholders(text)) left.add(name.trim());
  const missingHere = missing.filter((name) => left.has(name));
  const cyclicHere = cyclic.filter((name) => left.has(name));
  if (missingHere.length === 0 && cyclicHere.length === 0) return '';
  return ` Likely cause: ${unresolvedExplanation(missingHere, cyclicHere, environment)}`;
}

/** Steps 1 and 2: every placeholder resolved with the active environment, default headers merged under the request's. */
export function resolveRequest(request: ConsoleRequest, { config, environments }: Omit<PreparationContext, 'pageOrigin'>): ResolvedRequest {
  checkFieldTypes(request, true);
  const missing = new Set<string>();
  const cyclic = new Set<string>();
  const resolveDetailed = (text: string, field: string) => {
    const result = resolveWithinLimit(environments, text, field);
    for (const name of result.missing) missing.add(name);
    for (const name of result.cyclic) cyclic.add(name);
    return result;
  };
  const resolve = (text: string, field: string) => resolveDetailed(text, field).text;
  let url = resolve(request.url.trim(), 'the URL');
  let baseUrlProblem: string | undefined;
  // A relative URL is taken from the active environment's base_url.
  if (isRelative(url)) {
    const base = resolveDetailed(BASE_URL, 'base_url');
    if (!base.missing.includes('base_url')) {
      baseUrlProblem = baseUrlProblemOf(base, environments);
      if (baseUrlProblem === undefined) url = base.text + pathAfterBase(base.text, url);
    } else {
      baseUrlProblem = misspeltBaseUrl(url, environments.active());
    }
  }
  const headers = mergeHeaders(config.defaultHeaders, headerRows(request.headers), resolve);
  const body = request.body === undefined || request.body === '' ? undefined : resolve(request.body, 'the body');
  const resolved: ResolvedRequest = { method: methodAsWritten(request.method), url, headers, body, missing: [...missing], cyclic: [...cyclic] };
  if (baseUrlProblem !== undefined) resolved.baseUrlProblem = baseUrlProblem;
  const urlProblem = writtenUrlProblem(request.url.trim(), url, environments);
  if (urlProblem !== undefined) resolved.urlProblem = urlProblem;
  return resolved;
}

/**
 * The active base_url as a placeholder: resolving it costs no copy of the environment (as `active()` makes), and
 * reports the variable missing when the environment lacks it.
 */
const BASE_URL = '{{base_url}}';

/** `environments.resolveDetailed`, with the growth cap's error as a request error that a console user can act on. */
function resolveWithinLimit(environments: EnvironmentManager, text: string, field: string): ResolveResult {
  try {
    return environments.resolveDetailed(text);
  } catch (error) {
    if (!(error instanceof ResolveLimitError)) throw error;
    const environment = environments.active()?.name;
    // The cap is the manager's (maxGrowth), which the console's configuration does not set: say what the user can change.
    throw new RequestError(
      'invalid-request',
      `The placeholders in ${field} would add more than ${error.limit} characters. Paste content that large into the request itself (its own length is not limited) rather than into a variable, and check ${environment ? `environment "${environment}"` : 'the environment'} for a variable that expands into itself many times.`,
      { cause: error },
    );
  }
}

/**
 * A relative URL goes after base_url's path with one "/" between them: base_url's trailing "/" stands for the URL's
 * leading one. Further slashes of base_url are kept, as written.
 */
function pathAfterBase(base: string, relativeUrl: string): string {
  return base.endsWith('/') ? relativeUrl.slice(1) : relativeUrl;
}

/** For a relative URL: the environment lacks base_url, but has a variable spelt alike (`baseUrl`), which it likely meant. */
function misspeltBaseUrl(url: string, environment: Environment | undefined): string | undefined {
  const near = speltAlike('base_url', environment);
  if (near === undefined) return undefined;
  return `${JSON.stringify(url)} is relative, and environment "${environment!.name}" has no base_url variable but has ${near}: rename it base_url, or write the full URL.`;
}

/**
 * For a URL written wrong at its start, which checkUrl would only tell to "write it as https://host/path" (or pass,
 * to another host), the fix said where it belongs: a leading variable set to a host without its scheme
 * (`{{base_url}}` = `api.example.com`) is told the value to set, one followed by a path without its "/"
 * (`{{base_url}}pets`, which runs into the host) to add it, both when it has both faults, and a path without its
 * leading "/" (`pets/1`) to start with one. `undefined` for any other URL.
 */
function writtenUrlProblem(written: string, url: string, environments: EnvironmentManager): string | undefined {
  if (isRelative(url)) return undefined;
  const quoted = JSON.stringify(url);
  const absolute = isHttpUrl(url) || /^[a-z][a-z\d+.-]*:\/\//i.test(url);
  const fullUrl = absolute ? undefined : withScheme(url);
  const first = scanPlaceholders(written).next().value;
  // Only for a URL that starts with a variable: `active()` copies the environment, on every keystroke.
  const environment = first?.start === 0 ? environments.active() : undefined;
  if (environment && first?.start === 0) {
    const name = first.name.trim();
    const value = resolveWithinLimit(environments, `{{${name}}}`, 'the URL');
    const fixedValue = withScheme(value.text);
    const itIs = `{{${name}}} is ${JSON.stringify(value.text)} in environment "${environment.name}"`;
    const slashed = `${written.slice(0, first.end)}/${written.slice(first.end)}`;
    const rest = url.slice(value.text.length);
    // Only after a bare origin: after a path (`…/v1`), text can be meant to extend its last segment (`.json`); and
    // only after a whole host: `https://tenant-`, `https://api.`, or `https://api` before `v2.example.com` (a name
    // without a dot, which the text's dot completes) is the start of one.
    const hostStart = (origin: string) => /[.-]$/.test(origin) || (/^https?:\/\/(?!localhost$)[\w-]+$/i.test(origin) && /^[^/?#:]*\./.test(rest));
    const runsIntoHost = (origin: string) => isHttpUrl(origin) && afterAuthority(origin) === '' && !hostStart(origin) && /^\w/.test(rest);
    // `http://127.0.0.1:8080` + `pets`: what the path ran into is the port.
    const valuePort = /:(\d+)$/.exec(value.text)?.[1];
    const intoPort = valuePort && `its port, ${valuePort}`;
    // A dynamic variable ({{$guid}}) has a new value each time, never the one the URL starts with.
    if (value.missing.length === 0 && url.startsWith(value.text)) {
      if (fixedValue !== undefined && (fullUrl !== undefined || runsIntoHost(fixedValue))) {
        const { from, set } = schemeFix(name, value.text, environment, environments);
        const problem = `${quoted} is not an absolute http(s) URL: ${itIs}${from}, a host without its scheme`;
        // Both faults at once: the URL that adding a scheme would give (https://api.example.compets) is wrong too.
        return runsIntoHost(fixedValue) ? `${problem}, and the path runs into ${intoPort || 'it'}. ${set} and write ${slashed}.` : `${problem}. ${set}, or write the URL as ${fullUrl}.`;
      }
      if (runsIntoHost(value.text)) {
        return `${quoted} lacks a "/" after {{${name}}}: ${itIs}, so the path runs into ${intoPort || 'its host'}. Write ${slashed}.`;
      }
      // The URL as written is not relative, as the message for a relative URL after an empty base_url would say.
      if (name === 'base_url' && !absolute && value.text.trim() === '') {
        return `${quoted} is not a URL: base_url is empty in environment "${environment.name}". Set it to the API's address (e.g. https://api.example.com) and write ${slashed}, or write the full URL.`;
      }
      // Not a path to put after base_url: the text comes from base_url itself.
      if (name === 'base_url' && !absolute && !isHttpUrl(value.text)) return baseUrlProblemOf(value, environments);
    }
  }
  // As written: the URL to keep may start with a variable.
  const pasted = absolute ? undefined : PASTED_WITH_URL.exec(written);
  const pastedMethod = (pasted?.[1] ?? pasted?.[2])?.toUpperCase();
  if (pasted && pasted[3] !== written && (pasted[2] === undefined || NODE_METHODS.has(pastedMethod!))) {
    return `${quoted} is more than a URL; write only ${pasted[3]} as the URL${pastedMethod ? `, with ${pastedMethod} as the method` : ''}.`;
  }
  // `http://localhost:8080pets` does not parse, and checkUrl could only tell to write it as https://host/path.
  const port = isHttpUrl(url) ? undefined : PORT_RUNNING_ON.exec(url);
  const rest = port && url.slice(port[0].length);
  // Typed without its scheme (`localhost:8080pets`, which parses with "localhost:" as the scheme): both to add.
  const schemed = port && !absolute ? withScheme(`${port[0]}/${rest}`) : undefined;
  if (schemed) return `${quoted} lacks its scheme and a "/" after its port, ${port![1]}, so the path runs into it. Write ${schemed}.`;
  if (port && absolute) {
    const path = /^[^/?#]*/.exec(rest!)![0];
    return `${quoted} lacks a "/" after its port, ${port[1]}, so the path runs into it. Add "/" before ${JSON.stringify(path)}: ${port[0]}/${rest}.`;
  }
  // `https//host` lacks the scheme's ":", not a leading "/".
  if (!absolute && fullUrl === undefined && /^(?!https?\/)[\w.~-]+(?:[/?#]|$)/i.test(url)) {
    // As written: `{{$guid}}pets` resolves to a new value at each send.
    const path = `/${written}`;
    const hasBaseUrl = !resolveWithinLimit(environments, BASE_URL, 'base_url').missing.includes('base_url');
    return `${quoted} is neither an absolute http(s) URL nor a path starting with "/"; ${hasBaseUrl ? `write ${path} to send it after base_url, or write the full URL.` : `write the full URL (https://host${path}), or add a base_url variable (e.g. https://api.example.com) and write ${path}.`}`;
  }
  return undefined;
}

/**
 * The scheme, host and port of an http(s) URL whose port runs into more text before any "/" (`http://localhost:8080pets`),
 * or the host and port of one typed without its scheme (`localhost:8080pets`); not a password (`user:123abc@host`),
 * which an "@" follows.
 */
const PORT_RUNNING_ON = /^(?:https?:\/\/(?:\[[\da-f:.]*\]|[^/?#@[\]:]*)|\[[\da-f:.]*\]|[\w.-]+):(\d+)(?=[^\d\s/?#@{:][^/?#@]*(?:[/?#]|$))/i;

/**
 * A URL copied from a docs page with what surrounds it: its method (`GET /pets`), quotes or angle brackets, or the
 * start of a curl command (`curl -X DELETE 'https://…'`). 1: curl's method, 2: a word that may be one, 3: the URL.
 */
const PASTED_WITH_URL = /^(?:curl\s+(?:-X\s*(\w+)\s+)?|([a-z]+)\s+)?["'<]?((?:https?:\/\/|\/|\{\{)[^\s"'<>]+)["'>]?$/i;

/**
 * The variable to give the scheme that `{{name}}`'s value, a host without one, lacks, and its value with it: `name`,
 * or the variable its value starts with that holds the host (`host`, for a base_url of `{{host}}/v1`). `from`: how
 * such a variable is named after "{{name}} is …", or ''.
 */
function schemeFix(name: string, value: string, environment: Environment, environments: EnvironmentManager): { from: string; set: string } {
  let [source, host] = [name, value];
  // Followed as deep as resolving goes.
  for (let depth = 0; depth < 10; depth += 1) {
    const inner = scanPlaceholders(environment.variables[source] ?? '').next().value;
    if (inner?.start !== 0) break;
    const innerValue = resolveWithinLimit(environments, `{{${inner.name}}}`, 'base_url').text;
    if (withScheme(innerValue) === undefined) break;
    [source, host] = [inner.name.trim(), innerValue];
  }
  return { from: source === name ? '' : `, and {{${source}}}, which it starts with, is ${JSON.stringify(host)}`, set: `Set ${source} to ${withScheme(host)}` };
}

/** Why the resolved base_url cannot take a relative URL after it, or `undefined` when it can. */
function baseUrlProblemOf({ text, missing, cyclic }: ResolveResult, environments: EnvironmentManager): string | undefined {
  const environment = () => environments.active()!;
  const baseUrl = () => `The base_url of environment "${environment().name}"`;
  const quoted = () => `${baseUrl()}, ${JSON.stringify(text)},`;
  let problem: string | undefined;
  if (text.trim() === '') {
    problem = `${baseUrl()} is empty, so a relative URL has nothing to go after; set it to the API's address (e.g. https://api.example.com), or write the full URL.`;
  } else if (!isHttpUrl(text)) {
    const { from, set } = withScheme(text) === undefined ? { from: '', set: '' } : schemeFix('base_url', text, environment(), environments);
    const unparsed = unparsedUrlProblem(text);
    // Quoted in a hand-written JSON config: `"\"https://api.example.com\""`.
    const pasted = PASTED_WITH_URL.exec(text)?.[3];
    problem = from
      ? `${quoted()} is not an absolute http(s) URL${from}, a host without its scheme. ${set}, or write the full URL in the request.`
      : unparsed
        ? `${quoted()} ${unparsed}.`
        : `${quoted()} is not an absolute http(s) URL; write it as ${withScheme(text) ?? (pasted !== text ? pasted : undefined) ?? 'https://host or https://host/path'}${invisibleHint(text)}, or write the full URL in the request.`;
  } else {
    const rewrite = silentUrlRewrite(text);
    const extra = /[?#]/.exec(text);
    if (rewrite !== undefined) {
      problem = `${quoted()} ${rewrite}.`;
    } else if (extra) {
      const tail = JSON.stringify(text.slice(extra.index));
      problem = `${quoted()} has a ${extra[0] === '?' ? 'query' : 'fragment'} (${tail}). A relative URL is appended to base_url's path, so base_url cannot have a query or fragment; put ${tail} in the request URL instead.`;
    }
  }
  return problem && problem + likelyCause(text, missing, cyclic, environment());
}

/** The method trimmed, and uppercased when it is one: what is not stays as written, for the checks to quote. */
function methodAsWritten(method: string): string {
  const trimmed = method.trim();
  // Checked before uppercasing: "poſt" uppercases to "POST".
  return isMethod(trimmed) ? trimmed.toUpperCase() : trimmed;
}

/**
 * Refuses fields the engine would otherwise misread: a `Headers` or a `Map` has no own keys, so its headers (an
 * Authorization among them) would be dropped without a word, and a value that is not a string would fail deep
 * inside. `rows`: whether `headers` may be an array of header rows (a request as written, not a prepared one).
 */
function checkFieldTypes(request: unknown, rows: boolean): void {
  if (typeof request !== 'object' || request === null) throw invalidField('request', request, 'must be an object with method and url');
  const { method, url, headers, body } = request as Record<string, unknown>;
  if (typeof method !== 'string') throw invalidField('request.method', method, 'must be a string, such as "GET"');
  if (typeof url !== 'string') throw invalidField('request.url', url, url instanceof URL ? 'must be a string, not a URL object; pass url.href' : 'must be a string');
  if (body !== undefined && typeof body !== 'string') throw invalidField('request.body', body, 'must be a string, or left out for no body (for JSON, pass JSON.stringify(body))');
  if (headers === undefined) return;
  if (rows && Array.isArray(headers)) {
    for (const [index, row] of (headers as unknown[]).entries()) {
      const { name, value, enabled } = (typeof row === 'object' && row !== null ? row : {}) as Partial<Record<string, unknown>>;
      if (typeof name === 'string' && typeof value === 'string' && (enabled === undefined || typeof enabled === 'boolean')) continue;
      const field = `request.headers[${index}]`;
      if (typeof row !== 'object' || row === null) throw invalidField(field, row, 'must be a header row: { name, value, enabled }');
      if (typeof name !== 'string') throw invalidField(`${field}.name`, name, 'must be a string');
      if (typeof value !== 'string') throw invalidField(`${field}.value`, value, 'must be a string');
      throw invalidField(`${field}.enabled`, enabled, 'must be true or false');
    }
    return;
  }
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw invalidField('request.headers', headers, `must be a plain object mapping header names to values${rows ? ', or an array of header rows' : ''}`);
  }
  if (Symbol.iterator in headers) {
    throw new RequestError('invalid-request', `Invalid request.headers: got ${describeObject(headers)}, which has no own keys to read its headers from, so they would be lost; pass a plain object instead: Object.fromEntries(headers).`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw invalidField(`request.headers[${JSON.stringify(name)}]`, value, 'must be a string');
  }
}

function invalidField(field: string, value: unknown, problem: string): RequestError {
  return new RequestError('invalid-request', `Invalid ${field}: ${problem} (got ${describeObject(value)}).`);
}

/** `describeValue`, naming the class of an object (a Headers, a Map, a URL): "an object" would not say what was passed. */
function describeObject(value: unknown): string {
  const name = typeof value === 'object' && value !== null && !Array.isArray(value) ? value.constructor?.name : undefined;
  return name && name !== 'Object' ? `a ${name}` : describeValue(value);
}

// The console's proxy, a Node server, cannot receive methods outside Node's list; like the methods fetch
// refuses, they would otherwise surface as "could not reach".
const NODE_METHODS = new Set([
  'ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE', 'MKACTIVITY',
  'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY',
  'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE',
]);

/**
 * Steps 3 and 4: checks a resolved request and routes it. Run again on a request the page rewrote in a
 * before-send handler, so a rewrite is checked and routed like the original. `likelyCause` gives a sentence for a
 * URL or header name that failed a check, naming its unresolved placeholders.
 */
export function checkAndRoute(
  request: Pick<ResolvedRequest, 'method' | 'url' | 'headers' | 'body' | 'urlProblem'>,
  { config, pageOrigin }: Pick<PreparationContext, 'config' | 'pageOrigin'>,
  likelyCause: (text: string) => string = () => '',
): Omit<PreparedRequest, 'missing' | 'cyclic'> {
  checkFieldTypes(request, false);
  const { url } = request;
  // An empty body is no body, as in a request as written (a before-send handler may empty one).
  const body = request.body === '' ? undefined : request.body;
  const headers = request.headers ?? {};
  // Checked before uppercasing: "poſt" uppercases to "POST", "deletı" to "DELETI".
  const written = request.method.trim();
  if (!isMethod(written)) throw new RequestError('invalid-request', `${JSON.stringify(request.method)} is not an HTTP method; use one such as GET or POST.`);
  const method = written.toUpperCase();
  if (FORBIDDEN_METHODS.has(method)) throw new RequestError('invalid-request', `${method} cannot be sent from a web page (browsers refuse it); use another method, or a snippet outside the browser.`);
  checkUrl(url, likelyCause);
  checkHeaders(headers, likelyCause);
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    // A line break left in the body editor is easy to miss.
    throw new RequestError('invalid-request', `A ${method} request cannot carry a body in a browser; remove the body${body.trim() === '' ? ' (it holds only spaces or line breaks)' : ''} or use POST.`);
  }
  if (body !== undefined && !body.isWellFormed()) throw new RequestError('invalid-request', `The body ${LONE_SURROGATE}`);
  const viaProxy = config.corsProxy !== undefined && isCrossOrigin(url, pageOrigin);
  if (viaProxy && !NODE_METHODS.has(method)) {
    throw new RequestError('invalid-request', `The CORS proxy cannot relay the custom method ${method}: its HTTP server accepts only the standard methods. Use a standard method, or call an API that allows this page's origin directly.`);
  }
  const fetchUrl = viaProxy ? proxiedUrl(config.corsProxy!, url) : url;
  const proxyPort = viaProxy ? badPortOf(fetchUrl) : undefined;
  if (proxyPort !== undefined) {
    throw new RequestError('invalid-url', `The CORS proxy at ${new URL(fetchUrl).origin} uses port ${proxyPort}, which browsers refuse to connect to (so does Node's fetch): it belongs to a protocol other than HTTP. Run the proxy on another port, and point corsProxy at it.`);
  }
  if (pageOrigin?.startsWith('https:') && !isPotentiallyTrustworthy(new URL(fetchUrl))) {
    throw new RequestError(
      'mixed-content',
      `Blocked as mixed content: this page is served over https, so the browser refuses plain-http ${viaProxy ? 'proxy ' : ''}URL ${fetchUrl}. Use the https address of the ${viaProxy ? 'proxy' : 'API'}${viaProxy ? '' : ', or route it through an https corsProxy'}.`,
    );
  }
  const warnings = Object.keys(headers)
    .filter(isForbiddenHeader)
    .map((name) =>
      CLIENT_OWNED_HEADERS.has(name.toLowerCase())
        ? `The ${name} header is set by every HTTP client from the request itself; it will not be sent from here, and the snippets refuse it. Remove it.`
        : `Browsers do not let a page set the ${name} header; it will not be sent from here (the snippets do send it).`,
    );
  if (viaProxy) {
    for (const name of Object.keys(headers)) {
      if (isClientAddressHeader(name.toLowerCase())) {
        warnings.push(`The CORS proxy does not pass the ${name} header on: headers that carry a client's address or whereabouts are left out there. It will not reach the API (the snippets do send it).`);
      }
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    // A key pasted from a web page may bring one, and fail as a wrong key.
    const invisible = INVISIBLE_IN_VALUE.exec(value)?.[0];
    if (invisible !== undefined) warnings.push(`The ${name} header holds ${unseen(invisible)}: remove it.`);
  }
  warnings.push(...(request.urlProblem === undefined ? [] : [request.urlProblem]), ...urlWarnings(url), ...brokenPlaceholderWarnings({ url, headers, body }));
  // fetch labels a text body text/plain;charset=UTF-8, which an API reading JSON refuses (415) or ignores (Express's json()).
  if (body !== undefined && isJsonDocument(body) && contentTypeOf(headers) === undefined) {
    warnings.push(UNTYPED_JSON_WARNING);
  }
  return { method, url, headers: { ...headers }, body, fetchUrl, viaProxy, warnings };
}

/** What in a URL that is sent goes to another address than the one it seems to name. */
function urlWarnings(url: string): string[] {
  const warnings: string[] = [];
  // Pasted values bring them (a zero-width space, a soft hyphen): sent percent-encoded, they make another URL that looks the same.
  const invisible = INVISIBLE_CHARACTER.exec(url)?.[0];
  if (invisible !== undefined) {
    const escaped = utf8Escapes(invisible, '%');
    warnings.push(`The URL holds ${unseen(invisible)}, sent as ${escaped}: remove it, or write ${escaped} if the URL needs it.`);
  }
  // `?q=C#` or `?color=#ff0000` (or a variable's value with "#") ends the query there: the rest is a fragment, which no client sends.
  if (url.includes('#')) warnings.push('The URL\'s "#" starts a fragment, which is never sent (nor by the snippets): the API gets the URL up to it. Write "#" as %23 if it belongs to the path or a value.');
  // `{{base_url}}/pets` after a base_url ending in "/" gives "//pets", which most servers route as another path.
  const path = afterAuthority(url).replace(/[?#].*/s, '');
  if (path.includes('//')) {
    warnings.push(`The URL's path, ${path}, has "//", which most servers do not read as "/" (a base_url ending in "/" followed by a path starting with one gives it): remove one "/".`);
  }
  return warnings;
}

const INVISIBLE_CHARACTER = new RegExp(INVISIBLE, 'u');
// A tab may separate words in a header value; other control characters are refused.
const INVISIBLE_IN_VALUE = new RegExp(`(?!\t)${INVISIBLE}`, 'u');

function unseen(character: string): string {
  return `U+${hex(character.codePointAt(0)!, 4)}, an invisible or space-like character (often pasted in with a value)`;
}

/** Text and URLs are sent as UTF-8, which has no form for half a surrogate pair: fetch would send U+FFFD instead. */
const LONE_SURROGATE = 'holds a lone UTF-16 surrogate, which has no UTF-8 form (it would be sent as U+FFFD, "\uFFFD"); remove it.';

/**
 * `url` with the scheme it lacks, when it starts with a host (`localhost:8080/pets`, a base_url typed without one, or
 * protocol-relative, `//api.example.com`): http:// for this machine, which seldom serves https, https:// elsewhere.
 */
function withScheme(written: string): string | undefined {
  // Protocol-relative (`//host`): the scheme is all it lacks.
  const url = written.replace(/^\/\//, '');
  // A host has a dot or a port, is localhost or in brackets (IPv6): `pets/1` is a path that lacks its "/", not a host.
  const host = /^(?:localhost|\[[\da-f:.]+\]|[\w-]+(?:\.[\w-]+)+|[\w-]+(?=:\d))(?::\d+)?(?=[/?#]|$)/i.exec(url)?.[0];
  if (host === undefined) return undefined;
  return `${/^(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[::1?\])(?::|$)/i.test(host) ? 'http' : 'https'}://${url}`;
}

/** Absolute http(s), sent as written (nothing the parser would silently change), no credentials, a real host. */
function checkUrl(url: string, likelyCause: (text: string) => string): void {
  // First: `{{base_url}/pets` is no absolute URL, and `https://{{host}/` has a host with braces, but the fix is a "}".
  const broken = brokenPlaceholderProblem(url);
  if (broken !== undefined) throw new RequestError('invalid-url', broken);
  const quoted = JSON.stringify(url);
  if (url === '') throw new RequestError('invalid-url', 'The URL is empty; write the address to send to, such as https://api.example.com/pets.');
  if (isRelative(url)) {
    throw new RequestError('invalid-url', `${quoted} is relative, and the active environment has no base_url variable; add base_url (e.g. https://api.example.com) or write the full URL.`);
  }
  if (!isHttpUrl(url)) {
    const cause = likelyCause(url);
    const unparsed = unparsedUrlProblem(url);
    if (unparsed !== undefined) throw new RequestError('invalid-url', `${quoted} ${unparsed}.${cause}`);
    throw new RequestError('invalid-url', `${quoted} is not an absolute http(s) URL; write it as ${withScheme(url) ?? 'https://host/path'}${cause ? `.${cause}` : `${invisibleHint(url)}, and check the variables it uses.`}`);
  }
  const rewrite = silentUrlRewrite(url);
  if (rewrite !== undefined) throw new RequestError('invalid-url', `${quoted} ${rewrite}.${likelyCause(url)}`);
  // The parser would send it as U+FFFD, and encoding it for a {url} proxy throws.
  if (!url.isWellFormed()) throw new RequestError('invalid-url', `${quoted} ${LONE_SURROGATE}`);
  const port = badPortOf(url);
  if (port !== undefined) {
    throw new RequestError('invalid-url', `${quoted} uses port ${port}, which browsers refuse to connect to (so do Node's fetch and the CORS proxy): it belongs to a protocol other than HTTP. Serve the API on another port, or send this request with a snippet outside the browser.`);
  }
  const { username, password, hostname } = new URL(url);
  if (username !== '' || password !== '') {
    throw new RequestError('invalid-url', `${quoted} holds a user name or password, which fetch refuses to send; remove it from the URL and add an Authorization header instead.`);
  }
  // The parser takes braces in a host name, so an unresolved {{host}} would fail only as "could not reach".
  if (hostname.includes('{') || hostname.includes('}')) {
    throw new RequestError('invalid-url', `${quoted} has ${JSON.stringify(hostname)} as its host, and no host name holds "{" or "}".${likelyCause(url) || ' Check the variables it uses.'}`);
  }
}

/**
 * Why an http(s) URL does not parse, when the reader can fix it so (a phrase to follow the quoted URL): a space before
 * its path, a port past 65535, an IPv6 address without brackets. `undefined` for any other.
 */
function unparsedUrlProblem(url: string): string | undefined {
  // The scheme and host, up to the path.
  const start = /^https?:[^/?#]*\/\/[^/?#]*/i.exec(url)?.[0];
  if (start === undefined) return undefined;
  const fixed = start.replace(/[ \t]+/g, '') + url.slice(start.length);
  if (fixed !== url && isHttpUrl(fixed)) return `has a space before its path; remove it: ${fixed}`;
  const host = start.slice(start.indexOf('//') + 2);
  const port = /:(\d+)$/.exec(host)?.[1];
  if (Number(port) > 65535) return `has port ${port}, but ports go up to 65535; correct the port`;
  // `http://::1:8080/pets`.
  if (/^[\da-f]*:[\da-f]*:[\da-f:.]*$/i.test(host)) return 'has an IPv6 address without brackets; write it in "[" and "]", with any port after them (http://[::1]:8080/)';
  return undefined;
}

/** More to "write it as https://host/path" for a URL that does not parse: a no-break space after the host looks right. */
function invisibleHint(url: string): string {
  const invisible = INVISIBLE_CHARACTER.exec(url)?.[0];
  return invisible === undefined ? '' : `, without ${unseen(invisible)}`;
}

/** A header a page cannot set: browsers drop it, and the engine does too, so a send behaves alike everywhere. */
export function isForbiddenHeader(name: string): boolean {
  return FORBIDDEN_HEADERS.has(name.toLowerCase()) || /^(proxy|sec)-/i.test(name);
}

/**
 * The request as a reader would copy it, placeholders kept: default headers merged in, and a relative URL
 * written after `{{base_url}}` so that it resolves to the URL the console sends. What `<code-snippet>` shows.
 * @throws RequestError when a send would refuse the request for the same reason: a field of the wrong type, two
 * header rows of one name, a base_url that cannot take the relative URL.
 */
export function requestTemplate(request: ConsoleRequest, { config, environments }: Omit<PreparationContext, 'pageOrigin'>): ResolvedRequest {
  checkFieldTypes(request, true);
  let url = request.url.trim();
  // Relative as a send finds it, once resolved: `{{path}}` may hold "/pets".
  const resolved = resolveWithinLimit(environments, url, 'the URL').text;
  const broken = brokenPlaceholderProblem(resolved) ?? pathParameterProblem(url);
  if (broken !== undefined) throw new RequestError('invalid-url', broken);
  if (isRelative(resolved)) {
    const base = resolveWithinLimit(environments, BASE_URL, 'base_url');
    if (base.missing.includes('base_url')) {
      url = `${BASE_URL}${url}`;
    } else {
      // base_url's trailing "/" stands for the URL's leading one, which here comes from a variable: no template can drop it.
      const slashResolved = !isRelative(url) && base.text.endsWith('/');
      const problem = baseUrlProblemOf(base, environments)
        ?? (slashResolved ? `${JSON.stringify(url)} becomes a path once resolved: a snippet cannot drop its "/" after base_url's, as a send does. Write that "/" in the URL, or end base_url without one.` : undefined);
      if (problem !== undefined) throw new RequestError('invalid-url', problem);
      url = `${BASE_URL}${pathAfterBase(base.text, url)}`;
    }
  } else {
    // A start a send refuses (`{{base_url}}pets`, which runs into the host) is no code to run either.
    const problem = writtenUrlProblem(url, resolved, environments);
    if (problem !== undefined) throw new RequestError('invalid-url', problem);
  }
  const sentName = (name: string) => resolveWithinLimit(environments, name, 'a header name').text.trim();
  const headers = mergeHeaders(config.defaultHeaders, headerRows(request.headers), (text) => text, sentName);
  const body = request.body === undefined || request.body === '' ? undefined : request.body;
  return { method: methodAsWritten(request.method), url, headers, body, missing: [], cyclic: [] };
}

function isRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

function headerRows(headers: ConsoleRequest['headers']): HeaderRow[] {
  if (headers === undefined) return [];
  if (Array.isArray(headers)) return headers.filter((row) => row.enabled !== false && row.name.trim() !== '');
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/**
 * Default headers first, each replaced by the request's own header of the same name (any case). Two rows of
 * one name would be sent joined by ", " or one of them lost, neither of which is what was written: refused, by a
 * send and by a template alike. `sentName`: the name a row's name is sent as, where `resolve` leaves placeholders
 * (a template compares the names a send would compare).
 */
function mergeHeaders(
  defaults: Record<string, string>,
  rows: HeaderRow[],
  resolve: (text: string, field: string) => string,
  sentName: (name: string) => string = (name) => name,
): Record<string, string> {
  const resolved = rows.map((row) => ({ name: resolve(row.name, 'a header name').trim(), value: resolve(row.value, `the value of header ${row.name.trim()}`) }));
  const own = new Set<string>();
  for (const [index, { name }] of resolved.entries()) {
    // Blank rows are left out before resolving; a name that only its variables emptied would be quoted as "".
    const sent = sentName(name);
    if (sent === '') {
      throw new RequestError('invalid-request', `The header name ${rows[index]!.name.trim()} is empty once its placeholders are resolved; give them a value in the active environment, or switch the row off.`);
    }
    const key = sent.toLowerCase();
    if (own.has(key)) {
      throw new RequestError('invalid-request', `The header ${sent} appears in two rows (names ignore case); merge the values into one row, separated by ", ", or switch one off.`);
    }
    own.add(key);
  }
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaults)) {
    if (!own.has(name.toLowerCase())) setOwnProperty(merged, name, resolve(value, `the value of default header ${name}`));
  }
  for (const { name, value } of resolved) setOwnProperty(merged, name, value);
  return merged;
}

/** For a whole header line pasted as a name (`Content-Type: application/json`): how to split it, or `undefined`. */
function headerLineFix(name: string): string | undefined {
  const [, before, after] = /^([^:]*):(.*)$/s.exec(name) ?? [];
  if (before === undefined || !isHeaderName(before.trim())) return undefined;
  return `: a name ends before its ":". Write ${before.trim()} as the name${after!.trim() ? ` and ${JSON.stringify(after!.trim())} as its value` : ''}.`;
}

/** Checked after resolving: a variable's value can hold a line break, or a character fetch cannot send. */
function checkHeaders(headers: Record<string, string>, likelyCause: (text: string) => string): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!isHeaderName(name)) throw new RequestError('invalid-request', `${JSON.stringify(name)} is not a valid header name${headerLineFix(name) ?? `; use only letters (A-Z, a-z), digits and !#$%&'*+-.^_\`|~, with no spaces or colons.${likelyCause(name)}`}`);
    if (seen.has(name.toLowerCase())) {
      throw new RequestError('invalid-request', `The header ${name} appears twice (names ignore case); merge the values into one, separated by ", ".`);
    }
    seen.add(name.toLowerCase());
    const problem = headerValueProblem(value);
    if (problem) throw new RequestError('invalid-request', `The value of header ${name} ${problem}${FROM_A_VARIABLE}; remove it.`);
    // Sent as UTF-8 bytes, as the snippets send them; a lone surrogate has no UTF-8 form.
    if (!value.isWellFormed()) throw new RequestError('invalid-request', `The value of header ${name} holds a lone UTF-16 surrogate, which has no UTF-8 form; remove it.${likelyCause(value)}`);
  }
}
