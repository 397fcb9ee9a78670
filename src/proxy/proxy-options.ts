// The proxy's options, their defaults, and their validation (once, at construction, naming the bad field).
import { ConfigError } from '../core/errors.js';
import { expectKnownFields, expectPlainObject } from '../core/validation.js';
import { AddressPolicy, type PrivateAddressAllowance } from './address-policy.js';
import { systemResolver, type HostResolver } from './guarded-connector.js';
import { OriginPolicy, type OriginAllowList } from './origin-policy.js';
import type { ProxyRefusalRecord } from './refusal.js';
import { TargetPolicy } from './target-policy.js';

export interface ProxyOptions {
  /**
   * Pages allowed to read proxied responses, by their origin: `'loopback'`, `'*'`, a list of origins such
   * as `['https://docs.example.com']`, or a predicate. Other pages get an `origin_not_allowed` refusal.
   * @default 'loopback' (pages on localhost, 127.0.0.1 or [::1], any port: safe until you name your docs site)
   * @example ['https://docs.example.com']
   */
  allowOrigins?: OriginAllowList;
  /**
   * Target hosts the proxy forwards to: exact names, or `*.example.com` for subdomains. Checked on every
   * redirect hop. Public-address checks apply on top: listing a host does not make a private address reachable.
   * @default undefined (any host with a public address)
   * @example ['api.example.com', '*.example.net']
   */
  allowTargets?: readonly string[];
  /**
   * Reach non-public addresses (loopback, private, link-local…): `true` for local development (cloud
   * metadata addresses stay refused), or a predicate asked for every non-public address. Never on the internet.
   * @default false
   */
  allowPrivate?: PrivateAddressAllowance;
  /**
   * Forward `Cookie` upstream and `Set-Cookie` back. Off, a proxy shared by many pages cannot carry one
   * reader's cookies to an API.
   * @default false
   */
  forwardCookies?: boolean;
  /**
   * Largest request body forwarded, in bytes; larger ones get `request_too_large` (413).
   * @default 10485760 (10 MiB)
   */
  maxRequestBytes?: number;
  /**
   * Largest response body relayed, in bytes. A larger declared `Content-Length` gets `response_too_large`
   * (502), except on HEAD, 204 and 304 responses, which carry no body; a body that grows past it mid-stream is
   * cut off (the console explains the cut and names this cap).
   * @default 52428800 (50 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Milliseconds to wait for the upstream's host to resolve, for it to connect, and for it to send its response
   * headers, and the longest pause allowed between two chunks of its body, between two chunks of the page's request
   * body, or for the page to take the next chunk. Exceeded: `upstream_timeout` (504), or, once the response has
   * started, the connections are cut. At most 2147483647 (about 24.8 days).
   * @default 30000
   */
  timeout?: number;
  /**
   * Redirects the proxy follows itself, re-checking the target and the address on every hop. `0` passes
   * every 3xx through to the page, its `Location` pointed back through the proxy so the page's follow-up is checked too.
   * Either way a redirect from https to http is refused (`insecure_redirect`): followed, it would go unencrypted.
   * @default 5
   */
  maxRedirects?: number;
  /**
   * Resolves host names to addresses (injectable for tests). The proxy connects only to an address this
   * returned and the address check accepted, trying those in order while one cannot be reached at all.
   * @default the system resolver (`dns.lookup`, every address)
   */
  resolveHost?: HostResolver;
  /**
   * Told of every refusal the proxy answers, upstream failures included (the page gets its JSON first), for an
   * operator's log: the code, the method, the page's origin and the target's, never its path or query, nor any header.
   * With `startProxy` and `createProxyServer`, also told of what Node's HTTP parser refuses before the proxy sees it
   * (headers too large, a method outside `http.METHODS`, a malformed request, one too slow to arrive, a TLS handshake
   * on this plain-HTTP port, whose record also carries the message), with no method and no origin, as none was read;
   * and of CONNECT. Runs synchronously; an exception it throws is not caught.
   * @default undefined (nothing is recorded; `try-it-proxy` writes each as a JSON line on stderr)
   * @example (record) => console.warn(JSON.stringify(record))
   */
  onRefusal?: (record: ProxyRefusalRecord) => void;
}

/** Options after validation, with every default filled in. */
export interface ResolvedProxyOptions {
  origins: OriginPolicy;
  targets: TargetPolicy;
  addresses: AddressPolicy;
  forwardCookies: boolean;
  maxRequestBytes: number;
  maxResponseBytes: number;
  timeout: number;
  maxRedirects: number;
  resolveHost: HostResolver;
  onRefusal: ((record: ProxyRefusalRecord) => void) | undefined;
}

export const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
export const DEFAULT_TIMEOUT = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;

export const PROXY_OPTION_FIELDS: readonly (keyof ProxyOptions)[] = [
  'allowOrigins', 'allowTargets', 'allowPrivate', 'forwardCookies', 'maxRequestBytes', 'maxResponseBytes', 'timeout', 'maxRedirects', 'resolveHost', 'onRefusal',
];

/** The longest `timeout`: the longest a Node timer waits (a longer one fires at once). */
export const MAX_TIMEOUT = 2 ** 31 - 1;

function positiveInteger(field: string, value: unknown, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new ConfigError(field, value, allowZero ? 'must be a whole number, 0 or more' : 'must be a whole number above 0');
  }
  return value;
}

function booleanOption(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new ConfigError(field, value, 'must be true or false');
  return value;
}

/** A whole number of milliseconds above 0 for a timer; longer than `MAX_TIMEOUT`, Node's timers would fire at once. */
export function millisecondsOption(field: string, value: unknown, fallback: number): number {
  const milliseconds = positiveInteger(field, value, fallback);
  if (milliseconds > MAX_TIMEOUT) throw new ConfigError(field, value, `must be at most ${MAX_TIMEOUT} ms (about 24.8 days)`);
  return milliseconds;
}

/** Validates `options` and fills in defaults. Throws `ConfigError` naming the first bad field. */
export function resolveProxyOptions(given: ProxyOptions = {}): ResolvedProxyOptions {
  // A misspelt field (`allowOrigin`) would leave its default in force without a word.
  const options = expectPlainObject(given, 'proxy options') as ProxyOptions;
  expectKnownFields(options as Record<string, unknown>, PROXY_OPTION_FIELDS, 'proxy options');
  for (const field of ['resolveHost', 'onRefusal'] as const) {
    if (options[field] !== undefined && typeof options[field] !== 'function') throw new ConfigError(field, options[field], 'must be a function');
  }
  return {
    origins: new OriginPolicy(options.allowOrigins),
    targets: new TargetPolicy(options.allowTargets),
    addresses: new AddressPolicy(options.allowPrivate),
    forwardCookies: booleanOption('forwardCookies', options.forwardCookies, false),
    maxRequestBytes: positiveInteger('maxRequestBytes', options.maxRequestBytes, DEFAULT_MAX_REQUEST_BYTES),
    maxResponseBytes: positiveInteger('maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES),
    // Longer than MAX_TIMEOUT, the timers would fire at once and cut every relay to a page that pauses reading.
    timeout: millisecondsOption('timeout', options.timeout, DEFAULT_TIMEOUT),
    maxRedirects: positiveInteger('maxRedirects', options.maxRedirects, DEFAULT_MAX_REDIRECTS, true),
    resolveHost: options.resolveHost ?? systemResolver,
    onRefusal: options.onRefusal,
  };
}
