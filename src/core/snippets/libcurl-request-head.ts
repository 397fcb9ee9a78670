import { InvalidArgumentError } from '../errors.js';
import type { CheckedRequest } from './snippet-request.js';

// libcurl (curl, and PHP's ext-curl) writes the request line and the headers into one buffer of 1 MiB, its final NUL
// included, and past it fails with "Out of memory" before sending anything; libcurl 7.88 puts a body under 64 KiB
// there too. Counted here: the method, the URL (which holds the path and the host), each `name: value` with its line
// end, such a body, and 256 bytes for the rest libcurl writes (at most 153: the spaces and `HTTP/1.1` of the request
// line, `Host: `, its own User-Agent, Accept, Content-Length, Content-Type and Expect, the blank line).
const MAX_COUNTED_BYTES = 1_048_320; // 1 MiB less 256
const MAX_BODY_IN_HEAD = 0xffff;

/** Throws when libcurl would refuse to send `request` for its request line and headers (with a small body) over 1 MiB. */
export function checkLibcurlRequestHead(request: CheckedRequest): void {
  const { body, printable } = request;
  // A body of 64 KiB characters or more has at least as many bytes, so it is not encoded to find out.
  let bytes = request.method.length + request.url.length + (body === undefined || body.length > MAX_BODY_IN_HEAD ? 0 : utf8Length(body, printable));
  for (const [name, value] of request.headers) bytes += name.length + utf8Length(value, printable) + 4;
  if (bytes > MAX_COUNTED_BYTES) throw new InvalidArgumentError('request', bytes, 'libcurl refuses a request head over 1 MiB; use another snippet language');
}

/** `name: value` as libcurl takes it: `Name:` would remove the header, so an empty value is written `Name;`. */
export function libcurlHeader(name: string, value: string): string {
  return value === '' ? `${name};` : `${name}: ${value}`;
}

/** The length of `text` in UTF-8. `knownPrintable`: the caller knows it is ASCII, one byte per character. */
export function utf8Length(text: string, knownPrintable: boolean): number {
  return knownPrintable ? text.length : new TextEncoder().encode(text).length;
}
