import { ConfigError } from './errors.js';
import { isHeaderName } from './http-syntax.js';
import { expectArray, expectBoolean, expectKnownFields, expectPlainObject, expectPositiveInteger, expectString } from './validation.js';

/** Request history settings. */
export interface HistoryConfig {
  /** Turns request history on or off. */
  enabled: boolean;
  /**
   * Most entries kept; adding one more evicts the oldest.
   * @default 50
   */
  maxItems?: number;
  /**
   * Names the IndexedDB database, so that two consoles on one site keep separate histories.
   * @default 'default'
   */
  storageKey?: string;
  /** More header names whose values are replaced by a marker before an entry is persisted. */
  redactHeaders?: string[];
  /** More URL query parameter names whose values are replaced by a marker before an entry is persisted. */
  redactQueryParameters?: string[];
  /**
   * Persist credential header and query parameter values as they are. Off by default: history outlives the page.
   * @default false
   */
  keepCredentials?: boolean;
  /**
   * Longest request body persisted, in characters; longer ones are stored cut, with `bodyTruncated`.
   * @default 65_536
   */
  maxStoredBodyLength?: number;
}

export type ResolvedHistoryConfig = Required<HistoryConfig>;

export const DEFAULT_HISTORY_CONFIG: Readonly<ResolvedHistoryConfig> = Object.freeze({
  enabled: true,
  maxItems: 50,
  storageKey: 'default',
  redactHeaders: [],
  redactQueryParameters: [],
  keepCredentials: false,
  maxStoredBodyLength: 65_536,
});

/** Replaces credential header values in what is persisted. */
export const REDACTED = '[redacted]';

/**
 * Header names whose values are never persisted unless `keepCredentials` is set: Authorization, Cookie and the
 * many vendor spellings of a key or token (X-API-Key, `api_key`, X-Auth-Token, Private-Token, X-Session-Id,
 * Ocp-Apim-Subscription-Key, X-Pass, X-JWT…). Erring towards redaction costs a restored request one value to retype.
 * The CORS proxy drops them too when a redirect leads to another origin.
 */
export const CREDENTIAL_HEADER_NAME = /auth(?!or(?!i[sz]))|token(?!s$)|secret|passw|passphrase|passcode|session|cookie|credential|signature|jwt|api[-_]?key|(?:^|[-_])(?:key|pass|pwd|sig|sign|otp|pin)$/i;

/**
 * Query parameters that carry credentials by convention (API keys, OAuth tokens, signed-URL signatures), lowercase;
 * `isCredentialQueryParameter` adds the names ending in one of these words.
 */
export const CREDENTIAL_QUERY_PARAMETERS: readonly string[] = [
  'access_token', 'api_key', 'api-key', 'apikey', 'key', 'token', 'client_secret', 'password', 'secret', 'sig', 'signature',
  'auth', 'jwt', 'pwd', 'passwd', 'passphrase', 'sessionid', 'session_id', 'phpsessid', 'accesstoken', 'apitoken', 'authtoken',
  'clientsecret', 'apisecret', 'accesskey', 'privatekey', 'access_key', 'secret_key', 'private_key', 'license_key',
  'subscription-key', 'subscription_key', 'x-api-key',
];
const CREDENTIAL_QUERY_PARAMETER_ENDING = /[-_](?:token|secret|signature)$/;

/**
 * Whether a query parameter carries a credential by convention: one of `CREDENTIAL_QUERY_PARAMETERS`, or a name ending
 * in `_token`, `-secret`, `-signature`… (`refresh_token`, `private_token`, `id_token`, `X-Goog-Signature`,
 * `X-Amz-Security-Token`), also as a bracketed key (`user[access_token]`, `api_key[]`; not the broad `filter[key]`).
 * Names ending in `_key` are listed one by one: most (`sort_key`, `public_key`, `idempotency_key`) hold no secret.
 * `name` as `queryParameterName` gives it.
 */
export function isCredentialQueryParameter(name: string): boolean {
  const listed = name.replace(LIST_BRACKETS, '');
  const inner = INNER_KEY.exec(listed)?.[1];
  // Inside brackets, the broad names are mostly data: filter[key], page[token], options[auth]; before list brackets
  // (token[], key[0]) they are what they are bare.
  return isCredentialName(name) || isCredentialName(listed) || (inner !== undefined && !BROAD_NAMES.includes(inner) && isCredentialName(inner));
}

const isCredentialName = (name: string) => CREDENTIAL_QUERY_PARAMETERS.includes(name) || CREDENTIAL_QUERY_PARAMETER_ENDING.test(name);
const BROAD_NAMES = ['key', 'token', 'auth', 'sig', 'signature'];

/**
 * The key a PHP or Rails style parameter name stands for (as `qs`, Express's parser, writes them): its last bracket
 * but for list indexes, empty or numbered (`user[password]`, `user[password][0]`), or what precedes those
 * (`api_key[]`, `api_key[0]`); a name without brackets as it is.
 */
export function bracketedKey(name: string): string {
  const unlisted = name.replace(LIST_BRACKETS, '');
  return INNER_KEY.exec(unlisted)?.[1] ?? unlisted;
}

/** Brackets of a list, empty or numbered, at the end of a name (`[]`, `[0][]`). */
const LIST_BRACKETS = /(?:\[\d*\])+$/;
/** The last bracketed key of a name: `password` of `user[password]`. */
const INNER_KEY = /\[([^\]]+)\]$/;

/** A query parameter name as a server reads it (`+` a space, escapes decoded), lowercased, to compare with these. */
export function queryParameterName(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** Checks history settings and fills in the defaults. */
export function parseHistoryConfig(value: unknown, field = 'history'): ResolvedHistoryConfig {
  if (value === undefined) return { ...DEFAULT_HISTORY_CONFIG, redactHeaders: [], redactQueryParameters: [] };
  if (typeof value === 'boolean') throw new ConfigError(field, value, `must be an object: write { enabled: ${value} }`);
  const input = expectPlainObject(value, field);
  expectKnownFields(input, Object.keys(DEFAULT_HISTORY_CONFIG), field);
  const config: ResolvedHistoryConfig = { ...DEFAULT_HISTORY_CONFIG, redactHeaders: [], redactQueryParameters: [] };
  config.enabled = input.enabled === undefined ? true : expectBoolean(input.enabled, `${field}.enabled`);
  if (input.maxItems !== undefined) config.maxItems = expectPositiveInteger(input.maxItems, `${field}.maxItems`);
  if (input.storageKey !== undefined) {
    config.storageKey = expectString(input.storageKey, `${field}.storageKey`);
    if (config.storageKey === '') throw new ConfigError(`${field}.storageKey`, '', 'must be a non-empty name');
  }
  if (input.redactHeaders !== undefined) {
    config.redactHeaders = expectArray(input.redactHeaders, `${field}.redactHeaders`).map((name, index) => {
      const at = `${field}.redactHeaders[${index}]`;
      if (typeof name !== 'string' || !isHeaderName(name)) throw new ConfigError(at, name, 'must be a header name');
      return name.toLowerCase();
    });
  }
  if (input.redactQueryParameters !== undefined) {
    config.redactQueryParameters = expectArray(input.redactQueryParameters, `${field}.redactQueryParameters`).map((name, index) => {
      if (typeof name !== 'string' || name === '') throw new ConfigError(`${field}.redactQueryParameters[${index}]`, name, 'must be a parameter name');
      return name.toLowerCase();
    });
  }
  if (input.keepCredentials !== undefined) config.keepCredentials = expectBoolean(input.keepCredentials, `${field}.keepCredentials`);
  if (input.maxStoredBodyLength !== undefined) {
    config.maxStoredBodyLength = expectPositiveInteger(input.maxStoredBodyLength, `${field}.maxStoredBodyLength`);
  }
  return config;
}
