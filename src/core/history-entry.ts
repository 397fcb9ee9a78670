import { InvalidArgumentError } from './errors.js';
import { isMethod } from './http-syntax.js';
import { randomId } from './random-id.js';
import { setOwnProperty } from './validation.js';

/** One past request and the status it got. */
export interface HistoryEntry {
  /** Unique identifier; a random UUID when the entry was added without one. */
  id: string;
  /** When the request was made. */
  timestamp: Date;
  method: string;
  /** The real target URL, never the proxy's. */
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Response status; 0 when the send failed: before a response (network error, CORS, timeout) or while its body arrived (broken off, timed out). */
  status: number;
  /** Round-trip time in milliseconds. */
  duration: number;
  /** Set when the stored body (or the written one) was cut to the persistence cap. */
  bodyTruncated?: boolean;
  /**
   * The request as the user wrote it, when that differs from the one sent: `{{placeholders}}` unresolved, a URL
   * relative to `base_url` kept relative, default headers not merged in. Loading the entry back loads this, so an
   * `Authorization: Bearer {{token}}` comes back as written, and resolves again with the active environment.
   */
  written?: WrittenRequest;
}

/** A request as written in the console, before placeholders were resolved and default headers merged. */
export interface WrittenRequest {
  url: string;
  /** The header rows that were switched on, in order. */
  headers: Record<string, string>;
  /** Absent when it is the body that was sent. */
  body?: string;
}

/**
 * What `History.add` takes: `id` and `timestamp` may be left out, `headers` and `body` default to empty. A `timestamp`
 * string is ISO 8601 (`2024-02-29T10:00:00Z`), naming a day that exists.
 */
export type HistoryEntryInput = Omit<HistoryEntry, 'id' | 'timestamp' | 'headers' | 'body'> & {
  id?: string;
  timestamp?: Date | string | number;
  headers?: Record<string, string>;
  body?: string;
};

/**
 * Checks an entry and returns a clean copy with `id` and `timestamp` filled in. Used for entries a caller
 * adds and for records read back from storage, which may be corrupted.
 */
export function parseHistoryEntry(value: unknown, field = 'entry'): HistoryEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, value, 'a history entry must be an object');
  }
  const input = value as Record<string, unknown>;
  const fail = (key: string, problem: string): never => {
    throw new InvalidArgumentError(`${field}.${key}`, input[key], problem);
  };
  const id = input.id ?? randomId();
  if (typeof id !== 'string' || id === '') fail('id', 'must be a non-empty string');
  const given = input.timestamp ?? Date.now();
  // A string other than ISO 8601 is refused: engines read it each their own way, V8 `Feb 30 2024` as 1 March.
  const isoDate = typeof given === 'string' ? ISO_DATE.exec(given) : undefined;
  const timestamp = isoDate !== null && (given instanceof Date || typeof given === 'string' || typeof given === 'number') ? new Date(given) : new Date(Number.NaN);
  if (isoDate && !isRealDay(isoDate)) fail('timestamp', 'names a day that does not exist');
  if (Number.isNaN(timestamp.getTime())) fail('timestamp', 'must be a Date, an ISO 8601 string or epoch milliseconds');
  if (typeof input.method !== 'string' || !isMethod(input.method)) fail('method', 'must be an HTTP method such as GET');
  if (typeof input.url !== 'string') fail('url', 'must be a string');
  const body = input.body ?? '';
  if (typeof body !== 'string') fail('body', 'must be a string');
  const status = input.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0 || status > 999) {
    fail('status', 'must be an HTTP status code, or 0 for a request that got no response');
  }
  const duration = input.duration;
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0) fail('duration', 'must be a number of milliseconds, 0 or more');
  const entry: HistoryEntry = {
    id: id as string,
    timestamp,
    method: input.method as string,
    url: input.url as string,
    headers: parseHeaders(input.headers, `${field}.headers`),
    body: body as string,
    status: status as number,
    duration: duration as number,
  };
  if (input.bodyTruncated === true) entry.bodyTruncated = true;
  if (input.written !== undefined) entry.written = parseWrittenRequest(input.written, `${field}.written`);
  return entry;
}

// The date an ISO 8601 string starts with (a legacy `2024-2-30` too): its year, month and day; or its year and month
// alone (`2024-02`, `2024-02T10:00Z`).
const ISO_DATE = /^\s*([+-]?\d{4,6})(?:-(\d\d?)-(\d\d?)(?!\d)|(?:-\d\d?)?(?:T|\s*$))/i;

/**
 * Whether the day an ISO 8601 date names exists: V8's `Date` reads 2024-02-30 as 1 March, where the standard has
 * every engine refuse it, as all do an hour or a minute out of range.
 */
function isRealDay(isoDate: RegExpExecArray): boolean {
  const [, year, month, day] = isoDate.map(Number);
  if (Number.isNaN(day)) return true;
  // Same leap years 400 apart; Date.UTC would read years 0 to 99 as 1900 to 1999.
  const date = new Date(Date.UTC(2000 + (year! % 400), month! - 1, day));
  return date.getUTCMonth() === month! - 1 && date.getUTCDate() === day;
}

function parseWrittenRequest(value: unknown, field: string): WrittenRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, value, 'must be an object with url, headers and optionally body');
  }
  const input = value as Record<string, unknown>;
  if (typeof input.url !== 'string') throw new InvalidArgumentError(`${field}.url`, input.url, 'must be a string');
  if (input.body !== undefined && typeof input.body !== 'string') throw new InvalidArgumentError(`${field}.body`, input.body, 'must be a string');
  const written: WrittenRequest = { url: input.url, headers: parseHeaders(input.headers, `${field}.headers`) };
  if (input.body !== undefined) written.body = input.body as string;
  return written;
}

/** A deep enough copy that callers can change what they get without changing what is stored. */
export function copyHistoryEntry(entry: HistoryEntry): HistoryEntry {
  const copy = { ...entry, timestamp: new Date(entry.timestamp), headers: { ...entry.headers } };
  if (entry.written) copy.written = { ...entry.written, headers: { ...entry.written.headers } };
  return copy;
}

function parseHeaders(value: unknown, field: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(field, value, 'must be an object of header names to string values');
  }
  // A Headers or a Map keeps its entries where Object.entries does not look: they would be lost without a word.
  if (Symbol.iterator in value) {
    throw new InvalidArgumentError(field, value, 'must be a plain object of header names to string values, or its entries would be lost: pass Object.fromEntries(headers)', `a ${value.constructor?.name ?? 'list'}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (typeof headerValue !== 'string') throw new InvalidArgumentError(`${field}[${JSON.stringify(name)}]`, headerValue, 'must be a string');
    setOwnProperty(headers, name, headerValue);
  }
  return headers;
}
