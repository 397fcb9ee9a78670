import type { HistoryEntry } from './history-entry.js';

/**
 * Every error this package throws is a `TryItError` with a stable `code`, so callers can branch on
 * `error.code` (or the type guards below) instead of parsing messages. Messages say what was wrong and
 * what to do about it.
 */
export class TryItError extends Error {
  /** Stable, machine-readable identifier, e.g. `ERR_CONFIG`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A configuration value is invalid. `field` is the path of the offending field, e.g. `history.maxItems`. */
export class ConfigError extends TryItError {
  readonly field: string;
  readonly value: unknown;

  /**
   * @param shown what the message says was given: by default `value`, described. A value it must not repeat (a
   * credential) comes as its description in both.
   */
  constructor(field: string, value: unknown, problem: string, shown = describeValue(value)) {
    super('ERR_CONFIG', `Invalid ${field}: ${problem} (got ${shown}).`);
    this.field = field;
    this.value = value;
  }
}

/** A function was called with an argument of the wrong type or shape. */
export class InvalidArgumentError extends TryItError {
  readonly argument: string;
  readonly value: unknown;

  /** @param shown what the message says was given: by default `value`, described (see `ConfigError`). */
  constructor(argument: string, value: unknown, problem: string, shown = describeValue(value)) {
    super('ERR_INVALID_ARGUMENT', `Invalid ${argument}: ${problem} (got ${shown}).`);
    this.argument = argument;
    this.value = value;
  }
}

/** `setActive` (or anything that selects an environment by name) was given a name no environment has. */
export class EnvironmentNotFoundError extends TryItError {
  readonly environmentName: string;

  constructor(environmentName: string, known: readonly string[]) {
    const choices = known.length === 0 ? 'no environments are registered; add one first' : `known: ${known.map((n) => JSON.stringify(n)).join(', ')}`;
    super('ERR_ENVIRONMENT_NOT_FOUND', `No environment is named ${JSON.stringify(environmentName)} (${choices}).`);
    this.environmentName = environmentName;
  }
}

/** `History.get` was given an id that no stored entry has (never stored, evicted or cleared). */
export class HistoryEntryNotFoundError extends TryItError {
  readonly id: string;

  constructor(id: string) {
    super('ERR_HISTORY_ENTRY_NOT_FOUND', `No history entry has id ${JSON.stringify(id)}; it may have been evicted or cleared. Use list() to see the stored entries.`);
    this.id = id;
  }
}

/** `SnippetGenerator.generate` was asked for a language that is not enabled. */
export class LanguageNotEnabledError extends TryItError {
  readonly language: string;
  readonly enabled: readonly string[];

  constructor(language: string, enabled: readonly string[]) {
    super('ERR_LANGUAGE_NOT_ENABLED', `Snippet language ${JSON.stringify(language)} is not enabled; enabled: ${enabled.join(', ') || 'none'}. Add it to snippets.languages to offer it.`);
    this.language = language;
    this.enabled = [...enabled];
  }
}

/** Resolving placeholders would add more text than the configured cap. */
export class ResolveLimitError extends TryItError {
  readonly limit: number;

  /** `revisits`: the limit was reached going through the same values again (their pieces counted), not by output. */
  constructor(limit: number, revisits = false) {
    super(
      'ERR_RESOLVE_LIMIT',
      revisits
        ? `Resolving placeholders would go through the pieces of values again more than ${limit} times (a value of many placeholders used many times); check for variables whose values hold many placeholders that are missing, dynamic or cyclic, or raise the limit.`
        : `Resolving placeholders would add more than ${limit} characters; check for variables that expand into themselves many times, or raise the limit.`,
    );
    this.limit = limit;
  }
}

/** Why a console request failed. Each kind has its own explanation and fix in the message. */
export type RequestErrorKind =
  | 'cors'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'invalid-url'
  | 'invalid-request'
  | 'mixed-content'
  | 'csp'
  | 'unresolved-variables'
  | 'proxy-refused';

/** A console request could not be sent or did not complete. */
export class RequestError extends TryItError {
  readonly kind: RequestErrorKind;
  /** For kind `proxy-refused`: the proxy's code (`private_address`, `upstream_unreachable`…), when it gave one. */
  readonly proxyCode: string | undefined;
  /**
   * What the send that failed recorded in history (status 0; a cancelled stream's status), or `undefined` when it
   * recorded nothing: refused before sending, cancelled before its response started, or history turned off.
   */
  historyEntry: HistoryEntry | undefined;

  constructor(kind: RequestErrorKind, message: string, options?: { cause?: unknown; proxyCode?: string }) {
    super(`ERR_REQUEST_${kind.toUpperCase().replaceAll('-', '_')}`, message, options);
    this.kind = kind;
    this.proxyCode = options?.proxyCode;
  }
}

/** The webhook delivery failed after every attempt the retry policy allowed. */
export class WebhookDeliveryError extends TryItError {
  /** HTTP status of the last attempt, when the receiver answered at all. */
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(message: string, details: { status?: number; attempts: number; cause?: unknown }) {
    super('ERR_WEBHOOK_DELIVERY', message, { cause: details.cause });
    this.status = details.status;
    this.attempts = details.attempts;
  }
}

/** True for any error thrown by this package. */
export function isTryItError(error: unknown): error is TryItError {
  return error instanceof TryItError;
}

/** True for a `RequestError`, optionally of one kind. */
export function isRequestError(error: unknown, kind?: RequestErrorKind): error is RequestError {
  return error instanceof RequestError && (kind === undefined || error.kind === kind);
}

/** A short, safe rendering of a bad value for an error message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  // undefined and null, numbers and booleans: as written.
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
