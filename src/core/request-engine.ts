import { parseConsoleConfig, type ConsoleConfig, type ResolvedConsoleConfig } from './console-config.js';
import { EnvironmentManager } from './environment-manager.js';
import { InvalidArgumentError, RequestError, describeValue } from './errors.js';
import { utf8ByteString } from './http-syntax.js';
import { History } from './history.js';
import type { ResolvedHistoryConfig } from './history-config.js';
import type { HistoryStore } from './history-store.js';
import type { HistoryEntry } from './history-entry.js';
import { connectSourceFor, policyAllowsConnection } from './connect-src.js';
import { watchConnectionsTo, type PolicyViolationWatch } from './policy-violation-watch.js';
import { PROXY_CONTENT_SECURITY_POLICY, PROXY_ERROR_HEADER, PROXY_FINAL_URL_HEADER, UPSTREAM_WWW_AUTHENTICATE_HEADER, isCrossOrigin, targetOfProxiedUrl, type ProxyErrorBody } from './proxy-route.js';
import { checkAndRoute, isForbiddenHeader, prepareRequest, requestTemplate, resolveRequest, type ConsoleRequest, type PreparedRequest, type ResolvedRequest } from './request-preparation.js';
import { IdleDeadline } from './idle-deadline.js';
import { NOT_TLS_CODES, unansweredExplanation } from './dropped-connection.js';
import { invalidJsonWarning } from './json-body.js';
import { brokenPlaceholderProblem, brokenPlaceholderWarnings, pathParameterProblem, redactedSentWarning, unresolvedSentWarning } from './unresolved-explanation.js';
import { ResponseBodyError, checkBodyLimits, readBody, type BodyLimits, type BodyProgress, type ReadBody } from './response-body.js';

export interface RequestEngineOptions extends BodyLimits {
  /** The console configuration; checked here. @default {} */
  config?: ConsoleConfig;
  /** @default a manager holding `config.environments` */
  environments?: EnvironmentManager;
  /** @default a history with `config.history`, persisted in `historyStore` */
  history?: History;
  /** Where the default history persists, chosen from its checked settings. @default none: memory only */
  historyStore?: (config: ResolvedHistoryConfig) => HistoryStore | undefined;
  /** The page's origin, for same-origin and mixed-content checks. @default globalThis.location?.origin */
  pageOrigin?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** A response as the console shows it. */
export interface ConsoleResponse {
  request: PreparedRequest;
  status: number;
  statusText: string;
  /**
   * The URL the response came from when redirects led away from `request.url` (followed by the browser, or by
   * the CORS proxy, which says so in a header); `undefined` otherwise.
   */
  redirectedTo: string | undefined;
  /**
   * Sorted by name, names lowercased and repeated ones joined with ", ", as fetch gives them. Through the CORS
   * proxy, the API's `WWW-Authenticate` (which the proxy renames) is back under its own name.
   */
  headers: [string, string][];
  contentType: string;
  /** Milliseconds from sending to the response headers, and to the last body byte. */
  timing: { headers: number; total: number };
  /** Body size in bytes, all of it, even when only part is kept. */
  size: number;
  /** The first bytes of the body (up to the display limit). */
  body: Uint8Array;
  /**
   * `body` decoded as text, as a browser tab decodes it: a byte order mark wins over the `charset` parameter, which
   * wins over UTF-8.
   */
  text: string;
  /**
   * Things the user should know about how the request went out (placeholders sent as written, and where) and how the
   * response is shown (a charset the console cannot decode).
   */
  warnings: string[];
  /** True when `body` holds only the start of the response body. */
  truncated: boolean;
  /** The whole body for download, or `undefined` when it exceeded the download limit. */
  download: Blob | undefined;
  /** What was recorded in history (`undefined` with history disabled). */
  historyEntry: HistoryEntry | undefined;
}

/** What came before the body: as in `ConsoleResponse`, and the milliseconds from sending to the headers. */
export interface ResponseHead extends Pick<ConsoleResponse, 'status' | 'statusText' | 'headers' | 'contentType'> {
  headersAt: number;
}

/** A response whose body is still arriving: its status and headers, and the body so far. */
export interface ResponseProgress extends ResponseHead, BodyProgress {
  /**
   * The end of the body so far as text: its last `bytes` bytes at most (and the display limit at most), decoded as the
   * response's `text` will be (byte order mark, then charset), from a character's start; a character the last part
   * cut in two waits for the rest. `cut` when the text starts after the body's start.
   */
  textTail(bytes: number): { text: string; cut: boolean };
}

export interface ExecuteOptions {
  /** Cancels the send. */
  signal?: AbortSignal;
  /**
   * Told once the response headers came (`received` 0), then after each part of the body: a stream such as
   * server-sent events can be shown as it comes. What it throws is reported, and does not stop the send.
   */
  onProgress?: (progress: ResponseProgress) => void;
}

/**
 * Sends the console's requests (DESIGN §5): resolves placeholders with the active environment, merges the
 * default headers, checks, routes cross-origin requests through the CORS proxy, sends with a timeout and
 * Cancel, reads the response as a stream, records history, and explains every failure.
 *
 * @example
 * const engine = new RequestEngine({ config: { corsProxy: 'https://proxy.example/?url={url}' } });
 * const response = await engine.send({ method: 'GET', url: 'https://api.example/pets' }, { signal });
 */
export class RequestEngine {
  readonly config: ResolvedConsoleConfig;
  readonly environments: EnvironmentManager;
  readonly history: History;
  readonly #pageOrigin: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #limits: BodyLimits;

  constructor(options: RequestEngineOptions = {}) {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new InvalidArgumentError('options', options, 'must be an object such as { config: { corsProxy: … } }, or left out');
    }
    this.config = parseConsoleConfig(options.config ?? {});
    checkEngineOptions(options, this.config);
    this.environments = options.environments ?? new EnvironmentManager(...this.config.environments);
    this.history = options.history ?? new History(this.config.history, { store: options.historyStore?.(this.config.history) });
    this.#pageOrigin = options.pageOrigin === undefined ? (globalThis as { location?: Location }).location?.origin : pageOriginOf(options.pageOrigin);
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#limits = checkBodyLimits(options);
  }

  /** Resolves, merges, checks and routes without sending. @throws RequestError */
  prepare(request: ConsoleRequest): PreparedRequest {
    if (!this.config.enabled) throw new RequestError('invalid-request', 'The console is disabled by its configuration (enabled: false); nothing is sent.');
    return prepareRequest(request, { config: this.config, environments: this.environments, pageOrigin: this.#pageOrigin });
  }

  /**
   * What the console shows while the user edits, from one resolve: the placeholders (default headers included) left
   * as written, and the warnings of a send that would go ahead, or, for a URL written with its scheme, why it goes
   * wrong at its start (`http://localhost:8080pets`) though Send refuses it. `missing` are names the active
   * environment does not define (`''` for an empty `{{}}`); `cyclic` are names it defines whose values refer back to
   * themselves or nest more than 10 levels deep, which need their values changed rather than a definition added.
   */
  inspect(request: ConsoleRequest): { missing: string[]; cyclic: string[]; warnings: string[] } {
    let unresolved: { missing: string[]; cyclic: string[] } = { missing: [], cyclic: [] };
    let urlProblem: string | undefined;
    try {
      const resolved = resolveRequest(request, { config: this.config, environments: this.environments });
      unresolved = { missing: resolved.missing, cyclic: resolved.cyclic };
      // Told as soon as a URL typed with its scheme has it, whether it parses or not (a path run into the port does
      // not): a URL still being typed (`htt`) has no scheme yet. A placeholder a brace short, wherever it is.
      urlProblem = brokenPlaceholderProblem(resolved.url) ?? pathParameterProblem(request.url);
      // Refused on Send, whatever else the request holds.
      if (urlProblem !== undefined) return { ...unresolved, warnings: [urlProblem] };
      if (/^https?:\/\//i.test(resolved.url)) urlProblem = resolved.urlProblem;
      const { warnings } = checkAndRoute(resolved, { config: this.config, pageOrigin: this.#pageOrigin });
      const invalidJson = invalidJsonWarning(request.body, resolved.headers);
      return { ...unresolved, warnings: invalidJson === undefined ? warnings : [invalidJson, ...warnings] };
    } catch {
      // A request that cannot be sent is explained when the user sends it, not while they type.
      return { ...unresolved, warnings: urlProblem === undefined ? [] : [urlProblem] };
    }
  }

  /**
   * The request with placeholders kept and default headers merged: what a snippet of it should show. A relative URL
   * is written after `{{base_url}}` so that it resolves to the URL a send goes to.
   * @throws RequestError when a send would refuse the request for the same reason (two header rows of one name, a
   * base_url with a query…).
   */
  template(request: ConsoleRequest): ResolvedRequest {
    return requestTemplate(request, { config: this.config, environments: this.environments });
  }

  /**
   * Prepares and sends.
   * @throws RequestError with the kind of failure and what to do about it.
   * @throws InvalidArgumentError for options other than `{ signal?, onProgress? }` of the right types.
   */
  async send(request: ConsoleRequest, options: ExecuteOptions = {}): Promise<ConsoleResponse> {
    return this.execute(this.prepare(request), options);
  }

  /**
   * Sends a prepared request. It is checked and routed again first, so a request the page rewrote in a
   * before-send handler goes where its URL says and breaks no rule the original kept.
   */
  async execute(request: PreparedRequest, options?: ExecuteOptions): Promise<ConsoleResponse> {
    const { signal, onProgress } = checkedExecuteOptions(options);
    const prepared = { ...request, ...checkAndRoute(request, { config: this.config, pageOrigin: this.#pageOrigin }) };
    // Only a body sent as written (`written.body` is absent then): one whose placeholders were filled holds the
    // environment's values, which the warning would quote.
    const invalidJson = request.written?.body === undefined ? invalidJsonWarning(prepared.body, prepared.headers) : undefined;
    if (invalidJson !== undefined) prepared.warnings.unshift(invalidJson);
    // Worded now, from the environment the request was resolved in: the reader may pick another, or define the
    // variable, before a slow response ends.
    const unresolvedWarning = unresolvedSentWarning(prepared, this.environments);
    const deadline = new IdleDeadline(this.config.timeout);
    const timeout = deadline.signal;
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const start = performance.now();
    // The entry's timestamp is when the request was made (SPEC A4), not when its response ended.
    const madeAt = Date.now();
    let response: Response | undefined;
    let head: ResponseHead | undefined;
    let body: ReadBody;
    const blocks = watchConnectionsTo(prepared.fetchUrl);
    try {
      response = await this.#fetch(prepared.fetchUrl, {
        method: prepared.method,
        headers: sendableHeaders(prepared.headers),
        body: prepared.body,
        // Through the proxy, never: with the proxy on the docs site's origin, 'same-origin' would send the reader's
        // login to that site (HTTP authentication), which the proxy passes on to whichever API is called.
        credentials: prepared.viaProxy ? 'omit' : this.config.credentials,
        cache: 'no-store',
        signal: combined,
      });
      const headersAt = performance.now() - start;
      if (prepared.viaProxy && response.headers.has(PROXY_ERROR_HEADER)) {
        throw await proxyRefusal(response, prepared.method, new URL(prepared.fetchUrl).origin === this.#pageOrigin);
      }
      const arrived: ResponseHead = {
        status: response.status,
        statusText: response.statusText,
        headers: prepared.viaProxy ? headersTheApiSent(response.headers) : [...response.headers],
        contentType: response.headers.get('content-type') ?? '',
        headersAt,
      };
      head = arrived;
      const tell = onProgress && ((progress: BodyProgress) => tellProgress(onProgress, { ...arrived, ...progress, textTail: (bytes) => textTail(progress, arrived.contentType, bytes) }));
      tell?.({ received: 0, bytes: () => new Uint8Array(), last: () => new Uint8Array() });
      deadline.restart();
      body = await readBody(response.body as ReadableStream<Uint8Array<ArrayBuffer>> | null, this.#limits, tell, () => deadline.restart());
    } catch (error) {
      // The send ended here: the probes that explain a failure are not part of its duration.
      const duration = performance.now() - start;
      if (error instanceof ResponseBodyError && head) {
        error.text = decodeText(error.bytes, head.contentType, true).text;
        error.contentType = head.contentType;
      }
      const failure = await this.#explain(error, prepared, { signal, timeout, timeLeft: this.config.timeout - duration, status: response?.status, contentEncoding: response?.headers.get('content-encoding'), blocks });
      // Cancelled once its response had started (a stream ends no other way, as the timeout waits on each pause): kept,
      // with its status. Cancelled before, it is recorded nowhere.
      if (failure.kind !== 'aborted') failure.historyEntry = this.#record(prepared, madeAt, 0, duration);
      else if (head !== undefined) failure.historyEntry = this.#record(prepared, madeAt, head.status, duration);
      throw failure;
    } finally {
      deadline.stop();
      blocks.stop();
    }
    const total = performance.now() - start;
    const { status, statusText, headers, contentType, headersAt } = head!;
    const decoded = decodeText(body.bytes, contentType, body.truncated);
    const warnings = [unresolvedWarning, ...brokenPlaceholderWarnings(prepared), status >= 400 ? redactedSentWarning(prepared) : undefined, decoded.warning].filter((warning) => warning !== undefined);
    return {
      request: prepared,
      status,
      statusText,
      redirectedTo: this.#redirectedTo(prepared, response),
      headers,
      contentType,
      timing: { headers: headersAt, total },
      size: body.size,
      body: body.bytes,
      text: decoded.text,
      warnings,
      truncated: body.truncated,
      download: body.whole,
      historyEntry: this.#record(prepared, madeAt, status, total),
    };
  }

  /**
   * Where redirects led: the proxy says so in a header for those it followed; the ones it handed back to the page
   * were followed by fetch through the proxy, so the final URL is a proxy URL carrying the target.
   */
  #redirectedTo(prepared: PreparedRequest, response: Response): string | undefined {
    if (!prepared.viaProxy) return (response.redirected && response.url) || undefined;
    const followedByProxy = response.headers.get(PROXY_FINAL_URL_HEADER);
    if (followedByProxy) return followedByProxy;
    return response.redirected ? targetOfProxiedUrl(this.config.corsProxy!, response.url) : undefined;
  }

  #record(prepared: PreparedRequest, timestamp: number, status: number, duration: number): HistoryEntry | undefined {
    if (!this.history.config.enabled) return undefined;
    const { method, url, headers, body = '', written } = prepared;
    return this.history.add({ method, url, headers, body, status, duration, written, timestamp });
  }

  async #explain(
    error: unknown,
    prepared: PreparedRequest,
    { signal, timeout, timeLeft, status, contentEncoding, blocks }: { signal: AbortSignal | undefined; timeout: AbortSignal; timeLeft: number; status: number | undefined; contentEncoding: string | null | undefined; blocks: PolicyViolationWatch },
  ): Promise<RequestError> {
    // Cancel wins over a proxy refusal whose body was still arriving, as over any response still arriving.
    if (signal?.aborted) return cancelled(error);
    if (error instanceof RequestError) return error;
    if (timeout.aborted) return timedOut(error, prepared, status, this.config.timeout);
    // The server answered, so neither CORS nor reachability is the problem: the body broke off.
    if (error instanceof ResponseBodyError) return brokenOff(error, prepared, status, contentEncoding);
    // Node's fetch refuses a head larger than it reads (16 KiB unless --max-http-header-size says more): the server
    // answered, and a probe would fail alike, reading as a server that is down.
    if (causeCode(error) === 'UND_ERR_HEADERS_OVERFLOW') {
      return new RequestError('network', `${new URL(prepared.fetchUrl).origin} answered with headers larger than Node's HTTP client reads (UND_ERR_HEADERS_OVERFLOW); start Node with --max-http-header-size=65536 (or more), or have the server send fewer.`, { cause: error });
    }
    // Probes would be blocked too, and their answer would blame the server or CORS.
    if (await blocks.seen()) return blockedByPagePolicy(prepared, error, blocks.blockingPolicy, this.#pageOrigin);
    if (prepared.viaProxy) {
      return new RequestError('network', `Could not reach the CORS proxy at ${new URL(prepared.fetchUrl).origin}; check that it is running and that corsProxy points at it.${largeHead(prepared)}`, { cause: error });
    }
    // The probes share one budget: what is left of the request's timeout, at most 5 s. Whole milliseconds: Node
    // throws a RangeError for a fraction (browsers round it).
    const budget = AbortSignal.timeout(Math.floor(Math.max(0, Math.min(5_000, timeLeft))));
    return this.#whyNoResponse(prepared, error, signal ? AbortSignal.any([signal, budget]) : budget, signal);
  }

  /**
   * A browser reports a CORS refusal, a dead server and a redirect it could not follow alike ("Failed to fetch").
   * Probes tell them apart. A CORS request that stops at a redirect shows one as an opaque redirect (browsers refuse
   * to stop at one in no-cors mode); a no-cors request gets an opaque answer from a live server whatever its CORS
   * headers, but follows redirects.
   */
  async #whyNoResponse(prepared: PreparedRequest, error: unknown, probeSignal: AbortSignal, signal: AbortSignal | undefined): Promise<RequestError> {
    const origin = new URL(prepared.url).origin;
    const pageOrigin = this.#pageOrigin !== undefined && isCrossOrigin(prepared.url, this.#pageOrigin) ? this.#pageOrigin : undefined;
    const unfollowed = await this.#probe(prepared.url, { mode: 'cors', redirect: 'manual' }, probeSignal);
    if (signal?.aborted) return cancelled(error);
    if (unfollowed && isRedirect(unfollowed)) return redirectNotFollowed(prepared.url, unfollowed, pageOrigin, error);
    if (pageOrigin === undefined && unfollowed) {
      return new RequestError('network', `The request to ${origin} failed${causeDetail(error)}, though the server answers a HEAD request: the connection broke during this one. Try again, or look for the cause in the server's log.`, { cause: error });
    }
    if (pageOrigin === undefined) {
      // In Node the cause tells a server that is up but gave no usable answer from one that cannot be reached.
      // undici's HTTPParserError carries its HPE_… code in some versions only.
      const code = causeCode(error);
      if (/^https:/i.test(prepared.url) && NOT_TLS_CODES.has(code ?? '')) {
        return new RequestError('network', `${origin} answers plain http, not https (${code}); write the URL with http://.`, { cause: error });
      }
      const parserError = causeNamed(error, 'HTTPParserError');
      const notHttp = !!parserError || !!code?.startsWith('HPE_');
      const unanswered = unansweredExplanation(new URL(prepared.url), code, { notHttp, detail: code ?? parserError?.message ?? '', server: 'the server' });
      return new RequestError('network', unanswered || `Could not reach ${origin}${causeDetail(error)}; check the address and that the server is up.`, { cause: error });
    }
    if (unfollowed) {
      // Without a preflight (and cookies), only the answer itself can have lacked the CORS headers.
      const plain = !neededPreflight(prepared.method, prepared.headers) && this.config.credentials !== 'include';
      return plain ? corsRefusedThisAnswer(origin, pageOrigin, error) : corsRefusedThisRequest(origin, pageOrigin, error);
    }
    const opaque = await this.#probe(prepared.url, { mode: 'no-cors' }, probeSignal);
    if (signal?.aborted) return cancelled(error);
    // The checks ran out of time: a server that answers slowly, whose answer may well have lacked CORS headers.
    if (!opaque && probeSignal.aborted) {
      return new RequestError(
        'network',
        `The request to ${origin} failed, and checking why took longer than the time left for it: the server answers slowly, if at all. If the browser's network panel shows it answered, the answer lacked the CORS headers that let pages on ${pageOrigin} read it: set the console's corsProxy (for example a try-it-proxy you run), or have the API allow this origin.`,
        { cause: error },
      );
    }
    if (!opaque) {
      return new RequestError('network', `Could not reach ${origin}: the server did not answer (or the browser blocked the connection, or redirects led nowhere); check the address and that the server is up.`, { cause: error });
    }
    return new RequestError(
      'cors',
      `Blocked by CORS: ${origin} answered, but does not allow pages on ${pageOrigin} to read its responses. Set the console's corsProxy (for example a try-it-proxy you run) to send it through a proxy, or have the API allow this origin.`,
      { cause: error },
    );
  }

  /** A HEAD request to `url`: its response, or `undefined` when none came before `signal` (the probes' budget). */
  async #probe(url: string, init: RequestInit, signal: AbortSignal): Promise<Response | undefined> {
    try {
      return await this.#fetch(url, { ...init, method: 'HEAD', credentials: 'omit', cache: 'no-store', signal });
    } catch {
      return undefined;
    }
  }
}

/**
 * What fetch is given: the headers a page may set. Browsers drop the others silently; Node's fetch would send
 * some (Cookie) and fail or hang on others (Content-Length, Expect), so they go here, as the warning says. Values
 * as their UTF-8 bytes, as every snippet sends them.
 */
function sendableHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers)
    .filter(([name]) => !isForbiddenHeader(name))
    // Node's fetch (undici) copies headers into a `{}` by name, where `__proto__` sets the prototype and the header is
    // lost without a word; names ignore case, so this spelling arrives as the same header.
    .map(([name, value]) => [name === '__proto__' ? '__Proto__' : name, utf8ByteString(value)]);
}

/**
 * The headers of a response relayed by the proxy as the API sent them: its `WWW-Authenticate` under its own name
 * again, its `Content-Security-Policy` without the one the proxy adds after it, and without the headers only the
 * proxy writes (it drops the API's `Access-Control-*`; "Redirected to" shows its final URL).
 */
function headersTheApiSent(headers: Headers): [string, string][] {
  const named: [string, string][] = [];
  // What a browser shows of a cross-origin response: the exposed headers (the proxy exposes the API's) and the
  // CORS-safelisted ones. Node shows every header, the proxy's own `Vary: Origin` and hardening headers too.
  const exposedList = headers.get('access-control-expose-headers');
  const exposed = exposedList === null || exposedList.trim() === '*' ? undefined : new Set([...CORS_SAFELISTED_RESPONSE_HEADERS, ...exposedList.toLowerCase().split(/\s*,\s*/)]);
  for (const [name, value] of headers) {
    if (name === PROXY_FINAL_URL_HEADER || name.startsWith('access-control-') || (exposed && !exposed.has(name))) continue;
    if (name === UPSTREAM_WWW_AUTHENTICATE_HEADER) named.push(['www-authenticate', value]);
    else if (name !== 'content-security-policy') named.push([name, value]);
    else if (value !== PROXY_CONTENT_SECURITY_POLICY) named.push([name, withoutSuffix(value, `, ${PROXY_CONTENT_SECURITY_POLICY}`)]);
  }
  return named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The response headers a page may read from any origin (Fetch's CORS-safelisted response-header names). */
const CORS_SAFELISTED_RESPONSE_HEADERS = ['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma'];

function withoutSuffix(text: string, suffix: string): string {
  return text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
}

/**
 * `origin` as `location.origin` writes it: `https://Docs.Example.com:443/` would otherwise make every target
 * cross-origin. `'null'` is the origin of a sandboxed or `file:` page.
 */
function pageOriginOf(origin: unknown): string {
  if (origin === 'null') return origin;
  if (typeof origin === 'string' && URL.canParse(origin) && /^https?:$/.test(new URL(origin).protocol)) return new URL(origin).origin;
  throw new InvalidArgumentError('pageOrigin', origin, 'must be the page\'s origin, such as https://docs.example.com (location.origin)');
}

/** `onPageOrigin`: the proxy shares the page's origin. */
async function proxyRefusal(response: Response, method: string, onPageOrigin: boolean): Promise<RequestError> {
  const code = response.headers.get(PROXY_ERROR_HEADER);
  // A HEAD answer has no body to carry the proxy's explanation.
  let message = method === 'HEAD' ? `the proxy answered ${response.status}; send the request as GET to read its full explanation` : `the proxy answered ${response.status}`;
  try {
    const body = (await response.json()) as ProxyErrorBody;
    if (typeof body?.error?.message === 'string') message = body.error.message;
  } catch {
    // The code in the header is enough to go on.
  }
  // Browsers send no Origin with a GET or HEAD to the page's own origin, so such a proxy refuses them and takes a POST.
  if (code === 'origin_not_allowed' && onPageOrigin && (method === 'GET' || method === 'HEAD')) {
    message += " This page is on the proxy's own origin, and browsers send no Origin header with a GET or HEAD request to their own origin. try-it-proxy reads the browser's Sec-Fetch-Site header instead, and serves such a page when its origin is allowed; another proxy may need an origin of its own (another host or port).";
  }
  // The proxy took the request, and the API did not answer it: nothing was refused.
  const what = code?.startsWith('upstream_') ? 'could not get a usable answer from the API' : 'refused the request';
  return new RequestError('proxy-refused', `The CORS proxy ${what} (${code}): ${message}`, { proxyCode: code ?? undefined });
}

/** The page's own Content-Security-Policy kept fetch from connecting, to the server or to where it redirected. */
function blockedByPagePolicy(prepared: PreparedRequest, error: unknown, policy: string | undefined, pageOrigin: string | undefined): RequestError {
  const origin = new URL(prepared.fetchUrl).origin;
  // Chromium names the request's URL for a redirect it refused too: a policy that allows that URL refused the redirect.
  if (policy !== undefined && policyAllowsConnection(policy, prepared.fetchUrl, pageOrigin)) {
    return new RequestError(
      'csp',
      `${origin} answered with a redirect to another origin, which this page's Content-Security-Policy does not allow connections to, so the response could not be read (the browser does not say which origin; its network panel shows it). Add that origin to the policy's connect-src${prepared.viaProxy ? '' : ", or set the console's corsProxy: the proxy follows redirects itself"}.`,
      { cause: error },
    );
  }
  const destination = prepared.viaProxy ? `the CORS proxy at ${origin}` : origin;
  // Another source than the origin only where CSP cannot name it (an IPv6 address).
  const source = connectSourceFor(prepared.fetchUrl);
  const why = source === origin ? '' : ' (CSP cannot name an IPv6 address; or use a host name)';
  return new RequestError(
    'csp',
    `This page's Content-Security-Policy does not allow connections to ${destination}, so the request was not sent. Add ${source}${why} to the policy's connect-src (in the Content-Security-Policy header or <meta> of the page).`,
    { cause: error },
  );
}

function cancelled(error: unknown): RequestError {
  return new RequestError('aborted', 'Cancelled: the request was stopped before it finished.', { cause: error });
}

/**
 * The options of a send, checked: a misspelt `signal` would leave a send that Cancel cannot stop, and a wrong type
 * would fail deep inside fetch.
 */
function checkedExecuteOptions(options: unknown): ExecuteOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError('options', options, 'must be an object { signal?, onProgress? }');
  }
  const { signal, onProgress, ...others } = options as ExecuteOptions & Record<string, unknown>;
  const [unknown] = Object.keys(others);
  if (unknown !== undefined) throw new InvalidArgumentError(`options.${unknown}`, others[unknown], 'is not an option of a send; the options are signal and onProgress');
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidArgumentError('options.signal', signal, 'must be an AbortSignal, e.g. from new AbortController() or AbortSignal.timeout()');
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new InvalidArgumentError('options.onProgress', onProgress, 'must be a function (progress) => void');
  return { signal, onProgress };
}

const ENGINE_OPTIONS = ['config', 'environments', 'history', 'historyStore', 'pageOrigin', 'fetch', 'displayLimit', 'downloadLimit'];
/** The options that take an object or a function, and a method it must have. */
const ENGINE_OBJECTS: [string, string, string][] = [['environments', 'resolveDetailed', 'an EnvironmentManager'], ['history', 'add', 'a History'], ['historyStore', 'call', 'a function'], ['fetch', 'call', 'a function']];

/**
 * A misspelt option, or a field of the console configuration given beside `config` instead of in it, would be ignored
 * without a word; a list of environments or history settings given for the objects would fail at the first send.
 */
function checkEngineOptions(options: object, config: ResolvedConsoleConfig): void {
  const given = options as Record<string, Record<string, unknown> | undefined>;
  const inConfig = (key: string) => (key in config ? `; the console configuration's ${key} goes in config: new RequestEngine({ config: { ${key} } })` : '');
  for (const key of Object.keys(given)) {
    if (!ENGINE_OPTIONS.includes(key)) throw new InvalidArgumentError(`options.${key}`, given[key], `is not an option of RequestEngine${inConfig(key)}; the options are ${ENGINE_OPTIONS.join(', ')}`);
  }
  for (const [key, method, what] of ENGINE_OBJECTS) {
    const value = given[key];
    if (value !== undefined && typeof value?.[method] !== 'function') throw new InvalidArgumentError(`options.${key}`, value, `must be ${what}${inConfig(key)}`);
  }
}

function tellProgress(onProgress: (progress: ResponseProgress) => void, progress: ResponseProgress): void {
  try {
    onProgress(progress);
  } catch (error) {
    // As an event listener's exception: reported on its own, the send goes on.
    queueMicrotask(() => {
      throw error;
    });
  }
}

/**
 * For a request with no answer: a preflight head (the URL and the header names) over 8 KiB, which servers refuse before
 * reading it. A refused preflight reads as no answer, so a running proxy looks down; '' for a head of the usual size.
 */
function largeHead({ fetchUrl, headers }: PreparedRequest): string {
  // A preflight carries the URL and the header names (Access-Control-Request-Headers), not their values.
  const bytes = Object.keys(headers).reduce((total, name) => total + name.length + 1, new TextEncoder().encode(fetchUrl).length);
  if (bytes <= 8 * 1024) return '';
  return ` Its URL comes to ${Math.round(bytes / 1024)} KB: servers refuse request heads that large (try-it-proxy reads 16 KB), and the browser reports the refusal of its preflight as no answer; shorten it.`;
}

/** A pause in the body past the timeout says how far it got: the server answered, so it is not down. */
function timedOut(error: unknown, prepared: PreparedRequest, status: number | undefined, timeout: number): RequestError {
  const seconds = `${timeout / 1000} s`;
  return new RequestError(
    'timeout',
    error instanceof ResponseBodyError
      ? `The response (status ${status}) stopped arriving for ${seconds} after ${error.received} bytes of its body: the server answered, but stopped sending. Try again (if the API pauses that long on purpose, the site can raise the console's timeout setting).`
      : // The origin alone: the message is shown and passed on, and a path or query may hold a key.
        prepared.viaProxy
        ? `No answer through the CORS proxy at ${new URL(prepared.fetchUrl).origin} from ${new URL(prepared.url).origin} within ${seconds}; the proxy or the API may be slow or down. Try again in a moment (the site sets how long the console waits: its timeout setting).`
        : `No answer from ${new URL(prepared.url).origin} within ${seconds}; the server may be slow or down. Try again in a moment (the site sets how long the console waits: its timeout setting).`,
    { cause: error },
  );
}

function brokenOff(error: ResponseBodyError, prepared: PreparedRequest, status: number | undefined, contentEncoding: string | null | undefined): RequestError {
  const what = `The response (status ${status}) broke off after ${error.received} bytes of its body`;
  const encoding = contentEncoding && contentEncoding.toLowerCase() !== 'identity' ? `its Content-Encoding (${contentEncoding})` : undefined;
  // Node's fetch says what ended the body, decoding (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_…) or the connection;
  // a browser reports both alike and says neither, so there the encoding can only be named as a possible cause.
  const code = causeCode(error);
  if (encoding && code && /^(?:Z_|ERR__ERROR)/.test(code)) {
    return new RequestError('network', `${what}: it did not decode as ${encoding} says (${code}). The server labels a body compressed another way, or not at all; fix its Content-Encoding.`, { cause: error });
  }
  const orUndecodable = encoding && !code ? ` Or the body did not decode as ${encoding} says, which a browser reports alike.` : '';
  return new RequestError(
    'network',
    (prepared.viaProxy
      ? `${what}: the CORS proxy closed the connection before the end. It does so when a response is larger than it relays (50 MiB unless whoever runs it set another limit), when the API pauses longer than the proxy waits, or when the API's connection fails. Ask the API for less (a smaller page of results, if it offers one), or send the request from your own machine, without the proxy: the code under Code does.`
      : `${what}: ${new URL(prepared.url).origin} closed the connection before the end. Try again; if it keeps happening, the server or something between is dropping the response.`) + orUndecodable,
    { cause: error },
  );
}

/** What `pick` finds first in `error` and its causes, four deep (undici's "terminated" wraps zlib's or the socket's). */
function fromCauses<T>(error: unknown, pick: (cause: Error) => T | undefined): T | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const found = pick(cause);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first code among the causes of `error`, if any. */
function causeCode(error: unknown): string | undefined {
  return fromCauses(error, (cause) => {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  });
}

/** The first of `error` and its causes named `name`, if any. */
function causeNamed(error: unknown, name: string): Error | undefined {
  return fromCauses(error, (cause) => (cause.name === name ? cause : undefined));
}

/** Browsers answer a request that stops at a redirect with an opaque redirect; Node with the redirect itself. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || [301, 302, 303, 307, 308].includes(response.status);
}

/**
 * The first server answered with a redirect and following it failed. A browser hides where it leads from the page,
 * so the causes can only be listed; for a page on another origin, the CORS proxy can follow it and say where it went.
 */
function redirectNotFollowed(url: string, redirect: Response, pageOrigin: string | undefined, error: unknown): RequestError {
  const origin = new URL(url).origin;
  const written = redirect.headers.get('location');
  const location = written !== null && URL.canParse(written, url) ? new URL(written, url).href : written;
  const answered = `${origin} answered with a redirect${location ? ` to ${location}` : ''}, and following it failed${causeDetail(error)}`;
  const unseen = location ? '' : ' The page cannot see where a redirect leads.';
  if (pageOrigin !== undefined) {
    return new RequestError(
      'cors',
      `${answered}: its target may not allow pages on ${pageOrigin} to read its responses (CORS), may be down, or the redirects may loop.${unseen} Set the console's corsProxy (for example a try-it-proxy you run): the proxy follows redirects itself and reports where they led.`,
      { cause: error },
    );
  }
  const cors = location ? '' : ', or to one on another origin that does not allow this page to read its responses (CORS)';
  return new RequestError('network', `${answered}: the redirects may loop, or lead to a server that is down${cors}.${unseen} The browser's network panel, or curl -v, shows each step.`, { cause: error });
}

/** The server lets the page read a plain request, not this one: what the browser asked first (a preflight) was refused. */
function corsRefusedThisRequest(origin: string, pageOrigin: string, error: unknown): RequestError {
  return new RequestError(
    'cors',
    `Blocked by CORS: ${origin} lets pages on ${pageOrigin} read its answer to a plain request, but not to this one: most likely its CORS headers do not allow this method, these headers or credentials (the browser asks first, with an OPTIONS request). Have the API allow them (Access-Control-Allow-Methods, Access-Control-Allow-Headers), or set the console's corsProxy (for example a try-it-proxy you run) to send it through a proxy.`,
    { cause: error },
  );
}

/** The server lets the page read a plain request, and this one needed no preflight: its answer lacked the CORS headers. */
function corsRefusedThisAnswer(origin: string, pageOrigin: string, error: unknown): RequestError {
  return new RequestError(
    'cors',
    `Blocked by CORS: ${origin} lets pages on ${pageOrigin} read its answer to a plain HEAD request, but this request failed though it needed no preflight: most likely its answer came without the CORS headers that allow it, as APIs often send errors (a 404 or 500 from a default handler), or the connection broke. Set the console's corsProxy (for example a try-it-proxy you run) to see the answer, or have the API send Access-Control-Allow-Origin with every response.`,
    { cause: error },
  );
}

// Fetch standard, "CORS-safelisted request-header": what a page may send to another origin without a preflight.
const SAFELISTED_CONTENT_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);
const CORS_UNSAFE_BYTE = /[\x00-\x08\x0a-\x1f"():<>?@[\\\]{}\x7f]/;

function isSafelistedHeader(name: string, value: string): boolean {
  if (value.length > 128) return false;
  switch (name.toLowerCase()) {
    case 'accept':
      return !CORS_UNSAFE_BYTE.test(value);
    case 'accept-language':
    case 'content-language':
      return /^[0-9A-Za-z *,\-.;=]*$/.test(value);
    case 'content-type':
      return !CORS_UNSAFE_BYTE.test(value) && SAFELISTED_CONTENT_TYPES.has(value.split(';')[0]!.trim().toLowerCase());
    case 'range':
      return /^bytes=\d+-\d*$/.test(value);
    default:
      return false;
  }
}

/** Whether the browser asked with an OPTIONS preflight before sending this request. */
function neededPreflight(method: string, headers: Record<string, string>): boolean {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return true;
  // Values as sent: UTF-8 bytes, without the spaces and tabs around them that fetch removes.
  const sent = sendableHeaders(headers).map(([name, value]) => [name, value.replace(/^[\t ]+|[\t ]+$/g, '')] as const);
  return !sent.every(([name, value]) => isSafelistedHeader(name, value)) || sent.reduce((size, [, value]) => size + value.length, 0) > 1024;
}

function causeDetail(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? ` (${cause.code})` : '';
}

/** Byte order marks, which win over the declared charset, with the encodings they mean. */
const BYTE_ORDER_MARKS: [number[], string][] = [
  [[0xef, 0xbb, 0xbf], 'utf-8'],
  [[0xfe, 0xff], 'utf-16be'],
  [[0xff, 0xfe], 'utf-16le'],
];

/**
 * Decodes as a browser tab does (Encoding Standard, decode): a byte order mark decides and is left out; else the
 * response's charset; else UTF-8. A charset the platform cannot decode falls back to UTF-8, with a warning. A cut body
 * may end inside a character: decoding as a stream leaves that partial character out instead of showing a replacement.
 */
function decodeText(bytes: Uint8Array, contentType: string, cut: boolean): { text: string; warning?: string } {
  const { encoding, warning } = textEncodingOf(bytes, contentType);
  // A decoder strips the byte order mark of its own encoding.
  return { text: new TextDecoder(encoding).decode(bytes, { stream: cut }), ...(warning ? { warning } : {}) };
}

/** The encoding a body starting with `start` is decoded with (see `decodeText`), as the decoder names it. */
function textEncodingOf(start: Uint8Array, contentType: string): { encoding: string; warning?: string } {
  const marked = BYTE_ORDER_MARKS.find(([mark]) => mark.every((byte, index) => start[index] === byte))?.[1];
  const charset = charsetOf(contentType);
  try {
    return { encoding: new TextDecoder(marked ?? (charset || 'utf-8')).encoding };
  } catch {
    return {
      encoding: 'utf-8',
      warning: `The response declares charset ${describeValue(charset)}, which the console cannot decode; it is shown as UTF-8, so characters outside ASCII may be wrong. Have the API declare an encoding browsers know, such as utf-8.`,
    };
  }
}

/** Multi-byte encodings in which no byte tells where a character starts (Encoding Standard, legacy multi-byte). */
const LEGACY_MULTI_BYTE = new Set(['gbk', 'gb18030', 'big5', 'euc-jp', 'iso-2022-jp', 'shift_jis', 'euc-kr']);

/** The end of a body still arriving, decoded as `decodeText` will decode the whole (see `ResponseProgress.textTail`). */
function textTail(progress: BodyProgress, contentType: string, limit: number): { text: string; cut: boolean } {
  const last = progress.last();
  const offset = progress.received - last.byteLength; // where `last` starts in the body
  let at = Math.max(0, last.byteLength - Math.max(0, limit));
  // The byte order mark and the charset decide for the whole body, however far the text shown starts.
  const { encoding } = textEncodingOf(offset === 0 ? last : progress.bytes().subarray(0, 3), contentType);
  if (offset + at > 0) {
    if (encoding === 'utf-8') {
      // Continuation bytes (10xxxxxx) are the middle of a character.
      while (at < last.byteLength && (last[at]! & 0xc0) === 0x80) at += 1;
    } else if (encoding === 'utf-16le' || encoding === 'utf-16be') {
      if ((offset + at) % 2 === 1) at += 1;
      // The second half of a surrogate pair.
      if (((last[encoding === 'utf-16le' ? at + 1 : at] ?? 0) & 0xfc) === 0xdc) at += 2;
    } else if (LEGACY_MULTI_BYTE.has(encoding)) {
      // A line's start is a character's start (no second byte of these is a line feed).
      const lineFeed = last.indexOf(0x0a, at);
      if (lineFeed !== -1) at = lineFeed + 1;
    }
  }
  const cut = offset + at > 0;
  // Streamed: a character the last part cut in two waits for the rest instead of showing as U+FFFD. Past the start a
  // U+FEFF is a character of the text, not a byte order mark.
  return { text: new TextDecoder(encoding, { ignoreBOM: cut }).decode(last.subarray(at), { stream: true }), cut };
}

/** `;` name `=` value, the value a quoted string (with backslash escapes) or plain text up to the next `;`. */
const MIME_PARAMETER = /;[\t\n\r ]*([^;=]*)(?:=(?:"((?:[^"\\]|\\.)*)"?[^;]*|([^;]*)))?/g;

/** One value of a header that fetch joined with ", ", a quoted string's commas kept. */
const HEADER_VALUE = /(?:[^,"]|"(?:[^"\\]|\\.)*"?)+/g;

/**
 * The charset of a Content-Type as Fetch's "extract a MIME type" reads it: two headers reach fetch joined with ", ",
 * and the last type wins, keeping an earlier value's charset when both name the same type
 * (`text/plain; charset=shift_jis, text/plain` is Shift_JIS).
 */
function charsetOf(contentType: string): string | undefined {
  let essence: string | undefined;
  let charset: string | undefined;
  for (const [value] of contentType.matchAll(HEADER_VALUE)) {
    const type = value.split(';')[0]!.trim().toLowerCase();
    if (!/^[^\s/]+\/[^\s/]+$/.test(type) || type === '*/*') continue;
    const own = charsetParameter(value);
    if (type !== essence) [essence, charset] = [type, own];
    else if (own !== undefined) charset = own;
  }
  return charset;
}

/** The first `charset` parameter of one MIME type, as the MIME Sniffing Standard parses it. */
function charsetParameter(contentType: string): string | undefined {
  for (const [, name, quoted, plain] of contentType.matchAll(MIME_PARAMETER)) {
    if (name!.toLowerCase() !== 'charset') continue;
    const value = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : plain?.trimEnd();
    // A plain empty value does not count; a later charset may still be read.
    if (value || quoted !== undefined) return value;
  }
  return undefined;
}
